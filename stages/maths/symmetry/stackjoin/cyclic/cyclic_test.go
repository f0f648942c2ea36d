package cyclic

import (
	"context"
	"math"
	"math/big"
	"testing"

	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/perm"
	"github.com/sudoku-census/sudoku-census/stages/maths/walkbands"
)

// TestCyclicIdentityIsStacks checks Count for σ = id on 3×4 class
// 145 (rows cycled in every band, stacks cycled), where every valid stack
// 0 gives one grid: it must be the number of 12×4 stacks, which transposed
// are the bands of boxes 4 high and 3 wide, b(4,3) of package walkbands
// (counted there by set arrays, a float64 value).
func TestCyclicIdentityIsStacks(t *testing.T) {
	s := symmetry.Shape{R: 3, C: 4}
	g, err := symmetry.NewGroup(s, false)
	if err != nil {
		t.Fatal(err)
	}
	c := g.Classes[145]
	id := perm.Identity(s.N())
	if !Applies(s, c.Rep, id) {
		t.Fatalf("class 145 (%s): Count does not apply", c.Desc)
	}
	got, err := Count(context.Background(), s, c.Rep, id)
	if err != nil {
		t.Fatal(err)
	}
	fb, err := walkbands.NewFirstBand(context.Background(), grid.Shape{R: 4, C: 3})
	if err != nil {
		t.Fatal(err)
	}
	want := fb.Count().Float()
	ratio, _ := new(big.Float).Quo(new(big.Float).SetInt(got), want).Float64()
	t.Logf("12×4 stacks %v, b(4,3) %v", got, want)
	if math.Abs(ratio-1) > 1e-12 {
		t.Errorf("class 145, σ = id: %v grids, b(4,3) = %v", got, want)
	}
}
