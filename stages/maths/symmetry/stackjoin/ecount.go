package stackjoin

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/perm"
)

// twist is the part of the stack count E_{h,τ} that depends on the stack
// cycle only (h = (ρ', κ'), τ = σ^ℓ), built once per walker and cycle.
type twist struct {
	n, c      int
	rho, kap  []int   // ρ' on the rows, κ' on the stack's columns
	tauCycles [][]int // the cycles of τ on the symbols
	bij       [][]int // the bijections of the C columns
	// cent lists the column permutations commuting with κ'; identityKap marks κ' = id, whose centraliser is all of S_C.
	cent        [][]int
	identityKap bool
	cur, next   stateTable
}

func newTwist(w *walker, ci int) *twist {
	p := w.p
	tw := &twist{n: w.n, c: w.c, rho: p.twistRho[ci], kap: p.twistKap[ci], bij: perm.All(w.c)}
	tau := make([]int, w.n)
	for v := range w.n {
		x := v
		for range p.twistPow[ci] {
			x = w.sigma[x]
		}
		tau[v] = x
	}
	seen := make([]bool, w.n)
	for x0 := range w.n {
		if seen[x0] {
			continue
		}
		var cyc []int
		for x := x0; !seen[x]; x = tau[x] {
			seen[x] = true
			cyc = append(cyc, x)
		}
		tw.tauCycles = append(tw.tauCycles, cyc)
	}
	tw.identityKap = perm.IsIdentity(tw.kap)
	for _, b := range tw.bij {
		if equal(perm.Compose(b, tw.kap), perm.Compose(tw.kap, b)) {
			tw.cent = append(tw.cent, b)
		}
	}
	return tw
}

// canon returns the least image of the packed state st (column j's rows at
// bits j·N…) under the column permutations commuting with κ'. The number of
// completions of a partial colouring is the same from both: c∘col satisfies
// col(τ(x), ρ'(r)) = κ'(col(x, r)) whenever col does, as cκ' = κ'c.
func (tw *twist) canon(st uint64) uint64 {
	n, c := uint(tw.n), tw.c
	full := uint64(1)<<n - 1
	var m [16]uint64
	for j := range c {
		m[j] = st >> (uint(j) * n) & full
	}
	if tw.identityKap {
		// insertion sort: C is small
		for i := 1; i < c; i++ {
			for j := i; j > 0 && m[j-1] > m[j]; j-- {
				m[j-1], m[j] = m[j], m[j-1]
			}
		}
		var out uint64
		for j := range c {
			out |= m[j] << (uint(j) * n)
		}
		return out
	}
	best := st
	for _, b := range tw.cent {
		var out uint64
		for j := range c {
			out |= m[j] << (uint(b[j]) * n)
		}
		best = min(best, out)
	}
	return best
}

// count returns E_{h,τ}(rows) by the dynamic programme of the package
// documentation, the layers' states reduced to canon and the τ-cycles
// placed in an order that keeps few rows partly filled (a row's columns
// are all used once its C symbols are placed, so only partly filled rows
// tell states apart); false when the work passed the budget, the context
// ended or a count overflowed (w.err says which).
func (tw *twist) count(w *walker, rows []uint16) (uint64, bool) {
	n, c := tw.n, tw.c
	order, ok := tw.order(rows)
	if !ok {
		return 0, true
	}
	cur, next := &tw.cur, &tw.next
	cur.reset(1)
	cur.add(0, 1)
	var moves []uint64
	var rx [16]int
	var after [16]int
	for oi, ti := range order {
		cyc := tw.tauCycles[ti]
		x0, m := cyc[0], len(cyc)
		k := 0
		for r := range n {
			if rows[r]>>x0&1 != 0 {
				rx[k] = r
				k++
			}
		}
		// after[i]: the index of ρ'^m(rx[i]) in rx (order checked it exists).
		for i := range c {
			y := rx[i]
			for range m {
				y = tw.rho[y]
			}
			for j := range c {
				if rx[j] == y {
					after[i] = j
				}
			}
		}
		moves = moves[:0]
	bij:
		for _, b := range tw.bij {
			for i := range c {
				y := b[i]
				for range m {
					y = tw.kap[y]
				}
				if b[after[i]] != y {
					continue bij
				}
			}
			var pm uint64
			for i := range c {
				r, col := rx[i], b[i]
				for range m {
					bit := uint64(1) << (col*n + r)
					if pm&bit != 0 {
						continue bij
					}
					pm |= bit
					r, col = tw.rho[r], tw.kap[col]
				}
			}
			moves = append(moves, pm)
		}
		w.st.DPStates += uint64(cur.n)
		if w.charge(0) {
			return 0, false
		}
		if oi == len(order)-1 {
			// Every cell is placed after the last cycle: one state, the
			// full one (not stored: with C·N = 64 its key would wrap).
			var e uint64
			for i, k1 := range cur.keys {
				if k1 == 0 {
					continue
				}
				st, cnt := k1-1, cur.vals[i]
				for _, pm := range moves {
					if st&pm == 0 {
						var carry uint64
						if e, carry = bits.Add64(e, cnt, 0); carry != 0 {
							w.err = fmt.Errorf("stackjoin: a stack count passed 64 bits")
							return 0, false
						}
					}
				}
			}
			return e, true
		}
		next.reset(min(cur.n*len(moves), 4*cur.n)) // a larger table costs its clearing
		for i, k1 := range cur.keys {
			if k1 == 0 {
				continue
			}
			st, cnt := k1-1, cur.vals[i]
			for _, pm := range moves {
				if st&pm == 0 {
					next.add(tw.canon(st|pm), cnt)
				}
			}
		}
		if next.overflow {
			w.err = fmt.Errorf("stackjoin: a stack count passed 64 bits")
			return 0, false
		}
		cur, next = next, cur
		if cur.n == 0 {
			return 0, true
		}
	}
	return 1, true // no symbols
}

// order returns the τ-cycles in the order count places them: greedily the
// one leaving the fewest rows partly filled, ties to the first. It reports
// false when the configuration admits no stack (a symbol not in C rows, or
// a cycle whose rows do not close under ρ'^m).
func (tw *twist) order(rows []uint16) ([]int, bool) {
	n, c := tw.n, tw.c
	k := len(tw.tauCycles)
	touch := make([][16]int, k) // per cycle: symbols it places in each row
	for ti, cyc := range tw.tauCycles {
		x0, m := cyc[0], len(cyc)
		var rx []int
		for r := range n {
			if rows[r]>>x0&1 != 0 {
				rx = append(rx, r)
			}
		}
		if len(rx) != c {
			return nil, false
		}
		for _, r := range rx {
			y := r
			for range m {
				y = tw.rho[y]
			}
			if !slices.Contains(rx, y) {
				return nil, false
			}
			y = r
			for range m {
				touch[ti][y]++
				y = tw.rho[y]
			}
		}
	}
	var placed [16]int
	done := make([]bool, k)
	order := make([]int, 0, k)
	for range k {
		best, bestActive := -1, 0
		for ti := range k {
			if done[ti] {
				continue
			}
			active := 0
			for r := range n {
				if p := placed[r] + touch[ti][r]; p > 0 && p < c {
					active++
				}
			}
			if best < 0 || active < bestActive {
				best, bestActive = ti, active
			}
		}
		done[best] = true
		order = append(order, best)
		for r := range n {
			placed[r] += touch[best][r]
		}
	}
	return order, true
}

// stateTable is one layer of the dynamic programme: packed states with
// their numbers of partial colourings, in an open-addressing hash table
// with linear probing (faster than a Go map here; the pattern of package
// stacks). A slot's key is the state plus one, 0 marking an empty slot.
type stateTable struct {
	keys, vals []uint64
	n          int  // states held
	shift      uint // 64 - log2(len(keys))
	overflow   bool // a count passed 2^64
}

// reset empties the table, sized for about hint states.
func (s *stateTable) reset(hint int) {
	size := 16
	for size < 2*hint && size < 1<<20 {
		size *= 2
	}
	if len(s.keys) >= size && len(s.keys) <= 4*size {
		clear(s.keys)
		clear(s.vals)
	} else {
		s.keys, s.vals = make([]uint64, size), make([]uint64, size)
	}
	s.n, s.overflow = 0, false
	s.shift = uint(64 - bits.TrailingZeros(uint(len(s.keys))))
}

// add adds v to the count of state k.
func (s *stateTable) add(k, v uint64) {
	k1 := k + 1
	mask := uint64(len(s.keys) - 1)
	for i := (k1 * 0x9E3779B97F4A7C15) >> s.shift; ; i = (i + 1) & mask {
		switch s.keys[i] {
		case k1:
			sum, carry := bits.Add64(s.vals[i], v, 0)
			s.vals[i] = sum
			s.overflow = s.overflow || carry != 0
			return
		case 0:
			s.keys[i], s.vals[i] = k1, v
			if s.n++; 2*s.n > len(s.keys) {
				s.grow()
			}
			return
		}
	}
}

// grow doubles the table.
func (s *stateTable) grow() {
	keys, vals := s.keys, s.vals
	s.keys, s.vals = make([]uint64, 2*len(keys)), make([]uint64, 2*len(keys))
	s.shift--
	mask := uint64(len(s.keys) - 1)
	for j, k1 := range keys {
		if k1 == 0 {
			continue
		}
		i := (k1 * 0x9E3779B97F4A7C15) >> s.shift
		for s.keys[i] != 0 {
			i = (i + 1) & mask
		}
		s.keys[i], s.vals[i] = k1, vals[j]
	}
}
