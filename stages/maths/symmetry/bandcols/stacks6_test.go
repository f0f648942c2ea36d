package bandcols_test

import (
	"context"
	"math/big"
	"path/filepath"
	"testing"

	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/bandcols"
	"github.com/sudoku-census/sudoku-census/stages/shapes"
)

// TestStackTotal6 compares N_0 of 2×6 class 142 (σ the identity: every
// stack of 12 rows and 6 columns, 4,876,139,207,527,966,044,188,061,990,912,000)
// with Σ W(O)·E(O) over the pattern orbits of the shapes stage's
// data/orbit_stacks.parquet (width 6), the pair method's count of the same
// stacks: the whole programme on 2×6 for one σ type (about 5 CPU-s).
// Skipped without the artifact or with -short.
func TestStackTotal6(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	rows, err := shapes.OrbitStacks.Load(filepath.Join("..", "..", "..", ".."))
	if err != nil || len(rows) == 0 {
		t.Skipf("no data/orbit_stacks.parquet: %v", err)
	}
	s := symmetry.Shape{R: 2, C: 6}
	g, err := symmetry.NewGroup(s, false)
	if err != nil {
		t.Fatal(err)
	}
	want, err := bandcols.FixedType(context.Background(), s, g.Classes[142].Rep, 0)
	if err != nil {
		t.Fatal(err)
	}
	sum := new(big.Int)
	for _, r := range rows {
		if r.Width == 6 {
			sum.Add(sum, new(big.Int).Mul(new(big.Int).SetUint64(r.Weight), new(big.Int).SetUint64(r.Stacks)))
		}
	}
	if sum.Cmp(want) != 0 {
		t.Fatalf("Σ W·E = %v, N_0 = %v", sum, want)
	}
	t.Logf("Σ W·E = N_0 = %v", sum)
}
