package walks

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"

	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
	"github.com/sudoku-census/sudoku-census/stages/maths/montecarlo"
)

// Lookahead draws samples of stochastic enumeration with look-ahead
// weights: like Enumerator it carries up to Budget partial grids down the
// MRV tree level by level, but it keeps children with unequal
// probabilities, favouring those whose subtrees promise more grids, and
// gives every kept node its own weight.
//
// At level l each node v of S_l has a weight w_v (w_root = 1). Its
// children c are the symbols of the cell v branches on, less those that
// leave some empty peer cell without a candidate (forward checking: such a
// child has no grid below it). Each child gets a score
//
//	a_c = w_v · exp(α·Σ_{empty cells e of c} log |cand_c(e)|),
//
// the weight times a tempered product of the candidate counts of its empty
// cells (α = Alpha; the product is Kilfoil's kind of guess at the number of
// completions, and α < 1 trusts it less). With m = min(B, number of
// children), the inclusion probabilities are π_c = min(1, λ·a_c), λ such
// that Σ π_c = m, and S_{l+1} is drawn by systematic sampling with them
// (one uniform u; child c is kept if an integer lies in
// [u + Π_{<c}, u + Π_{≤c}), Π the running sum of π): exactly m children,
// each with probability π_c. A kept child's weight is w_c = w_v/π_c. The
// sample is Σ_{v∈S_D} w_v at the grid depth D.
//
// Unbiasedness. With L(v) the number of grids below v, given S_l
//
//	E[Σ_{c∈S_{l+1}} w_c·L(c)] = Σ_c π_c·(w_v/π_c)·L(c) = Σ_{v∈S_l} w_v·L(v),
//
// summing over all children c (of parent v): the dropped dead children have
// L = 0, and every other child has π_c > 0. By induction E[Σ_{S_D} w] =
// L(root), the number of grids, whatever the scores: they change only the
// variance. With α = 0 every child has the same score within a parent and
// the scheme is stochastic enumeration with forward checking (Horvitz and
// Thompson's estimator of the level's total, taken level by level).
//
// Why it helps: plain stochastic enumeration spends its budget evenly on
// children whose subtrees differ by orders of magnitude, and the product
// of the levels' C/m factors then fluctuates with the luck of which ones
// were kept. Scores proportional to a guess of L(c) make w_c·L(c) nearly
// equal over the kept set, the ideal of importance sampling; the forward
// check alone stops the budget being spent on nodes already dead.
//
// Weights are kept as float64 relative to a common Value factor, renormalised
// every level, so samples of 25×25 grids (about 10^308) do not overflow.
type Lookahead struct {
	// Budget is B, the most nodes kept per level; Alpha is α.
	Budget int
	Alpha  float64

	cur, next     []*Walker // nodes of this level and the next
	weight, nextW []float64 // w_v relative to the common factor
	logH, nextH   []float64 // Σ log|cand| over the empty cells of each node
	branchOn      []int     // cell each current node branches on
	// children of the current level, in node order: parent, symbol, score
	// (then inclusion probability) and log-product of candidates.
	parent   []int32
	symbol   []uint8
	keep     []int32 // indices of the kept children
	order    []int32 // the children in a random order
	prob     []float64
	childH   []float64
	logTab   []float64 // log k for k = 0…N (log 0 unused)
	logRatio []float64 // log((k−1)/k) for k = 2…N
	delta    []float64 // scoreChildren's change of Σ log|cand| per symbol
	shape    grid.Shape

	copyCost int64
	cells    int
}

// MaxAlpha bounds α: beyond it the scores are all but 0 or 1 and the
// weights overflow.
const MaxAlpha = 16.0

// NewLookahead returns a look-ahead enumerator of budget ≥ 1 and α ≥ 0 on
// shape s.
func NewLookahead(s grid.Shape, budget int, alpha float64) (*Lookahead, error) {
	if budget < 1 {
		return nil, fmt.Errorf("walks: look-ahead budget %d, want ≥ 1", budget)
	}
	if !(alpha >= 0 && alpha <= MaxAlpha) {
		return nil, fmt.Errorf("walks: look-ahead exponent %v, want a number in [0, %g]", alpha, MaxAlpha)
	}
	w, err := NewWalker(s, MRV)
	if err != nil {
		return nil, err
	}
	n := s.N()
	e := &Lookahead{
		Budget: budget, Alpha: alpha,
		// One node more than the budget: rounding can make the inclusion
		// probabilities sum to a hair over m, and systematic sampling then
		// keep m + 1 children (truncating would bias the estimate).
		cur: make([]*Walker, budget+1), next: make([]*Walker, budget+1),
		weight: make([]float64, budget+1), nextW: make([]float64, budget+1),
		logH: make([]float64, budget+1), nextH: make([]float64, budget+1),
		branchOn: make([]int, budget+1),
		parent:   make([]int32, 0, budget*n), symbol: make([]uint8, 0, budget*n),
		keep: make([]int32, 0, budget), order: make([]int32, 0, budget*n), prob: make([]float64, 0, budget*n), childH: make([]float64, 0, budget*n),
		logTab: make([]float64, n+1), logRatio: make([]float64, n+1), delta: make([]float64, n), shape: s, cells: w.cells,
	}
	for k := 1; k <= n; k++ {
		e.logTab[k] = math.Log(float64(k))
		if k > 1 {
			e.logRatio[k] = math.Log(float64(k-1) / float64(k))
		}
	}
	for i := range budget + 1 {
		e.cur[i], e.next[i] = w.clone(), w.clone()
	}
	e.copyCost = w.copyLines()
	return e, nil
}

// scoreChildren sets e.delta[v-1] to the change in Σ log|cand| over the
// empty cells when node w puts symbol v in cell c, for every candidate v
// of c, and returns the candidates that leave some peer of c without a
// candidate (dead children), and the work (peers examined). One pass over
// the peers serves every symbol: a peer p loses v exactly when v is in
// cand(c) ∩ cand(p).
func (e *Lookahead) scoreChildren(w *Walker, c int) (dead uint64, work int64) {
	cand := w.cand[c]
	own := -e.logTab[bits.OnesCount64(cand)]
	for m := cand; m != 0; m &= m - 1 {
		e.delta[bits.TrailingZeros64(m)] = own
	}
	for _, p := range w.peers[c] {
		x := w.cand[p] & cand
		if x == 0 {
			continue
		}
		k := bits.OnesCount64(w.cand[p])
		if k == 1 {
			dead |= x
			continue
		}
		r := e.logRatio[k]
		for ; x != 0; x &= x - 1 {
			e.delta[bits.TrailingZeros64(x)] += r
		}
	}
	return dead, int64(len(w.peers[c]))
}

// Sample draws one sample and returns it with its work: the bookkeeping of
// every node as for the MRV walk, the peers examined to score each child,
// and copyCost per node copied.
func (e *Lookahead) Sample(src *rand.ChaCha8) (montecarlo.Value, int64) {
	root := e.cur[0]
	root.resetOrder()
	live := 1
	e.weight[0] = 1
	e.logH[0] = float64(e.cells) * e.logTab[e.shape.N()]
	common := montecarlo.One
	var work int64
	for range e.cells {
		e.parent, e.symbol, e.prob, e.childH = e.parent[:0], e.symbol[:0], e.prob[:0], e.childH[:0]
		children := 0
		for i, w := range e.cur[:live] {
			w.work = 0
			c, k := w.mostConstrained()
			work += w.work
			e.branchOn[i] = c
			children += k
		}
		if children == 0 {
			return montecarlo.Value{}, work
		}
		// Within the budget every child is kept (π = 1) and needs no
		// score; a dead one dies at the next level.
		scored := children > e.Budget
		maxH := 0.0 // unscored children all have h = 0
		if scored {
			maxH = math.Inf(-1)
		}
		for i, w := range e.cur[:live] {
			c := e.branchOn[i]
			var dead uint64
			if scored {
				var cost int64
				dead, cost = e.scoreChildren(w, c)
				work += cost
			}
			for m := w.cand[c] &^ dead; m != 0; m &= m - 1 {
				v := bits.TrailingZeros64(m)
				h := 0.0
				if scored {
					h = e.logH[i] + e.delta[v]
					maxH = max(maxH, h)
				}
				e.parent = append(e.parent, int32(i))
				e.symbol = append(e.symbol, uint8(v+1))
				e.childH = append(e.childH, h)
			}
		}
		total := len(e.parent)
		if total == 0 {
			return montecarlo.Value{}, work
		}
		m := min(e.Budget, total)
		for j := range total {
			if !scored {
				e.prob = append(e.prob, 1) // every child kept
				continue
			}
			// The floor keeps every viable child's probability positive
			// (an underflow to 0 would bias the estimate).
			e.prob = append(e.prob, max(minScore, e.weight[e.parent[j]]*math.Exp(e.Alpha*(e.childH[j]-maxH))))
		}
		if scored {
			inclusion(e.prob, m)
		}
		// Systematic sampling: the points u, u+1, …, u+m−1 on the running
		// sum of the inclusion probabilities; a child's interval is at most
		// 1 long, so it holds at most one point. The children are taken in
		// a random order: in their natural order the one u would pick the
		// same-numbered symbol of every parent, and so correlate them.
		e.order = e.order[:0]
		for j := range total {
			e.order = append(e.order, int32(j))
		}
		for j := total - 1; j > 0; j-- {
			r := montecarlo.Uniform(src, uint64(j+1))
			e.order[j], e.order[r] = e.order[r], e.order[j]
		}
		e.keep = e.keep[:0]
		point, cum := float64(src.Uint64()>>11)*0x1p-53, 0.0
		for _, j := range e.order {
			cum += e.prob[j]
			if point < cum {
				e.keep = append(e.keep, j)
				point++
			}
		}
		slices.Sort(e.keep) // back in node order: a parent's children together
		kept := len(e.keep)
		maxW := 0.0
		for t, j := range e.keep {
			i := int(e.parent[j])
			w, cost := adopt(e.next, e.cur, t, i, t+1 == kept || e.parent[e.keep[t+1]] != int32(i), e.copyCost)
			work += cost
			w.work = 0
			w.placed(e.branchOn[i], e.symbol[j])
			work += w.work
			e.nextW[t] = e.weight[i] / e.prob[j]
			e.nextH[t] = e.childH[j]
			if !scored {
				e.nextH[t] = e.bucketLogH(w)
			}
			maxW = max(maxW, e.nextW[t])
		}
		if kept == 0 {
			return montecarlo.Value{}, work
		}
		// Renormalise: the largest weight becomes 1, the factor moves into
		// the common Value.
		f, x := math.Frexp(maxW)
		common = common.Mul(montecarlo.Value{Frac: f, Exp: x})
		for j := range kept {
			e.nextW[j] /= maxW
		}
		e.cur, e.next = e.next, e.cur
		e.weight, e.nextW = e.nextW, e.weight
		e.logH, e.nextH = e.nextH, e.logH
		live = kept
	}
	sum := 0.0
	for _, w := range e.weight[:live] {
		sum += w
	}
	return common.Mul(montecarlo.Value{Frac: sum}), work
}

// bucketLogH returns Σ log|cand| over the empty cells of w, from the
// numbers of cells in its MRV buckets.
func (e *Lookahead) bucketLogH(w *Walker) float64 {
	h := 0.0
	for k := 1; k <= w.n; k++ {
		n := 0
		for _, word := range w.bucketOf(k) {
			n += bits.OnesCount64(word)
		}
		h += float64(n) * e.logTab[k]
	}
	return h
}

// minScore is the least score of a viable child (scores are at most 1:
// weights are renormalised to at most 1 and exp(α·(h − max h)) ≤ 1).
const minScore = 1e-200

// inclusion turns the scores a (> 0) into inclusion probabilities for a
// sample of about m ≤ len(a) items: π = min(1, λ·a) with λ such that
// Σπ = m. Items whose λ·a passes 1 are capped at 1 (marked −1 meanwhile)
// and λ is recomputed for the rest until none does. Every π is > 0: an
// item is capped only when λ·a ≥ 1 + capSlack, so the capped ones, whose
// λ·a sum to at most the rest r, number fewer than r, and λ stays
// positive for the items left. (Capping at exactly 1 could, by rounding,
// cap r items while tiny ones remain, and leave those λ = 0: subtrees
// never counted.) Σπ may miss m by rounding; systematic sampling keeps
// each item with probability π all the same.
func inclusion(a []float64, m int) {
	for {
		rest, sum := m, 0.0
		for _, x := range a {
			if x < 0 {
				rest--
			} else {
				sum += x
			}
		}
		lambda := float64(rest) / sum
		capped := false
		for j, x := range a {
			if x >= 0 && lambda*x >= 1+capSlack {
				a[j] = -1
				capped = true
			}
		}
		if !capped {
			for j, x := range a {
				if x < 0 {
					a[j] = 1
				} else {
					a[j] = min(1, lambda*x)
				}
			}
			return
		}
	}
}

// capSlack is how far past 1 λ·a must be for inclusion to cap an item:
// far above rounding, far below any effect on the variance.
const capSlack = 1e-9
