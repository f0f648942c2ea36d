package bandcols

import (
	"context"
	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
	"math/big"
	"os"
	"testing"
	"time"

	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/stacks"
)

// TestMatchesStacks compares Fixed with package stacks' count (the first
// count; the two share only the group code) on every involutive stack
// exchange of 2×2 to 2×4 and on those of 2×5 that exchange no bands (with
// BANDCOLS_2X5_ALL=1 all of 2×5's too, 1-3 s each).
func TestMatchesStacks(t *testing.T) {
	all := os.Getenv("BANDCOLS_2X5_ALL") == "1"
	for c := 2; c <= 5; c++ {
		s := symmetry.Shape{R: 2, C: c}
		g, err := symmetry.NewGroup(s, false)
		if err != nil {
			t.Fatal(err)
		}
		for _, cl := range g.Classes {
			if !Applies(s, cl.Rep) {
				continue
			}
			if x, _ := newExchange(s, cl.Rep); c == 5 && !all && len(x.groups()) < c {
				continue
			}
			t0 := time.Now()
			got, err := Fixed(context.Background(), s, cl.Rep)
			if err != nil {
				t.Fatalf("%v class %d: %v", s, cl.Index, err)
			}
			took := time.Since(t0)
			want, err := stacks.Fixed(context.Background(), s, cl.Rep)
			if err != nil {
				t.Fatalf("%v class %d: stacks: %v", s, cl.Index, err)
			}
			if got.Cmp(want) != 0 {
				t.Errorf("%v class %d [%s]: bandcols %v, stacks %v", s, cl.Index, cl.Desc, got, want)
			} else {
				t.Logf("%v class %d [%s]: F %v equal (%v)", s, cl.Index, cl.Desc, got, took)
			}
		}
	}
}

// TestPairsTogetherMatchStacks checks the enumeration of a pair's two bands
// together on the band-pair classes of 2×2 to 2×4, where the two layers of a
// first pair would otherwise always be taken: with the layers off, and with
// one half holding every band orbit (joined with the empty half), so that
// a pair after the first is placed from states with bands in them, as in
// 2×6 class 175's half of three pairs.
func TestPairsTogetherMatchStacks(t *testing.T) {
	seen := 0
	for _, layers := range []bool{false, true} {
		pairsInLayers = layers
		seen += pairsTogether(t, layers) // layers off: Fixed; on: one half
	}
	pairsInLayers = true
	if seen != 14 {
		t.Errorf("%d classes with band pairs, want 7 (2×2: 1, 2×3: 2, 2×4: 4) twice", seen)
	}
}

// pairsTogether compares Fixed (or, when oneHalf, every band orbit run as
// one half) with stacks.Fixed on the band-pair classes of 2×2 to 2×4 and
// returns how many it compared.
func pairsTogether(t *testing.T, oneHalf bool) int {
	seen := 0
	for c := 2; c <= 4; c++ {
		s := symmetry.Shape{R: 2, C: c}
		g, err := symmetry.NewGroup(s, false)
		if err != nil {
			t.Fatal(err)
		}
		for _, cl := range g.Classes {
			x, err := newExchange(s, cl.Rep)
			if err != nil || len(x.groups()) == c {
				continue // not an exchange, or single bands only
			}
			seen++
			got, err := Fixed(context.Background(), s, cl.Rep)
			if oneHalf {
				got, err = fixedOneHalf(x)
			}
			if err != nil {
				t.Fatal(err)
			}
			want, err := stacks.Fixed(context.Background(), s, cl.Rep)
			if err != nil {
				t.Fatal(err)
			}
			if got.Cmp(want) != 0 {
				t.Errorf("%v class %d [%s], pairs together (one half: %v): bandcols %v, stacks %v", s, cl.Index, cl.Desc, oneHalf, got, want)
			}
		}
	}
	return seen
}

// fixedOneHalf is Fixed with every band orbit in the first half and none
// in the second.
func fixedOneHalf(x *exchange) (*big.Int, error) {
	s := symmetry.Shape{R: 2, C: x.c}
	sums := make([]*big.Int, s.N()/2+1)
	for k := range sums {
		cn := x.newCounter(k)
		da, err := cn.forward(context.Background(), x.groups())
		if err != nil {
			return nil, err
		}
		empty := newStateTable(cn.n)
		if err := empty.add(state{}, grid.Uint128{Lo: 1}, 1); err != nil {
			return nil, err
		}
		if sums[k], err = cn.join(da, empty); err != nil {
			return nil, err
		}
	}
	return Combine(s, sums)
}
