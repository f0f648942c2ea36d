package pairstacks

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
)

// MaxC is the widest box the package handles: patterns are bytes, rows and
// symbols fit 16-bit masks, the stack counter keys its states by c-1 masks of n bits in 60 bits,
// and E(T) fits 64 bits (checked: an overflow is an error, never wrapped).
const MaxC = 6

// maxN is the largest side, 2·MaxC.
const maxN = 2 * MaxC

// ErrOverflow is returned when a count does not fit its 64-bit word.
var ErrOverflow = errors.New("pair: count exceeds 2^64")

// CheckC returns an error unless 1 ≤ c ≤ MaxC (this package's and package
// pair's bound on the box width).
func CheckC(c int) error {
	if c < 1 || c > MaxC {
		return fmt.Errorf("pair: c = %d: want 1 ≤ c ≤ %d", c, MaxC)
	}
	return nil
}

// Factorial returns k! for 0 ≤ k ≤ 20 (the largest that fits 64 bits).
func Factorial(k int) uint64 {
	f := uint64(1)
	for i := 2; i <= k; i++ {
		f *= uint64(i)
	}
	return f
}

// StackCounter counts E(T). It keeps its hash tables between calls; one per
// goroutine.
type StackCounter struct {
	c, n int
	// row[x][i] is the row of band i holding symbol x, as a one-bit mask
	// over the 2c rows: bit 2i is the upper row, 2i+1 the lower.
	row       [maxN][MaxC]uint16
	cur, next table
	overflow  bool

	// per-state scratch for the transitions
	cls     [MaxC]uint16 // the state's row sets, in increasing order
	allowed [MaxC]uint8  // bands whose row of the symbol column j lacks
	bandRow [MaxC]uint16 // row of the current symbol in each band
	placed  [maxN]int    // symbols placed so far in each row
	weight  uint64       // the state's count times the equal-column factorial
	// unpacker restores the current layer's keys (from placed)
	unpacker unpacker
}

// Count returns E(T) for valid patterns: a multiset T of c, 2c patterns
// below 2^c (any order) with every bit set in exactly c of them (package
// pair's Stacks checks them), or ErrOverflow, or ctx's error when it is
// done.
func (s *StackCounter) Count(ctx context.Context, c int, patterns []uint8) (uint64, error) {
	symbolsOf := s.load(c, patterns)
	if err := s.run(ctx, symbolOrder(c, len(patterns), symbolsOf[:2*c])); err != nil {
		return 0, err
	}
	// The one final state has every row in every column.
	var e uint64
	for _, sl := range s.cur.slots {
		e += sl.v
	}
	return e, nil
}

// load gives the counter the rows of the symbols x = 0, …, len(patterns)-1
// (at most 2c: a whole multiset T or part of one) and returns the set of
// symbols in each row.
func (s *StackCounter) load(c int, patterns []uint8) (symbolsOf [maxN]uint16) {
	s.c, s.n = c, 2*c
	for x, p := range patterns {
		for i := range c {
			r := 2 * i
			if p>>i&1 == 0 {
				r++
			}
			s.row[x][i] = 1 << r
			symbolsOf[r] |= 1 << x
		}
	}
	return symbolsOf
}

// run places the loaded symbols in the given order, starting from the empty
// state (no row in any column), and leaves the last layer in s.cur: for
// each state, the number of ways to give the placed symbols their columns
// (the columns labelled) that reach it.
func (s *StackCounter) run(ctx context.Context, order []int) error {
	c := s.c
	s.overflow = false
	s.cur.reset(1)
	s.cur.add(0, 1)
	s.placed = [maxN]int{}
	steps := 0
	for _, x := range order {
		s.bandRow = s.row[x]
		s.unpacker = newUnpacker(c, &s.placed)
		s.next.reset(s.cur.len)
		for _, sl := range s.cur.slots {
			if sl.v == 0 {
				continue
			}
			steps++
			if steps&1023 == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			s.expand(sl.k, sl.v)
		}
		if s.next.flush() {
			s.overflow = true
		}
		if s.overflow {
			return ErrOverflow
		}
		for i := range c {
			s.placed[bits.TrailingZeros16(s.bandRow[i])]++
		}
		s.cur, s.next = s.next, s.cur
	}
	return ctx.Err()
}

// expand adds to s.next the states reached from state k (count v) by
// placing the current symbol: its row of band i goes to column β(i), for
// every bijection β sending no row to a column that already holds it.
// Columns with equal row sets give equal results whichever of them gets
// which band, so among a run of equal columns the bands are taken in
// increasing order and the count multiplied by the run length's factorial.
func (s *StackCounter) expand(k key, v uint64) {
	c := s.c
	s.unpacker.unpack(k, &s.cls)
	mult := uint64(1)
	run := uint64(1)
	for j := range c {
		var a uint8
		for i := range c {
			if s.cls[j]&s.bandRow[i] == 0 {
				a |= 1 << i
			}
		}
		if a == 0 {
			return // no band can go to column j
		}
		s.allowed[j] = a
		if j > 0 && s.cls[j] == s.cls[j-1] {
			run++
			mult *= run
		} else {
			run = 1
		}
	}
	hi, lo := bits.Mul64(v, mult)
	if hi != 0 {
		s.overflow = true
		return
	}
	s.weight = lo
	// Depth-first over the columns, the most constrained first (a stable
	// sort on the number of allowed bands keeps equal columns together):
	// position p is column ord[p] and takes a band from cand[p], provided
	// every later column still has a free allowed band.
	var ord [MaxC]int
	for j := range c {
		ord[j] = j
		for p := j; p > 0 && bits.OnesCount8(s.allowed[ord[p-1]]) > bits.OnesCount8(s.allowed[ord[p]]); p-- {
			ord[p], ord[p-1] = ord[p-1], ord[p]
		}
	}
	var allowed [MaxC]uint8
	var col [MaxC]uint16
	var same [MaxC]bool
	for p, j := range ord[:c] {
		allowed[p], col[p] = s.allowed[j], s.cls[j]
		same[p] = p > 0 && col[p] == col[p-1]
	}
	var cand, free [MaxC]uint8
	var out [MaxC]uint16
	free[0] = uint8(1)<<c - 1
	cand[0] = allowed[0]
	for p := 0; p >= 0; {
		if cand[p] == 0 {
			p--
			continue
		}
		b := bits.TrailingZeros8(cand[p])
		cand[p] &= cand[p] - 1
		out[p] = col[p] | s.bandRow[b]
		if p == c-1 {
			sorted := out
			sortColumns(sorted[:c])
			s.next.push(packKey(c, &sorted), s.weight)
			continue
		}
		f := free[p] &^ (1 << b)
		ok := true
		for q := p + 1; q < c; q++ {
			if allowed[q]&f == 0 {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		nc := allowed[p+1] & f
		if same[p+1] {
			nc &^= uint8(2)<<b - 1 // equal columns take increasing bands
		}
		p++
		free[p], cand[p] = f, nc
	}
}

// sortColumns sorts at most MaxC row sets in place: six (c = 6, where the
// time goes) by a sorting network of twelve compare-exchanges, fewer by
// insertion.
func sortColumns(a []uint16) {
	if len(a) == 6 {
		a0, a1, a2, a3, a4, a5 := a[0], a[1], a[2], a[3], a[4], a[5]
		a0, a5 = min(a0, a5), max(a0, a5)
		a1, a3 = min(a1, a3), max(a1, a3)
		a2, a4 = min(a2, a4), max(a2, a4)
		a1, a2 = min(a1, a2), max(a1, a2)
		a3, a4 = min(a3, a4), max(a3, a4)
		a0, a3 = min(a0, a3), max(a0, a3)
		a2, a5 = min(a2, a5), max(a2, a5)
		a0, a1 = min(a0, a1), max(a0, a1)
		a2, a3 = min(a2, a3), max(a2, a3)
		a4, a5 = min(a4, a5), max(a4, a5)
		a1, a2 = min(a1, a2), max(a1, a2)
		a3, a4 = min(a3, a4), max(a3, a4)
		a[0], a[1], a[2], a[3], a[4], a[5] = a0, a1, a2, a3, a4, a5
		return
	}
	for i := 1; i < len(a); i++ {
		v := a[i]
		j := i
		for j > 0 && a[j-1] > v {
			a[j] = a[j-1]
			j--
		}
		a[j] = v
	}
}

// symbolOrder returns the order in which the DP places the k symbols
// 0, …, k-1 (k ≤ 2c). The number of states after a set S of symbols is
// placed is roughly the number of ways to give each partly filled row r
// (some but not all of its c symbols in S) its d_S(r) columns,
// Π_r C(c, d_S(r)); the order minimises the sum of that product over the k
// prefixes, by a dynamic programme over the 2^k subsets (ties go to the
// lower symbol, so the order is deterministic). symbolsOf[r] is the set of
// symbols in row r.
func symbolOrder(c, k int, symbolsOf []uint16) []int {
	n := k
	rows := len(symbolsOf)
	// The product is taken over pairs of rows: pairCost[d] is
	// C(c, d_low)·C(c, d_high) for the two 4-bit degrees of d. Each row's
	// degree d_S(r) ≤ c ≤ 6 sits in 4 bits of deg[S], which grows by one
	// symbol at a time (deg[S] = deg[S minus its lowest symbol] + that
	// symbol's rows): the planner calls this for every 2×6 orbit, and
	// recounting 12 popcounts per subset made it most of the plan's time.
	var binom [16]uint64
	for d := range c + 1 {
		binom[d] = binomial(c, d)
	}
	var pairCost [256]uint64
	for d := range pairCost {
		pairCost[d] = satMul(binom[d&15], binom[d>>4])
	}
	var rowsOf [maxN]uint64
	for r, syms := range symbolsOf {
		for x := range n {
			if syms>>x&1 == 1 {
				rowsOf[x] += 1 << (4 * r)
			}
		}
	}
	size := 1 << n
	best := make([]uint64, size)
	from := make([]int8, size)
	deg := make([]uint64, size)
	for S := 1; S < size; S++ {
		low := bits.TrailingZeros(uint(S))
		d := deg[S&(S-1)] + rowsOf[low]
		deg[S] = d
		cost := uint64(1)
		for r := 0; r < rows; r += 2 {
			cost = satMul(cost, pairCost[d>>(4*r)&0xff])
		}
		// Ties go to the lowest symbol, as the strict < in increasing x
		// gives.
		b := ^uint64(0)
		for rest := S; rest != 0; rest &= rest - 1 {
			x := bits.TrailingZeros(uint(rest))
			if v := best[S&^(1<<x)]; v < b {
				b, from[S] = v, int8(x)
			}
		}
		best[S] = satAdd(b, cost)
	}
	order := make([]int, n)
	for S, j := size-1, n-1; S != 0; j-- {
		x := int(from[S])
		order[j] = x
		S &^= 1 << x
	}
	return order
}

func satMul(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	if hi != 0 {
		return ^uint64(0)
	}
	return lo
}

func satAdd(a, b uint64) uint64 {
	s, carry := bits.Add64(a, b, 0)
	if carry != 0 {
		return ^uint64(0)
	}
	return s
}

// key is a DP state: the row sets of the c columns in increasing order, 12
// bits each, all but the last. The last is implied: every row r lies in
// exactly d(r) of the columns, d(r) being the number of placed symbols in r,
// so it holds the rows that the others hold d(r)-1 times. This keeps a state
// in 60 bits for c ≤ 6.
type key = uint64

func packKey(c int, cls *[MaxC]uint16) key {
	var k key
	for j := range c - 1 {
		k |= uint64(cls[j]) << (12 * j)
	}
	return k
}

// unpacker restores a key's last column from the rows' placed-symbol
// counts d: row r is in it when the other columns hold r d(r)-1 times. It
// keeps d-1 as three bit planes over the rows, so that unpack counts the
// other columns' rows with a bit-sliced adder instead of row by row.
type unpacker struct {
	c            int
	used         uint16 // rows with d(r) ≥ 1
	need0, need1 uint16 // bits 0 and 1 of d(r)-1, by row
	need2        uint16 // bit 2
}

func newUnpacker(c int, d *[maxN]int) unpacker {
	u := unpacker{c: c}
	for r := range 2 * c {
		if d[r] == 0 {
			continue
		}
		u.used |= 1 << r
		need := d[r] - 1 // at most c-1 ≤ 5: three bits
		u.need0 |= uint16(need&1) << r
		u.need1 |= uint16(need>>1&1) << r
		u.need2 |= uint16(need>>2&1) << r
	}
	return u
}

// unpack fills cls from k.
func (u *unpacker) unpack(k key, cls *[MaxC]uint16) {
	var s0, s1, s2 uint16 // the count of each row among the first c-1 columns
	for j := range u.c - 1 {
		m := uint16(k >> (12 * j) & 0xfff)
		cls[j] = m
		c0 := s0 & m
		s0 ^= m
		c1 := s1 & c0
		s1 ^= c0
		s2 ^= c1
	}
	cls[u.c-1] = u.used &^ (s0 ^ u.need0) &^ (s1 ^ u.need1) &^ (s2 ^ u.need2)
}

// table is an open-addressing hash map from states to counts with linear
// probing; a zero count marks an empty slot (stored counts are positive).
// Key and count share a slot so that an insertion touches one cache line.
type table struct {
	slots []slot
	shift uint // 64 - log2(len(slots))
	len   int

	// Insertions wait in batch and go in sorted by the top bits of their
	// slot index, so that they sweep the table instead of jumping about it:
	// the tables outgrow the caches for c = 6, and a random insertion costs
	// a cache and TLB miss.
	batch, tmp []slot
	overflow   bool
}

// push queues an insertion of (k, v).
func (t *table) push(k key, v uint64) {
	t.batch = append(t.batch, slot{k, v})
	if len(t.batch) == cap(t.batch) {
		t.flush()
	}
}

// flush performs the queued insertions and reports whether a count has
// overflowed since the table was reset.
func (t *table) flush() bool {
	b := t.batch
	if len(b) > 64 && len(t.slots) > 1<<12 {
		// LSD radix sort on the top 16 bits of the slot index, two bytes.
		if cap(t.tmp) < len(b) {
			t.tmp = make([]slot, len(b))
		}
		tmp := t.tmp[:len(b)]
		shift := t.shift
		if 64-shift > 16 {
			shift = 64 - 16
		}
		// hash(k) >> (64-16) = top 16 bits of the slot index when the
		// table has at least 2^16 slots; with fewer, the index itself.
		for pass := range 2 {
			var counts [257]int
			sh := uint(8 * pass)
			for _, e := range b {
				counts[(t.rawHash(e.k)>>shift>>sh)&255+1]++
			}
			for i := 1; i < 257; i++ {
				counts[i] += counts[i-1]
			}
			for _, e := range b {
				d := (t.rawHash(e.k) >> shift >> sh) & 255
				tmp[counts[d]] = e
				counts[d]++
			}
			b, tmp = tmp, b
		}
		// after two passes the sorted data is back in the batch array
	}
	for _, e := range b {
		if t.add(e.k, e.v) {
			t.overflow = true
		}
	}
	t.batch = t.batch[:0]
	return t.overflow
}

type slot struct {
	k key
	v uint64
}

// reset empties the table, sized for about hint entries (it grows as
// needed), reusing its array when that is large enough.
func (t *table) reset(hint int) {
	capacity := 16
	for capacity < 2*hint {
		capacity <<= 1
	}
	if cap(t.slots) >= capacity {
		t.slots = t.slots[:capacity]
		clear(t.slots)
	} else {
		t.slots = make([]slot, capacity)
	}
	t.shift = uint(64 - bits.TrailingZeros(uint(capacity)))
	t.len = 0
	t.overflow = false
	if t.batch == nil {
		t.batch = make([]slot, 0, 1<<16)
	}
	t.batch = t.batch[:0]
}

func (t *table) rawHash(k key) uint64 {
	h := k * 0x9e3779b97f4a7c15
	h ^= h >> 29
	return h * 0xbf58476d1ce4e5b9
}

func (t *table) hash(k key) uint64 { return t.rawHash(k) >> t.shift }

// add adds v to k's count and reports whether the count overflowed.
func (t *table) add(k key, v uint64) bool {
	mask := uint64(len(t.slots) - 1)
	for i := t.hash(k); ; i = (i + 1) & mask {
		sl := &t.slots[i]
		if sl.v == 0 {
			sl.k, sl.v = k, v
			t.len++
			if 2*t.len > len(t.slots) {
				t.grow()
			}
			return false
		}
		if sl.k == k {
			sum, carry := bits.Add64(sl.v, v, 0)
			sl.v = sum
			return carry != 0
		}
	}
}

func (t *table) grow() {
	old := t.slots
	t.slots = make([]slot, 2*len(old))
	t.shift--
	mask := uint64(len(t.slots) - 1)
	for _, sl := range old {
		if sl.v == 0 {
			continue
		}
		j := t.hash(sl.k)
		for t.slots[j].v != 0 {
			j = (j + 1) & mask
		}
		t.slots[j] = sl
	}
}
