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
	ord0, ord1 [MaxC][6][3]uint16
	st2        []uint16
	a          [3]uint16
	n          uint64
	// memo keeps counts by signature, each stack's columns sorted (the
	// count does not depend on their order); it is emptied when full.
	memo      map[bandKey]uint64
	memoLimit int
	hits      uint64
}

type bandKey [2]uint64

func newBandCounter(c int) *bandCounter {
	return &bandCounter{c: c, full: uint16(1)<<(3*c) - 1, memo: map[bandKey]uint64{}, memoLimit: 1 << 22}
}

// relabelling is the symbol permutation that puts a stack's triples,
// sorted, on the symbols 0-2, 3-5, …: B depends on each stack's partition
// into column triples only and not on the names of the symbols, so the
// memo keys relabel stack 0's triples to fixed ones.
type relabelling [3 * MaxC]uint8

func relabelBy(c int, stack []uint16) relabelling {
	var s [MaxC]uint16
	copy(s[:c], stack)
	slices.Sort(s[:c])
	var p relabelling
	next := uint8(0)
	for _, t := range s[:c] {
		for m := t; m != 0; m &= m - 1 {
			p[bits.TrailingZeros16(m)] = next
			next++
		}
	}
	return p
}

// pack returns stack's triples relabelled by p, sorted, 12 bits each.
func (p *relabelling) pack(c int, stack []uint16) uint64 {
	var s [MaxC]uint16
	for j, t := range stack[:c] {
		var r uint16
		for m := t; m != 0; m &= m - 1 {
			r |= 1 << p[bits.TrailingZeros16(m)]
		}
		s[j] = r
	}
	slices.Sort(s[:c])
	var k uint64
	for _, t := range s[:c] {
		k = k<<12 | uint64(t)
	}
	return k
}

// count returns B(cols), from the memo when it is there.
func (b *bandCounter) count(cols []uint16) uint64 {
	c := b.c
	p := relabelBy(c, cols[:c])
	return b.countKey(bandKey{p.pack(c, cols[c:2*c]), p.pack(c, cols[2*c:3*c])})
}

// countKey returns B for the band whose stack 0 is the standard partition
// and whose stacks 1 and 2 are packed in key (see pack).
func (b *bandCounter) countKey(key bandKey) uint64 {
	if n, ok := b.memo[key]; ok {
		b.hits++
		return n
	}
	c := b.c
	var full [3 * MaxC]uint16
	for j := range c {
		full[j] = uint16(7) << (3 * j)
		full[c+j] = uint16(key[0]>>(12*(c-1-j))) & 0xfff
		full[2*c+j] = uint16(key[1]>>(12*(c-1-j))) & 0xfff
	}
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
// fixed and the count multiplied by 6. Given stack 0's rows, a symbol's
// row in stack 1 forces its row in stack 2 (the third one); the kernel
// orders stack 1's columns one at a time, avoiding stack 0's row for every
// symbol, and prunes as soon as two symbols of a stack-2 column are forced
// to the same row: every complete assignment that survives is a band.
func (b *bandCounter) compute(cols []uint16) uint64 {
	c := b.c
	b.st2 = cols[2*c : 3*c]
	b.n = 0
	for j := range c {
		b.ord0[j] = orderings(cols[j])
		b.ord1[j] = orderings(cols[c+j])
	}
	o := b.ord0[0][0]
	b.stack0(1, o[0], o[1], o[2])
	return 6 * b.n
}

func (b *bandCounter) stack0(j int, a0, a1, a2 uint16) {
	if j == b.c {
		b.a = [3]uint16{a0, a1, a2}
		b.stack1(0, 0, 0, 0)
		return
	}
	for _, o := range &b.ord0[j] {
		b.stack0(j+1, a0|o[0], a1|o[1], a2|o[2])
	}
}

// stack1 orders stack 1's column j given the stack-2 rows d0, d1, d2
// already forced.
func (b *bandCounter) stack1(j int, d0, d1, d2 uint16) {
	if j == b.c {
		b.n++
		return
	}
	a := &b.a
next:
	for _, o := range &b.ord1[j] {
		if o[0]&a[0] != 0 || o[1]&a[1] != 0 || o[2]&a[2] != 0 {
			continue
		}
		// A symbol in stack-1 row k and stack-0 row m is in stack-2 row
		// 3-k-m.
		e0 := d0 | o[1]&a[2] | o[2]&a[1]
		e1 := d1 | o[0]&a[2] | o[2]&a[0]
		e2 := d2 | o[0]&a[1] | o[1]&a[0]
		for _, v := range b.st2 {
			if bits.OnesCount16(v&e0) > 1 || bits.OnesCount16(v&e1) > 1 || bits.OnesCount16(v&e2) > 1 {
				continue next
			}
		}
		b.stack1(j+1, e0, e1, e2)
	}
}
