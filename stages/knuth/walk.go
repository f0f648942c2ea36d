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
//   - Cover: Sudoku as an exact-cover problem (every cell filled once, every
//     symbol once in every row, column and box), branching as Knuth's
//     Dancing Links does on the constraint with the fewest options: a cell
//     (its candidates) or a unit–symbol pair (the empty cells of the unit
//     where the symbol is a candidate). The first constraint with at most
//     one option in a fixed order (cells by position, then rows, columns,
//     boxes, symbols ascending) is taken at once, otherwise the first with
//     the fewest. Branching on a pair partitions the completions too (the
//     symbol goes in exactly one of those cells), and the choice is again a
//     function of the partial grid, so the estimator is unbiased.
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
	perm     []int32    // Random: the cell order, built step by step
	empty    []uint64   // MRV, Cover: bit set of the empty cells
	cand     []uint64   // MRV, Cover: candidates of each empty cell (0 when filled)
	peers    [][]int32  // cells sharing a unit with each cell
	units    [][3]int32 // row, N+column, 2N+box of each cell
	unitCell [][]int32  // cells of each unit
	places   []int32    // Cover: places[u·N+s] = empty cells of unit u with candidate s+1
	done     []uint64   // Cover: symbols placed in each unit
}

// NewWalker returns a walker for shape s and order o.
func NewWalker(s grid.Shape, o Order) (*Walker, error) {
	b, err := grid.NewCounter(s)
	if err != nil {
		return nil, err
	}
	n := s.N()
	cells := n * n
	w := &Walker{
		Board: b, Order: o, Trail: make([]uint8, cells), n: n, cells: cells,
		perm: make([]int32, cells), empty: make([]uint64, (cells+63)/64), cand: make([]uint64, cells),
		peers: make([][]int32, cells), units: make([][3]int32, cells), unitCell: make([][]int32, 3*n),
		places: make([]int32, 3*n*n), done: make([]uint64, 3*n),
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
	w.Steps = 0
	switch w.Order {
	case Random:
		for i := range w.perm {
			w.perm[i] = int32(i)
		}
	case MRV, Cover:
		for i := range w.empty {
			w.empty[i] = ^uint64(0)
		}
		if r := w.cells % 64; r != 0 {
			w.empty[len(w.empty)-1] = uint64(1)<<r - 1
		}
		full := uint64(1)<<w.n - 1
		for i := range w.cand {
			w.cand[i] = full
		}
		if w.Order == Cover {
			for i := range w.places {
				w.places[i] = int32(w.n)
			}
			clear(w.done)
		}
	}
}

// placed updates the bookkeeping of MRV and Cover after symbol v went into
// cell c: c leaves the empty cells, and v leaves its peers' candidates.
func (w *Walker) placed(c int, v uint8) {
	n := w.n
	bit := uint64(1) << (v - 1)
	w.empty[c/64] &^= 1 << (c % 64)
	if w.Order == Cover {
		for m := w.cand[c]; m != 0; m &= m - 1 {
			s := int32(bits.TrailingZeros64(m))
			for _, u := range w.units[c] {
				w.places[u*int32(n)+s]--
			}
		}
		for _, u := range w.units[c] {
			w.done[u] |= bit
		}
	}
	w.cand[c] = 0
	for _, p := range w.peers[c] {
		if w.cand[p]&bit != 0 {
			w.cand[p] &^= bit
			if w.Order == Cover {
				for _, u := range w.units[p] {
					w.places[u*int32(n)+int32(v-1)]--
				}
			}
		}
	}
}

// Walk empties the board and makes up to fill placements by the walker's
// order, each drawn uniformly from the options of the chosen cell (its
// candidates) or, for Cover, of the chosen unit–symbol pair. It returns the
// product of the numbers of options met (0 if the chosen constraint had
// none: a dead end) and the work: the number of candidate sets and place
// counts examined (one per step for RowMajor and Random; every empty cell
// scanned for MRV; cells and pairs scanned for Cover).
func (w *Walker) Walk(src *rand.ChaCha8, fill int) (montecarlo.Value, int64) {
	b := w.Board
	w.reset()
	prod := montecarlo.One
	var work int64
	for step := 0; step < fill; step++ {
		var k int
		switch w.Order {
		case RowMajor:
			k = montecarlo.Choose(b, src, step)
			work++
		case Random:
			// Partial Fisher–Yates: perm[step] is uniform over the cells not
			// yet chosen.
			j := step + int(montecarlo.Uniform(src, uint64(w.cells-step)))
			w.perm[step], w.perm[j] = w.perm[j], w.perm[step]
			k = montecarlo.Choose(b, src, int(w.perm[step]))
			work++
		case MRV:
			cell, scanned := w.mostConstrained()
			work += int64(scanned)
			if k = montecarlo.Choose(b, src, cell); k > 0 {
				w.placed(cell, b.Value(cell))
			}
		case Cover:
			var scanned int
			k, scanned = w.coverStep(src)
			work += int64(scanned)
		}
		w.Trail[step] = uint8(k)
		w.Steps++
		if k == 0 {
			return montecarlo.Value{}, work
		}
		prod = prod.MulInt(uint64(k))
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
			k := bits.OnesCount64(w.cand[cell])
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

// coverStep makes one Cover placement: it finds the constraint to branch
// on, draws one of its options and places it. It returns the number of
// options (0 at a dead end, placing nothing) and the number of constraints
// scanned.
func (w *Walker) coverStep(src *rand.ChaCha8) (k, scanned int) {
	n := w.n
	bestCell, bestK := -1, 65
cells:
	for wi, word := range w.empty {
		for word != 0 {
			cell := wi*64 + bits.TrailingZeros64(word)
			word &= word - 1
			scanned++
			if c := bits.OnesCount64(w.cand[cell]); c < bestK {
				bestCell, bestK = cell, c
				if c <= 1 {
					break cells
				}
			}
		}
	}
	bestUnit, bestSym := -1, 0
	if bestK > 1 {
		full := uint64(1)<<n - 1
		for u := range 3 * n {
			for m := full &^ w.done[u]; m != 0; m &= m - 1 {
				s := bits.TrailingZeros64(m)
				scanned++
				if c := int(w.places[u*n+s]); c < bestK {
					bestUnit, bestSym, bestK = u, s, c
					if c <= 1 {
						goto chosen
					}
				}
			}
		}
	}
chosen:
	if bestK == 0 {
		return 0, scanned
	}
	if bestUnit < 0 {
		k = montecarlo.Choose(w.Board, src, bestCell)
		w.placed(bestCell, w.Board.Value(bestCell))
		return k, scanned
	}
	// The i-th cell of the unit where bestSym+1 is a candidate.
	i := int(montecarlo.Uniform(src, uint64(bestK)))
	bit := uint64(1) << bestSym
	for _, c := range w.unitCell[bestUnit] {
		if w.cand[c]&bit != 0 {
			if i == 0 {
				w.Board.Place(int(c), uint8(bestSym+1))
				w.placed(int(c), uint8(bestSym+1))
				return bestK, scanned
			}
			i--
		}
	}
	panic("knuth: place count out of step with candidates")
}
