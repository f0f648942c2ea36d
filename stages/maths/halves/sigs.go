package halves

import (
	"context"
	"fmt"
	"math/big"
	"math/bits"
	"slices"

	"github.com/sudoku-census/sudoku-census/stages/maths/pairstacks"
)

// stackSig is one stack's part of a signature: its C column masks, sorted
// (the count does not depend on the order of the columns in a stack).
type stackSig struct {
	cols   [MaxC]uint16
	weight uint64 // C!/Π(multiplicity)!: the ordered tuples it stands for
}

// StackSigs lists the sorted stack signatures of k bands: C masks of 3k
// symbols, every symbol in exactly k of them.
func StackSigs(c, k int) []stackSig {
	n := 3 * c
	var out []stackSig
	var cols [MaxC]uint16
	var rec func(x int)
	rec = func(x int) {
		if x == n {
			for j := 1; j < c; j++ {
				if cols[j] < cols[j-1] {
					return
				}
			}
			w := pairstacks.Factorial(c)
			for i := 0; i < c; {
				e := i
				for e < c && cols[e] == cols[i] {
					e++
				}
				w /= pairstacks.Factorial(e - i)
				i = e
			}
			out = append(out, stackSig{cols: cols, weight: w})
			return
		}
		bit := uint16(1) << x
		for m := uint(0); m < 1<<c; m++ {
			if bits.OnesCount(m) != k {
				continue
			}
			ok := true
			for j := range c {
				if m>>j&1 == 1 && bits.OnesCount16(cols[j]) >= 3*k {
					ok = false
				}
			}
			if !ok {
				continue
			}
			for j := range c {
				if m>>j&1 == 1 {
					cols[j] |= bit
				}
			}
			rec(x + 1)
			for j := range c {
				cols[j] &^= bit
			}
		}
	}
	rec(0)
	return out
}

// permMask applies the symbol permutation p to the mask m.
func permMask(p []uint8, m uint16) uint16 {
	var r uint16
	for ; m != 0; m &= m - 1 {
		r |= 1 << p[bits.TrailingZeros16(m)]
	}
	return r
}

// image is the sorted stack signature p(s).
func image(c int, p []uint8, s *[MaxC]uint16) [MaxC]uint16 {
	var r [MaxC]uint16
	for j := range c {
		r[j] = permMask(p, s[j])
	}
	slices.Sort(r[:c])
	return r
}

// allPerms lists the permutations of n symbols (n ≤ 9: Count's shapes).
func allPerms(n int) [][]uint8 {
	p := make([]uint8, n)
	for i := range p {
		p[i] = uint8(i)
	}
	var out [][]uint8
	var rec func(i int)
	rec = func(i int) {
		if i == n {
			out = append(out, slices.Clone(p))
			return
		}
		for j := i; j < n; j++ {
			p[i], p[j] = p[j], p[i]
			rec(i + 1)
			p[i], p[j] = p[j], p[i]
		}
	}
	rec(0)
	return out
}

// orbit is a class of sorted stack signatures under a group of symbol
// permutations: a representative and the ordered tuples the class holds.
type orbit struct {
	rep    int
	weight uint64
}

// orbits partitions list under the permutations group (which must be a
// group), returning each class's first member and its total weight.
func orbits(c int, list []stackSig, index map[[MaxC]uint16]int, group [][]uint8) []orbit {
	seen := make([]bool, len(list))
	var out []orbit
	for i := range list {
		if seen[i] {
			continue
		}
		o := orbit{rep: i}
		for _, p := range group {
			j := index[image(c, p, &list[i].cols)]
			if !seen[j] {
				seen[j] = true
				o.weight += list[j].weight
			}
		}
		out = append(out, o)
	}
	return out
}

// stabiliser returns the permutations of group that fix s (sorted).
func stabiliser(c int, group [][]uint8, s *[MaxC]uint16) [][]uint8 {
	var out [][]uint8
	for _, p := range group {
		if image(c, p, s) == *s {
			out = append(out, p)
		}
	}
	return out
}

// Count returns the number of Sudoku grids with boxes of 3 rows and c
// columns (c = 2 or 3) by the half-join: the sum over signatures of the
// top ⌈c/2⌉ bands of H_top(sig)·H_bottom(sigᶜ), one term per class of
// signatures under relabelling (stack by stack: stack 0 up to all
// relabellings, stack 1 up to stack 0's stabiliser, stack 2 up to the
// stabiliser of both) and column permutations within stacks, weighted by
// the ordered signatures it stands for. It also returns the number of
// terms. Wider boxes need more than the brute-force group used here.
func Count(ctx context.Context, c int) (*big.Int, int, error) {
	if c > 3 {
		return nil, 0, fmt.Errorf("halves: Count takes box widths 2 and 3, not %d: its symmetry group is the brute-force one of 3C ≤ 9 symbols", c)
	}
	h, err := NewCounter(c)
	if err != nil {
		return nil, 0, err
	}
	k := TopBands(c)
	list := StackSigs(c, k)
	index := make(map[[MaxC]uint16]int, len(list))
	for i, s := range list {
		index[s.cols] = i
	}
	all := allPerms(3 * c)
	total := new(big.Int)
	terms := 0
	sig := make([]uint16, 3*c)
	for _, o0 := range orbits(c, list, index, all) {
		s0 := &list[o0.rep].cols
		st0 := stabiliser(c, all, s0)
		for _, o1 := range orbits(c, list, index, st0) {
			s1 := &list[o1.rep].cols
			st1 := stabiliser(c, st0, s1)
			for _, o2 := range orbits(c, list, index, st1) {
				if err := ctx.Err(); err != nil {
					return nil, terms, err
				}
				s2 := &list[o2.rep].cols
				copy(sig, s0[:c])
				copy(sig[c:], s1[:c])
				copy(sig[2*c:], s2[:c])
				f, err := h.Join(ctx, k, sig)
				if err != nil {
					return nil, terms, err
				}
				w := new(big.Int).SetUint64(o0.weight)
				w.Mul(w, new(big.Int).SetUint64(o1.weight))
				w.Mul(w, new(big.Int).SetUint64(o2.weight))
				total.Add(total, f.Mul(f, w))
				terms++
			}
		}
	}
	return total, terms, nil
}
