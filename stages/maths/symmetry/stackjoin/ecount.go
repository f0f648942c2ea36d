package stackjoin

import (
	"cmp"
	"fmt"
	"math/bits"
	"slices"

	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/perm"
)

// twist is the part of the stack count E_{h,τ} that depends on the stack
// cycle only (h = (ρ', κ'), τ = σ^ℓ), built once per walker and cycle.
type twist struct {
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

func newTwist(w *walker, ci int) *twist {
	p := w.p
	tw := &twist{n: w.n, c: w.c, rho: p.twistRho[ci], kap: p.twistKap[ci], bij: perm.All(w.c)}
	tw.tauCycles = w.tauCycles[ci] // as the walker lists them for its memo keys
	for _, cyc := range tw.tauCycles {
		var cm uint16
		for _, x := range cyc {
			cm |= 1 << x
		}
		tw.cycMask = append(tw.cycMask, cm)
	}
	tw.moves = map[uint32][]uint64{}
	// κ''s cycles, by increasing length; ρ'^k on row sets up to the longest.
	done := make([]bool, w.c)
	for l := 1; l <= w.c; l++ {
		for j0 := range w.c {
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
	tw.kapFree = len(tw.kapCycles) == w.c
	tw.rhoMask = make([][]uint16, len(tw.kapCycles[len(tw.kapCycles)-1]))
	for k := range tw.rhoMask {
		tw.rhoMask[k] = make([]uint16, 1<<w.n)
		for m := range 1 << w.n {
			var img uint16
			for r := range w.n {
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
func (tw *twist) canon(st uint64) uint64 {
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

// count returns E_{h,τ}(rows) by the dynamic programme of the package
// documentation, the layers' states reduced to canon and the τ-cycles
// placed in an order that keeps few rows partly filled (a row's columns
// are all used once its C symbols are placed, so only partly filled rows
// tell states apart); false when the work passed the budget, the context
// ended or a count overflowed (w.err says which).
func (tw *twist) count(w *walker, rows []uint16) (uint64, bool) {
	order, ok := tw.order(rows)
	if !ok {
		return 0, true
	}
	cur, next := &tw.cur, &tw.next
	cur.reset(1)
	cur.add(0, 1)
	for oi, ti := range order {
		moves := tw.movesOf(ti, tw.symRows[tw.tauCycles[ti][0]])
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
// one leaving the fewest rows partly filled, ties to the first; it also
// sets symRows. It reports false when a symbol is not in C rows (no
// stack).
func (tw *twist) order(rows []uint16) ([]int, bool) {
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
func (tw *twist) movesOf(ti int, rx uint16) []uint64 {
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

// rowNormal maps a stack's row sets to an image P∘y⁻¹ under row
// permutations y (of S_R wr S_C) commuting with ρ', which keep E:
// S'(y(r), j) = S(r, j) is a stack fixed by (ρ', κ') up to τ whenever S is.
// The image serves as E's memo key, so that configurations differing by
// such a y share one count. It need not be canonical (any image is exact);
// it takes, for each ρ'-orbit of bands, the least image under the y acting
// on that orbit alone, then sorts the bands that ρ' fixes with equal
// permutations of their rows.
type rowNormal struct {
	n, r int
	// per ρ'-orbit of bands: its rows, ascending, and the row maps y
	// acting on them (y[i] the image of rows[i])
	orbits []bandOrbit
	// groups of bands fixed by ρ' with equal permutations of their rows,
	// ascending; their R-row tuples may be sorted
	groups [][]int
}

type bandOrbit struct {
	rows []int
	maps [][]int
}

func newRowNormal(n, r int, rho []int) *rowNormal {
	rn := &rowNormal{n: n, r: r}
	bands := n / r
	seen := make([]bool, bands)
	inner := map[string][]int{} // fixed bands by their relative permutation
	var keys []string
	for a := range bands {
		if seen[a] {
			continue
		}
		var orb []int
		for b := a; !seen[b]; b = rho[b*r] / r {
			seen[b] = true
			orb = append(orb, b)
		}
		var rows []int
		for _, b := range orb {
			for i := range r {
				rows = append(rows, b*r+i)
			}
		}
		slices.Sort(rows)
		bo := bandOrbit{rows: rows}
		// y on band a is ya; on ρ'^k(band a), ρ'^k(a·R+i) ↦ ρ'^k(a·R+ya(i)).
		for _, ya := range perm.All(r) {
			y := perm.Identity(n)
			for i := range r {
				x, z := a*r+i, a*r+ya[i]
				for range len(orb) {
					y[x] = z
					x, z = rho[x], rho[z]
				}
			}
			if !equal(perm.Compose(y, rho), perm.Compose(rho, y)) || perm.IsIdentity(y) {
				continue
			}
			m := make([]int, len(rows))
			for i, x := range rows {
				m[i] = y[x]
			}
			bo.maps = append(bo.maps, m)
		}
		rn.orbits = append(rn.orbits, bo)
		if len(orb) == 1 {
			rel := make([]byte, r)
			for i := range r {
				rel[i] = byte(rho[a*r+i] - a*r)
			}
			k := string(rel)
			if _, ok := inner[k]; !ok {
				keys = append(keys, k)
			}
			inner[k] = append(inner[k], a)
		}
	}
	for _, k := range keys {
		if len(inner[k]) > 1 {
			rn.groups = append(rn.groups, inner[k])
		}
	}
	return rn
}

// key returns the normal image of rows.
func (rn *rowNormal) key(rows []uint16) [16]uint16 {
	var k [16]uint16
	copy(k[:], rows)
	var img [16]uint16
	for _, bo := range rn.orbits {
		for _, m := range bo.maps {
			for i, x := range bo.rows {
				img[m[i]] = k[x]
			}
			for _, x := range bo.rows {
				if img[x] != k[x] {
					if img[x] < k[x] {
						for _, x := range bo.rows {
							k[x] = img[x]
						}
					}
					break
				}
			}
		}
	}
	r := rn.r
	for _, g := range rn.groups {
		// insertion sort of the bands' R-row tuples
		for i := 1; i < len(g); i++ {
			for j := i; j > 0 && slices.Compare(k[g[j-1]*r:g[j-1]*r+r], k[g[j]*r:g[j]*r+r]) > 0; j-- {
				a, b := g[j-1]*r, g[j]*r
				for t := range r {
					k[a+t], k[b+t] = k[b+t], k[a+t]
				}
			}
		}
	}
	return k
}

// relabelKey returns a memo key for E_{h,τ} of a stack cycle whose τ is
// the identity, from the row sets rows (already in rowNormal's order).
// Such an E is kept by every relabelling z of the symbols (col'(x, r) =
// col(z⁻¹(x), r) satisfies the same equations), so the stack matters only
// up to relabelling: the key is the sorted list of the symbols'
// signatures, Σ_b i_b·R^b with i_b the position in band b of the row
// holding the symbol, and equal keys are stacks that differ by a
// relabelling (any order of the rows gives an exact key).
//
// With anyRows (ρ' = id, so every permutation of the rows within bands
// and of the bands keeps E too) the key is canonical: the least list over
// the orders of the rows that sort each band's rows by a profile (their
// intersection sizes with the other bands' rows, refined once by those
// rows' profiles) and the bands by their
// rows' profiles, which no relabelling or row permutation changes, every
// order of tied rows or bands tried. Beyond maxRelabelOrders such orders
// (a stack with many ties) it takes the first: still exact, found equal
// less often. On 3×4 class 12 the canonical key cut the distinct stack
// counts of a sample from 4,542 (rowNormal) to 547.
func relabelKey(rows []uint16, r int, anyRows bool) [16]uint16 {
	n := len(rows)
	bands := n / r
	if !anyRows {
		var pos [16]int
		for i := range n {
			pos[i] = i % r
		}
		return signatures(rows, r, pos[:n], identityOrder[:bands])
	}
	// The intersection sizes of rows in different bands, computed once:
	// both profiles below read them.
	var inter [16][16]uint64
	for i := range n {
		for j := (i/r + 1) * r; j < n; j++ {
			c := uint64(bits.OnesCount16(rows[i] & rows[j]))
			inter[i][j], inter[j][i] = c, c
		}
	}
	// Row profiles: any function of a row that relabellings and row
	// permutations keep will do (it only orders the rows; equal profiles
	// are tried in every order), so multisets are hashed by sums of mixed
	// words, which need no sorting.
	var profile [16]uint64
	for i := range n {
		var p uint64
		for b := range bands {
			if b*r <= i && i < b*r+r {
				continue
			}
			var code uint64
			for _, c := range inter[i][b*r : b*r+r] {
				code += mixSmall[c]
			}
			p += mix64(code)
		}
		profile[i] = p
	}
	// One round of refinement: a row's profile with the multiset of its
	// intersection sizes paired with the other rows' profiles, which
	// parts rows that tie by sizes alone (fewer orders to try below).
	var refined [16]uint64
	for i := range n {
		sum := mix64(profile[i] ^ 0x5bd1e995)
		own := i / r * r
		for j := 0; j < n; j++ {
			if j == own {
				j += r - 1 // i's own band
				continue
			}
			sum += mix64(profile[j] + inter[i][j]*0x9E3779B97F4A7C15)
		}
		refined[i] = sum
	}
	profile = refined
	// Each band's rows by profile (stably), and the bands by their rows'
	// profiles; when nothing ties, that one order gives the key.
	var sorted [16]int // band b's rows in order at sorted[b·R…]
	var bandKey [16]uint64
	tied := false
	for b := range bands {
		o := sorted[b*r : b*r+r]
		for j := range r {
			x := b*r + j
			k := j
			for ; k > 0 && profile[o[k-1]] > profile[x]; k-- {
				o[k] = o[k-1]
			}
			o[k] = x
		}
		var ps [16]uint64
		for j, x := range o {
			ps[j] = profile[x]
			tied = tied || j > 0 && ps[j] == ps[j-1]
		}
		bandKey[b] = fnv(ps[:r])
	}
	var bandsOf [16]int
	for b := range bands {
		k := b
		for ; k > 0 && bandKey[bandsOf[k-1]] > bandKey[b]; k-- {
			bandsOf[k] = bandsOf[k-1]
		}
		bandsOf[k] = b
	}
	for k := 1; k < bands; k++ {
		tied = tied || bandKey[bandsOf[k]] == bandKey[bandsOf[k-1]]
	}
	if !tied {
		var pos [16]int
		for i, x := range sorted[:n] {
			pos[x] = i % r
		}
		return signatures(rows, r, pos[:n], bandsOf[:bands])
	}
	// The orders of the tied rows and bands, every one tried.
	rowOrders := make([][][]int, bands)
	orders := 1
	for b := range bands {
		rowOrders[b] = tiedOrders(slices.Clone(sorted[b*r:b*r+r]), func(x, y int) bool { return profile[x] == profile[y] })
		orders *= len(rowOrders[b])
	}
	bandOrders := tiedOrders(slices.Clone(bandsOf[:bands]), func(x, y int) bool { return bandKey[x] == bandKey[y] })
	orders *= len(bandOrders)
	if orders > maxRelabelOrders {
		bandOrders = bandOrders[:1]
		for b := range rowOrders {
			rowOrders[b] = rowOrders[b][:1]
		}
	}
	var best [16]uint16
	first := true
	var pos [16]int
	var try func(b int, bandOrder []int)
	try = func(b int, bandOrder []int) {
		if b == bands {
			k := signatures(rows, r, pos[:n], bandOrder)
			if first || slices.Compare(k[:n], best[:n]) < 0 {
				best, first = k, false
			}
			return
		}
		for _, o := range rowOrders[b] {
			for j, x := range o {
				pos[x] = j
			}
			try(b+1, bandOrder)
		}
	}
	for _, bo := range bandOrders {
		try(0, bo)
	}
	return best
}

// mixSmall[c] is mix64(c+1), the words of the intersection sizes c ≤ 16
// that relabelKey's profiles add.
var mixSmall = func() (t [17]uint64) {
	for c := range t {
		t[c] = mix64(uint64(c) + 1)
	}
	return t
}()

// maxRelabelOrders bounds the row orders relabelKey tries.
const maxRelabelOrders = 1 << 11

// identityOrder is 0, 1, …, 15.
var identityOrder = [16]int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}

// signatures returns the sorted signatures of the symbols of the stack
// with row sets rows, pos[i] the position of row i in its band and
// bandOrder the bands in order.
func signatures(rows []uint16, r int, pos []int, bandOrder []int) [16]uint16 {
	sig := symbolSignatures(rows, r, pos, bandOrder)
	sortSmall(sig[:len(rows)])
	return sig
}

// symbolSignatures returns each symbol's signature Σ_b pos(its row in
// band b)·R^(b's place in bandOrder), by symbol.
func symbolSignatures(rows []uint16, r int, pos []int, bandOrder []int) [16]uint16 {
	var weight [16]uint16 // per band, R^(its place in bandOrder)
	w := uint16(1)
	for _, b := range bandOrder {
		weight[b] = w
		w *= uint16(r)
	}
	var sig [16]uint16
	for i, m := range rows {
		add := uint16(pos[i]) * weight[i/r]
		for m != 0 {
			x := bits.TrailingZeros16(m)
			sig[x] += add
			m &= m - 1
		}
	}
	return sig
}

// sortSmall sorts a short list in place (insertion sort: the lists here
// have at most 16 elements, where slices.Sort's dispatch costs more than
// the sorting).
func sortSmall[T uint16 | uint64](a []T) {
	for i := 1; i < len(a); i++ {
		x := a[i]
		j := i
		for ; j > 0 && a[j-1] > x; j-- {
			a[j] = a[j-1]
		}
		a[j] = x
	}
}

// tiedOrders returns the orders of sorted (a sorted list) that keep it
// sorted: every permutation of each run of tied elements.
func tiedOrders(sorted []int, tied func(x, y int) bool) [][]int {
	anyTie := false
	for i := 1; i < len(sorted) && !anyTie; i++ {
		anyTie = tied(sorted[i-1], sorted[i])
	}
	if !anyTie {
		return [][]int{sorted} // most lists: one order, no copy
	}
	out := [][]int{slices.Clone(sorted)}
	for start := 0; start < len(sorted); {
		end := start + 1
		for end < len(sorted) && tied(sorted[start], sorted[end]) {
			end++
		}
		if end-start > 1 {
			var next [][]int
			for _, o := range out {
				for _, p := range permsOf(end - start) {
					q := slices.Clone(o)
					for k, pk := range p {
						q[start+k] = o[start+pk]
					}
					next = append(next, q)
				}
			}
			out = next
		}
		start = end
	}
	return out
}

// smallPerms[k] is perm.All(k), listed once: relabelKey meets ties of a
// few rows or bands in most stacks of a stack exchange.
var smallPerms = func() (t [7][][]int) {
	for k := range t {
		t[k] = perm.All(k)
	}
	return t
}()

// permsOf returns perm.All(k), from smallPerms when k is small.
func permsOf(k int) [][]int {
	if k < len(smallPerms) {
		return smallPerms[k]
	}
	return perm.All(k)
}

// mix64 is SplitMix64's finaliser, a bijection that scatters the bits of
// x (the sums of mixed words hash multisets).
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// fnv hashes a list of words (FNV-1a over the words).
func fnv(words []uint64) uint64 {
	h := uint64(14695981039346656037)
	for _, w := range words {
		h = (h ^ w) * 1099511628211
	}
	return h
}

// relabelKeyRows returns a stack's row sets with relabelKey's key: symbol
// i (in key order) in the row of each band that its signature names; its
// E is the E of every stack with that key.
func relabelKeyRows(key [16]uint16, n, r int) []uint16 {
	rows := make([]uint16, n)
	for x := range n {
		s := int(key[x])
		for b := range n / r {
			rows[b*r+s%r] |= 1 << x
			s /= r
		}
	}
	return rows
}

// cycleKey returns a memo key for E_{h,τ} when τ is not the identity, from
// the row sets rows (already in rowNormal's order) and τ's cycles. A
// relabelling z that commutes with τ keeps E (col'(x, r) = col(z⁻¹(x), r)
// satisfies the same equations, as z⁻¹τ = τz⁻¹), and such a z maps each
// τ-cycle (x, τ(x), …) onto one of the same length, in order up to a
// rotation. So the key lists, per cycle, the signatures of its symbols
// (as in relabelKey, row positions as they stand) from the rotation that
// reads least, the cycles sorted by length and then by that list: equal
// keys are stacks that differ by such a z, and a key is exact. On 3×4
// class 115 (σ of type 2⁶ and the like, τ = σ) the stack counts computed
// for part 255 of 256 fell from 4.9·10⁶ (rowNormal alone) to 1.5·10⁵
// and its time from 100 to 35 s (TestReducedEMatchesPlain checks E at a
// key's own stack, cycleKeyRows).
func cycleKey(rows []uint16, r int, tauCycles [][]int) [16]uint16 {
	var pos [16]int
	for i := range rows {
		pos[i] = i % r
	}
	sig := symbolSignatures(rows, r, pos[:len(rows)], identityOrder[:len(rows)/r])
	// Each cycle's least rotation, packed in a word with its length above
	// (7 bits a signature, so words order by length, then rotation); the
	// words sorted. Signatures below 128 (R^C ≤ 128) and cycles of at most
	// 8 symbols fit, as on every shape the package takes but 2×6 and 6×2.
	if pow(r, len(rows)/r) <= 128 {
		var words [16]uint64
		fits := true
		for i, cyc := range tauCycles {
			l := len(cyc)
			if l > 8 {
				fits = false
				break
			}
			var best uint64
			for k := range l {
				var w uint64
				for j := range l {
					w = w<<7 | uint64(sig[cyc[(j+k)%l]])
				}
				if k == 0 || w < best {
					best = w
				}
			}
			w := uint64(l)<<56 | best<<(7*(8-l))
			j := i
			for ; j > 0 && words[j-1] > w; j-- {
				words[j] = words[j-1]
			}
			words[j] = w
		}
		if fits {
			var key [16]uint16
			k := 0
			for _, w := range words[:len(tauCycles)] {
				l := int(w >> 56)
				for j := range l {
					key[k] = uint16(w >> (7 * (7 - j)) & 127)
					k++
				}
			}
			return key
		}
	}
	return cycleKeyLists(sig, tauCycles)
}

// cycleKeyLists is cycleKey's order on lists of signatures sig (per
// symbol), for any signatures and cycle lengths.
func cycleKeyLists(sig [16]uint16, tauCycles [][]int) [16]uint16 {
	type word struct {
		l   int
		sig [16]uint16
	}
	var words [16]word
	for i, cyc := range tauCycles {
		l := len(cyc)
		best := word{l: l}
		for k := range l {
			var cand [16]uint16
			for j := range l {
				cand[j] = sig[cyc[(j+k)%l]]
			}
			if k == 0 || slices.Compare(cand[:l], best.sig[:l]) < 0 {
				best.sig = cand
			}
		}
		words[i] = best
	}
	ws := words[:len(tauCycles)]
	slices.SortFunc(ws, func(a, b word) int {
		if a.l != b.l {
			return cmp.Compare(a.l, b.l)
		}
		return slices.Compare(a.sig[:a.l], b.sig[:b.l])
	})
	var key [16]uint16
	k := 0
	for _, wd := range ws {
		k += copy(key[k:k+wd.l], wd.sig[:wd.l])
	}
	return key
}

// pow returns b^e.
func pow(b, e int) int {
	x := 1
	for range e {
		x *= b
	}
	return x
}

// cycleKeyRows returns a stack's row sets with cycleKey's key: the key's
// cycles given, in order, to τ's cycles of the same length in the order
// of tauCycles, and each symbol in the row of each band that its
// signature names; its E is the E of every stack with that key.
func cycleKeyRows(key [16]uint16, n, r int, tauCycles [][]int) []uint16 {
	rows := make([]uint16, n)
	used := make([]bool, len(tauCycles))
	k := 0
	for k < n {
		// the next key cycle's length: the least length not yet used up
		// (the key lists cycles by increasing length)
		ci := -1
		for i, cyc := range tauCycles {
			if !used[i] && (ci < 0 || len(cyc) < len(tauCycles[ci])) {
				ci = i
			}
		}
		used[ci] = true
		for _, x := range tauCycles[ci] {
			s := int(key[k])
			k++
			for b := range n / r {
				rows[b*r+s%r] |= 1 << x
				s /= r
			}
		}
	}
	return rows
}
