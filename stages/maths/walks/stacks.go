package walks

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"math/rand/v2"

	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
	"github.com/sudoku-census/sudoku-census/stages/maths/heuristic"
	"github.com/sudoku-census/sudoku-census/stages/maths/montecarlo"
	"github.com/sudoku-census/sudoku-census/stages/maths/walkbands"
)

// Stacks estimates the number of grids of boxes R×C (N = RC) from their
// stack structures and band colourings, walking no cell.
//
// Take a stack (C columns) and a symbol x. x lies once in each of the C
// boxes of the stack (one per band) and once in each of its C columns, so
// it defines a bijection π_x from bands to the stack's columns; column j
// holds R symbols in band b, so #{x : π_x(b) = j} = R. Call the N
// bijections of a stack its structure; there are SA(R,C) = N!·M(C,R)/(R!)^C
// structures, with M the set arrays of package walkbands (a stack structure
// is the set array of a band of the transposed shape C×R). Given the R
// stacks' structures, band b is fixed up to the rows: H_b, the bipartite
// graph joining each column to the R symbols it holds in band b, is
// R-regular, and a band is exactly a proper R-edge-colouring of H_b by the
// rows (each column and each symbol once per row; boxes hold each symbol
// once by construction). Hence
//
//	grids(R,C) = Σ_{structures of the R stacks} Π_b EC_R(H_b),
//
// with EC_R the number of ordered R-edge-colourings (verified by the tests
// against 288 and 28,200,960). A sample draws the R structures uniformly
// (from uniform bands of the transposed shape) and returns SA^R·Π_b Ê_b with
// Ê_b an unbiased estimate of EC_R(H_b). For C = 6 the uniform draw is out
// of reach (walkbands.FirstBand needs the count M(C,R), known for C ≤
// MaxFirstBandHeight = 5 only), so each structure is drawn by
// heuristic.CompletionsSampler's sequential importance sampling instead, a
// structure being exactly its labelled set array, and weighed by 1/P, P
// the probability of the structure drawn, in place of S: still unbiased,
// E = Σ_structures P·(1/P)·Π_b EC(H_b) summed over the stacks (the tests
// check it on shapes of known count). Ê_b is: exact for R ≤ 3 (Σ over the perfect
// matchings M of 2^cycles(H − M)); for R ≥ 4 Ê_b = pm(H)·Ê(H − M) for a
// uniform perfect matching M, recursively down to degree 3, counted exactly
// (E[pm(H)·EC(H − M)] = Σ_M EC(H − M) = EC(H)). Every factor is positive
// (a regular bipartite graph always has a colouring: König), so no sample is
// 0 (but the hybrid's at a dead end, see NewStacksHybrid), and EC of
// regular graphs varies little: on 16×16 log10 EC_4 spreads by about 0.06
// over random H_b.
//
// Not safe for concurrent use.
type Stacks struct {
	r, c, n int
	first   *walkbands.FirstBand // uniform bands of the transposed shape C×R, or nil
	factor  montecarlo.Value     // SA(R,C)^R, with first
	// sampled draws the structures when first is nil (C = 6), into array:
	// array[x·C + i] is the box (band) that row i of the transposed band
	// (a column of the stack) gives symbol x.
	sampled *heuristic.CompletionsSampler
	array   []uint8
	// graph[b][j] is the symbol set of column j in band b; rest its copy
	// while matchings are removed.
	graph, rest [][]uint64
	match       []uint64
	pm          matchings
	// exactColumns is how many columns of each matching the memo counts,
	// those left once the others are drawn (0: all counted).
	exactColumns int
	// tail and tailMatch are the memo's columns and matching, on the
	// symbols the drawn columns left, renumbered 0…len(tail)−1.
	tail, tailMatch []uint64
	// colourings counts a band's colourings once its degree is at most 3;
	// sets is its input.
	colourings *walkbands.LastBand
	// draws is how many candidates each drawn-in-part matching and each
	// sampled structure takes before one is kept (see SetDraws); cand,
	// candWeight and candArrays hold them.
	draws      int
	cand       [][]uint64
	candWeight []montecarlo.Value
	candArrays [][]uint8
	work       int64
	err        error
}

// MaxStacksDraws is the most candidates SetDraws takes.
const MaxStacksDraws = 256

// SetDraws makes each matching drawn in part (with exact columns fewer
// than the side) and each structure drawn by sequential importance
// sampling (box width 6) draw k candidates independently and keep one,
// candidate i with probability w_i/Σw, where w_i is its weight (pm(rest)/P
// for a matching, 1/P for a structure), the kept one weighing the mean
// Σw/k in place of its own w_i. It stays unbiased: for any g,
// E[(Σw/k)·Σ_i (w_i/Σw)·g(M_i)] = (1/k)·Σ_i E[w_i·g(M_i)] = Σ_M g(M), and
// the rest of the sample, drawn afterwards, is such a g given M (an
// unbiased estimate of the colourings that follow it). The weight's
// relative variance falls about k-fold, which matters where the sample is
// a product of many such weights (3 matchings a band and a structure a
// stack on 36×36: see TestTailPilotMatchings), while the band's exact
// count of degree 3, the sample's main cost, is still done once. k = 1
// draws exactly what it did without it (the same samples).
func (e *Stacks) SetDraws(k int) error {
	if k < 1 || k > MaxStacksDraws {
		return fmt.Errorf("walks: the stack estimator's candidate draws must be in [1, %d], not %d", MaxStacksDraws, k)
	}
	e.draws = k
	e.cand = make([][]uint64, k)
	e.candWeight = make([]montecarlo.Value, k)
	e.candArrays = make([][]uint8, k)
	for i := range k {
		e.cand[i] = make([]uint64, e.n)
		if e.array != nil {
			e.candArrays[i] = make([]uint8, len(e.array))
		}
	}
	return nil
}

// pick returns the index of one of e.candWeight[:k], i with probability
// w_i/Σw, and Σw/k; (−1, 0) when every weight is 0.
func (e *Stacks) pick(src *rand.ChaCha8, k int) (int, montecarlo.Value) {
	var total montecarlo.Value
	last := -1
	for i, w := range e.candWeight[:k] {
		if !w.IsZero() {
			total = total.Add(w)
			last = i
		}
	}
	if last < 0 {
		return -1, montecarlo.Value{}
	}
	// u uniform in [0, 1) (53 bits); the shares w_i/Σw in float64 (their
	// rounding, 2^−53, moves probabilities by as little and is the same on
	// every machine).
	u := float64(src.Uint64()>>11) / (1 << 53)
	chosen := last
	for i, w := range e.candWeight[:last] {
		if w.IsZero() {
			continue
		}
		share := w.Div(total)
		if u -= math.Ldexp(share.Frac, share.Exp); u < 0 {
			chosen = i
			break
		}
	}
	return chosen, total.Div(montecarlo.One.MulInt(uint64(k)))
}

// The limits of Stacks: a symbol set is a uint64, and with R ≤ 8 and N ≤
// 36 a band's perfect matchings, at most (R!)^(N/R) ≤ 2^62 by Brègman's
// bound, fit 64 bits. Box widths up to MaxFirstBandHeight draw their
// structures uniformly, MaxStacksWidth (6, heuristic.MaxSide) by
// sequential importance sampling.
const (
	MaxStacksSide   = 36
	MaxStacksHeight = 8
	MaxStacksWidth  = heuristic.MaxSide
)

// NewStacks returns the sampler of shape s: C ≤ MaxStacksWidth, R ≤
// MaxStacksHeight and N ≤ MaxStacksSide. ctx stops the set-array count a
// box width of 5 needs (once per process), and a sample: one takes seconds
// on 25×25, so the matchings' count checks ctx as it goes and Sample then
// fails with its error.
func NewStacks(ctx context.Context, s grid.Shape) (*Stacks, error) {
	return newStacks(ctx, s, 0, false)
}

// NewStacksHybrid is NewStacks with each perfect matching M drawn in part,
// where the memo would outgrow the cache: the memo counts and draws
// uniformly only exactColumns of the columns, on the symbols the others
// left, and the other columns (N − exactColumns of them, if positive) are
// drawn first, one at a time, the column with the fewest free symbols
// next, each taking free symbol y with probability ∝ 1/r_y, r_y the
// columns still to match that hold y (see drawSymbol). The weight
// pm(H)·Ê(H − M) becomes Ê(H − M)·pm(rest)/P, with P the probability of
// the drawn columns' symbols (0 at a dead end): Knuth's estimator on the
// drawn columns with leaf scores counted exactly, so still unbiased. With
// N ≤ exactColumns it is NewStacks. On 25×25 with StacksHybridColumns
// (2^18 states, 3 MB) a sample takes 40 ms instead of 12 s, with relvar
// about 2.5 (2,000 samples; BenchmarkRelvarSeconds).
//
// The drawn columns make the tail: a sample multiplies one drawn-in-part
// matching weight per band and degree above 3 (C·(R−3) of them), and one
// such weight has relvar (on fixed band graphs, 300 draws each:
// TestTailPilotMatchings) 0.04–0.06 (degree 5) and 0.09–0.13 (degree 4)
// on 25×25, 0.06–0.07, 0.10–0.12 and 0.17–0.27 (degrees 6, 5, 4) on 30×30,
// 0.12–0.15, 0.20–0.26 and 0.43–0.50 on 36×36, where each structure's 1/P
// adds 0.33: the product of 15 (30×30) or 18 such factors and 6
// structures is heavy-tailed (relvar 17 on 30×30; k̂ 0.7–0.9 on 36×36).
// SetDraws(k) divides each factor's relvar by about k while the exact
// counts of degree 3 (85% of a 30×30 sample) are still done once: with
// k = 8 on 30×30, relvar 0.91 [0.75, 1.08] at 0.44 CPU-s a sample, k̂ 0.20
// (600 samples; TestTailPilotRun); with k = 16 on 36×36, relvar 0.86 at
// 2.55 CPU-s a sample, k̂ 0.28 (60 samples, mean 0.68 of Kilfoil's
// sampled heuristic); its long run, 4,000 samples: relvar 1.62, k̂ 0.25,
// 1.33 CPU-s a sample, ratio 0.968 ± 0.039, consistent with the pilot's
// low mean being a tail it had not yet drawn.
func NewStacksHybrid(ctx context.Context, s grid.Shape, exactColumns int) (*Stacks, error) {
	if exactColumns < 1 || exactColumns > MaxStacksSide {
		return nil, fmt.Errorf("walks: the stack estimator's exact columns must be in [1, %d], not %d", MaxStacksSide, exactColumns)
	}
	return newStacks(ctx, s, exactColumns, false)
}

// StacksHybridColumns is the exact columns of the stack estimator's hybrid
// (variant stackshybrid of package knuth): on 25×25, 16 gave relvar·time
// 0.11 s, 18 0.10 s and 20 0.19 s (2^20 states leave the cache). Its
// samples depend on it: a change bumps KernelVersion.
const StacksHybridColumns = 18

// newStacks is NewStacksHybrid (NewStacks with exactColumns 0); sampled
// draws the structures by sequential importance sampling even where the
// uniform draw exists (box width C ≤ MaxFirstBandHeight), for the tests.
func newStacks(ctx context.Context, s grid.Shape, exactColumns int, sampled bool) (*Stacks, error) {
	if s.R < 1 || s.R > MaxStacksHeight || s.C < 1 || s.C > MaxStacksWidth || s.N() > MaxStacksSide {
		return nil, fmt.Errorf("walks: the stack estimator needs box height 1 ≤ R ≤ %d, width 1 ≤ C ≤ %d and side N ≤ %d, not %s", MaxStacksHeight, MaxStacksWidth, MaxStacksSide, s)
	}
	colourings, err := walkbands.NewBandColourings(s.N(), min(s.R, 3), s.C)
	if err != nil {
		return nil, err
	}
	e := &Stacks{r: s.R, c: s.C, n: s.N(), match: make([]uint64, s.N()), colourings: colourings,
		exactColumns: exactColumns, tail: make([]uint64, s.N()), tailMatch: make([]uint64, s.N())}
	e.pm.ctx = ctx
	e.graph = make([][]uint64, s.C)
	e.rest = make([][]uint64, s.C)
	for b := range e.graph {
		e.graph[b] = make([]uint64, e.n)
		e.rest[b] = make([]uint64, e.n)
	}
	if sampled || s.C > MaxFirstBandHeight {
		// A stack's structure is a labelled set array of the transposed
		// shape: rows its C columns, boxes the C bands.
		if e.sampled, err = heuristic.NewCompletionsSampler(grid.Shape{R: s.C, C: s.R}); err != nil {
			return nil, err
		}
		e.array = make([]uint8, s.N()*s.C)
		return e, nil
	}
	if e.first, err = walkbands.NewFirstBand(ctx, grid.Shape{R: s.C, C: s.R}); err != nil {
		return nil, err
	}
	// S = b(C,R)/(R!)^(C²): a band of C×R is a labelled set array with
	// its C² row segments (R cells each) in any order.
	rFact := new(big.Int).MulRange(1, int64(s.R))
	orders := montecarlo.ValueOfInt(new(big.Int).Exp(rFact, big.NewInt(int64(s.C*s.C)), nil))
	perStack := e.first.Count().Div(orders)
	e.factor = montecarlo.One
	for range s.R {
		e.factor = e.factor.Mul(perStack)
	}
	return e, nil
}

// Sample draws one sample and its work: the matching states counted plus
// the work of the exact counts (walkbands.LastBand's), plus, for structures
// drawn by sequential importance sampling, its permanent table's
// multiplications.
func (e *Stacks) Sample(src *rand.ChaCha8) (montecarlo.Value, int64) {
	e.work = 0
	x := e.drawGraphs(src)
	r := e.r
	for b, g := range e.graph {
		rest := e.rest[b]
		copy(rest, g)
		for d := r; d > 3; d-- {
			x = e.drawMatching(src, rest, x)
			if err := e.pm.ctx.Err(); err != nil {
				e.err = err
				return montecarlo.Value{}, e.work
			}
			if x.IsZero() { // a dead end of the drawn columns
				return x, e.work
			}
			for j := range rest {
				rest[j] &^= e.match[j]
			}
		}
		k, ok := e.exact(rest)
		if !ok {
			e.err = fmt.Errorf("walks: a band's colourings overflow 64 bits")
			return montecarlo.Value{}, e.work
		}
		x = x.MulInt(k)
	}
	return x, e.work
}

// drawGraphs draws the R stacks' structures, puts each band's graph H_b
// in e.graph[b] and returns their weight: SA^R for uniform structures, the
// product of their 1/P for sampled ones.
func (e *Stacks) drawGraphs(src *rand.ChaCha8) montecarlo.Value {
	for _, g := range e.graph {
		clear(g)
	}
	n, r, c := e.n, e.r, e.c
	if e.first == nil {
		weight := montecarlo.One
		for s := range r {
			inv := e.drawStructure(src)
			weight = weight.Mul(inv)
			for x := range n {
				for i, b := range e.array[x*c : (x+1)*c] {
					e.graph[b][s*c+i] |= 1 << x
				}
			}
		}
		return weight
	}
	for s := range r {
		// Row i of the transposed band is column s·C+i of the grid; its
		// box j (columns jR…jR+R−1) is band j.
		band := e.first.Draw(src)
		for i := range e.c {
			for col := range n {
				e.graph[col/r][s*e.c+i] |= 1 << (band[i*n+col] - 1)
			}
		}
	}
	return e.factor
}

// drawStructure draws a stack's structure by sequential importance
// sampling into e.array and returns its weight 1/P, or with SetDraws(k),
// k > 1, one of k candidates and their mean weight.
func (e *Stacks) drawStructure(src *rand.ChaCha8) montecarlo.Value {
	if e.draws <= 1 {
		inv, work := e.sampled.Draw(src, e.array)
		e.work += work
		return inv
	}
	for i := range e.draws {
		inv, work := e.sampled.Draw(src, e.candArrays[i])
		e.work += work
		e.candWeight[i] = inv
	}
	i, mean := e.pick(src, e.draws)
	if i >= 0 {
		copy(e.array, e.candArrays[i])
	}
	return mean
}

// drawMatching draws a perfect matching M of cols into e.match (see
// NewStacksHybrid) and returns x times its weight: pm(cols) for a uniform
// M, or pm(rest)/P, and 0 at a dead end; with SetDraws(k), k > 1, and
// columns to draw, one of k candidates and x times their mean weight.
func (e *Stacks) drawMatching(src *rand.ChaCha8, cols []uint64, x montecarlo.Value) montecarlo.Value {
	if e.draws <= 1 || e.exactColumns == 0 || len(cols) <= e.exactColumns {
		return e.drawOneMatching(src, cols, x)
	}
	for i := range e.draws {
		e.candWeight[i] = e.drawOneMatching(src, cols, montecarlo.One)
		copy(e.cand[i], e.match)
	}
	i, mean := e.pick(src, e.draws)
	if i < 0 {
		return montecarlo.Value{}
	}
	copy(e.match, e.cand[i])
	return x.Mul(mean)
}

// drawOneMatching is drawMatching with one candidate.
func (e *Stacks) drawOneMatching(src *rand.ChaCha8, cols []uint64, x montecarlo.Value) montecarlo.Value {
	n := len(cols)
	drawn := 0
	if e.exactColumns > 0 {
		drawn = max(0, n-e.exactColumns)
	}
	var used, done uint64
	for range drawn {
		j := fewestFree(cols, used, done)
		done |= 1 << j
		y, weight := drawSymbol(src, cols, cols[j]&^used, done)
		if y == 0 {
			return montecarlo.Value{}
		}
		e.match[j] = y
		used |= y
		x = x.Mul(weight)
	}
	e.work += int64(drawn)
	// Renumber the symbols left 0, 1, … so that the memo spans 2^len(tail)
	// sets (the identity when nothing was drawn).
	var number [MaxStacksSide]uint8
	var symbol [MaxStacksSide]uint64
	left := 0
	for free := (uint64(1)<<n - 1) &^ used; free != 0; free &= free - 1 {
		number[bits.TrailingZeros64(free)] = uint8(left)
		symbol[left] = free & -free
		left++
	}
	tail := e.tail[:0]
	var column [MaxStacksSide]int // tail[i] is column column[i]
	for c := range n {
		if done>>c&1 == 0 {
			var set uint64
			for s := cols[c] &^ used; s != 0; s &= s - 1 {
				set |= 1 << number[bits.TrailingZeros64(s)]
			}
			column[len(tail)] = c
			tail = append(tail, set)
		}
	}
	e.pm.reset(tail)
	count := e.pm.draw(src, e.tailMatch)
	e.work += e.pm.states
	if count == 0 {
		return montecarlo.Value{}
	}
	for i := range tail {
		e.match[column[i]] = symbol[bits.TrailingZeros64(e.tailMatch[i])]
	}
	return x.MulInt(count)
}

// fewestFree returns the column outside done with the fewest symbols
// outside used (the first of them): drawing the most constrained column
// first makes dead ends rarer.
func fewestFree(cols []uint64, used, done uint64) int {
	best, fewest := -1, MaxStacksSide+1
	for c, set := range cols {
		if done>>c&1 == 0 {
			if k := bits.OnesCount64(set &^ used); k < fewest {
				best, fewest = c, k
			}
		}
	}
	return best
}

// drawSymbol draws a symbol of free for a column, the columns outside
// done still to match, and returns its bit and 1/(its probability), or 0
// if no matching can follow. Symbol y has weight 840/r_y, with r_y the
// columns outside done that hold it (840 = lcm(1, …, 8), so weights are
// integers): a symbol few columns can still take is taken more often. A
// symbol no other column holds must be taken now (probability 1); two
// such symbols are a dead end.
func drawSymbol(src *rand.ChaCha8, cols []uint64, free, done uint64) (uint64, montecarlo.Value) {
	var weight [MaxStacksSide]uint64
	var total uint64
	var forced uint64
	for f := free; f != 0; f &= f - 1 {
		y := f & -f
		holders := 0
		for c, set := range cols {
			if done>>c&1 == 0 && set&y != 0 {
				holders++
			}
		}
		if holders == 0 {
			if forced != 0 {
				return 0, montecarlo.Value{}
			}
			forced = y
			continue
		}
		weight[bits.TrailingZeros64(y)] = 840 / uint64(holders)
		total += 840 / uint64(holders)
	}
	if forced != 0 {
		return forced, montecarlo.One
	}
	if total == 0 {
		return 0, montecarlo.Value{}
	}
	u := montecarlo.Uniform(src, total)
	for f := free; ; f &= f - 1 {
		y := f & -f
		w := weight[bits.TrailingZeros64(y)]
		if u < w {
			return y, montecarlo.One.MulInt(total).Div(montecarlo.One.MulInt(w))
		}
		u -= w
	}
}

// exact returns the number of ordered proper edge-colourings of the
// graph cols, regular of degree min(R, 3) (the last band's count of package
// walkbands: each stack's sets are disjoint), and false on overflow.
func (e *Stacks) exact(cols []uint64) (uint64, bool) {
	e.colourings.Work = 0
	k, ok := e.colourings.Count(cols)
	e.work += e.colourings.Work
	return k, ok
}

// matchings counts the perfect matchings of a bipartite graph (column j to
// the symbols of cols[j]) by a memo over the sets of symbols used by
// columns 0…k−1, and draws one uniformly.
type matchings struct {
	cols []uint64
	// The memo: dense (indexed by the set, valid where stamp = gen) up to
	// denseSide columns, a map beyond.
	dense  []uint64
	stamp  []uint32
	gen    uint32
	sparse map[uint64]uint64
	states int64
	// ctx stops a count: checked every checkEvery states, after which
	// every count is 0 (the caller reads ctx.Err()).
	ctx     context.Context
	stopped bool
}

// checkEvery is how often count looks at ctx: 2^16 states, a few ms.
const checkEvery = 1 << 16

// denseSide is the largest side whose memo is an array (12 bytes an entry:
// 12 MB for N = 20, 384 MB for N = 25), a map beyond.
const denseSide = 25

func (m *matchings) reset(cols []uint64) {
	m.cols, m.states, m.stopped = cols, 0, false
	n := len(cols)
	if n > denseSide {
		m.sparse = map[uint64]uint64{}
		return
	}
	if len(m.dense) != 1<<n {
		m.dense, m.stamp, m.gen = make([]uint64, 1<<n), make([]uint32, 1<<n), 0
	}
	m.gen++
	if m.gen == 0 { // wrapped: forget every stamp
		clear(m.stamp)
		m.gen = 1
	}
}

// count returns the number of perfect matchings of the columns from
// popcount(used) on into the symbols outside used.
func (m *matchings) count(used uint64) uint64 {
	if m.stopped {
		return 0
	}
	k := bits.OnesCount64(used)
	if k == len(m.cols) {
		return 1
	}
	if m.sparse == nil {
		if m.stamp[used] == m.gen {
			return m.dense[used]
		}
	} else if v, ok := m.sparse[used]; ok {
		return v
	}
	m.states++
	if m.states%checkEvery == 0 && m.ctx.Err() != nil {
		m.stopped = true
		return 0
	}
	var total uint64
	for free := m.cols[k] &^ used; free != 0; free &= free - 1 {
		total += m.count(used | free&-free)
	}
	if m.sparse == nil {
		m.stamp[used], m.dense[used] = m.gen, total
	} else {
		m.sparse[used] = total
	}
	return total
}

// draw puts a uniform perfect matching in match (match[j] the bit of
// column j's symbol) and returns the number of perfect matchings (≥ 1 on a
// regular graph; within 64 bits by the limits of NewStacks), or 0 and
// leaves match alone if there is none.
func (m *matchings) draw(src *rand.ChaCha8, match []uint64) uint64 {
	total := m.count(0)
	if m.stopped || total == 0 {
		return 0
	}
	var used uint64
	for k := range m.cols {
		u := montecarlo.Uniform(src, m.count(used))
		for free := m.cols[k] &^ used; free != 0; free &= free - 1 {
			bit := free & -free
			c := m.count(used | bit)
			if u < c {
				match[k] = bit
				break
			}
			u -= c
		}
		used |= match[k]
	}
	return total
}
