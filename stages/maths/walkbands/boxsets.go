package walkbands

import (
	"context"
	"fmt"
	"math/big"
	"math/bits"
	"math/rand/v2"
	"slices"
	"sort"
	"sync"

	"github.com/sudoku-census/sudoku-census/stages/maths/montecarlo"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/perm"
)

// boxSets counts and draws the set arrays of bands of box height 5, where
// setArrays' symbol-by-symbol count has too many states (5×4: 6 minutes).
// It goes box by box instead: after boxes 0…j−1 each symbol has used a set
// U of j rows, and only the numbers n(U) of symbols per set matter. Box j
// sends k(U, i) of the n(U) symbols of each U to each row i ∉ U, in
// Π_U n(U)!/Π_i k(U,i)! labelled ways, every row taking C symbols. The
// next state is n'(V) = Σ_{i ∈ V} k(V∖{i}, i); row i then takes
// Σ_{V∋i} n'(V) − Σ_{U∋i} n(U) symbols, so n and n' alone say whether
// every row takes C. With W(n → n') the sum of the weights of the k
// leading to n' (a programme over the sets U, one after another, keyed by
// the partial n'),
//
//	h_j(n) = Σ_{n'} W(n → n') · h_{j+1}(n'),  h_R = 1,
//
// and M(R,C) = h_1(n({t}) = C for each row t). h is the same for states
// that differ by a relabelling of the rows, so it is memoised on the least
// image under the R! relabellings, and its tables are kept for the draws,
// which work on the least image and relabel what they pick back (the
// tables of every state take a few hundred MB on 5×5: the counter is built
// once per shape and process, and shared). A draw picks n' with probability
// W·h_{j+1}(n')/h_j(n) box after box, then k given n' with probability
// weight/W (back through the programme's tables), then a uniform choice of
// which symbols of each U go to which row (a shuffle): every labelled set
// array has probability 1/M (the factors telescope).
type boxSets struct {
	r, c, n int
	levels  [][]uint8 // levels[j]: the row sets of j rows, increasing
	index   [1 << MaxFirstBandHeight]int
	// relabel[p][m] is the image of row set m under the p-th relabelling.
	relabel [][1 << MaxFirstBandHeight]uint8
	memo    map[boxKey]*big.Int
	tabs    map[boxKey][]map[uint64]uint64
	picks   map[boxKey]boxPick
	total   *big.Int
	// ctx stops the count while it is built (33 s on 5×5); err is why it
	// stopped.
	ctx context.Context
	err error
}

// boxPick is what a draw picks n' from, for a state n of level j: the n'
// whose rows take C symbols each, increasing, and the running sums of
// W(n → n')·h_{j+1}(n') (the last is h_j(n)). Built with the counter, it
// spares each draw a relabelling per candidate.
type boxPick struct {
	next []uint64
	upTo []big.Int
}

// boxDraw is one drawer's scratch.
type boxDraw struct {
	used   []uint8
	groups [][]int
	x      big.Int
}

// sharedBoxSets returns the counter of R×C set arrays, built once per
// process (a caller asking meanwhile waits for it; a cancelled build keeps
// nothing): it is read only after it is built.
func sharedBoxSets(ctx context.Context, r, c int) (*boxSets, error) {
	boxSetsByShape.mu.Lock()
	defer boxSetsByShape.mu.Unlock()
	if b, ok := boxSetsByShape.built[[2]int{r, c}]; ok {
		return b, nil
	}
	b, err := newBoxSets(ctx, r, c)
	if err != nil {
		return nil, err
	}
	if boxSetsByShape.built == nil {
		boxSetsByShape.built = map[[2]int]*boxSets{}
	}
	boxSetsByShape.built[[2]int{r, c}] = b
	return b, nil
}

var boxSetsByShape struct {
	mu    sync.Mutex
	built map[[2]int]*boxSets // {R, C} → its counter
}

// boxKey is a level and its counts n(U), boxCountBits bits each in the
// order of levels[j].
type boxKey struct {
	level int
	n     uint64
}

const boxCountBits = 6

// newBoxSets returns the counter of the set arrays of R×C bands (2 ≤ R ≤
// MaxFirstBandHeight), or an error when a count does not fit its state or
// a weight 64 bits.
func newBoxSets(ctx context.Context, r, c int) (*boxSets, error) {
	n := r * c
	if r < 2 || r > MaxFirstBandHeight || n >= 1<<boxCountBits {
		return nil, fmt.Errorf("walks: the set arrays of %d×%d bands do not fit the box-by-box count", r, c)
	}
	// A weight W is at most (R−1)^N: each symbol picks one of at most R−1
	// rows.
	bound := uint64(1)
	for range n {
		hi, lo := bits.Mul64(bound, uint64(r-1))
		if hi != 0 {
			return nil, fmt.Errorf("walks: the weights of the set arrays of %d×%d bands may pass 64 bits", r, c)
		}
		bound = lo
	}
	b := &boxSets{r: r, c: c, n: n, levels: make([][]uint8, r+1), memo: map[boxKey]*big.Int{},
		tabs: map[boxKey][]map[uint64]uint64{}}
	for m := range 1 << r {
		j := bits.OnesCount(uint(m))
		b.index[m] = len(b.levels[j])
		b.levels[j] = append(b.levels[j], uint8(m))
	}
	for _, p := range perm.All(r) {
		var img [1 << MaxFirstBandHeight]uint8
		for m := range 1 << r {
			for i := range r {
				if m>>i&1 == 1 {
					img[m] |= 1 << p[i]
				}
			}
		}
		b.relabel = append(b.relabel, img)
	}
	b.ctx = ctx
	b.total = b.count(1, b.start())
	b.ctx = nil
	if b.err != nil {
		return nil, b.err
	}
	b.picks = make(map[boxKey]boxPick, len(b.tabs))
	for key, t := range b.tabs {
		var p boxPick
		for next := range t[len(t)-1] {
			if b.fits(key.level, key.n, next) {
				p.next = append(p.next, next)
			}
		}
		slices.Sort(p.next)
		p.upTo = make([]big.Int, len(p.next))
		var sum, term big.Int
		for i, next := range p.next {
			term.SetUint64(t[len(t)-1][next])
			sum.Add(&sum, term.Mul(&term, b.count(key.level+1, next)))
			p.upTo[i].Set(&sum)
		}
		b.picks[key] = p
	}
	return b, nil
}

// start is the state after box 0: C symbols on each single row.
func (b *boxSets) start() uint64 {
	var s uint64
	for t := range b.r {
		s += uint64(b.c) << (boxCountBits * b.index[1<<t])
	}
	return s
}

func countAt(state uint64, k int) int {
	return int(state >> (boxCountBits * k) & (1<<boxCountBits - 1))
}

// canonical returns the least image of a state of level j under the row
// relabellings, and the index of a relabelling giving it.
func (b *boxSets) canonical(j int, state uint64) (uint64, int) {
	best, at := state, -1
	for p, img := range b.relabel {
		var s uint64
		for k, m := range b.levels[j] {
			if v := countAt(state, k); v != 0 {
				s |= uint64(v) << (boxCountBits * b.index[img[m]])
			}
		}
		if at < 0 || s < best {
			best, at = s, p
		}
	}
	return best, at
}

// compositions calls f with every way c to split k symbols over the rows
// not in U (c[i] = 0 for i ∈ U) and its multinomial k!/Π c[i]!.
func (b *boxSets) compositions(u uint8, k int, f func(c *[MaxFirstBandHeight]int, weight uint64)) {
	var c [MaxFirstBandHeight]int
	var rec func(i, rest int, w uint64)
	rec = func(i, rest int, w uint64) {
		for i < b.r && u>>i&1 == 1 {
			i++
		}
		if i == b.r {
			if rest == 0 {
				f(&c, w)
			}
			return
		}
		for v := 0; v <= rest; v++ {
			c[i] = v
			rec(i+1, rest-v, w*binomial(rest, v))
		}
		c[i] = 0
	}
	rec(0, k, 1)
}

// contribution is the partial n' that composition c of set u adds (level
// j+1 indices).
func (b *boxSets) contribution(u uint8, c *[MaxFirstBandHeight]int) uint64 {
	var add uint64
	for i := range b.r {
		if c[i] != 0 {
			add += uint64(c[i]) << (boxCountBits * b.index[u|1<<i])
		}
	}
	return add
}

// tables runs the programme over the sets U of level j for state n: tables
// [u] maps the partial n' of the first u sets to the sum of their weights.
// The last table holds W(n → n') for every n', including those whose rows
// do not take C symbols each (see fits).
func (b *boxSets) tables(j int, state uint64) []map[uint64]uint64 {
	sets := b.levels[j]
	out := make([]map[uint64]uint64, len(sets)+1)
	out[0] = map[uint64]uint64{0: 1}
	// rowsOf[u] is how many symbols the first u sets hold on each row
	// before box j: a partial n' then gives row i Σ_{V∋i} n'(V) − rowsOf[u][i]
	// symbols of box j, at most C.
	var before [MaxFirstBandHeight]int
	for ui, u := range sets {
		next := map[uint64]uint64{}
		k := countAt(state, ui)
		for i := range b.r {
			if u>>i&1 == 1 {
				before[i] += k
			}
		}
		b.compositions(u, k, func(c *[MaxFirstBandHeight]int, w uint64) {
			if b.stopped() {
				return
			}
			add := b.contribution(u, c)
			for acc, v := range out[ui] {
				if b.rowsWithin(j, acc+add, &before) {
					next[acc+add] += v * w
				}
			}
		})
		out[ui+1] = next
	}
	return out
}

// rowsWithin reports whether the partial n' gives every row at most C
// symbols of box j, before[i] being the symbols its sets held on row i
// before box j.
func (b *boxSets) rowsWithin(j int, acc uint64, before *[MaxFirstBandHeight]int) bool {
	var took [MaxFirstBandHeight]int
	for k, m := range b.levels[j+1] {
		if v := countAt(acc, k); v != 0 {
			for i := range b.r {
				took[i] += int(m>>i&1) * v
			}
		}
	}
	for i := range b.r {
		if took[i]-before[i] > b.c {
			return false
		}
	}
	return true
}

// fits reports whether the state n' after box j gives every row C symbols
// (row i takes Σ_{V∋i} n'(V) − Σ_{U∋i} n(U)).
func (b *boxSets) fits(j int, state, next uint64) bool {
	for i := range b.r {
		took := 0
		for k, m := range b.levels[j+1] {
			if m>>i&1 == 1 {
				took += countAt(next, k)
			}
		}
		for k, m := range b.levels[j] {
			if m>>i&1 == 1 {
				took -= countAt(state, k)
			}
		}
		if took != b.c {
			return false
		}
	}
	return true
}

// binomial is C(n, k) for n ≤ 63, exactly.
func binomial(n, k int) uint64 {
	r := uint64(1)
	for i := 1; i <= k; i++ {
		r = r * uint64(n-k+i) / uint64(i)
	}
	return r
}

// count returns h_j(state), memoised on the canonical state.
func (b *boxSets) count(j int, state uint64) *big.Int {
	if j == b.r {
		return big.NewInt(1)
	}
	canon, _ := b.canonical(j, state)
	key := boxKey{j, canon}
	if v, ok := b.memo[key]; ok {
		return v
	}
	if b.stopped() {
		return new(big.Int)
	}
	t := b.tables(j, key.n)
	if b.stopped() {
		return new(big.Int) // t is incomplete
	}
	b.tabs[key] = t
	sum, term := new(big.Int), new(big.Int)
	for next, w := range t[len(t)-1] {
		if b.fits(j, key.n, next) {
			term.SetUint64(w)
			sum.Add(sum, term.Mul(term, b.count(j+1, next)))
		}
	}
	b.memo[key] = sum
	return sum
}

// stopped reports whether the count is to stop (ctx done while it is
// built), keeping the reason in err.
func (b *boxSets) stopped() bool {
	if b.err == nil && b.ctx != nil {
		b.err = b.ctx.Err()
	}
	return b.err != nil
}

// draw writes a uniformly random set array into row (row[j][s] = the row
// of box j holding symbol s), with d's scratch.
func (b *boxSets) draw(src *rand.ChaCha8, d *boxDraw, row [][]int) {
	if d.used == nil {
		d.used, d.groups = make([]uint8, b.n), make([][]int, 1<<b.r)
	}
	for s := range b.n {
		t := s / b.c
		row[0][s] = t
		d.used[s] = 1 << t
	}
	var ks [1 << MaxFirstBandHeight][MaxFirstBandHeight]int // by canonical set
	for j := 1; j < b.r; j++ {
		// The actual state, its least image and the relabelling p giving
		// it: a symbol of actual set U is of set p(U) there.
		var actual uint64
		for s := range b.n {
			actual += 1 << (boxCountBits * b.index[d.used[s]])
		}
		state, pi := b.canonical(j, actual)
		img := &b.relabel[pi]
		sets := b.levels[j]
		t := b.tabs[boxKey{j, state}]
		// n', with probability W·h_{j+1}(n')/h_j(n): the first candidate
		// whose running sum passes a uniform x < h_j(n).
		pick := b.picks[boxKey{j, state}]
		uniformBig(src, &pick.upTo[len(pick.upTo)-1], &d.x)
		next := pick.next[sort.Search(len(pick.next), func(i int) bool { return d.x.Cmp(&pick.upTo[i]) < 0 })]
		// k given n', set by set from the last: composition c of U with
		// probability tables[u][acc − c]·multinomial(c)/tables[u+1][acc].
		acc := next
		for ui := len(sets) - 1; ui >= 0; ui-- {
			u := sets[ui]
			x := montecarlo.Uniform(src, t[ui+1][acc])
			done := false
			b.compositions(u, countAt(state, ui), func(c *[MaxFirstBandHeight]int, w uint64) {
				if done {
					return
				}
				add := b.contribution(u, c)
				if !fieldsCover(acc, add) {
					return
				}
				v, ok := t[ui][acc-add]
				if !ok {
					return
				}
				if x < v*w {
					ks[u] = *c
					acc -= add
					done = true
					return
				}
				x -= v * w
			})
		}
		// Symbols by canonical set; canonical row p(i) is actual row i.
		var rowOf [MaxFirstBandHeight]int
		for i := range b.r {
			rowOf[bits.TrailingZeros8(img[1<<i])] = i
		}
		for _, m := range sets {
			d.groups[m] = d.groups[m][:0]
		}
		for s := range b.n {
			cm := img[d.used[s]]
			d.groups[cm] = append(d.groups[cm], s)
		}
		for _, m := range sets {
			g := d.groups[m]
			for i := len(g) - 1; i > 0; i-- {
				x := int(montecarlo.Uniform(src, uint64(i+1)))
				g[i], g[x] = g[x], g[i]
			}
			at := 0
			for ci := range b.r {
				for range ks[m][ci] {
					s := g[at]
					at++
					row[j][s] = rowOf[ci]
					d.used[s] |= 1 << rowOf[ci]
				}
			}
		}
	}
}

// fieldsCover reports whether every count of add is at most acc's.
func fieldsCover(acc, add uint64) bool {
	for ; add != 0; acc, add = acc>>boxCountBits, add>>boxCountBits {
		if add&(1<<boxCountBits-1) > acc&(1<<boxCountBits-1) {
			return false
		}
	}
	return true
}
