package bandcols

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry"
)

// ErrNotApplicable reports an element outside the family: the stacks of a
// 2×c shape exchanged by an involution (ρ² = id, κ₁κ₀ = id).
var ErrNotApplicable = errors.New("bandcols: not an involutive stack exchange of a 2×c shape")

// KernelVersion names the counts' code: a change of it that changes a
// result changes every unit computed with it.
const KernelVersion = 1

// maxSymbols bounds the side (2×6): a state keeps one column mask per symbol.
const maxSymbols = 12

// exchange is an element of the family read as the bands' twist: band b
// goes to band image[b], its rows swapped when swap[b].
type exchange struct {
	c     int // columns of a box = bands = columns of a stack
	image []int
	swap  []bool
}

// Applies reports whether Fixed counts e on s.
func Applies(s symmetry.Shape, e symmetry.Element) bool {
	_, err := newExchange(s, e)
	return err == nil
}

func newExchange(s symmetry.Shape, e symmetry.Element) (*exchange, error) {
	if err := e.Check(s); err != nil {
		return nil, err
	}
	c, n := s.C, s.N()
	if s.R != 2 || e.Transpose || n > maxSymbols || c < 2 {
		return nil, ErrNotApplicable
	}
	for j := range c {
		// column j of the left stack goes to the right one and back to j
		if e.Cols[j] < c || e.Cols[e.Cols[j]] != j {
			return nil, ErrNotApplicable
		}
	}
	x := &exchange{c: c, image: make([]int, c), swap: make([]bool, c)}
	for r := range n {
		if e.Rows[e.Rows[r]] != r {
			return nil, ErrNotApplicable
		}
	}
	for b := range c {
		x.image[b] = e.Rows[2*b] / 2
		x.swap[b] = e.Rows[2*b]%2 == 1
	}
	return x, nil
}

// Fixed returns F(e) for an involutive stack exchange e of a 2×c shape
// (c ≤ 6), by the count of package doc's "The method".
func Fixed(ctx context.Context, s symmetry.Shape, e symmetry.Element) (*big.Int, error) {
	sums, err := FixedSums(ctx, s, e)
	if err != nil {
		return nil, err
	}
	return Combine(s, sums)
}

// Combine returns F from FixedSums' list: N_k divided by the centraliser
// order 2^k·k!·(n−2k)! of an involution with k 2-cycles, each division
// checked to be exact, summed over k.
func Combine(s symmetry.Shape, sums []*big.Int) (*big.Int, error) {
	n := s.N()
	if len(sums) != n/2+1 {
		return nil, fmt.Errorf("bandcols: %d sums for %v, want %d", len(sums), s, n/2+1)
	}
	total := new(big.Int)
	for k, sum := range sums {
		z := involutionCentralizer(n, k)
		q, r := new(big.Int).QuoRem(sum, z, new(big.Int))
		if r.Sign() != 0 {
			return nil, fmt.Errorf("bandcols: %v stacks for an involution with %d 2-cycles, not a multiple of its centraliser order %v", sum, k, z)
		}
		total.Add(total, q)
	}
	return total, nil
}

// involutionCentralizer is 2^k·k!·(n−2k)!.
func involutionCentralizer(n, k int) *big.Int {
	z := big.NewInt(1)
	for i := 1; i <= k; i++ {
		z.Mul(z, big.NewInt(int64(2*i)))
	}
	for i := 2; i <= n-2*k; i++ {
		z.Mul(z, big.NewInt(int64(i)))
	}
	return z
}

// FixedSums returns, for k = 0 … n/2, N_k (FixedType).
func FixedSums(ctx context.Context, s symmetry.Shape, e symmetry.Element) ([]*big.Int, error) {
	sums := make([]*big.Int, s.N()/2+1)
	for k := range sums {
		var err error
		if sums[k], err = FixedType(ctx, s, e, k); err != nil {
			return nil, err
		}
	}
	return sums, nil
}

// FixedType returns N_k: the left stacks L whose symbols' row patterns the
// involution σ_k = (0 1)(2 3)…(2k−2 2k−1) carries to their ĥ-images, so
// that L and σ_k make a grid fixed by e. The types are independent units
// of work (Combine joins them); on 2×6 the σ types with 3 to 5 2-cycles
// cost the most (package doc, # Cost).
func FixedType(ctx context.Context, s symmetry.Shape, e symmetry.Element, k int) (*big.Int, error) {
	x, err := newExchange(s, e)
	if err != nil {
		return nil, err
	}
	if k < 0 || 2*k > s.N() {
		return nil, fmt.Errorf("bandcols: %d 2-cycles: want 0 ≤ k ≤ %d", k, s.N()/2)
	}
	return x.stacks(ctx, k)
}
