package symmetry

import (
	"context"
	"math/big"

	"github.com/sudoku-census/sudoku-census/stages/maths/pair"
	"testing"
)

// TestStacksMatchSearch checks the stack method against the search on
// every class without transposition of the shapes with boxes of 2 rows or
// 2 columns up to 8×8.
func TestStacksMatchSearch(t *testing.T) {
	shapes := []Shape{{2, 1}, {1, 2}, {2, 2}, {2, 3}, {3, 2}, {2, 4}, {4, 2}}
	grids := []string{"2", "2", "288", "28200960", "28200960", "29136487207403520", "29136487207403520"}
	if testing.Short() {
		shapes = shapes[:5]
	}
	for i, s := range shapes {
		g, err := NewGroup(s, false)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range g.Classes {
			var want *big.Int
			if c.Index == 0 {
				// the search would count every grid one by one
				n, _ := new(big.Int).SetString(grids[i], 10)
				want, err = IdentityFixed(s, n)
			} else {
				want, err = Fixed(context.Background(), s, c)
			}
			if err != nil {
				t.Fatal(err)
			}
			got, err := FixedByStacks(context.Background(), s, c.Rep)
			if err != nil {
				t.Fatalf("%v class %d (%s): %v", s, c.Index, c.Desc, err)
			}
			if got.Cmp(want) != 0 {
				t.Errorf("%v class %d (%s): stacks %v, search %v", s, c.Index, c.Desc, got, want)
			}
		}
	}
}

// TestStackSwapByPairOrbits checks the class that exchanges the two stacks
// (and nothing else) of 2×c against a formula over the pair method's orbits
// with package pair's own stack counter: a grid fixed by the exchange up to
// a relabelling σ has a right stack σ(left stack), so σ is an involution
// pairing each symbol with one of the complementary pattern, and
//
//	F = Σ_T E(T) / Π_{p < ~p} m_p!   over multisets T closed under complement
//
// (n!/Π m_p! tuples with pattern multiset T, Π_{p<~p} m_p! involutions each,
// divided by n!).
func TestStackSwapByPairOrbits(t *testing.T) {
	maxC := 5
	if testing.Short() {
		maxC = 4
	}
	ctx := context.Background()
	for c := 2; c <= maxC; c++ {
		orbits, err := pair.Orbits(ctx, c)
		if err != nil {
			t.Fatal(err)
		}
		sum := new(big.Rat)
		for _, o := range orbits {
			var m [64]int64
			for _, p := range o.Rep {
				m[p]++
			}
			full := uint8(1)<<c - 1
			closed := true
			den := big.NewInt(1)
			for p := range 1 << c {
				q := int(uint8(p) ^ full)
				if m[p] != m[q] {
					closed = false
				}
				if p < q {
					den.Mul(den, factorial(int(m[p])))
				}
			}
			if !closed {
				continue
			}
			e, err := pair.Stacks(ctx, c, o.Rep)
			if err != nil {
				t.Fatal(err)
			}
			num := new(big.Int).Mul(new(big.Int).SetUint64(o.Size), new(big.Int).SetUint64(e))
			sum.Add(sum, new(big.Rat).SetFrac(num, den))
		}
		s := Shape{2, c}
		swap := Element{Rows: identity(2 * c), Cols: append(rangeFrom(c, 2*c), rangeFrom(0, c)...)}
		got, err := FixedByStacks(ctx, s, swap)
		if err != nil {
			t.Fatal(err)
		}
		if !sum.IsInt() || sum.Num().Cmp(got) != 0 {
			t.Errorf("2x%d stack exchange: stack method %v, pair orbits %v", c, got, sum)
		}
		t.Logf("2x%d: the stack exchange fixes %v grids up to relabelling", c, got)
	}
}

func rangeFrom(lo, hi int) []int {
	var out []int
	for i := lo; i < hi; i++ {
		out = append(out, i)
	}
	return out
}
