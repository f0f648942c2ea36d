// Package multisets counts F(g), the grids of 2×c boxes fixed by g up to
// relabelling divided by (2c)! (as package symmetry defines it), for the
// elements g that exchange the two stacks by an involution: ρ² = id on the
// rows and κ₁κ₀ = id on the columns. It is the symmetry stage's second
// count of those classes. It shares no counting code with the stack method
// of package stacks, which counts them first: it sums package pair's stack
// counts E(T) (the shapes stage's counter of 2c × c stacks) over the pattern
// multisets T, using only the group's elements from package symmetry.
//
// # Formula
//
// Band i holds rows 2i (upper) and 2i+1. A symbol's pattern p has bit i
// set when it lies in the upper row of band i in the left stack; the left
// stack has c symbols in each row, so each bit is set in exactly c of the
// 2c patterns. The right stack holds every symbol in the rows the left
// leaves it. A grid X fixed by g up to σ (X∘g = σ∘X) is any left stack,
// the right one its image under σ with the rows moved by ρ and the columns
// by κ; since g² = id, σ² = id. So σ maps the symbols of pattern p onto
// those of pattern ĥ(p), the pattern of the rows ρ maps p's rows onto,
// complemented, and
//
//	F = Σ_T E(T) · Π_{p = ĥ(p)} I(m_p)/m_p! · Π_{p < ĥ(p)} [m_p = m_ĥ(p)]/m_p!
//
// over the multisets T of 2c patterns with multiplicities m_p, I(m) the
// involutions of m points (the choices of σ on the symbols of a pattern ĥ
// keeps) and m_p! those of σ from pattern p to ĥ(p). (The left stack is
// drawn with its symbols' patterns, (2c)!/Π m_p! tuples per multiset, E(T)
// stacks each; dividing by (2c)! leaves the formula.) E is the same on an
// orbit of the band symmetries (bands permuted, the rows of bands
// exchanged), so it is counted once per orbit.
package multisets

import (
	"context"
	"fmt"
	"math/big"
	"slices"

	"github.com/sudoku-census/sudoku-census/stages/maths/pair"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/perm"
)

// Applies reports whether e, an element of the group of 2×c boxes (c ≥ 1)
// without transposition, exchanges the two stacks by an involution (ρ² =
// id, κ₁κ₀ = id): the elements Fixed counts.
func Applies(c int, e symmetry.Element) bool {
	n := 2 * c
	if e.Transpose || len(e.Rows) != n || len(e.Cols) != n || e.Cols[0] < c {
		return false
	}
	for r := range n {
		if e.Rows[e.Rows[r]] != r {
			return false
		}
	}
	for j := range n {
		if e.Cols[e.Cols[j]] != j {
			return false
		}
	}
	return true
}

// Fixed returns F(e) for each element of es, which must all satisfy
// Applies(c, ·). It walks the pattern multisets orbit by orbit of the band
// symmetries (pair.Orbits; 355 orbits, 589,392 multisets for c = 5), each
// orbit's members as the distinct images of its representative, with E
// counted once per orbit (pair.Stacks). It fails unless the members of
// each orbit number its size and the tuples of all multisets number
// C(2c, c)^c (pair.NumTuples), so no multiset is missed or counted twice;
// and it returns an error for an element that does not apply or a sum
// that is not an integer (which the formula rules out).
func Fixed(ctx context.Context, c int, es []symmetry.Element) ([]*big.Int, error) {
	if c < 1 || c > pair.MaxC {
		return nil, fmt.Errorf("multisets: width %d: want 1 to %d", c, pair.MaxC)
	}
	hats := make([][]int, len(es))
	for k, e := range es {
		if !Applies(c, e) {
			return nil, fmt.Errorf("multisets: element %v of 2x%d does not exchange the stacks by an involution", e, c)
		}
		hats[k] = hatOf(c, e.Rows)
	}
	n := 2 * c
	// Each term is scaled by n!, which makes it an integer: the factorials
	// it divides by are of multiplicities summing to at most n.
	fact := make([]*big.Int, n+1)
	inv := make([]*big.Int, n+1) // I(m) = I(m-1) + (m-1)·I(m-2)
	fact[0], inv[0] = big.NewInt(1), big.NewInt(1)
	for m := 1; m <= n; m++ {
		fact[m] = new(big.Int).Mul(fact[m-1], big.NewInt(int64(m)))
		inv[m] = new(big.Int).Set(inv[m-1])
		if m >= 2 {
			inv[m].Add(inv[m], new(big.Int).Mul(big.NewInt(int64(m-1)), inv[m-2]))
		}
	}
	orbits, err := pair.Orbits(ctx, c)
	if err != nil {
		return nil, err
	}
	symmetries := bandSymmetries(c)
	sums := make([]*big.Int, len(es))
	for k := range sums {
		sums[k] = new(big.Int)
	}
	tuples := new(big.Int)
	mult := make([]int, 1<<c)
	num, den, term := new(big.Int), new(big.Int), new(big.Int)
	image := make([]uint8, n)
	for _, o := range orbits {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		v, err := pair.Stacks(ctx, c, o.Rep)
		if err != nil {
			return nil, err
		}
		e := new(big.Int).SetUint64(v)
		seen := map[string]bool{}
		for _, g := range symmetries {
			for i, p := range o.Rep {
				image[i] = g[p]
			}
			slices.Sort(image)
			if seen[string(image)] {
				continue
			}
			seen[string(image)] = true
			clear(mult)
			for _, p := range image {
				mult[p]++
			}
			den.SetInt64(1)
			for _, m := range mult {
				den.Mul(den, fact[m])
			}
			tuples.Add(tuples, term.Quo(fact[n], den))
			for k, hat := range hats {
				if factor(mult, hat, fact, inv, n, num, den) {
					term.Quo(num, den)
					if new(big.Int).Mul(term, den).Cmp(num) != 0 {
						return nil, fmt.Errorf("multisets: 2x%d: a term's factor %v/%v is not an integer", c, num, den)
					}
					sums[k].Add(sums[k], term.Mul(term, e))
				}
			}
		}
		if uint64(len(seen)) != o.Size {
			return nil, fmt.Errorf("multisets: 2x%d orbit %v: %d distinct images, the orbit has %d members", c, o, len(seen), o.Size)
		}
	}
	if want := pair.NumTuples(c); tuples.Cmp(want) != 0 {
		return nil, fmt.Errorf("multisets: 2x%d: the multisets walked hold %v tuples, not C(%d,%d)^%d = %v", c, tuples, n, c, c, want)
	}
	out := make([]*big.Int, len(es))
	for k, s := range sums {
		q, r := new(big.Int).QuoRem(s, fact[n], new(big.Int))
		if r.Sign() != 0 {
			return nil, fmt.Errorf("multisets: 2x%d element %v: the sum %v is not a multiple of %d!", c, es[k], s, n)
		}
		out[k] = q
	}
	return out, nil
}

// factor sets num/den to n! · Π_{p = ĥp} I(m_p)/m_p! · Π_{p < ĥp} 1/m_p!
// for the multiplicities mult, and reports false when the term is 0 (m_p ≠
// m_ĥp for some p).
func factor(mult, hat []int, fact, inv []*big.Int, n int, num, den *big.Int) bool {
	num.Set(fact[n])
	den.SetInt64(1)
	for p, m := range mult {
		switch q := hat[p]; {
		case q == p:
			num.Mul(num, inv[m])
			den.Mul(den, fact[m])
		case mult[q] != m:
			return false
		case p < q:
			den.Mul(den, fact[m])
		}
	}
	return true
}

// bandSymmetries returns the action on patterns of the c!·2^c symmetries
// that keep E: a permutation π of the bands and the exchange of the rows of
// the bands in a set f, as tables from pattern to pattern (bit π(i) of the
// image is bit i of p, flipped when π(i) ∈ f).
func bandSymmetries(c int) [][]uint8 {
	var out [][]uint8
	for _, pi := range perm.All(c) {
		for f := range 1 << c {
			t := make([]uint8, 1<<c)
			for p := range t {
				var q int
				for i := range c {
					q |= (p>>i&1 ^ f>>pi[i]&1) << pi[i]
				}
				t[p] = uint8(q)
			}
			out = append(out, t)
		}
	}
	return out
}

// hatOf returns ĥ for the row permutation rho of 2×c: the pattern of the
// rows rho maps pattern p's rows onto, complemented (the pattern the symbol
// σ sends a symbol of pattern p to must have).
func hatOf(c int, rho []int) []int {
	hat := make([]int, 1<<c)
	for p := range hat {
		// ρ maps band to band: the image holds one row of each band, and
		// its complement the other, upper (bit set) where the image's is
		// the lower row.
		var q int
		for i := range c {
			if r := rho[2*i+1-p>>i&1]; r%2 == 1 {
				q |= 1 << (r / 2)
			}
		}
		hat[p] = q
	}
	return hat
}
