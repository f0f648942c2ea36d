package halves

import (
	"math/bits"
	"slices"
)

// orderings lists, for a 3-symbol mask t, its 6 assignments of one symbol
// to each of the rows 0, 1, 2 (as three one-bit masks).
func orderings(t uint16) [6][3]uint16 {
	var x [3]uint16
	k := 0
	for m := t; m != 0; m &= m - 1 {
		x[k] = m & -m
		k++
	}
	return [6][3]uint16{
		{x[0], x[1], x[2]}, {x[0], x[2], x[1]}, {x[1], x[0], x[2]},
		{x[1], x[2], x[0]}, {x[2], x[0], x[1]}, {x[2], x[1], x[0]},
	}
}

// bandCounter counts the bands (3 rows × 3C columns, every row and every
// 3 × C box holding each symbol once) whose columns hold given 3-sets.
type bandCounter struct {
	c    int
	full uint16
	// scratch for one count
	st1, st2 []uint16
	a        [3]uint16
	n        uint64
	// memo keeps counts by signature, each stack's columns sorted (the
	// count does not depend on their order); it is emptied when full.
	memo      map[bandKey]uint64
	memoLimit int
	hits      uint64
}

type bandKey [2 * MaxC]uint16

func newBandCounter(c int) *bandCounter {
	return &bandCounter{c: c, full: uint16(1)<<(3*c) - 1, memo: map[bandKey]uint64{}, memoLimit: 1 << 22}
}

// count returns B(cols), from the memo when it is there. B depends on
// each stack's partition into column triples only, and not on the names
// of the symbols, so the key relabels the symbols to put stack 0's
// triples (sorted) on 0-2, 3-5, …, and sorts each stack's triples: for C = 3
// at most 280² keys remain.
func (b *bandCounter) count(cols []uint16) uint64 {
	c := b.c
	var s0 [MaxC]uint16
	copy(s0[:c], cols[:c])
	slices.Sort(s0[:c])
	var perm [3 * MaxC]uint8
	next := uint8(0)
	for _, t := range s0[:c] {
		for m := t; m != 0; m &= m - 1 {
			perm[bits.TrailingZeros16(m)] = next
			next++
		}
	}
	var key bandKey
	for j := c; j < 3*c; j++ {
		var r uint16
		for m := cols[j]; m != 0; m &= m - 1 {
			r |= 1 << perm[bits.TrailingZeros16(m)]
		}
		key[j-c] = r
	}
	slices.Sort(key[:c])
	slices.Sort(key[c : 2*c])
	if n, ok := b.memo[key]; ok {
		b.hits++
		return n
	}
	var full [3 * MaxC]uint16
	for j := range c {
		full[j] = uint16(7) << (3 * j)
	}
	copy(full[c:3*c], key[:2*c])
	n := b.compute(full[:3*c])
	if len(b.memo) >= b.memoLimit {
		clear(b.memo)
	}
	b.memo[key] = n
	return n
}

// compute returns B for the column triples cols (stack s, column j at
// s*C+j; in each stack the triples partition the symbols). A band is a
// choice of row for every (symbol, stack) such that each column's three
// symbols get three rows and each symbol's three stacks get three rows.
// Permuting the rows maps bands to bands, so the first column's order is
// fixed and the count multiplied by 6. Given stack 0's rows, each symbol
// has two rows left for stacks 1 and 2: the kernel enumerates stack 1's
// column orders that avoid stack 0's row for every symbol, and stack 2's
// rows are then forced; it checks that each stack-2 column gets all three.
func (b *bandCounter) compute(cols []uint16) uint64 {
	c := b.c
	b.st1, b.st2 = cols[c:2*c], cols[2*c:3*c]
	b.n = 0
	o := orderings(cols[0])[0]
	b.stack0(cols[1:c], o[0], o[1], o[2])
	return 6 * b.n
}

func (b *bandCounter) stack0(rest []uint16, a0, a1, a2 uint16) {
	if len(rest) == 0 {
		b.a = [3]uint16{a0, a1, a2}
		b.stack1(b.st1, 0, 0, 0)
		return
	}
	for _, o := range orderings(rest[0]) {
		b.stack0(rest[1:], a0|o[0], a1|o[1], a2|o[2])
	}
}

func (b *bandCounter) stack1(rest []uint16, b0, b1, b2 uint16) {
	if len(rest) == 0 {
		d0 := b.full &^ (b.a[0] | b0)
		d1 := b.full &^ (b.a[1] | b1)
		for _, v := range b.st2 {
			if bits.OnesCount16(v&d0) != 1 || bits.OnesCount16(v&d1) != 1 {
				return
			}
		}
		b.n++
		return
	}
	for _, o := range orderings(rest[0]) {
		if o[0]&b.a[0] != 0 || o[1]&b.a[1] != 0 || o[2]&b.a[2] != 0 {
			continue
		}
		b.stack1(rest[1:], b0|o[0], b1|o[1], b2|o[2])
	}
}
