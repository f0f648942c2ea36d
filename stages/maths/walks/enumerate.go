package walks

import (
	"fmt"
	"math/bits"
	"math/rand/v2"

	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
	"github.com/sudoku-census/sudoku-census/stages/maths/montecarlo"
	"github.com/sudoku-census/sudoku-census/stages/maths/walkbands"
)

// Enumerator draws stochastic-enumeration samples (Rubinstein's SE, a form
// of Purdom's partial backtracking): instead of one path it carries up to
// Budget partial grids down the MRV or Cover search tree level by level.
//
// Level l holds a set S_l of nodes at depth l, all of equal weight W_l
// (S_0 = {root}, W_0 = 1). Their children, over every node of S_l, are C_l
// in number; S_{l+1} is a uniformly random subset of m_l = min(B, C_l) of
// them (all of them when C_l ≤ B) and W_{l+1} = W_l·C_l/m_l. The sample is
// W_D·|S_D| at the grid depth D = N² (0 once some C_l = 0: no node left).
//
// Unbiasedness. Let L(v) be the number of grids (leaves at depth D) below
// node v and Z_l = W_l·Σ_{v∈S_l} L(v). Given S_l, the weight W_{l+1} is
// fixed (C_l and m_l are functions of S_l) and each of the C_l children is
// in S_{l+1} with probability m_l/C_l, so
//
//	E[Z_{l+1} | S_l] = W_l·(C_l/m_l)·(m_l/C_l)·Σ_{v∈S_l} Σ_{c child of v} L(c) = Z_l,
//
// as the leaves below v are those below its children (if C_l = 0, both
// sides are 0). Every node at depth D is a grid, L = 1 there, so
// E[W_D·|S_D|] = E[Z_D] = Z_0 = L(root), the number of grids, on any tree
// whose branching at a node depends on that node only (MRV and Cover: see
// Order). Only the inclusion probabilities m_l/C_l enter, so any sampling
// without replacement of fixed size m_l with equal inclusion probabilities
// would do; the selection sampling used here (Knuth's Algorithm S) draws
// every m_l-subset with equal probability. Budget 1 is Knuth's walk.
//
// Why it helps: Knuth's sample is a product of D branching factors whose
// fluctuations multiply; here each level's factor C_l/m_l averages the
// branching of up to B nodes, so the relative variance falls far faster
// than the cost, which grows as B (16×16, MRV: relvar about 2500 at B = 1,
// 17 at B = 10, 0.9 at B = 100).
//
// Each node is a Walker's bookkeeping (candidates and buckets, for Cover
// also option counts and placed symbols; its Board is not used). A level
// needs m_l nodes: a child that is the last one kept of its parent takes
// over the parent's walker, the others copy it. Nothing is allocated per sample.
type Enumerator struct {
	// Budget is B, the most nodes kept per level.
	Budget int
	// First, when set, makes every sample start from a uniformly random
	// first band (walkbands.FirstBand) instead of the empty grid.
	First *walkbands.FirstBand
	// Last, when set, stops the enumeration once the upper bands are full
	// and scores every node by its exact number of last-band completions
	// (see walkbands.LastBand); set it with countLastBand.
	Last *walkbands.LastBand
	// err is an overflow of the last band's counts (never within
	// walkbands.LastBandFits), reported by Sampler.
	err error

	cur, next []*Walker // nodes of this level and the next (len Budget)
	branchOn  []int     // constraint each current node branches on
	options   []int     // and its number of options
	parent    []int     // kept child j is option choice[j] of cur[parent[j]]
	choice    []int
	copyCost  int64 // work of one copy: 64-byte lines of a walker's state
	cells     int
}

// NewEnumerator returns an enumerator of budget ≥ 1 on shape s with order o
// (MRV or Cover).
func NewEnumerator(s grid.Shape, o Order, budget int) (*Enumerator, error) {
	if o != MRV && o != Cover {
		return nil, fmt.Errorf("walks: stochastic enumeration needs order mrv or cover, not %v", o)
	}
	if budget < 1 {
		return nil, fmt.Errorf("walks: stochastic enumeration budget %d, want ≥ 1", budget)
	}
	w, err := NewWalker(s, o)
	if err != nil {
		return nil, err
	}
	e := &Enumerator{
		Budget: budget, cur: make([]*Walker, budget), next: make([]*Walker, budget),
		branchOn: make([]int, budget), options: make([]int, budget),
		parent: make([]int, budget), choice: make([]int, budget),
		cells: w.cells,
	}
	for i := range budget {
		e.cur[i], e.next[i] = w.clone(), w.clone()
	}
	e.copyCost = w.copyLines()
	return e, nil
}

// clone returns a walker with w's tables and its own bookkeeping.
func (w *Walker) clone() *Walker {
	c := *w
	c.Board = nil
	c.Trail, c.perm = nil, nil
	c.cand = make([]uint64, len(w.cand))
	c.options = make([]int32, len(w.options))
	c.done = make([]uint64, len(w.done))
	c.bucket = make([]uint64, len(w.bucket))
	return &c
}

// copyLines is the work of copying a node: the 64-byte lines of its
// candidates, option counts, done sets and buckets. MRV has copied less
// since it stopped keeping option counts, but the work, part of every
// bundled sample, keeps counting what it counted when the units were
// computed: a sample is the same bytes whatever the build.
func (w *Walker) copyLines() int64 {
	words := len(w.cand) + len(w.options)/2 + len(w.done) + len(w.bucket)
	return int64(words+7) / 8
}

// copyState makes w's bookkeeping that of src (same shape and order).
func (w *Walker) copyState(src *Walker) {
	copy(w.cand, src.cand)
	if w.Order == Cover { // MRV reads neither option counts nor done
		copy(w.options, src.options)
		copy(w.done, src.done)
	}
	copy(w.bucket, src.bucket)
}

// take places option j of constraint i (see Walker.branch) in the
// bookkeeping only.
func (w *Walker) take(i, j int) {
	if i < w.cells {
		w.placed(i, uint8(montecarlo.NthBit(w.cand[i], uint64(j))+1))
		return
	}
	w.placed(w.pairOption(i, j))
}

// Sample draws one sample and returns it with its work: the bookkeeping
// operations of every node (as for the MRV and Cover walks), plus one per
// child weighed by the selection, plus copyCost per node copied.
func (e *Enumerator) Sample(src *rand.ChaCha8) (montecarlo.Value, int64) {
	e.cur[0].resetOrder()
	live := 1
	num, den := montecarlo.One, montecarlo.One
	var work int64
	levels := e.cells
	if e.First != nil {
		// The root is a uniformly random first band, weighted by the
		// number of bands (see walkbands.FirstBand); its cells count one unit of
		// work each.
		band := e.First.Draw(src)
		for c, v := range band {
			e.cur[0].placed(c, v)
		}
		num = e.First.Count()
		levels -= len(band)
		work += int64(len(band))
	}
	if e.Last != nil {
		levels -= e.Last.Cells()
	}
	for range levels {
		total := 0
		for i, w := range e.cur[:live] {
			w.work = 0
			e.branchOn[i], e.options[i] = w.mostConstrained()
			work += w.work
			total += e.options[i]
		}
		if total == 0 {
			return montecarlo.Value{}, work
		}
		work += int64(total)
		m := min(e.Budget, total)
		num, den = num.MulInt(uint64(total)), den.MulInt(uint64(m))
		// Algorithm S: child t is kept with probability (m−kept)/(total−t),
		// a draw only when that is neither 0 nor 1.
		kept, t := 0, 0
		for i := range live {
			for j := range e.options[i] {
				need, left := m-kept, total-t
				if need == left || (need > 0 && int(montecarlo.Uniform(src, uint64(left))) < need) {
					e.parent[kept], e.choice[kept] = i, j
					kept++
				}
				t++
			}
		}
		for j := range m {
			i := e.parent[j]
			w, cost := adopt(e.next, e.cur, j, i, j+1 == m || e.parent[j+1] != i, e.copyCost)
			work += cost
			w.work = 0
			w.take(e.branchOn[i], e.choice[j])
			work += w.work
		}
		e.cur, e.next = e.next, e.cur
		live = m
	}
	if e.Last == nil {
		return num.MulInt(uint64(live)).Div(den), work
	}
	// Σ L(v) over the nodes left, exactly.
	var sum uint64
	e.Last.Work = 0
	for _, w := range e.cur[:live] {
		k, ok := e.Last.Count(w.cand)
		var carry uint64
		if sum, carry = bits.Add64(sum, k, 0); !ok || carry != 0 {
			e.err = fmt.Errorf("walks: the last band's completions overflow 64 bits")
			return montecarlo.Value{}, work
		}
	}
	return num.MulInt(sum).Div(den), work + e.Last.Work
}

// countLastBand makes the enumeration stop at the upper bands and count
// the last band exactly (see walkbands.LastBand).
func (e *Enumerator) countLastBand(lb *walkbands.LastBand) {
	mask := lb.RestrictUpper(e.cur[0].words)
	for i := range e.cur {
		e.cur[i].restrict, e.next[i].restrict = mask, mask
	}
	e.Last = lb
}

// adopt makes next[t] the node of a kept child of cur[i] and returns it
// with the work it took: a copy of the parent's state (copyCost), or, for
// the parent's last kept child, the parent's own walker, swapped in for
// free. The caller then makes the child's placement on it.
func adopt(next, cur []*Walker, t, i int, last bool, copyCost int64) (*Walker, int64) {
	if last {
		next[t], cur[i] = cur[i], next[t]
		return next[t], 0
	}
	next[t].copyState(cur[i])
	return next[t], copyCost
}
