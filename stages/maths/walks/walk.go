package walks

import (
	"fmt"
	"math/bits"
	"math/rand/v2"

	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
	"github.com/sudoku-census/sudoku-census/stages/maths/montecarlo"
	"github.com/sudoku-census/sudoku-census/stages/maths/walkbands"
)

// Order is the rule by which a walk picks the next cell to fill.
//
// Knuth's estimator is unbiased on any search tree whose leaves at full
// depth are exactly the grids: a walk reaches a given leaf ℓ with
// probability Π 1/d(v) over the nodes v on the path to ℓ (d = branching
// factor), and scores it Π d(v), so E[score] = Σ_ℓ 1 = number of grids.
// Each order below defines such a tree:
//
//   - RowMajor: the cells in reading order, the same at every node.
//   - Random: a uniformly random cell order drawn afresh per walk; given the
//     order the walk is Knuth's on that order's tree, so the estimator is
//     unbiased conditionally and hence unconditionally.
//   - MRV: at every node the empty cell with the fewest candidates, ties to
//     the lowest position. The choice is a deterministic function of the
//     partial grid (the node), so the tree is well defined (each node
//     branches on one cell, every grid is exactly one leaf) and the
//     estimator stays unbiased even though the order differs between walks.
//   - Cover: Sudoku as an exact-cover problem (every cell filled once, every
//     symbol once in every row, column and box), branching as Knuth's
//     Dancing Links does on the constraint with the fewest options: a cell
//     (its candidates) or a unit–symbol pair (the empty cells of the unit
//     where the symbol is a candidate), the first with the fewest options in
//     a fixed order: cells by position, then the pairs of rows, columns and
//     boxes, symbols ascending. Branching on a pair partitions the
//     completions too (the symbol goes in exactly one of those cells), and
//     the choice is a function of the partial grid, so the estimator is
//     unbiased.
type Order int

const (
	RowMajor Order = iota
	Random
	MRV
	Cover
)

var orderNames = [...]string{"rowmajor", "random", "mrv", "cover"}

func (o Order) String() string { return orderNames[o] }

// ParseOrder reads an order name.
func ParseOrder(s string) (Order, error) {
	for i, n := range orderNames {
		if n == s {
			return Order(i), nil
		}
	}
	return 0, fmt.Errorf("unknown cell order %q", s)
}

// Walker performs Knuth random walks on one shape; it owns its scratch
// space, so a walk allocates nothing.
//
// For MRV and Cover it keeps every open constraint (empty cell; for Cover
// also unit–symbol pair not yet placed) in a bucket by its number of
// options: bucket[k] is a bit set over constraint indices (cells 0…N²−1,
// pair (u, s) at N² + u·N + s). Placing a symbol moves the constraints it
// touches down one bucket, and the constraint to branch on is the lowest
// set bit of the lowest non-empty bucket: the first with the fewest options.
type Walker struct {
	// Board holds the partial grid; after a hybrid walk its Count is the
	// exact number of completions.
	Board *grid.Counter
	Order Order
	// Trail[i] is the number of options at step i of the last walk (0 at
	// its dead end); Steps is the number of entries.
	Trail []uint8
	Steps int

	n, cells int
	perm     []int32  // Random: the cell order, built step by step
	cand     []uint64 // MRV, Cover: candidates of each empty cell (0 when filled)
	options  []int32  // Cover: options of each constraint (MRV: the size of cand)
	// MRV, Cover: bucket[k·words : (k+1)·words] is the bit set of the open
	// constraints with k options (one flat slice: a drop is two word
	// updates without a second indirection).
	bucket   []uint64
	words    int
	peers    [][]int32  // cells sharing a unit with each cell
	units    [][3]int32 // row, N+column, 2N+box of each cell
	unitCell [][]int32  // cells of each unit
	done     []uint64   // Cover: symbols placed in each unit
	work     int64      // bookkeeping operations of the current walk
	// restrict, when set, is the bit set of the constraints MRV may branch
	// on when they have options (the upper bands' cells: see walkbands.LastBand); a
	// constraint without options anywhere is still a dead end.
	restrict []uint64
}

// NewWalker returns a walker for shape s and order o.
func NewWalker(s grid.Shape, o Order) (*Walker, error) {
	b, err := grid.NewCounter(s)
	if err != nil {
		return nil, err
	}
	n := s.N()
	cells := n * n
	constraints := cells
	if o == Cover {
		constraints += 3 * n * n
	}
	w := &Walker{
		Board: b, Order: o, Trail: make([]uint8, cells), n: n, cells: cells,
		perm: make([]int32, cells), cand: make([]uint64, cells),
		options: make([]int32, constraints), bucket: make([]uint64, (n+1)*((constraints+63)/64)), words: (constraints + 63) / 64,
		peers: make([][]int32, cells), units: make([][3]int32, cells), unitCell: make([][]int32, 3*n),
		done: make([]uint64, 3*n),
	}
	for c := range cells {
		r, k := c/n, c%n
		w.units[c] = [3]int32{int32(r), int32(n + k), int32(2*n + s.BoxOf(r, k))}
		for _, u := range w.units[c] {
			w.unitCell[u] = append(w.unitCell[u], int32(c))
		}
	}
	for c := range cells {
		for p := range cells {
			u, v := w.units[c], w.units[p]
			if p != c && (u[0] == v[0] || u[1] == v[1] || u[2] == v[2]) {
				w.peers[c] = append(w.peers[c], int32(p))
			}
		}
	}
	return w, nil
}

// reset empties the board and the order's bookkeeping.
func (w *Walker) reset() {
	w.Board.Reset()
	w.resetOrder()
}

// resetOrder empties the order's bookkeeping.
func (w *Walker) resetOrder() {
	w.Steps = 0
	w.work = 0
	switch w.Order {
	case Random:
		for i := range w.perm {
			w.perm[i] = int32(i)
		}
	case MRV, Cover:
		full := uint64(1)<<w.n - 1
		for i := range w.cand {
			w.cand[i] = full
		}
		for i := range w.options {
			w.options[i] = int32(w.n)
		}
		clear(w.bucket)
		all := w.bucketOf(w.n)
		for i := range all {
			all[i] = ^uint64(0)
		}
		if r := len(w.options) % 64; r != 0 {
			all[len(all)-1] = uint64(1)<<r - 1
		}
		clear(w.done)
	}
}

// bucketOf returns bucket k: the open constraints with k options.
func (w *Walker) bucketOf(k int) []uint64 { return w.bucket[k*w.words : (k+1)*w.words] }

// drop moves open constraint i down one bucket.
func (w *Walker) drop(i int) {
	k := int(w.options[i])
	w.options[i] = int32(k - 1)
	bit := uint64(1) << (uint(i) % 64)
	at := k*w.words + int(uint(i)/64)
	w.bucket[at] &^= bit
	w.bucket[at-w.words] |= bit
	w.work++
}

// close removes constraint i from the buckets: its cell is filled or its
// symbol placed.
func (w *Walker) close(i int) {
	w.bucket[int(w.options[i])*w.words+int(uint(i)/64)] &^= 1 << (uint(i) % 64)
	w.work++
}

// pair is the constraint index of unit u and symbol s+1.
func (w *Walker) pair(u int32, s int) int { return w.cells + int(u)*w.n + s }

// placed updates the bookkeeping of MRV and Cover after symbol v went into
// cell c: c's constraint closes, and so do v's pairs in c's units; c's other
// candidates lose c as a place; v leaves the candidates of c's peers.
func (w *Walker) placed(c int, v uint8) {
	bit := uint64(1) << (v - 1)
	if w.Order == Cover {
		w.placedCover(c, v, bit)
		return
	}
	// An MRV cell's number of options is the size of its candidate set, so
	// MRV keeps no option counts: a node's state is a quarter smaller to
	// copy, and the peer loop reads one slice less. close and drop inlined
	// over local slices: the hot loop of every MRV walk and enumeration
	// (about half their time), with the same work counted.
	cand, bucket, words := w.cand, w.bucket, w.words
	w.bucket[bits.OnesCount64(cand[c])*words+c/64] &^= 1 << (uint(c) % 64)
	w.work++
	cand[c] = 0
	var drops int64
	for _, p := range w.peers[c] {
		cp := cand[p]
		if cp&bit == 0 {
			continue
		}
		cand[p] = cp &^ bit
		k := bits.OnesCount64(cp)
		pb := uint64(1) << (uint(p) % 64)
		at := k*words + int(uint(p)/64)
		bucket[at] &^= pb
		bucket[at-words] |= pb
		drops++
	}
	w.work += drops
}

// placedCover is placed for Cover, which also keeps the unit–symbol pairs.
func (w *Walker) placedCover(c int, v uint8, bit uint64) {
	for m := w.cand[c] &^ bit; m != 0; m &= m - 1 {
		s := bits.TrailingZeros64(m)
		for _, u := range w.units[c] {
			w.drop(w.pair(u, s))
		}
	}
	for _, u := range w.units[c] {
		w.close(w.pair(u, int(v-1)))
		w.done[u] |= bit
	}
	w.close(c)
	w.cand[c] = 0
	for _, p := range w.peers[c] {
		if w.cand[p]&bit == 0 {
			continue
		}
		w.cand[p] &^= bit
		w.drop(int(p))
		for _, u := range w.units[p] {
			if w.done[u]&bit == 0 {
				w.drop(w.pair(u, int(v-1)))
			}
		}
	}
}

// mostConstrained returns the open constraint with the fewest options, the
// lowest index among ties, and its number of options; its work is the
// bucket words examined.
func (w *Walker) mostConstrained() (best, k int) {
	words, restrict, bucket := w.words, w.restrict, w.bucket
	at := 0
	for k := 0; at < len(bucket); k++ {
		for wi := range words {
			word := bucket[at]
			at++
			if restrict != nil && k > 0 {
				word &= restrict[wi]
			}
			if word != 0 {
				w.work += int64(at)
				return wi*64 + bits.TrailingZeros64(word), k
			}
		}
	}
	panic("walks: no open constraint")
}

// Walk empties the board and makes up to fill placements by the walker's
// order, each drawn uniformly from the options of the chosen cell (its
// candidates) or, for Cover, of the chosen unit–symbol pair. It returns the
// product of the numbers of options met (0 if the chosen constraint had
// none: a dead end) and the work: one per step for RowMajor and Random (the
// cell whose candidates are computed); for MRV and Cover the bookkeeping
// operations (bucket words examined, option counts moved, constraints
// closed), which grow with the grid like the time a walk takes.
func (w *Walker) Walk(src *rand.ChaCha8, fill int) (montecarlo.Value, int64) {
	w.reset()
	return w.walkFrom(src, 0, fill, montecarlo.One)
}

// WalkFromBand is Walk after a uniformly random first band drawn by f
// (which the walker's order must be MRV or Cover to take up): the band's
// R·N cells are given, the walk makes the placements up to fill, and the
// product starts from the number of bands (see walkbands.FirstBand). The band's
// cells count one unit of work each.
func (w *Walker) WalkFromBand(src *rand.ChaCha8, f *walkbands.FirstBand, fill int) (montecarlo.Value, int64) {
	w.reset()
	cells := f.Draw(src)
	for c, v := range cells {
		w.Board.Place(c, v)
		w.placed(c, v)
		w.Trail[c] = 1
	}
	w.Steps = len(cells)
	w.work += int64(len(cells))
	return w.walkFrom(src, len(cells), fill, f.Count())
}

// walkFrom makes placements start … fill−1 of a walk by the walker's order
// and returns prod times their numbers of options (0 at a dead end).
func (w *Walker) walkFrom(src *rand.ChaCha8, start, fill int, prod montecarlo.Value) (montecarlo.Value, int64) {
	b := w.Board
	for step := start; step < fill; step++ {
		var k int
		switch w.Order {
		case RowMajor:
			k = montecarlo.Choose(b, src, step)
			w.work++
		case Random:
			// Partial Fisher–Yates: perm[step] is uniform over the cells not
			// yet chosen.
			j := step + int(montecarlo.Uniform(src, uint64(w.cells-step)))
			w.perm[step], w.perm[j] = w.perm[j], w.perm[step]
			k = montecarlo.Choose(b, src, int(w.perm[step]))
			w.work++
		case MRV, Cover:
			k = w.branch(src)
		}
		w.Trail[step] = uint8(k)
		w.Steps++
		if k == 0 {
			return montecarlo.Value{}, w.work
		}
		prod = prod.MulInt(uint64(k))
	}
	return prod, w.work
}

// branch makes one MRV or Cover placement on the most constrained open
// constraint and returns its number of options (0 at a dead end, placing
// nothing).
func (w *Walker) branch(src *rand.ChaCha8) int {
	i, k := w.mostConstrained()
	if k == 0 {
		return 0
	}
	if i < w.cells {
		montecarlo.Choose(w.Board, src, i)
		w.placed(i, w.Board.Value(i))
		return k
	}
	c, v := w.pairOption(i, int(montecarlo.Uniform(src, uint64(k))))
	w.Board.Place(c, v)
	w.placed(c, v)
	return k
}

// pairOption returns option j of unit–symbol pair constraint i: the j-th
// empty cell (in unit order) of its unit where its symbol is a candidate,
// and the symbol.
func (w *Walker) pairOption(i, j int) (cell int, v uint8) {
	u, s := (i-w.cells)/w.n, (i-w.cells)%w.n
	bit := uint64(1) << s
	for _, c := range w.unitCell[u] {
		if w.cand[c]&bit != 0 {
			if j == 0 {
				return int(c), uint8(s + 1)
			}
			j--
		}
	}
	panic("walks: option count out of step with candidates")
}
