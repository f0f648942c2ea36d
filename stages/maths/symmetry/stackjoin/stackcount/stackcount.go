// Package stackcount computes the twisted stack count of package
// stackjoin, E_{h,τ}(Q): the number of stacks (N rows, C columns, bands of
// R rows each holding every symbol once) with row sets Q (the C symbols of
// each row) that are fixed by h = (ρ', κ') up to the relabelling τ, that
// is the proper C-edge-colourings, by the columns, of the graph joining
// each row to its C symbols with col(τ(x), ρ'(r)) = κ'(col(x, r)).
//
// The count is a dynamic programme over the τ-cycles of symbols: the first
// symbol of a cycle takes a bijection from its C rows to the C columns,
// which fixes the columns of the rest of the cycle, and the cycle must
// close. A state is the set of rows already holding a symbol in each
// column (C masks of N bits). Each layer keeps one state per orbit of the
// column permutations commuting with κ' (Twist.canon), the cycles are
// placed in the order that leaves the fewest rows partly filled, and a
// cycle's placements are memoised by the rows of its first symbol.
package stackcount

import (
	"errors"
	"math/bits"

	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/perm"
)

// ErrOverflow is returned when a count passes 64 bits.
var ErrOverflow = errors.New("stackcount: a stack count passed 64 bits")

// Twist is the part of the stack count E_{h,τ} that depends on the twist
// only (h = (ρ', κ'), τ), built once and used for many row sets; it is not
// safe for concurrent use.
type Twist struct {
	n, c      int
	rho, kap  []int      // ρ' on the rows, κ' on the stack's columns
	tauCycles [][]int    // the cycles of τ on the symbols
	bij       [][]int    // the bijections of the C columns
	kapCycles [][]int    // the cycles of κ', by increasing length
	kapFree   bool       // κ' is the identity
	rhoMask   [][]uint16 // rhoMask[k][m] = ρ'^k(m) for a row set m
	cur, next stateTable
	cycMask   []uint16            // per τ-cycle, its symbols
	symRows   [16]uint16          // per symbol, its rows (set by order)
	ord       []int               // order's result
	moves     map[uint32][]uint64 // movesOf's memo
}

// New returns the twist of a stack of n rows and c columns with ρ' = rho
// (on the rows), κ' = kap (on the stack's c columns) and τ given by its
// cycles tauCycles.
func New(n, c int, rho, kap []int, tauCycles [][]int) *Twist {
	tw := &Twist{n: n, c: c, rho: rho, kap: kap, bij: perm.All(c), tauCycles: tauCycles}
	for _, cyc := range tw.tauCycles {
		var cm uint16
		for _, x := range cyc {
			cm |= 1 << x
		}
		tw.cycMask = append(tw.cycMask, cm)
	}
	tw.moves = map[uint32][]uint64{}
	// κ''s cycles, by increasing length; ρ'^k on row sets up to the longest.
	done := make([]bool, c)
	for l := 1; l <= c; l++ {
		for j0 := range c {
			if done[j0] {
				continue
			}
			cyc := []int{j0}
			for j := tw.kap[j0]; j != j0; j = tw.kap[j] {
				cyc = append(cyc, j)
			}
			if len(cyc) != l {
				continue
			}
			for _, j := range cyc {
				done[j] = true
			}
			tw.kapCycles = append(tw.kapCycles, cyc)
		}
	}
	tw.kapFree = len(tw.kapCycles) == c
	tw.rhoMask = make([][]uint16, len(tw.kapCycles[len(tw.kapCycles)-1]))
	for k := range tw.rhoMask {
		tw.rhoMask[k] = make([]uint16, 1<<n)
		for m := range 1 << n {
			var img uint16
			for r := range n {
				if m>>r&1 != 0 {
					y := r
					for range k {
						y = tw.rho[y]
					}
					img |= 1 << y
				}
			}
			tw.rhoMask[k][m] = img
		}
	}
	return tw
}

// canon returns a canonical image of the packed state st (column j's rows
// at bits j·N…) under the column permutations c commuting with κ'. The
// number of completions of a partial colouring is the same from both:
// c∘col satisfies col(τ(x), ρ'(r)) = κ'(col(x, r)) whenever col does, as
// cκ' = κ'c.
//
// The placed cells are closed under (ρ', κ') (each placement is a union of
// their orbits), so along a cycle (j, κ'(j), …) of κ' the columns' row sets
// are m, ρ'(m), ρ'²(m), …: the state is given by one row set per cycle.
// The centraliser rotates each cycle and permutes cycles of equal length,
// so the image that starts every cycle with its least row set, those sets
// sorted within each length, is canonical.
func (tw *Twist) canon(st uint64) uint64 {
	n := uint(tw.n)
	full := uint64(1)<<n - 1
	if tw.kapFree {
		// every cycle a column: the canonical image sorts the columns
		var v [16]uint64
		for j := range tw.c {
			x := st >> (uint(j) * n) & full
			k := j
			for ; k > 0 && v[k-1] > x; k-- {
				v[k] = v[k-1]
			}
			v[k] = x
		}
		var out uint64
		for j := range tw.c {
			out |= v[j] << (uint(j) * n)
		}
		return out
	}
	var v [16]uint64
	for i, cyc := range tw.kapCycles {
		best := st >> (uint(cyc[0]) * n) & full
		for _, j := range cyc[1:] {
			best = min(best, st>>(uint(j)*n)&full)
		}
		v[i] = best
		// insertion sort within the run of cycles of this length
		for k := i; k > 0 && len(tw.kapCycles[k-1]) == len(cyc) && v[k-1] > v[k]; k-- {
			v[k-1], v[k] = v[k], v[k-1]
		}
	}
	var out uint64
	for i, cyc := range tw.kapCycles {
		for k, j := range cyc {
			out |= uint64(tw.rhoMask[k][v[i]]) << (uint(j) * n)
		}
	}
	return out
}

// Count returns E_{h,τ}(rows) by the dynamic programme of the package
// documentation, the layers' states reduced to canon and the τ-cycles
// placed in an order that keeps few rows partly filled (a row's columns
// are all used once its C symbols are placed, so only partly filled rows
// tell states apart). Before each layer it calls layer with the layer's
// number of states and stops with its error if it returns one (the
// caller's budget or context); ErrOverflow when a count passes 64 bits.
func (tw *Twist) Count(rows []uint16, layer func(states int) error) (uint64, error) {
	order, ok := tw.order(rows)
	if !ok {
		return 0, nil
	}
	cur, next := &tw.cur, &tw.next
	cur.reset(1)
	cur.add(0, 1)
	for oi, ti := range order {
		moves := tw.movesOf(ti, tw.symRows[tw.tauCycles[ti][0]])
		if err := layer(cur.n); err != nil {
			return 0, err
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
							return 0, ErrOverflow
						}
					}
				}
			}
			return e, nil
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
			return 0, ErrOverflow
		}
		cur, next = next, cur
		if cur.n == 0 {
			return 0, nil
		}
	}
	return 1, nil // no symbols
}

// order returns the τ-cycles in the order Count places them: greedily the
// one leaving the fewest rows partly filled, ties to the first; it also
// sets symRows. It reports false when a symbol is not in C rows (no
// stack).
func (tw *Twist) order(rows []uint16) ([]int, bool) {
	n, c := tw.n, tw.c
	clear(tw.symRows[:])
	for r := range n {
		for m := rows[r]; m != 0; m &= m - 1 {
			tw.symRows[bits.TrailingZeros16(m)] |= 1 << r
		}
	}
	for x := range n {
		if bits.OnesCount16(tw.symRows[x]) != c {
			return nil, false
		}
	}
	k := len(tw.tauCycles)
	var placed [16]int
	var done uint32
	order := tw.ord[:0]
	for range k {
		best, bestActive := -1, 0
		for ti := range k {
			if done>>ti&1 != 0 {
				continue
			}
			active := 0
			for r := range n {
				if p := placed[r] + bits.OnesCount16(rows[r]&tw.cycMask[ti]); p > 0 && p < c {
					active++
				}
			}
			if best < 0 || active < bestActive {
				best, bestActive = ti, active
			}
		}
		done |= 1 << best
		order = append(order, best)
		for r := range n {
			placed[r] += bits.OnesCount16(rows[r] & tw.cycMask[best])
		}
	}
	tw.ord = order
	return order, true
}

// movesOf returns the placements of τ-cycle ti whose first symbol lies in
// the rows rx (a mask): for every bijection β from those rows (in order) to
// the columns that closes (col(x0, ρ'^m(r)) = κ'^m(col(x0, r)), m the
// cycle's length), the packed cells (ρ'^k(r), κ'^k(β(r))) for k < m, when
// no two coincide. Memoised by (ti, rx): the configurations repeat them.
func (tw *Twist) movesOf(ti int, rx uint16) []uint64 {
	key := uint32(ti)<<16 | uint32(rx)
	if mv, ok := tw.moves[key]; ok {
		return mv
	}
	n, c := tw.n, tw.c
	m := len(tw.tauCycles[ti])
	var rs [16]int
	k := 0
	for r := range n {
		if rx>>r&1 != 0 {
			rs[k] = r
			k++
		}
	}
	// after[i]: the index of ρ'^m(rs[i]) among rs, -1 when not there (no
	// placement closes).
	var after [16]int
	for i := range c {
		y := rs[i]
		for range m {
			y = tw.rho[y]
		}
		after[i] = -1
		for j := range c {
			if rs[j] == y {
				after[i] = j
			}
		}
		if after[i] < 0 {
			tw.moves[key] = nil
			return nil
		}
	}
	var mv []uint64
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
			r, col := rs[i], b[i]
			for range m {
				bit := uint64(1) << (col*n + r)
				if pm&bit != 0 {
					continue bij
				}
				pm |= bit
				r, col = tw.rho[r], tw.kap[col]
			}
		}
		mv = append(mv, pm)
	}
	tw.moves[key] = mv
	return mv
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
	if cap(s.keys) >= size {
		// the layers' sizes vary by orders of magnitude: reuse the largest
		s.keys, s.vals = s.keys[:size], s.vals[:size]
		clear(s.keys) // a value is written when its empty slot is taken

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
