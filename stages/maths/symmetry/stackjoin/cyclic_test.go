package stackjoin

import (
	"context"
	"math"
	"math/big"
	"testing"

	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/perm"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/search"
	"github.com/sudoku-census/sudoku-census/stages/maths/walkbands"
)

// TestCyclicMatchesEnumeration compares cyclicCount with the enumeration
// of configurations for every σ type of at most 10^7 terms (beyond
// maxCyclicSpecial too), on every class of the small shapes for which
// cyclicShape holds.
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
				for range moved(sigma) - 1 {
					terms *= float64(len(perm.All(s.C)))
				}
				if !cyclicShape(p) || terms > 1e7 {
					continue
				}
				got, err := cyclicCount(context.Background(), p, sigma)
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

// TestCyclicIdentityIsStacks checks cyclicCount for σ = id on 3×4 class
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
	p := newProblem(s, c.Rep)
	id := perm.Identity(s.N())
	if !cyclicApplies(p, id) {
		t.Fatalf("class 145 (%s): cyclicCount does not apply", c.Desc)
	}
	got, err := cyclicCount(context.Background(), p, id)
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
