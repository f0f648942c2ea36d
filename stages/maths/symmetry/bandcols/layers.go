package bandcols

import (
	"context"
	"fmt"
	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
	"log/slog"
	"math/big"
	"math/bits"
	"slices"
)

// state is the columns each symbol has taken in the bands placed so far,
// one mask per symbol; as a key it is canonical (see canon).
type state [maxSymbols]uint8

// counter runs the programme for one involution σ_k.
type counter struct {
	x     *exchange
	n, k  int
	sigma [maxSymbols]int
	// colPerm[p][m]: mask m with its columns moved by the p-th permutation
	colPerm [][64]uint8
	canons  *canonCache // canon of raw keys met lately
	// the filling being enumerated: col[i][x] the column of symbol x in
	// the group's i-th band, fill[i][j] how many symbols column j holds
	col  [2][maxSymbols]int8
	fill [2][6]int8
	// first[i][j]: the symbol that took column j of band i first
	first [2][6]int8
	// uf: the parity constraints of the cells placed so far and of σ
	// (see weigh)
	uf   parityFind
	from state
	// cur: from with the filling's columns so far added (the leaf's
	// successor before relabelling)
	cur state
	// raw: the successors of the current state, up to relabelling only,
	// with their summed weights
	raw *rawTable
	// leaves: fillings weighed in the current layer
	leaves uint64
	mode   layerMode
}

// stacks returns N_k: Σ over the stacks of the orientation counts that
// σ_k's constraints allow. The band orbits are split into two halves A and
// B of ⌊c/2⌋ and ⌈c/2⌉ bands; the programme runs over each half from no
// band placed, and the halves are joined: a stack is a path through A's
// bands to a state S then through B's to the full state, and B's paths
// from S are B's paths from nothing to the complement S^c (each symbol's
// columns not taken), with the same weights. So N_k = Σ_S A(S)·B(S^c),
// summed over the canonical states C with A's total over the orbit of C,
// B's over the orbit of C^c (the same size): Σ_C D_A(C)·D_B(C^c)/|orbit(C)|.
// When the halves are alike (the same swaps, singles and pairs) B = A.
func (x *exchange) stacks(ctx context.Context, k int) (*big.Int, error) {
	cn := x.newCounter(k)
	a, b := x.halves()
	da, err := cn.forward(ctx, a)
	if err != nil {
		return nil, err
	}
	db := da
	if !x.alike(a, b) {
		if db, err = cn.forward(ctx, b); err != nil {
			return nil, err
		}
	}
	return cn.join(da, db)
}

func (x *exchange) newCounter(k int) *counter {
	n := 2 * x.c
	cn := &counter{x: x, n: n, k: k}
	for i := range n {
		cn.sigma[i] = i
	}
	for i := range k {
		cn.sigma[2*i], cn.sigma[2*i+1] = 2*i+1, 2*i
	}
	return cn
}

// groups returns the band orbits of the twist, singles first.
func (x *exchange) groups() [][]int {
	var out [][]int
	for b := range x.c {
		if x.image[b] == b {
			out = append(out, []int{b})
		}
	}
	for b := range x.c {
		if x.image[b] > b {
			out = append(out, []int{b, x.image[b]})
		}
	}
	return out
}

// halves splits the band orbits into A of ⌊c/2⌋ bands and B, the halves
// alike when they can be: the first such subset in the order of bitmasks.
func (x *exchange) halves() (a, b [][]int) {
	gs := x.groups()
	var found, fallback = -1, -1
	for m := range 1 << len(gs) {
		bands := 0
		var ha, hb [][]int
		for i, g := range gs {
			if m&(1<<i) != 0 {
				bands += len(g)
				ha = append(ha, g)
			} else {
				hb = append(hb, g)
			}
		}
		if bands != x.c/2 {
			continue
		}
		if fallback < 0 {
			fallback = m
		}
		if x.alike(ha, hb) {
			found = m
			break
		}
	}
	if found < 0 {
		found = fallback
	}
	for i, g := range gs {
		if found&(1<<i) != 0 {
			a = append(a, g)
		} else {
			b = append(b, g)
		}
	}
	return a, b
}

// alike reports whether two lists of band orbits weigh alike: the same
// numbers of singles and pairs with each swap pattern.
func (x *exchange) alike(a, b [][]int) bool {
	sig := func(gs [][]int) map[[3]int]int {
		m := map[[3]int]int{}
		for _, g := range gs {
			key := [3]int{len(g), -1, -1}
			for i, band := range g {
				key[1+i] = 0
				if x.swap[band] {
					key[1+i] = 1
				}
			}
			if key[1] > key[2] && len(g) == 2 {
				key[1], key[2] = key[2], key[1]
			}
			m[key]++
		}
		return m
	}
	sa, sb := sig(a), sig(b)
	if len(sa) != len(sb) {
		return false
	}
	for key, v := range sa {
		if sb[key] != v {
			return false
		}
	}
	return true
}

// layerMode says what one layer of the programme places: a whole band
// orbit, or one band of a pair at a time (pairLayers).
type layerMode int

const (
	wholeOrbit layerMode = iota
	pairFirst            // the pair's first band, unweighed
	pairSecond           // its second band, the pair weighed
)

// pairLayers reports whether the band pair g, placed from the states cur,
// is placed one band a layer: only from nothing, where a state's masks are
// the first band's columns (one each), so that the state keeps the first
// band's cells, which the pair's weight needs once the second is placed.
// Elsewhere both bands are enumerated together from each state.
func pairLayers(g []int, cur *stateTable) bool {
	_, empty := cur.get(state{})
	return pairsInLayers && len(g) == 2 && cur.n == 1 && empty
}

// pairsInLayers lets pairLayers place a pair in two layers; the tests turn
// it off to check the enumeration of both bands together (which 2×6 class
// 175's later pairs need) where the counts are known.
var pairsInLayers = true

// forward runs the programme over the band orbits gs from no band placed:
// the total weight of the paths into each canonical state's orbit. A band
// pair that comes first is placed in two layers (pairLayers), so that the
// states between them are merged up to the column permutations and
// relabellings like any others.
func (cn *counter) forward(ctx context.Context, gs [][]int) (*stateTable, error) {
	cn.colPerm = columnPerms(cn.x.c)
	cur := newStateTable(cn.n)
	if err := cur.add(state{}, grid.Uint128{Lo: 1}, 1); err != nil {
		return nil, err
	}
	for _, g := range pairsFirst(gs) {
		modes := []layerMode{wholeOrbit}
		if pairLayers(g, cur) {
			modes = []layerMode{pairFirst, pairSecond}
		}
		for _, mode := range modes {
			var err error
			if cur, err = cn.layer(ctx, cur, g, mode); err != nil {
				return nil, err
			}
		}
	}
	return cur, nil
}

// pairsFirst returns gs with one band pair, if any, moved to the front, so
// that it is placed from nothing (pairLayers).
func pairsFirst(gs [][]int) [][]int {
	out := slices.Clone(gs)
	for i, g := range out {
		if len(g) == 2 {
			copy(out[1:i+1], out[:i])
			out[0] = g
			break
		}
	}
	return out
}

// layer places the band orbit g (or one band of it, by mode) from every
// state of cur.
func (cn *counter) layer(ctx context.Context, cur *stateTable, g []int, mode layerMode) (*stateTable, error) {
	next := newStateTable(cn.n)
	if cn.canons == nil {
		cn.canons = newCanonCache()
	}
	cn.mode = mode
	if cn.raw == nil {
		cn.raw = newRawTable()
	}
	err := cur.each(func(key state, val grid.Uint128) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		cn.from, cn.cur = key, key
		band := 0
		if mode == pairSecond {
			// the first band's columns are the state's masks, one each
			for y := range cn.n {
				cn.col[0][y] = int8(bits.TrailingZeros8(key[y]))
			}
			band = 1
		}
		if cn.weigh(g) {
			cn.fillBand(g, band, 0)
		}
		return cn.raw.each(func(r state, w uint64) error {
			c, ok := cn.canons.get(r)
			if !ok {
				c = cn.canon(r)
				cn.canons.put(r, c)
			}
			if err := next.add(c, val, w); err != nil {
				return fmt.Errorf("%w (%d 2-cycles, bands %v)", err, cn.k, g)
			}
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	slog.Debug("bandcols layer", "k", cn.k, "bands", g, "mode", mode, "states", cur.n, "leaves", cn.leaves, "next", next.n)
	cn.leaves = 0
	return next, nil
}

// join returns Σ_C D_A(C)·D_B(C^c)/|orbit(C)| (see stacks); |orbit(C)| =
// |H|/|Stab_H(C)|, H the column permutations times the relabellings
// commuting with σ, so each term is D_A(C)·D_B(C^c)·|Stab_H(C)| / |H|, and
// the total's division by |H| is checked to be exact.
func (cn *counter) join(da, db *stateTable) (*big.Int, error) {
	full := uint8(1)<<cn.x.c - 1
	sum := new(big.Int)
	term := new(big.Int)
	err := da.each(func(c state, va grid.Uint128) error {
		var comp state
		for y := range cn.n {
			comp[y] = full &^ c[y]
		}
		vb, ok := db.get(cn.canon(cn.relabelSort(comp)))
		if !ok {
			return nil
		}
		term.Mul(va.Big(), vb.Big())
		term.Mul(term, new(big.Int).SetUint64(cn.stabilizer(c)))
		sum.Add(sum, term)
		return nil
	})
	if err != nil {
		return nil, err
	}
	h := new(big.Int).Mul(involutionCentralizer(cn.n, cn.k), factorial(cn.x.c))
	q, r := new(big.Int).QuoRem(sum, h, new(big.Int))
	if r.Sign() != 0 {
		return nil, fmt.Errorf("bandcols: the join %v for %d 2-cycles is not a multiple of |H| = %v", sum, cn.k, h)
	}
	return q, nil
}

func factorial(n int) *big.Int {
	f := big.NewInt(1)
	for i := 2; i <= n; i++ {
		f.Mul(f, big.NewInt(int64(i)))
	}
	return f
}

// stabilizer returns |Stab_H(c)| for a canonical state c: the column
// permutations p with relabelSort(p·c) = c (they keep colInvariant, so
// only columns of equal invariants are exchanged; c's columns are sorted
// by it) times the relabellings commuting with σ that fix c: r! for r
// equal 2-cycles, 2 for a 2-cycle whose symbols took the same columns, r!
// for r equal fixed symbols.
func (cn *counter) stabilizer(c state) uint64 {
	cols := uint64(0)
	n, cc := cn.n, cn.x.c
	inv := cn.colInvariant(c)
	var place [6]int
	var rec func(i int)
	rec = func(i int) {
		if i == cc {
			var t state
			for y := range n {
				var im uint8
				for o := range cc {
					if c[y]&(1<<o) != 0 {
						im |= 1 << place[o]
					}
				}
				t[y] = im
			}
			if cn.relabelSort(t) == c {
				cols++
			}
			return
		}
		e := i + 1
		for e < cc && inv[e] == inv[i] {
			e++
		}
		group := make([]int, e-i)
		for q := range group {
			group[q] = i + q
		}
		cn.permuteGroup(group, i, &place, func() { rec(e) })
	}
	rec(0)
	rel := uint64(1)
	k := cn.k
	for i := 0; i < k; {
		j := i
		for j < k && c[2*j] == c[2*i] && c[2*j+1] == c[2*i+1] {
			j++
		}
		for r := 2; r <= j-i; r++ {
			rel *= uint64(r)
		}
		i = j
	}
	for i := range k {
		if c[2*i] == c[2*i+1] {
			rel *= 2
		}
	}
	for i := 2 * k; i < n; {
		j := i
		for j < n && c[j] == c[i] {
			j++
		}
		for r := 2; r <= j-i; r++ {
			rel *= uint64(r)
		}
		i = j
	}
	return cols * rel
}

// fillBand gives symbols x… of the group's i-th band a column each, one
// that symbol has not taken (in the bands before or the group's first),
// two symbols a column; at the end it weighs the filling.
func (cn *counter) fillBand(g []int, i, x int) {
	if x == cn.n {
		if i+1 < len(g) && cn.mode != pairFirst {
			cn.fillBand(g, i+1, 0)
			return
		}
		cn.leaves++
		w := uint64(1)
		if cn.mode != pairFirst {
			w = 1 << cn.uf.components // every cell consistent (fillBand)
		}
		cn.raw.add(cn.relabelSort(cn.cur), w)
		return
	}
	used := cn.cur[x] // the columns x took before, in this group's bands too
	for j := range cn.x.c {
		if used&(1<<j) != 0 || cn.fill[i][j] == 2 {
			continue
		}
		cn.col[i][x] = int8(j)
		cn.cur[x] = used | 1<<j
		if cn.fill[i][j] == 0 {
			cn.first[i][j] = int8(x)
		} else if cn.mode != pairFirst {
			// the cell is complete: its symbols lie in different rows
			saved := cn.uf
			if !cn.uf.union(i*cn.n+int(cn.first[i][j]), i*cn.n+x, 1) {
				continue // no orientation: nothing below counts
			}
			cn.fill[i][j]++
			cn.fillBand(g, i, x+1)
			cn.fill[i][j]--
			cn.uf = saved
			continue
		}
		cn.fill[i][j]++
		cn.fillBand(g, i, x+1)
		cn.fill[i][j]--
	}
	cn.cur[x] = used
}

// weigh starts the parity constraints of the orientations of the group's
// cells (which symbol of each cell is in the upper row) that meet σ's
// constraints, one bit per symbol and band: a symbol's row in band b
// decides σ's in band image(b), P_{β(b)}(σx) = P_b(x) ⊕ swap_b ⊕ 1, and
// in the second layer of a pair the first band's cells are placed
// already. fillBand adds each cell's "different rows" as the cell is
// completed and cuts a filling at the first contradiction, so a finished
// one has 2^components orientations. weigh reports false when σ's
// constraints alone contradict each other (no filling counts).
func (cn *counter) weigh(g []int) bool {
	nb := len(g)
	cn.uf.init(nb * cn.n)
	if cn.mode == pairFirst {
		return true
	}
	for i, b := range g {
		// band b's image is g[1-i] in a pair, itself alone
		o := i
		if nb == 2 {
			o = 1 - i
		}
		par := uint8(1)
		if cn.x.swap[b] {
			par = 0
		}
		for y := range cn.n {
			if !cn.uf.union(i*cn.n+y, o*cn.n+cn.sigma[y], par) {
				return false
			}
		}
	}
	if cn.mode == pairSecond {
		var first [6]int8
		for j := range first {
			first[j] = -1
		}
		for y := range cn.n {
			j := cn.col[0][y]
			if first[j] < 0 {
				first[j] = int8(y)
			} else if !cn.uf.union(int(first[j]), y, 1) {
				return false
			}
		}
	}
	return true
}

// relabelSort is s up to the relabellings commuting with σ: each 2-cycle's
// masks in order, the 2-cycles sorted, the fixed symbols sorted.
func (cn *counter) relabelSort(s state) state {
	k := cn.k
	for i := range k {
		if s[2*i] > s[2*i+1] {
			s[2*i], s[2*i+1] = s[2*i+1], s[2*i]
		}
	}
	// insertion sorts: at most 6 pairs and 12 fixed symbols
	for i := 1; i < k; i++ {
		for j := i; j > 0 && pairLess(s[2*j], s[2*j+1], s[2*j-2], s[2*j-1]); j-- {
			s[2*j], s[2*j+1], s[2*j-2], s[2*j-1] = s[2*j-2], s[2*j-1], s[2*j], s[2*j+1]
		}
	}
	for i := 2*k + 1; i < cn.n; i++ {
		for j := i; j > 2*k && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
	return s
}

func pairLess(a0, a1, b0, b1 uint8) bool {
	return a0 < b0 || (a0 == b0 && a1 < b1)
}

// canon is the least relabelSort image of s under the column permutations
// that sort the columns by colInvariant: the weights and the bands to come
// depend only on which symbols share a column, so equal canons have equal
// futures. The invariant commutes with the column permutations and the
// relabellings, so the set of images tried is the same for every state of
// an orbit: the key is canonical, and only columns of equal invariants
// are permuted among themselves (all 720 when every column looks alike).
func (cn *counter) canon(s state) state {
	c := cn.x.c
	inv := cn.colInvariant(s)
	var order [6]int
	for j := range c {
		order[j] = j
	}
	for i := 1; i < c; i++ {
		for j := i; j > 0 && inv[order[j]] < inv[order[j-1]]; j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	best, found := s, false
	// place[o]: the new index of old column o; tie groups are permuted
	var place [6]int
	var rec func(i int)
	rec = func(i int) {
		if i == c {
			var t state
			for y := range cn.n {
				var im uint8
				for m := s[y]; m != 0; m &= m - 1 {
					im |= 1 << place[bits.TrailingZeros8(m)]
				}
				t[y] = im
			}
			t = cn.relabelSort(t)
			if !found || less(t, best) {
				best, found = t, true
			}
			return
		}
		// the group of ties starting at i: positions i…e-1
		e := i + 1
		for e < c && inv[order[e]] == inv[order[i]] {
			e++
		}
		cn.permuteGroup(order[i:e], i, &place, func() { rec(e) })
	}
	rec(0)
	return best
}

// permuteGroup gives the old columns cols every order of the new indices
// first, first+1, …, calling next for each.
func (cn *counter) permuteGroup(cols []int, first int, place *[6]int, next func()) {
	var rec func(i int, used int)
	rec = func(i, used int) {
		if i == len(cols) {
			next()
			return
		}
		for k := range cols {
			if used&(1<<k) == 0 {
				place[cols[i]] = first + k
				rec(i+1, used|1<<k)
			}
		}
	}
	rec(0, 0)
}

// sortFive sorts r[:n], n ≤ 5, ascending; for n < 5 the unused tail
// must not be below the used values, so it is set to the maximum first.
func sortFive(r *[5]uint64, n int) {
	for i := n; i < 5; i++ {
		r[i] = ^uint64(0)
	}
	// An optimal 9-comparator network, without branches.
	cx := func(a, b int) { r[a], r[b] = min(r[a], r[b]), max(r[a], r[b]) }
	cx(0, 1)
	cx(3, 4)
	cx(2, 4)
	cx(2, 3)
	cx(0, 3)
	cx(0, 2)
	cx(1, 4)
	cx(1, 3)
	cx(1, 2)
}

// colInvariant describes each column by counts that relabellings commuting
// with σ and column permutations keep: the symbols of 2-cycles and the fixed
// symbols having taken it, and, sorted over the other columns j', how many
// symbols took both and how many 2-cycles took one each.
func (cn *counter) colInvariant(s state) [6]uint64 {
	c, k := cn.x.c, cn.k
	// Each column's symbols as a bit set, so that the counts are
	// popcounts (from a profile: a third of class 153's time was testing
	// every column pair of every symbol's mask here).
	var took [6]uint16
	for y := range cn.n {
		for m := s[y]; m != 0; m &= m - 1 {
			took[bits.TrailingZeros8(m)] |= 1 << y
		}
	}
	pairs := uint16(1)<<(2*k) - 1 // the symbols of 2-cycles
	firsts := pairs & 0x5555      // 2i, the first of each 2-cycle
	var out [6]uint64
	for j := range c {
		var rest [5]uint64
		m := 0
		for j2 := range c {
			if j2 == j {
				continue
			}
			both := bits.OnesCount16(took[j] & took[j2])
			// 2-cycles (2i, 2i+1) with one symbol in j and the other in j2.
			across := bits.OnesCount16(took[j]&firsts&(took[j2]>>1)) +
				bits.OnesCount16(took[j2]&firsts&(took[j]>>1))
			rest[m] = uint64(both)<<4 | uint64(across)
			m++
		}
		sortFive(&rest, m)
		v := uint64(bits.OnesCount16(took[j]&pairs))<<4 | uint64(bits.OnesCount16(took[j]&^pairs))
		for _, x := range rest[:m] {
			v = v<<8 | x
		}
		out[j] = v
	}
	return out
}

// columnPerms tabulates every permutation of c columns on the masks.
func columnPerms(c int) [][64]uint8 {
	var out [][64]uint8
	p := make([]int, c)
	for i := range p {
		p[i] = i
	}
	var rec func(int)
	rec = func(i int) {
		if i == c {
			var t [64]uint8
			for m := range 1 << c {
				var im uint8
				for j := range c {
					if m&(1<<j) != 0 {
						im |= 1 << p[j]
					}
				}
				t[m] = im
			}
			out = append(out, t)
			return
		}
		for j := i; j < c; j++ {
			p[i], p[j] = p[j], p[i]
			rec(i + 1)
			p[i], p[j] = p[j], p[i]
		}
	}
	rec(0)
	return out
}

// parityFind is a union-find with each element's parity to its root.
type parityFind struct {
	parent     [2 * maxSymbols]int8
	parity     [2 * maxSymbols]uint8
	components int
}

func (u *parityFind) init(n int) {
	for i := range n {
		u.parent[i], u.parity[i] = int8(i), 0
	}
	u.components = n
}

func (u *parityFind) find(a int) (int, uint8) {
	var p uint8
	for int(u.parent[a]) != a {
		p ^= u.parity[a]
		a = int(u.parent[a])
	}
	return a, p
}

// union records bit(a) ⊕ bit(b) = par; false when that contradicts the
// constraints recorded before.
func (u *parityFind) union(a, b int, par uint8) bool {
	ra, pa := u.find(a)
	rb, pb := u.find(b)
	if ra == rb {
		return pa^pb == par
	}
	u.parent[ra] = int8(rb)
	u.parity[ra] = pa ^ pb ^ par
	u.components--
	return true
}

func less(a, b state) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

// canonCache remembers the canon of recently met raw keys, direct-mapped
// (a key's slot is fixed by its hash and a newer key takes it): a state has
// up to about 450,000 raw successors (class 142, k = 3), so no cache holds
// a layer's, and a map that kept them all took class 172's part 4 past 21
// GiB. The canon depends only on σ_k and the key, so the cache serves
// every layer of a counter.
type canonCache struct {
	// A slot holds a raw key and its canon side by side, so that a lookup
	// touches one cache line, not one per array (from a profile: the
	// lookups were a fifth of class 153's time, nearly all memory waits).
	slots []canonSlot
}

type canonSlot struct{ raw, canon state }

// canonSlots is the cache's size: 2^22 slots of 24 bytes, 101 MB.
const canonSlots = 1 << 22

// emptySlot marks a slot never filled: no key has a mask of 0xff (a mask
// holds at most c ≤ 6 columns).
const emptySlot = 0xff

func newCanonCache() *canonCache {
	c := &canonCache{slots: make([]canonSlot, canonSlots)}
	for i := range c.slots {
		c.slots[i].raw[0] = emptySlot
	}
	return c
}

func (c *canonCache) slot(r state) *canonSlot {
	return &c.slots[stateHash(r)&(canonSlots-1)]
}

func (c *canonCache) get(r state) (state, bool) {
	if e := c.slot(r); e.raw == r {
		return e.canon, true
	}
	return state{}, false
}

func (c *canonCache) put(r, v state) {
	*c.slot(r) = canonSlot{raw: r, canon: v}
}
