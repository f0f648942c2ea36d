package stacks

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/perm"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/search"
)

// These tests check the stack method of 2×6, where a state of the twisted
// stack counter packs 6 row sets of 12 bits by their ranks (see maskRank).

// cheap2x6 are classes of symmetry.NewGroup(2×6) whose search plans at most
// about 10^5 nodes (under half a minute each), chosen to cover both
// families (stacks kept or exchanged), several σ types, zero and nonzero
// counts: 2307, 3689, 3727, 3879 (stacks kept), 220 (F = 0), 2309 (4 σ
// types), 2325 (exchange). Classes 1655 (F = 6,115,295,232), 1765
// (F = 63,700,992, also as 6×2) and 1772 (8 σ types, F = 291,962,880)
// agree too, but their searches take one to several minutes.
var cheap2x6 = []int{220, 2307, 2309, 2325, 3689, 3727, 3879}

// class2x6 returns class i of symmetry.NewGroup(2×6) with its shape.
func class2x6(t *testing.T, i int) (symmetry.Shape, symmetry.Class) {
	t.Helper()
	s := symmetry.Shape{R: 2, C: 6}
	g, err := symmetry.NewGroup(s, false)
	if err != nil {
		t.Fatal(err)
	}
	cl, err := g.Class(i)
	if err != nil {
		t.Fatal(err)
	}
	return s, cl
}

// TestStacksMatchSearch2x6 checks the stack method against the search on
// the classes of cheap2x6, and on one of them (3879) transposed to 6×2.
func TestStacksMatchSearch2x6(t *testing.T) {
	if testing.Short() {
		t.Skip("about a minute")
	}
	ctx := context.Background()
	s := symmetry.Shape{R: 2, C: 6}
	g, err := symmetry.NewGroup(s, false)
	if err != nil {
		t.Fatal(err)
	}
	nonzero := 0
	for _, i := range cheap2x6 {
		cl, err := g.Class(i)
		if err != nil {
			t.Fatal(err)
		}
		t0 := time.Now()
		want, err := search.Fixed(ctx, s, cl)
		if err != nil {
			t.Fatal(err)
		}
		t1 := time.Now()
		got, err := Fixed(ctx, s, cl.Rep)
		if err != nil {
			t.Fatal(err)
		}
		if got.Cmp(want) != 0 {
			t.Errorf("2x6 class %d (%s): stacks %v, search %v", i, cl.Desc, got, want)
		}
		if want.Sign() != 0 {
			nonzero++
		}
		t.Logf("2x6 class %d: %v (search %v, stacks %v)", i, got, t1.Sub(t0).Round(time.Millisecond), time.Since(t1).Round(time.Millisecond))
	}
	if nonzero < len(cheap2x6)-1 {
		t.Errorf("%d of %d classes fix grids, want all but one", nonzero, len(cheap2x6))
	}
	cl, err := g.Class(3879)
	if err != nil {
		t.Fatal(err)
	}
	s62 := symmetry.Shape{R: 6, C: 2}
	e62 := symmetry.Element{Rows: cl.Rep.Cols, Cols: cl.Rep.Rows}
	want, err := search.FixedElement(ctx, s62, e62)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Fixed(ctx, s62, e62)
	if err != nil {
		t.Fatal(err)
	}
	if got.Cmp(want) != 0 || got.Sign() == 0 {
		t.Errorf("6x2 (%s): stacks %v, search %v", e62.Describe(s62), got, want)
	}
}

// TestTwistedMatchesBacktracking2x6 checks the twisted stack counter of 2×6
// against backtrackStacks on random assignments of every seventh class that
// some σ type allows (counts above maxBacktracked, counts taking over a
// second and backtracking over 10^7 nodes skipped).
func TestTwistedMatchesBacktracking2x6(t *testing.T) {
	if testing.Short() {
		t.Skip("about a minute")
	}
	const c = 6
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(20, 26))
	s := symmetry.Shape{R: 2, C: c}
	g, err := symmetry.NewGroup(s, false)
	if err != nil {
		t.Fatal(err)
	}
	allowed, checked, skipped, slow, nonzero := 0, 0, 0, 0, 0
	for _, cl := range g.Classes[1:] {
		types := search.SigmaTypes(s, cl.Rep)
		if len(types) == 0 {
			continue
		}
		allowed++
		if allowed%7 != 0 {
			continue
		}
		p := newStackProblem(c, cl.Rep)
		for _, lam := range types {
			sigma := perm.WithCycleType(lam)
			rows := p.randomAssignment(rng, lam)
			if rows == nil {
				continue
			}
			for _, side := range p.sides(sigma, rows) {
				rs, tau, rho, kappa := side[0].([]uint16), side[1].([]int), side[2].([]int), side[3].([]int)
				// The heaviest counts take minutes and are far above
				// maxBacktracked: give each a second.
				tctx, cancel := context.WithTimeout(ctx, time.Second)
				got, err := newTwisted(c, rs, tau, rho, kappa).countOrZero(tctx)
				cancel()
				if errors.Is(err, context.DeadlineExceeded) {
					slow++
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				if got > maxBacktracked {
					skipped++
					continue
				}
				want, ok := backtrackStacksWithin(c, rs, tau, rho, kappa, 1e7)
				if !ok {
					slow++
					continue
				}
				if got != want {
					t.Errorf("%v class %d (%s), σ type %v, rows %v: twisted count %d, backtracking %d", s, cl.Index, cl.Desc, lam, rs, got, want)
				}
				checked++
				if got != 0 {
					nonzero++
				}
			}
		}
	}
	t.Logf("%v: %d twisted stack counts checked (%d nonzero), %d above %d and %d too slow skipped", s, checked, nonzero, skipped, maxBacktracked, slow)
	if nonzero < 10 {
		t.Errorf("only %d nonzero twisted counts checked", nonzero)
	}
}
