package knuth

import (
	"fmt"
	"math/bits"
	"math/rand/v2"

	"github.com/sudoku-census/sudoku-census/stages/grid"
	"github.com/sudoku-census/sudoku-census/stages/montecarlo"
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
type Order int

const (
	RowMajor Order = iota
	Random
	MRV
)

var orderNames = [...]string{"rowmajor", "random", "mrv"}

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
type Walker struct {
	// Board holds the partial grid; after a hybrid walk its Count is the
	// exact number of completions.
	Board *grid.Counter
	Order Order
	// Trail[i] is the number of candidates at step i of the last walk (0 at
	// its dead end); Steps is the number of entries.
	Trail []uint8
	Steps int

	cells int
	perm  []int32  // Random: the cell order, built step by step
	empty []uint64 // MRV: bit set of the empty cells
}

// NewWalker returns a walker for shape s and order o.
func NewWalker(s grid.Shape, o Order) (*Walker, error) {
	b, err := grid.NewCounter(s)
	if err != nil {
		return nil, err
	}
	n := s.N() * s.N()
	return &Walker{
		Board: b, Order: o, Trail: make([]uint8, n), cells: n,
		perm: make([]int32, n), empty: make([]uint64, (n+63)/64),
	}, nil
}

// Walk empties the board and fills up to fill cells by the walker's order,
// each with a symbol drawn uniformly from its candidates. It returns the
// product of the numbers of candidates met (0 if a cell had none: a dead
// end) and the work: the number of cells whose candidates were computed to
// choose cells and symbols (one per step for RowMajor and Random, every empty
// cell scanned for MRV).
func (w *Walker) Walk(src *rand.ChaCha8, fill int) (montecarlo.Value, int64) {
	b := w.Board
	b.Reset()
	w.Steps = 0
	switch w.Order {
	case Random:
		for i := range w.perm {
			w.perm[i] = int32(i)
		}
	case MRV:
		for i := range w.empty {
			w.empty[i] = ^uint64(0)
		}
		if r := w.cells % 64; r != 0 {
			w.empty[len(w.empty)-1] = uint64(1)<<r - 1
		}
	}
	prod := montecarlo.One
	var work int64
	for step := 0; step < fill; step++ {
		var cell int
		switch w.Order {
		case RowMajor:
			cell = step
			work++
		case Random:
			// Partial Fisher–Yates: perm[step] is uniform over the cells not
			// yet chosen.
			j := step + int(montecarlo.Uniform(src, uint64(w.cells-step)))
			w.perm[step], w.perm[j] = w.perm[j], w.perm[step]
			cell = int(w.perm[step])
			work++
		case MRV:
			var scanned int
			cell, scanned = w.mostConstrained()
			work += int64(scanned)
		}
		k := montecarlo.Choose(b, src, cell)
		w.Trail[step] = uint8(k)
		w.Steps++
		if k == 0 {
			return montecarlo.Value{}, work
		}
		prod = prod.MulInt(uint64(k))
		if w.Order == MRV {
			w.empty[cell/64] &^= 1 << (cell % 64)
		}
	}
	return prod, work
}

// mostConstrained returns the empty cell with the fewest candidates (lowest
// position among ties; stopping early at a cell with none) and the number of
// cells scanned.
func (w *Walker) mostConstrained() (best, scanned int) {
	bestK := 65
	for wi, word := range w.empty {
		for word != 0 {
			cell := wi*64 + bits.TrailingZeros64(word)
			word &= word - 1
			scanned++
			k := bits.OnesCount64(w.Board.Candidates(cell))
			if k < bestK {
				best, bestK = cell, k
				if k == 0 {
					return best, scanned
				}
			}
		}
	}
	return best, scanned
}
