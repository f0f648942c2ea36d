package bandjoin

import (
	"context"
	"errors"
	"math/big"
	"slices"
	"testing"
	"time"

	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/perm"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/search"
)

// compareShape checks Fixed against search.Fixed on every class without
// transposition of s that Fixed finishes within budget nodes per σ type;
// it returns the number compared and skipped.
func compareShape(t *testing.T, s symmetry.Shape, budget uint64, want func(symmetry.Class) bool) (compared, skipped int) {
	t.Helper()
	g, err := symmetry.NewGroup(s, false)
	if err != nil {
		t.Fatal(err)
	}
	var tBand, tSearch time.Duration
	for _, c := range g.Classes {
		if want != nil && !want(c) {
			continue
		}
		if !slices.EqualFunc(SigmaTypes(s, c.Rep), search.SigmaTypes(s, c.Rep), slices.Equal) {
			t.Errorf("%v class %d: σ types %v, search's %v", s, c.Index, SigmaTypes(s, c.Rep), search.SigmaTypes(s, c.Rep))
		}
		t0 := time.Now()
		got, err := Fixed(context.Background(), s, c.Rep, budget)
		d := time.Since(t0)
		if errors.Is(err, ErrBudget) {
			skipped++
			continue
		}
		if err != nil {
			t.Fatalf("%v class %d (%s): %v", s, c.Index, c.Desc, err)
		}
		t1 := time.Now()
		ref, err := search.Fixed(context.Background(), s, c)
		if err != nil {
			t.Fatal(err)
		}
		tBand += d
		tSearch += time.Since(t1)
		if got.Cmp(ref) != 0 {
			t.Errorf("%v class %d (%s): bandjoin %v, search %v", s, c.Index, c.Desc, got, ref)
		}
		compared++
	}
	t.Logf("%v: %d classes compared (bandjoin %v, search %v), %d over budget", s, compared, tBand, tSearch, skipped)
	return compared, skipped
}

func TestSmallShapesMatchSearch(t *testing.T) {
	for _, s := range []symmetry.Shape{{R: 2, C: 2}, {R: 2, C: 3}, {R: 3, C: 2}} {
		compareShape(t, s, 0, nil)
	}
}

var _ = perm.Identity
var _ = big.NewInt
