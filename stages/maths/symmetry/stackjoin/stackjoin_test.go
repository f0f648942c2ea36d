package stackjoin

import (
	"context"
	"errors"
	"math/big"
	"os"
	"testing"
	"time"

	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/search"
)

// compareShape checks Fixed against search.Fixed on every class without
// transposition of shape s that admits a relabelling type and that Fixed
// finishes within budget; it returns the number compared and skipped.
func compareShape(t *testing.T, s symmetry.Shape, budget uint64, searchOK func(symmetry.Class) bool) (compared, skipped int) {
	t.Helper()
	g, err := symmetry.NewGroup(s, s.R == s.C)
	if err != nil {
		t.Fatal(err)
	}
	var tJoin, tSearch time.Duration
	for _, c := range g.Classes {
		if c.Rep.Transpose || c.Index == 0 || len(search.SigmaTypes(s, c.Rep)) == 0 {
			continue // the identity is TestIdentitySmall's
		}
		if searchOK != nil && !searchOK(c) {
			skipped++
			continue
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
		want, err := search.Fixed(context.Background(), s, c)
		if err != nil {
			t.Fatal(err)
		}
		tJoin += d
		tSearch += time.Since(t1)
		if got.Cmp(want) != 0 {
			t.Errorf("%v class %d (%s): stackjoin %v, search %v", s, c.Index, c.Desc, got, want)
		}
		compared++
	}
	t.Logf("%v: %d classes compared (stackjoin %v, search %v), %d over budget", s, compared, tJoin, tSearch, skipped)
	return compared, skipped
}

func TestSmallShapesMatchSearch(t *testing.T) {
	for _, s := range []symmetry.Shape{{R: 2, C: 2}, {R: 2, C: 3}, {R: 3, C: 2}} {
		if _, skipped := compareShape(t, s, 0, nil); skipped != 0 {
			t.Errorf("%v: %d classes skipped", s, skipped)
		}
	}
}

func TestIdentitySmall(t *testing.T) {
	for _, c := range []struct {
		s     symmetry.Shape
		grids int64
	}{{symmetry.Shape{R: 2, C: 2}, 288}, {symmetry.Shape{R: 2, C: 3}, 28200960}, {symmetry.Shape{R: 3, C: 2}, 28200960}} {
		e := symmetry.Element{Rows: identity(c.s.N()), Cols: identity(c.s.N())}
		got, err := Fixed(context.Background(), c.s, e, 0)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := symmetry.IdentityFixed(c.s, big.NewInt(c.grids))
		if got.Cmp(want) != 0 {
			t.Errorf("%v identity: %v, want %v", c.s, got, want)
		}
	}
}

func identity(n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	return p
}

// Test9x9MatchSearch compares every non-identity class of 9×9 without
// transposition (22 fix a grid up to relabelling) within a budget that
// keeps the test short; STACKJOIN_9X9_FULL=1 lifts it (all of them).
func Test9x9MatchSearch(t *testing.T) {
	budget := uint64(3e6)
	if os.Getenv("STACKJOIN_9X9_FULL") != "" {
		budget = 0
	}
	compared, skipped := compareShape(t, symmetry.Shape{R: 3, C: 3}, budget, nil)
	if compared < 15 || (budget == 0 && skipped > 0) {
		t.Errorf("9×9: %d classes compared, %d skipped", compared, skipped)
	}
}
