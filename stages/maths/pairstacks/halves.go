package pairstacks

import (
	"context"
	"fmt"
	"math/bits"
	"slices"
	"sort"
)

// # Split and join
//
// The stack count's layers are multisets of column row sets. Let H_A be the
// patterns of the first k symbols of T (in the DP's order) and H_B those of
// the other 2c-k, G_A(M) the number of ways to give H_A's symbols their
// columns (labelled) that leave the columns with row sets M, and G_B the
// same for H_B, run from the empty state. A stack is a pair of such partial
// colourings whose column sets are complementary, column by column; the
// os(M) = c!/Π(multiplicities)! labellings of a multiset M share G_A(M)
// equally, so
//
//	E(T) = Σ_M G_A(M) · G_B(Mᶜ) / os(M),
//
// Mᶜ complementing every column. G_A depends only on the multiset H_A, and
// an element g of B_c, which maps rows to rows by some permutation ρ_g, maps
// the table of H to that of g(H): G_{g(H)}(ρ_g(M)) = G_H(M). So the kernel
// computes the table of each half's canonical form once (there are 1,618
// distinct canonical halves among the 2 × 63,199 of the c = 6 orbits) and
// joins two canonical tables through the row permutation that takes one
// frame to the other.

// RowPerm is a permutation of the 2c rows: r[x] is the image of row x
// (row 2i the upper row of band i, 2i+1 the lower).
type RowPerm [maxN]int8

// Inverse returns r⁻¹.
func (r RowPerm) Inverse(c int) RowPerm {
	var inv RowPerm
	for x := range 2 * c {
		inv[r[x]] = int8(x)
	}
	return inv
}

// Then returns the permutation r followed by s.
func (r RowPerm) Then(s RowPerm, c int) RowPerm {
	var out RowPerm
	for x := range 2 * c {
		out[x] = s[r[x]]
	}
	return out
}

// setMap maps row sets (2c-bit masks) through a row permutation and then
// complements them, by two 64-entry tables (the low and high six rows).
type setMap struct {
	lo, hi [64]uint16
	all    uint16
}

func newSetMap(r RowPerm, c int) *setMap {
	m := &setMap{all: uint16(1)<<(2*c) - 1}
	for x := range 64 {
		for b := range 6 {
			if x>>b&1 == 0 {
				continue
			}
			if b < 2*c {
				m.lo[x] |= 1 << r[b]
			}
			if b+6 < 2*c {
				m.hi[x] |= 1 << r[b+6]
			}
		}
	}
	return m
}

func (m *setMap) complementOf(x uint16) uint16 {
	return ^(m.lo[x&63] | m.hi[x>>6]) & m.all
}

// Split returns the patterns of the first k symbols of rep in the stack
// DP's order, and those of the others, each sorted.
func Split(c int, rep []uint8, k int) (first, second []uint8) {
	var s StackCounter
	symbolsOf := s.load(c, rep)
	for j, x := range symbolOrder(c, len(rep), symbolsOf[:2*c]) {
		if j < k {
			first = append(first, rep[x])
		} else {
			second = append(second, rep[x])
		}
	}
	slices.Sort(first)
	slices.Sort(second)
	return first, second
}

// HalfTable is the layer of a half H (canonical): for each state M, sorted
// by key, G_H(M)/os(M), the number of partial colourings reaching any one
// labelling of M.
type HalfTable struct {
	c    int
	deg  [maxN]int // placed symbols per row, to unpack the keys
	keys []key
	vals []uint64
}

// Bytes is the table's approximate size in memory.
func (h *HalfTable) Bytes() int64 { return int64(len(h.keys))*16 + 128 }

// Len is the number of states of the table.
func (h *HalfTable) Len() int { return len(h.keys) }

// Each calls fn with every state M of the table, in key order: the row sets
// of its c columns, sorted (the entries beyond c zero), and G_H(M)/os(M).
func (h *HalfTable) Each(fn func(cols [MaxC]uint16, g uint64)) {
	u := newUnpacker(h.c, &h.deg)
	for i, k := range h.keys {
		var cls [MaxC]uint16
		u.unpack(k, &cls)
		fn(cls, h.vals[i])
	}
}

// labellings returns os(M) = c!/Π m! for the sorted column sets of M.
func labellings(c int, cls *[MaxC]uint16) uint64 {
	os := Factorial(c)
	run := uint64(1)
	for j := 1; j < c; j++ {
		if cls[j] == cls[j-1] {
			run++
			os /= run
		} else {
			run = 1
		}
	}
	return os
}

// BuildHalf computes the table of the patterns half (at most 2c of them,
// any multiset) with the counter s.
func BuildHalf(ctx context.Context, s *StackCounter, c int, half []uint8) (*HalfTable, error) {
	if err := CheckC(c); err != nil {
		return nil, err
	}
	if len(half) > 2*c {
		return nil, fmt.Errorf("pair: half of %d patterns for c = %d", len(half), c)
	}
	for _, p := range half {
		if int(p) >= 1<<c {
			return nil, fmt.Errorf("pair: pattern %#x has more than c = %d bits", p, c)
		}
	}
	symbolsOf := s.load(c, half)
	if err := s.run(ctx, symbolOrder(c, len(half), symbolsOf[:2*c])); err != nil {
		return nil, err
	}
	h := &HalfTable{c: c}
	for r := range 2 * c {
		h.deg[r] = bits.OnesCount16(symbolsOf[r])
	}
	entries := make([]slot, 0, s.cur.len)
	for _, sl := range s.cur.slots {
		if sl.v != 0 {
			entries = append(entries, sl)
		}
	}
	entries, _ = radixSortSlots(entries, nil)
	h.keys = make([]key, len(entries))
	h.vals = make([]uint64, len(entries))
	var cls [MaxC]uint16
	u := newUnpacker(c, &h.deg)
	for i, e := range entries {
		u.unpack(e.k, &cls)
		os := labellings(c, &cls)
		if e.v%os != 0 {
			return nil, fmt.Errorf("pair: half %x: state %#x has %d colourings, not a multiple of its %d labellings", half, e.k, e.v, os)
		}
		h.keys[i], h.vals[i] = e.k, e.v/os
	}
	return h, nil
}

// radixSortSlots sorts a by key, using tmp (grown as needed) as scratch,
// and returns the sorted slice and the other buffer (the sorted data ends
// in a or in tmp's array, whichever the last pass wrote).
func radixSortSlots(a, tmp []slot) (sorted, spare []slot) {
	if len(a) < 2 {
		return a, tmp
	}
	if cap(tmp) < len(a) {
		tmp = make([]slot, len(a))
	}
	tmp = tmp[:len(a)]
	var all key
	for _, e := range a {
		all |= e.k
	}
	const digit = 12
	var counts [1<<digit + 1]int
	for shift := uint(0); shift < 64 && all>>shift != 0; shift += digit {
		clear(counts[:])
		for _, e := range a {
			counts[(e.k>>shift)&(1<<digit-1)+1]++
		}
		for i := 1; i <= 1<<digit; i++ {
			counts[i] += counts[i-1]
		}
		for _, e := range a {
			d := (e.k >> shift) & (1<<digit - 1)
			tmp[counts[d]] = e
			counts[d]++
		}
		a, tmp = tmp, a
	}
	return a, tmp
}

// Joiner holds a worker's scratch for Join.
type Joiner struct {
	probes, tmp []slot
}

// Join returns E(T) for T = H_A ∪ H_B from a, the table of g_A(H_A), and b,
// that of g_B(H_B), where aToB = ρ_{g_A}⁻¹ followed by ρ_{g_B} takes a row
// of a's frame to b's. It walks a's states, maps each one's complement into
// b's frame, sorts those keys and merges them with b's.
func (j *Joiner) Join(a, b *HalfTable, aToB RowPerm) (uint64, error) {
	c := a.c
	m := newSetMap(aToB, c)
	j.probes = j.probes[:0]
	var cls, img [MaxC]uint16
	u := newUnpacker(c, &a.deg)
	for i, k := range a.keys {
		u.unpack(k, &cls)
		for x := range c {
			img[x] = m.complementOf(cls[x])
		}
		sortColumns(img[:c])
		// G_A(M) = (G_A(M)/os(M))·os(M) ≤ (c!)^c < 2^64 for c ≤ 6.
		hi, g := bits.Mul64(a.vals[i], labellings(c, &cls))
		if hi != 0 {
			return 0, ErrOverflow
		}
		j.probes = append(j.probes, slot{packKey(c, &img), g})
	}
	probes, spare := radixSortSlots(j.probes, j.tmp)
	j.probes, j.tmp = probes[:0], spare
	var hi, lo uint64
	q := 0
	for _, p := range probes {
		if q < len(b.keys) && b.keys[q] < p.k {
			// Gallop, then search: a small table's probes skip most of a
			// large one's keys.
			step := 1
			for q+step < len(b.keys) && b.keys[q+step] < p.k {
				q += step
				step *= 2
			}
			end := min(q+step+1, len(b.keys))
			q += sort.Search(end-q, func(i int) bool { return b.keys[q+i] >= p.k })
		}
		if q == len(b.keys) {
			break
		}
		if b.keys[q] != p.k {
			continue
		}
		ph, pl := bits.Mul64(p.v, b.vals[q])
		var carry uint64
		lo, carry = bits.Add64(lo, pl, 0)
		hi, carry = bits.Add64(hi, ph, carry)
		if carry != 0 {
			return 0, ErrOverflow
		}
	}
	if hi != 0 {
		return 0, ErrOverflow
	}
	return lo, nil
}

// StateBound is Π_r C(c, d(r)) over the rows r, d(r) being the number of
// the half's symbols in row r: roughly how many states its table has (the
// ways to give each row's symbols their columns), in integers so that the
// plan's order is exact.
func StateBound(c int, half []uint8) uint64 {
	var s StackCounter
	symbolsOf := s.load(c, half)
	b := uint64(1)
	for r := range 2 * c {
		b = satMul(b, binomial(c, bits.OnesCount16(symbolsOf[r])))
	}
	return b
}

// binomial returns C(n, k) for small n.
func binomial(n, k int) uint64 {
	b := uint64(1)
	for i := range k {
		b = b * uint64(n-i) / uint64(i+1)
	}
	return b
}
