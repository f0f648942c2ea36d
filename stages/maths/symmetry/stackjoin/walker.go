package stackjoin

import (
	"context"
	"fmt"
	"math/big"
	"math/bits"
	"slices"

	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/perm"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/stackjoin/rowkeys"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/stackjoin/stackcount"
)

// walker holds the state of the enumeration for one σ.
type walker struct {
	ctx    context.Context
	p      *problem
	n, c   int
	full   uint16
	ord    int
	sigma  []int
	sigM   [][]uint16 // sigM[k][m] = σ^k(m)
	subs   []uint16   // the C-subsets of the symbols
	subsOf [][]uint16 // per mask, its C-subsets (subsetsOf)
	orbits []orbit
	// last[i]: the index after the last orbit of cycle i.
	last []int
	// config[t][r]: the set at (t, r), 0 when unset.
	config  [][]uint16
	rowUsed []uint16   // per row
	boxUsed [][]uint16 // per stack, per band
	twistID []int32    // per stack cycle, its twist's id in stackCounts
	st      *Stats
	budget  uint64
	err     error
	// charges counts the calls of charge, which looks at ctx every 4096
	// of them: Nodes alone, advanced by varying steps, could skip every
	// multiple of 4096 for minutes (6×2 parts ran minutes past their
	// deadline).
	charges uint32
	acc     []*big.Int          // acc[i]: sum over completions of cycles ≥ i
	twists  []*stackcount.Twist // per stack cycle, built on first use
	norms   []*rowkeys.RowNormal
	tmp     []*big.Int // complete's scratch, per stack cycle
	opt     options
	share   *share // FixedPart: this worker's subtrees; nil: all
	// probe, when set, counts the enumeration's nodes by depth down to
	// len(probe)-1, and probeLeaves the last cycle's configurations
	// complete above that depth, instead of counting grids (shareDepth).
	probe       []uint64
	probeLeaves uint64

	// symQ: the non-identity relabellings of the first row's stabiliser
	// (firstRowSymbols), each as two byte tables of its image of a symbol
	// set; nil when it is trivial or too large to use. Listed on first use
	// below each first row (symQReady; relabellings): most first rows of a
	// part have no subtree of its own.
	symQ      [][2][256]uint16
	symQReady bool
	firstQ    []uint16 // the first row set by setFirstRow
	symRows   []uint16 // canonical's scratch
	// stab0: the stabiliser of the first cycle's configuration in the
	// group canonical uses (the pairs (y, z) mapping it onto itself), which
	// the second cycle's configurations are taken up to (secondCanonical).
	stab0 []symmetryPair
	// tauFree[i]: stack cycle i's τ = σ^ℓ is the identity, so its E is
	// kept by every relabelling (rowkeys.RelabelKey); rhoFree[i]: its ρ^ℓ is too.
	tauFree, rhoFree []bool
	// tauCycles[i]: the cycles of stack cycle i's τ (rowkeys.CycleKey)
	tauCycles [][][]int

	// later memoises, below the first row (setFirstRow clears it), the sum
	// over the configurations of the stack cycles after ci given those up
	// to ci (acc[ci+1] after fill(last[ci])), by ci and the symbols used in
	// each row: the later stacks' cells are free but for the first row's
	// orbits, so that sum depends on nothing else (the canonical weights
	// are those of cycles 0 and 1 alone). memoFrom[ci]: the cycles after ci
	// hold at least two stacks (with one, the rows leave it a single
	// configuration, and 3×4 never meets the memo).
	later    map[laterKey]laterCount
	laterBig map[laterKey]*big.Int
	memoFrom []bool

	// Projection (project.go): the orbit choices made so far, and, when
	// collect is set, a hook that takes the first cycle's canonical
	// configurations instead of counting below them.
	path      []choice
	firstDone []int // stacks whose first-row orbit setFirstRow assigned
	reps      [][]uint16
	repSizes  []int
	collect   func(weight uint64)
}

// choice is one orbit's value.
type choice struct {
	orbit int
	value uint16
}

func newWalker(ctx context.Context, p *problem, lam []int, budget uint64, st *Stats) *walker {
	n := p.n
	w := &walker{ctx: ctx, p: p, n: n, c: p.c, full: uint16(1<<n - 1), st: st, budget: budget}
	w.sigma = perm.WithCycleType(lam)
	w.ord = perm.Order(w.sigma)
	w.sigM = sigmaPowerTables(w.sigma, w.ord)
	for m := range 1 << n {
		if bits.OnesCount(uint(m)) == p.c {
			w.subs = append(w.subs, uint16(m))
		}
	}
	// Orbits, cycle by cycle, from the representative's rows in order.
	seen := make([][]bool, p.r)
	for t := range seen {
		seen[t] = make([]bool, n)
	}
	for ci, cyc := range p.cycles {
		t0 := cyc[0]
		for r := range n {
			if seen[t0][r] {
				continue
			}
			o := orbit{cycle: ci}
			for t, x := t0, r; !seen[t][x]; t, x = p.pi[t], p.rho[x] {
				seen[t][x] = true
				o.stack = append(o.stack, t)
				o.row = append(o.row, x)
			}
			w.orbits = append(w.orbits, o)
		}
		w.last = append(w.last, len(w.orbits))
	}
	w.config = make([][]uint16, p.r)
	w.boxUsed = make([][]uint16, p.r)
	for t := range p.r {
		w.config[t] = make([]uint16, n)
		w.boxUsed[t] = make([]uint16, p.c)
	}
	w.rowUsed = make([]uint16, n)
	for ci := range p.cycles {
		tau := perm.Power(w.sigma, p.twistPow[ci])
		w.tauFree = append(w.tauFree, perm.IsIdentity(tau))
		w.tauCycles = append(w.tauCycles, perm.Cycles(tau))
		w.rhoFree = append(w.rhoFree, perm.IsIdentity(p.twistRho[ci]))
		w.twistID = append(w.twistID, stackCounts.twistID(p.s, p.twistRho[ci], p.twistKap[ci], tau))
	}
	stacksAfter := p.r
	for _, cyc := range p.cycles {
		stacksAfter -= len(cyc)
		w.memoFrom = append(w.memoFrom, stacksAfter >= 2)
	}
	w.twists = make([]*stackcount.Twist, len(p.cycles))
	w.norms = make([]*rowkeys.RowNormal, len(p.cycles))
	w.tmp = make([]*big.Int, len(p.cycles))
	for i := range w.tmp {
		w.tmp[i] = new(big.Int)
	}
	w.acc = make([]*big.Int, len(p.cycles)+1)
	for i := range w.acc {
		w.acc[i] = new(big.Int)
	}
	return w
}

// set tries P_t(r) = m; it reports false (changing nothing) on a clash.
func (w *walker) set(t, r int, m uint16) bool {
	b := r / w.p.r
	if w.config[t][r] != 0 || w.rowUsed[r]&m != 0 || w.boxUsed[t][b]&m != 0 {
		return false
	}
	w.config[t][r] = m
	w.rowUsed[r] |= m
	w.boxUsed[t][b] |= m
	return true
}

func (w *walker) unset(t, r int) {
	m := w.config[t][r]
	b := r / w.p.r
	w.config[t][r] = 0
	w.rowUsed[r] &^= m
	w.boxUsed[t][b] &^= m
}

// assign gives orbit o the value a at its first cell, and σ^k(a) at its
// k-th; it reports false (changing nothing) when a clashes or the orbit
// does not close.
func (w *walker) assign(o *orbit, a uint16) bool {
	L := len(o.stack)
	if w.sigM[L%w.ord][a] != a {
		return false
	}
	for k := range L {
		if !w.set(o.stack[k], o.row[k], w.sigM[k%w.ord][a]) {
			for j := range k {
				w.unset(o.stack[j], o.row[j])
			}
			return false
		}
	}
	return true
}

func (w *walker) unassign(o *orbit) {
	for k := range o.stack {
		w.unset(o.stack[k], o.row[k])
	}
}

// sum returns #{X : X∘g = σ∘X} over the first-row orbit representatives.
func (w *walker) sum() (*big.Int, error) {
	total := new(big.Int)
	reps, sizes := w.firstRows()
	for i, q := range reps {
		if w.share != nil && w.share.depth == 0 && !w.share.mine() {
			continue // FixedPartByFirstRows: another part's or worker's first row
		}
		if w.setFirstRow(q) {
			w.st.FirstRows++
			w.acc[0].SetInt64(0)
			w.fill(0)
			if w.err != nil {
				return nil, w.err
			}
			total.Add(total, new(big.Int).Mul(w.acc[0], big.NewInt(int64(sizes[i]))))
		}
		w.clearFirstRow(q)
	}
	return total, nil
}

// setFirstRow assigns the orbits of the first row's cells so that
// P_t(0) = q[t]; it reports false on a clash (clearFirstRow undoes the part
// done).
func (w *walker) setFirstRow(q []uint16) bool {
	w.firstDone = w.firstDone[:0]
	for t := range w.p.r {
		if w.config[t][0] == q[t] {
			continue
		}
		if w.config[t][0] != 0 || !w.fillCell(t, 0, q[t]) {
			return false
		}
		w.firstDone = append(w.firstDone, t)
	}
	w.firstQ, w.symQ, w.symQReady = q, nil, false
	clear(w.later)
	clear(w.laterBig)
	return true
}

// laterKey is walker.later's key: the symbols used in each row but the
// first, and in place of the first the stack cycle. The first row is full
// below setFirstRow (its R sets partition the symbols), so the key loses
// nothing; 32 bytes rather than 40.
type laterKey [16]uint16

// laterCount is a memoised later sum of at most 128 bits, big-endian: a
// pointer-free map needs no allocation per entry and gives the collector
// nothing to scan (the map of *big.Int took half of 6×2 class 172's time).
type laterCount [16]byte

// laterCountBits is the most bits a sum kept in walker.later has: 128, but
// in the tests that send the larger ones to laterBig.
var laterCountBits = 128

// maxLater bounds walker.later (about 64 bytes an entry): when full it is
// emptied, with laterBig.
const maxLater = 1 << 21

// laterSum sets acc[ci+1] to the sum over the configurations of the stack
// cycles after ci (ci ≥ 1) given those up to ci: fill(last[ci]), or its
// value memoised in later (or laterBig, the sums past 128 bits) when the
// same rows' symbols were met below this first row. The memo is used only
// where no node below is dealt out to a part or worker (below the sharing
// depth), so that every part meets the same subtrees as without it.
func (w *walker) laterSum(ci int) {
	acc := w.acc[ci+1]
	acc.SetInt64(0)
	if !w.memoFrom[ci] || w.opt.noMemo || w.probe != nil || (w.share != nil && len(w.path) < w.share.depth) {
		w.fill(w.last[ci])
		return
	}
	var k laterKey
	copy(k[1:], w.rowUsed[1:])
	w.reduceLaterKey(&k)
	k[0] = uint16(ci)
	if v, ok := w.later[k]; ok {
		w.st.Memoised++
		acc.SetBytes(v[:])
		return
	}
	if v, ok := w.laterBig[k]; ok {
		w.st.Memoised++
		acc.Set(v)
		return
	}
	w.fill(w.last[ci])
	if w.err != nil {
		return
	}
	if w.later == nil || len(w.later)+len(w.laterBig) >= maxLater {
		w.later = make(map[laterKey]laterCount)
		w.laterBig = nil
	}
	if acc.BitLen() <= laterCountBits {
		var v laterCount
		acc.FillBytes(v[:])
		w.later[k] = v
		return
	}
	if w.laterBig == nil {
		w.laterBig = make(map[laterKey]*big.Int)
	}
	w.laterBig[k] = new(big.Int).Set(acc)
}

// reduceLaterKey replaces the rows' symbols in k by their image under a
// row permutation y of rowSym, descending while one of laterSwaps makes
// them lexicographically less: most rows' symbols met then share a key.
// The later sum is the same for rows' symbols U and U∘y⁻¹: y fixes row 0
// (and so the first row's orbit, y commuting with ρ) and keeps the bands,
// so P ↦ P∘y⁻¹ on the later cycles' configurations keeps their first row,
// their orbits and their boxes, maps those disjoint from U onto those
// disjoint from U∘y⁻¹, and keeps E of each (canonical's argument). Any
// image does; the descent (each step strictly less, so it ends) only
// makes equal keys likelier. k[0], the full first row, is fixed.
func (w *walker) reduceLaterKey(k *laterKey) {
	for changed := true; changed; {
		changed = false
		for _, pairs := range w.p.laterSwaps {
			for _, ab := range pairs {
				a, b := k[ab[0]], k[ab[1]]
				if a == b {
					continue
				}
				if b < a {
					for _, ab := range pairs {
						k[ab[0]], k[ab[1]] = k[ab[1]], k[ab[0]]
					}
					changed = true
				}
				break
			}
		}
	}
}

// relabellings returns symQ, listing it on first use below the first row.
func (w *walker) relabellings() [][2][256]uint16 {
	if !w.symQReady {
		w.symQ, w.symQReady = w.firstRowSymbols(w.firstQ), true
	}
	return w.symQ
}

// maxSymbolImages bounds |Y|·|Z_Q|, the images canonical tries on a
// configuration that is least: above it the relabellings are not used
// (the row permutations alone are a group too).
const maxSymbolImages = 1 << 22

// firstRowSymbols returns the relabellings z ≠ id with zσ = σz and
// z(Q_t) = Q_t for every stack t, the stabiliser Z_Q of the first row q in
// Z(σ), as byte tables of z on symbol sets; nil when Z_Q is trivial or
// |Y|·|Z_Q| passes maxSymbolImages. X ↦ z∘X keeps X∘g = σ∘X (z commutes
// with σ) and the first row's sets, so canonical takes the configurations
// of the first cycle up to Z_Q as well as the row permutations. Such a z
// maps each σ-cycle onto one of the same length, rotated, keeping every
// symbol's stack: the backtracking below lists them.
func (w *walker) firstRowSymbols(q []uint16) [][2][256]uint16 {
	n := w.n
	stackOf := make([]int, n)
	for t, m := range q {
		for x := range n {
			if m>>x&1 != 0 {
				stackOf[x] = t
			}
		}
	}
	cycles := perm.Cycles(w.sigma)
	var zs [][]int
	z := make([]int, n)
	used := make([]bool, len(cycles))
	limit := maxSymbolImages / max(len(w.p.rowSym), 1)
	var place func(i int) bool // false: too many
	place = func(i int) bool {
		if i == len(cycles) {
			zs = append(zs, slices.Clone(z))
			return len(zs) <= limit
		}
		ci := cycles[i]
		l := len(ci)
		for j, cj := range cycles {
			if used[j] || len(cj) != l {
				continue
			}
		rotations:
			for k := range l {
				for p := range l {
					if stackOf[cj[(p+k)%l]] != stackOf[ci[p]] {
						continue rotations
					}
				}
				for p := range l {
					z[ci[p]] = cj[(p+k)%l]
				}
				used[j] = true
				ok := place(i + 1)
				used[j] = false
				if !ok {
					return false
				}
			}
		}
		return true
	}
	if !place(0) || len(zs) <= 1 {
		return nil
	}
	var out [][2][256]uint16
	for _, z := range zs {
		if slices.Equal(z, perm.Identity(n)) {
			continue
		}
		out = append(out, [2][256]uint16{})
		tab := &out[len(out)-1]
		for h := range 2 {
			// a set's image is its set without the lowest symbol's, plus
			// that symbol's image
			for b := 1; b < 256; b++ {
				if x := h*8 + bits.TrailingZeros(uint(b)); x < n {
					tab[h][b] = tab[h][b&(b-1)] | 1<<z[x]
				} else {
					tab[h][b] = tab[h][b&(b-1)]
				}
			}
		}
	}
	return out
}

// clearFirstRow undoes setFirstRow.
func (w *walker) clearFirstRow([]uint16) {
	for j := len(w.firstDone) - 1; j >= 0; j-- {
		w.unassign(w.orbitOfCell(w.firstDone[j], 0))
	}
	w.firstDone = w.firstDone[:0]
}

// orbitOfCell returns the orbit holding cell (t, r).
func (w *walker) orbitOfCell(t, r int) *orbit {
	for i := range w.orbits {
		o := &w.orbits[i]
		for k := range o.stack {
			if o.stack[k] == t && o.row[k] == r {
				return o
			}
		}
	}
	panic("stackjoin: cell in no orbit")
}

// fillCell assigns the orbit of (t, r) so that P_t(r) = m.
func (w *walker) fillCell(t, r int, m uint16) bool {
	o := w.orbitOfCell(t, r)
	for k := range o.stack {
		if o.stack[k] == t && o.row[k] == r {
			// the first cell's value a has σ^k(a) = m: a = σ^{-k}(m)
			back := (w.ord - k%w.ord) % w.ord
			return w.assign(o, w.sigM[back][m])
		}
	}
	return false
}

// firstRows returns representatives of the Z(σ)-orbits on the ordered
// partitions of the symbols into R sets of C (a first row), and the orbit
// sizes.
func (w *walker) firstRows() ([][]uint16, []int) {
	if w.reps == nil {
		key := fmt.Sprint(w.p.s, w.sigma)
		if c, ok := firstRowSets.Load(key); ok {
			fr := c.(firstRowSet)
			w.reps, w.repSizes = fr.reps, fr.sizes
		} else {
			w.reps, w.repSizes = w.computeFirstRows()
			firstRowSets.Store(key, firstRowSet{w.reps, w.repSizes})
		}
	}
	return w.reps, w.repSizes
}

// partitionRank returns the index of the ordered partition q (R masks of
// C symbols) in computeFirstRows' order, the masks of each place taken in
// increasing order among those disjoint from the places before: the
// colexicographic rank of its mask within the symbols left, times the number
// of ways to fill the places after it.
func (w *walker) partitionRank(q []uint16) int {
	r, c, n := w.p.r, w.p.c, w.n
	idx, used := 0, uint16(0)
	for t, a := range q[:r-1] {
		// rank of a among the c-subsets of the symbols not in used
		// only a's C bits contribute: walking them alone, rather than all
		// N symbols, made this 6×2's costliest step several times cheaper
		rank, seen := 0, 0
		for m := a; m != 0; m &= m - 1 {
			v := bits.TrailingZeros16(m)
			seen++
			rank += binom(v-bits.OnesCount16(used&(1<<v-1)), seen)
		}
		idx = idx*binom(n-c*t, c) + rank
		used |= a
	}
	return idx
}

// binom is the binomial coefficient n choose k (0 when k > n), for n ≤ 16.
func binom(n, k int) int { return binomTable[n][k] }

// binomTable is Pascal's triangle up to 16, the largest side.
var binomTable = func() (b [17][17]int) {
	for n := range b {
		b[n][0] = 1
		for k := 1; k <= n; k++ {
			b[n][k] = b[n-1][k-1] + b[n-1][k]
		}
	}
	return b
}()

// firstRowSet is the first-row representatives of one σ and their orbit
// sizes, read-only once computed.
type firstRowSet struct {
	reps  [][]uint16
	sizes []int
}

// computeFirstRows lists the Z(σ)-orbits of the ordered partitions by a
// complete invariant rather than by walking each orbit: a partition is a
// map f from the symbols to the R places, and z in Z(σ) permutes σ's
// cycles of equal length and rotates each, so f and f' share an orbit
// exactly when, for every cycle length, the words of f along the cycles of
// that length, each up to rotation, form the same multiset as those of f'.
// The partitions are met in partitionRank's order, so each orbit's
// representative is its least partition and the orbits come in the order
// of their least ones (the order, and so the parts of FixedPart, of the
// orbit walk this replaced: TestFirstRowsMatchOrbitWalk). The walk took
// 10-20 s per σ on 6×2 (7,484,400 partitions, ranked by every generator);
// this pass about a second.
func (w *walker) computeFirstRows() ([][]uint16, []int) {
	r, n := w.p.r, w.n
	letter := max(bits.Len(uint(r-1)), 1) // bits per place in a word
	if n*letter > 64 {
		panic(fmt.Sprintf("stackjoin: %d symbols of %d bits overflow a first-row key", n, letter))
	}
	// σ's cycles sorted by length, so each length's words are consecutive
	// in the key and can be sorted among themselves.
	cycles := perm.Cycles(w.sigma)
	slices.SortStableFunc(cycles, func(a, b []int) int { return len(a) - len(b) })
	place := make([]uint64, n)
	words := make([]uint64, len(cycles))
	key := func() uint64 {
		for i, cyc := range cycles {
			l := len(cyc)
			var word uint64
			for j, x := range cyc {
				word |= place[x] << (j * letter)
			}
			// least rotation
			width := uint(l * letter)
			mask := uint64(1)<<width - 1
			best := word
			for k := 1; k < l; k++ {
				s := uint(k * letter)
				if rot := (word>>s | word<<(width-s)) & mask; rot < best {
					best = rot
				}
			}
			words[i] = best
		}
		var k uint64
		for i := 0; i < len(cycles); {
			j := i
			for j < len(cycles) && len(cycles[j]) == len(cycles[i]) {
				j++
			}
			slices.Sort(words[i:j])
			for _, x := range words[i:j] {
				k = k<<(len(cycles[i])*letter) | x
			}
			i = j
		}
		return k
	}
	orbitOf := map[uint64]int{}
	var reps [][]uint16
	var sizes []int
	cur := make([]uint16, r)
	var rec func(t int, used uint16)
	rec = func(t int, used uint16) {
		if t == r {
			k := key()
			i, ok := orbitOf[k]
			if !ok {
				i = len(reps)
				orbitOf[k] = i
				reps = append(reps, slices.Clone(cur))
				sizes = append(sizes, 0)
			}
			sizes[i]++
			return
		}
		for _, a := range w.subs {
			if a&used == 0 {
				cur[t] = a
				for m := a; m != 0; m &= m - 1 {
					place[bits.TrailingZeros16(m)] = uint64(t)
				}
				rec(t+1, used|a)
			}
		}
	}
	rec(0, 0)
	return reps, sizes
}

func (w *walker) charge(k uint64) bool {
	w.st.Nodes += k
	if w.budget > 0 && w.st.Nodes+w.st.DPStates > w.budget {
		w.err = ErrBudget
	}
	w.charges++
	if w.charges&0xfff == 0 && w.err == nil {
		w.err = w.ctx.Err()
	}
	return w.err != nil
}

// fill assigns orbits from o on, adding to acc[cycle of o] the sum over
// completions of the products of E of the cycles from o's on.
func (w *walker) fill(o int) {
	if w.charge(1) {
		return
	}
	// Skip orbits already assigned (the first row).
	for o < len(w.orbits) && w.config[w.orbits[o].stack[0]][w.orbits[o].row[0]] != 0 {
		ci := w.orbits[o].cycle
		if o+1 == w.last[ci] {
			w.complete(ci)
			return
		}
		o++
	}
	if o == len(w.orbits) {
		return
	}
	ob := &w.orbits[o]
	t, r := ob.stack[0], ob.row[0]
	free := w.full &^ (w.rowUsed[r] | w.boxUsed[t][r/w.p.r])
	for _, a := range w.subsetsOf(free) {
		if !w.assign(ob, a) {
			continue
		}
		// Every completion of a node that prefixLeast rejects has a smaller
		// image: none is least. Nodes down to the sharing depth are kept,
		// so that the subtrees dealt out are those of KernelVersion 2.
		if ob.cycle == 0 && w.probe == nil && !w.opt.noPrefix && (w.share == nil || len(w.path) >= w.share.depth) && !w.prefixLeast() {
			w.unassign(ob)
			continue
		}
		if w.share != nil || w.probe != nil {
			d := len(w.path) + 1 // the depth of this node, over every cycle
			switch {
			case w.probe != nil:
				w.probe[d]++
				if d >= len(w.probe)-1 {
					w.unassign(ob)
					continue // deep enough: the depth is chosen
				}
			case d == w.share.depth && !w.share.mine():
				w.unassign(ob)
				continue // another part's or worker's subtree
			}
		}
		w.path = append(w.path, choice{o, a})
		if o+1 == w.last[ob.cycle] {
			w.complete(ob.cycle)
		} else {
			w.fill(o + 1)
		}
		w.unassign(ob)
		w.path = w.path[:len(w.path)-1]
		if w.err != nil {
			return
		}
	}
}

// subsetsOf returns the C-subsets of free in increasing order (the order
// of subs), listed once per mask: most masks leave few of the subsets.
func (w *walker) subsetsOf(free uint16) []uint16 {
	if w.subsOf == nil {
		w.subsOf = make([][]uint16, 1<<w.n)
	}
	l := w.subsOf[free]
	if l == nil {
		l = []uint16{}
		for _, a := range w.subs {
			if a&^free == 0 {
				l = append(l, a)
			}
		}
		w.subsOf[free] = l
	}
	return l
}

// complete handles a completed stack cycle ci: E of its representative,
// then the cycles after it.
func (w *walker) complete(ci int) {
	t := w.p.cycles[ci][0]
	weight := uint64(1)
	if ci+1 == len(w.p.cycles) {
		// A configuration complete above the sharing depth ends its branch:
		// a subtree of its own.
		if w.probe != nil {
			w.probeLeaves++
			return
		}
		if w.share != nil && len(w.path) < w.share.depth && !w.share.mine() {
			return // another part's or worker's
		}
	}
	if ci == 0 {
		var ok bool
		if weight, ok = w.canonical(w.config[t]); !ok {
			return
		}
		if w.collect != nil {
			w.collect(weight)
			return
		}
	}
	if ci == 1 && len(w.stab0) > 1 {
		var ok bool
		if weight, ok = w.secondCanonical(w.config[t]); !ok {
			return
		}
	}
	w.st.Stacks[ci]++
	var key [16]uint16
	if w.opt.plainE {
		copy(key[:], w.config[t])
	} else {
		if w.norms[ci] == nil {
			w.norms[ci] = rowkeys.NewRowNormal(w.n, w.p.r, w.p.twistRho[ci])
		}
		switch {
		case w.tauFree[ci] && w.rhoFree[ci]:
			// canonical under every row permutation: no normal form first
			key = rowkeys.RelabelKey(w.config[t], w.p.r, true)
		case w.tauFree[ci]:
			key = w.norms[ci].Key(w.config[t])
			key = rowkeys.RelabelKey(key[:w.n], w.p.r, false)
		default:
			key = w.norms[ci].Key(w.config[t])
			key = rowkeys.CycleKey(key[:w.n], w.p.r, w.tauCycles[ci])
		}
	}
	var e uint64
	ok := false
	shared := !w.opt.plainE && !w.opt.private // the process's counts
	if shared {
		e, ok = stackCounts.get(w.twistID[ci], key)
	}
	if !ok {
		e, ok = w.stackCount(ci, w.config[t])
		if !ok {
			return
		}
		w.st.Distinct[ci]++
		if shared {
			stackCounts.put(w.twistID[ci], key, e)
		}
	}
	if w.opt.checkE {
		// the memo key's configuration has the same E
		keyRows := key[:w.n]
		switch {
		case w.opt.plainE:
		case w.tauFree[ci]:
			keyRows = rowkeys.RelabelKeyRows(key, w.n, w.p.r)
		default:
			keyRows = rowkeys.CycleKeyRows(key, w.n, w.p.r, w.tauCycles[ci])
		}
		if e2, ok2 := w.stackCountPlain(ci, keyRows); ok2 && e2 != e {
			w.err = fmt.Errorf("stackjoin: stack cycle %d, rows %x: E = %d, its memo key %x has %d", ci, w.config[t], e, key[:w.n], e2)
			return
		}

	}
	if e == 0 {
		return
	}
	w.st.Nonzero[ci]++
	// we in a per-cycle scratch value: no allocation per configuration
	we := w.tmp[ci].SetUint64(e)
	if weight != 1 {
		we.Mul(we, new(big.Int).SetUint64(weight))
	}
	if ci+1 == len(w.p.cycles) {
		w.acc[ci].Add(w.acc[ci], we)
		return
	}
	if ci == 0 {
		w.acc[1].SetInt64(0)
		w.fill(w.last[0])
	} else {
		w.laterSum(ci)
	}
	if w.acc[ci+1].Sign() != 0 {
		w.acc[ci].Add(w.acc[ci], we.Mul(we, w.acc[ci+1]))
	}
}

// canonical reports whether the first stack cycle's configuration (its
// representative's row sets) is the least, read row by row, of its images
// z∘P∘y⁻¹ under the row permutations y of problem.rowSym and the
// relabellings z of symQ, and the size of its orbit, |Y|·|Z_Q|/|stabiliser|.
// Those y commute with g and fix row 0, those z commute with σ and fix the
// first row's sets, so X ↦ z∘X∘y⁻¹ carries the grids counted under one
// configuration onto those under its image (and E of every stack cycle is
// kept): the sum over configurations is the sum over the least ones
// weighted by their orbits. The row permutations are tried first: they
// reject most configurations at once.
func (w *walker) canonical(rows []uint16) (uint64, bool) {
	if w.charge(uint64(len(w.p.rowSym)) / 8) {
		return 0, false
	}
	var stab uint64
	w.stab0 = w.stab0[:0]
	// least reports whether no y maps src (rows relabelled by z, nil for
	// the identity) below rows, counting into stab and stab0 those that map
	// it onto rows; it skips the runs of y decided together (rowSymWalk).
	least := func(src []uint16, z *[2][256]uint16) bool {
		sw := &w.p.symWalk
		for k := 0; k < len(sw.inv); {
			inv := sw.inv[k]
			r := 0
			for ; r < w.n; r++ {
				if v := src[inv[r]]; v != rows[r] {
					if v < rows[r] {
						return false
					}
					break
				}
			}
			if r < w.n {
				k = int(sw.next[k*w.n+r])
				continue
			}
			stab++
			w.stab0 = append(w.stab0, symmetryPair{sw.y[k], z})
			k++
		}
		return true
	}
	if !least(rows, nil) {
		return 0, false
	}
	symQ := w.relabellings()
	if len(symQ) > 0 {
		if w.charge(uint64(len(w.p.rowSym)*len(symQ)) / 8) {
			return 0, false
		}
		if len(w.symRows) != w.n {
			w.symRows = make([]uint16, w.n)
		}
		for zi := range symQ {
			tab := &symQ[zi]
			for r, m := range rows {
				w.symRows[r] = tab[0][m&0xff] | tab[1][m>>8]
			}
			if !least(w.symRows, tab) {
				return 0, false
			}
		}
	}
	group := uint64(len(w.p.rowSym)) * uint64(len(symQ)+1)
	if group%stab != 0 {
		w.err = fmt.Errorf("stackjoin: a stabiliser of order %d in a group of order %d", stab, group)
		return 0, false
	}
	return group / stab, true
}
