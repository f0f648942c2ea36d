package stackjoin

import (
	"context"
	"testing"

	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/perm"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/search"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/stackjoin/cyclic"
)

// TestCyclicMatchesEnumeration compares cyclic.Count with the enumeration
// of configurations for every σ type of at most 10^7 terms (beyond
// cyclic.MaxSpecial too), on every class of the small shapes for which
// cyclic.Fits holds.
func TestCyclicMatchesEnumeration(t *testing.T) {
	shapes := []symmetry.Shape{{R: 2, C: 2}, {R: 2, C: 3}, {R: 3, C: 2}, {R: 2, C: 4}, {R: 3, C: 3}}
	compared, nonzero := 0, 0
	for _, s := range shapes {
		g, err := symmetry.NewGroup(s, s.R == s.C)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range g.Classes {
			if c.Rep.Transpose {
				continue
			}
			p := newProblem(s, c.Rep)
			for _, lam := range search.SigmaTypes(s, c.Rep) {
				sigma := perm.WithCycleType(lam)
				terms := 1.0
				for x, y := range sigma {
					if x != y {
						terms *= float64(len(perm.All(s.C)))
					}
				}
				terms /= float64(len(perm.All(s.C))) // C!^(s−1) for s moved
				if !cyclic.Fits(s, c.Rep) || terms > 1e7 {
					continue
				}
				got, err := cyclic.Count(context.Background(), s, c.Rep, sigma)
				if err != nil {
					t.Fatal(err)
				}
				var st Stats
				st.Stacks = make([]uint64, len(p.cycles))
				st.Nonzero = make([]uint64, len(p.cycles))
				st.Distinct = make([]int, len(p.cycles))
				w := newWalker(context.Background(), p, lam, 0, &st)
				w.opt.noCyclic = true
				want, err := w.sum()
				if err != nil {
					t.Fatal(err)
				}
				if got.Cmp(want) != 0 {
					t.Errorf("%v class %d (%s), σ of type %v: by columns %v, by configurations %v", s, c.Index, c.Desc, lam, got, want)
				}
				compared++
				if want.Sign() != 0 {
					nonzero++
				}
			}
		}
	}
	t.Logf("%d σ types compared, %d with grids", compared, nonzero)
	if nonzero < 10 {
		t.Errorf("only %d nonzero σ types compared", nonzero)
	}
}
