package triplestacks

import (
	"math/bits"
	"sync"
)

// A stack is N rows × C columns; band i is rows 3i, 3i+1, 3i+2. Its row
// sets are one partition per band: row 3i+v holds part v of band i's
// partition. E(σ) is the number of stacks with the row sets σ whose columns
// each hold every symbol once (the boxes then hold every symbol once, since
// the parts of a band's partition are disjoint and cover the symbols). It is
// the number of proper C-edge-colourings, by the columns, of the C-regular
// bipartite graph joining each row to its C symbols.
//
// StackCounter computes E by a dynamic programme over the symbols (as the
// pairstacks package's does for two-row bands): after some symbols have their
// columns, column j has been used in a set of rows, and the ways to finish
// depend only on the multiset of those sets (the columns are
// interchangeable). Placing a symbol sends its C rows (one per band) to the
// C columns by a bijection that puts no row in a column already using it.
type StackCounter struct {
	c, n      int
	row       [maxN][MaxC]uint16 // row[x][i]: symbol x's row in band i, as a mask
	rowIdx    [maxN][MaxC]uint8  // the same rows as numbers
	keyMask   uint32
	cur, next table
	placed    [maxN]int
	perms     *permTables
	order     []int
}

// Count returns E for the partitions of the C bands (parts in any order).
func (s *StackCounter) Count(c int, bands [][3]uint16) uint64 {
	s.c, s.n = c, 3*c
	s.perms = permsFor(c)
	s.keyMask = 0
	for i := range c {
		s.keyMask |= (1<<c - 1) << (4 * i)
	}
	var symbolsOf [maxN]uint16
	for i, p := range bands[:c] {
		for v := range 3 {
			r := 3*i + v
			for m := p[v]; m != 0; m &= m - 1 {
				x := bits.TrailingZeros16(m)
				s.row[x][i] = 1 << r
				s.rowIdx[x][i] = uint8(r)
				symbolsOf[r] |= 1 << x
			}
		}
	}
	s.symbolOrder(symbolsOf[:s.n])
	s.cur.reset(1)
	s.cur.add(0, 1)
	s.placed = [maxN]int{}
	for _, x := range s.order {
		s.next.reset(2 * s.cur.len())
		for _, i := range s.cur.used {
			sl := s.cur.slots[i]
			s.expand(x, sl.k, sl.v)
		}
		for i := range c {
			s.placed[bits.TrailingZeros16(s.row[x][i])]++
		}
		s.cur, s.next = s.next, s.cur
	}
	var e uint64
	for _, i := range s.cur.used {
		e += s.cur.slots[i].v
	}
	if s.cur.overflow || s.next.overflow {
		panic("triple: stack count overflows 64 bits")
	}
	return e
}

// expand adds to s.next the states reached from state k (count v) by
// placing symbol x: its row of band i goes to column π(i) for each
// bijection π that puts no row in a column already using it. Among columns
// with equal row sets only the bijections that give them increasing bands
// are taken, the count multiplied by the run's factorial.
func (s *StackCounter) expand(x int, k uint64, v uint64) {
	c := s.c
	var cls [MaxC]uint16
	for j := range c {
		cls[j] = uint16(k >> (12 * j) & 0xfff)
	}
	bandRow := &s.row[x]
	// free[i]: the columns whose row set lacks band i's row of x.
	var key uint32
	rowOf := &s.rowIdx[x]
	for i := range c {
		r := rowOf[i]
		var used uint32
		for j := range c {
			used |= uint32(cls[j]>>r&1) << j
		}
		key |= (used ^ 0xf) << (4 * i)
	}
	key &= s.keyMask
	valid := s.perms.valid[key]
	if valid == 0 {
		return
	}
	mult := uint64(1)
	run := uint64(1)
	same := 0
	for j := 1; j < c; j++ {
		if cls[j] == cls[j-1] {
			run++
			mult *= run
			same |= 1 << (j - 1)
		} else {
			run = 1
		}
	}
	valid &= s.perms.increasing[same]
	hi, w := bits.Mul64(v, mult)
	if hi != 0 {
		s.next.overflow = true
	}
	for ; valid != 0; valid &= valid - 1 {
		inv := &s.perms.inv[bits.TrailingZeros32(valid)]
		var out [MaxC]uint16
		for j := range c {
			out[j] = cls[j] | bandRow[inv[j]]
		}
		sortColumns(out[:c])
		s.next.add(packKey(c, &out), w)
	}
}

// permTables lists the bijections π from the C bands to the C columns (at
// most 24), by their inverses inv[π][j] = the band going to column j, and
// for every key (4 bits per band: the columns it may go to) the set of
// bijections that respect it, and for every pattern of equal adjacent
// columns the bijections that give equal columns increasing bands.
type permTables struct {
	inv        [24][MaxC]uint8
	valid      []uint32 // by key
	increasing [1 << (MaxC - 1)]uint32
}

var permTablesFor [MaxC + 1]struct {
	once sync.Once
	t    *permTables
}

func permsFor(c int) *permTables {
	e := &permTablesFor[c]
	e.once.Do(func() {
		t := &permTables{valid: make([]uint32, 1<<(4*c))}
		var ps [][]uint8
		var rec func(cur []uint8, used int)
		rec = func(cur []uint8, used int) {
			if len(cur) == c {
				ps = append(ps, append([]uint8(nil), cur...))
				return
			}
			for j := range c {
				if used>>j&1 == 0 {
					rec(append(cur, uint8(j)), used|1<<j)
				}
			}
		}
		rec(nil, 0)
		for k, p := range ps { // p[i] = column of band i
			for i, j := range p {
				t.inv[k][j] = uint8(i)
			}
		}
		for key := range t.valid {
			var m uint32
			for k, p := range ps {
				ok := true
				for i, j := range p {
					if key>>(4*i+int(j))&1 == 0 {
						ok = false
					}
				}
				if ok {
					m |= 1 << k
				}
			}
			t.valid[key] = m
		}
		for same := range t.increasing {
			var m uint32
			for k := range ps {
				ok := true
				for j := 1; j < c; j++ {
					if same>>(j-1)&1 == 1 && t.inv[k][j] < t.inv[k][j-1] {
						ok = false
					}
				}
				if ok {
					m |= 1 << k
				}
			}
			t.increasing[same] = m
		}
		e.t = t
	})
	return e.t
}

func sortColumns(a []uint16) {
	if len(a) == 4 {
		// a sorting network
		if a[0] > a[1] {
			a[0], a[1] = a[1], a[0]
		}
		if a[2] > a[3] {
			a[2], a[3] = a[3], a[2]
		}
		if a[0] > a[2] {
			a[0], a[2] = a[2], a[0]
		}
		if a[1] > a[3] {
			a[1], a[3] = a[3], a[1]
		}
		if a[1] > a[2] {
			a[1], a[2] = a[2], a[1]
		}
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

// symbolOrder sets s.order to an order of the N symbols that keeps few rows
// partly filled: greedily, the next symbol is the one that minimises
// Π_r C(C, d(r)) over the rows (d(r) the symbols placed in row r), the
// number of ways the partly filled rows could use their columns; ties go to
// the lower symbol.
func (s *StackCounter) symbolOrder(symbolsOf []uint16) {
	var bin [MaxC + 1]uint64
	for d := range s.c + 1 {
		bin[d] = uint64(binom(s.c, d))
	}
	s.order = s.order[:0]
	var placed uint16
	for range s.n {
		best, bx := ^uint64(0), -1
		for x := range s.n {
			if placed>>x&1 == 1 {
				continue
			}
			S := placed | 1<<x
			cost := uint64(1)
			for _, row := range symbolsOf {
				cost *= bin[bits.OnesCount16(row&S)]
			}
			if cost < best {
				best, bx = cost, x
			}
		}
		placed |= 1 << bx
		s.order = append(s.order, bx)
	}
}

// A state key holds the row sets of the C columns in increasing order, 12
// bits each.
func packKey(c int, cls *[MaxC]uint16) uint64 {
	var k uint64
	for j := range c {
		k |= uint64(cls[j]) << (12 * j)
	}
	return k
}

// table is an open-addressing hash map from states to counts with linear
// probing; a zero count marks an empty slot. used lists the occupied slots,
// so that walking and clearing the table cost its size, not its capacity.
type table struct {
	slots    []slot
	used     []int32
	shift    uint
	overflow bool
}

type slot struct{ k, v uint64 }

func (t *table) len() int { return len(t.used) }

// reset empties the table, with room for at least hint entries.
func (t *table) reset(hint int) {
	for _, i := range t.used {
		t.slots[i] = slot{}
	}
	t.used = t.used[:0]
	t.overflow = false
	capacity := 16
	for capacity < 2*hint {
		capacity <<= 1
	}
	if len(t.slots) < capacity {
		t.slots = make([]slot, capacity)
		t.shift = uint(64 - bits.TrailingZeros(uint(capacity)))
	}
}

func (t *table) hash(k uint64) uint64 {
	h := k * 0x9e3779b97f4a7c15
	h ^= h >> 29
	return (h * 0xbf58476d1ce4e5b9) >> t.shift
}

func (t *table) add(k, v uint64) {
	mask := uint64(len(t.slots) - 1)
	for i := t.hash(k); ; i = (i + 1) & mask {
		sl := &t.slots[i]
		if sl.v == 0 {
			sl.k, sl.v = k, v
			t.used = append(t.used, int32(i))
			if 2*len(t.used) > len(t.slots) {
				t.grow()
			}
			return
		}
		if sl.k == k {
			sum, carry := bits.Add64(sl.v, v, 0)
			sl.v = sum
			if carry != 0 {
				t.overflow = true
			}
			return
		}
	}
}

func (t *table) grow() {
	old := t.slots
	t.slots = make([]slot, 2*len(old))
	t.shift--
	mask := uint64(len(t.slots) - 1)
	t.used = t.used[:0]
	for _, sl := range old {
		if sl.v == 0 {
			continue
		}
		j := t.hash(sl.k)
		for t.slots[j].v != 0 {
			j = (j + 1) & mask
		}
		t.slots[j] = sl
		t.used = append(t.used, int32(j))
	}
}
