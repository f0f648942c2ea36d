package grid

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
)

// MaxN is the largest grid side the counter handles: a candidate set is one
// uint64 with bit v-1 standing for symbol v.
const MaxN = 64

// ErrOverflow is returned when a count would not fit in 128 bits. No search
// that finishes in practice gets there; the check keeps results exact.
var ErrOverflow = errors.New("grid: completion count exceeds 2^128")

// Counter counts the completions of partial grids of one shape. It keeps
// the grid as per-unit masks of used symbols, so the candidates of a cell,
// the symbols absent from its row, column and box, are one OR and one AND
// NOT away, and placing or removing a symbol is three bit flips. A Counter is
// reused across grids without allocating (apart from growing its memo) and
// is not safe for concurrent use; use one per goroutine.
//
// Count enumerates by depth-first search, always branching on the empty
// cell with the fewest candidates, with one exact shortcut: the empty cells
// of one band or stack, the tail, are left for last. Once every other cell
// is filled, the number of ways to fill the tail depends only on the
// candidate sets of its cells (the constraints from outside the tail are
// all in those sets), so it is computed once per distinct list of sets and
// memoised. For a 9×9 grid whose first two bands are being enumerated this
// replaces every enumeration of the last band by a table look-up: the grid
// with the first band and first column filled has 11,297,664 completions
// but only some 300,000 second bands and 9,400 distinct last-band problems.
type Counter struct {
	shape Shape
	n     int
	full  uint64 // the n low bits: every symbol

	row, col, box []uint8 // unit of each cell
	value         []uint8 // 0 = empty, else 1..n

	rowUsed, colUsed, boxUsed []uint64

	// outer are the empty cells outside the tail, tail the empty cells
	// inside it; the search keeps the cells still empty at depth d in
	// outer[d:] (tail[d:]) by swapping the branching cell to position d.
	// In outer the swap is a rotation, undone on return, so outer[d:]
	// stays in row-major order: ties among the most constrained cells go
	// to the first in reading order, and the search tree is a function of
	// the grid alone (whatever the depth a parallel count cuts it at, and
	// the same tree Probe samples).
	outer, tail []int32
	tailIndex   int     // the tail band or stack (see chooseTail); -1 for none
	tailCells   []int32 // every cell of the tail, for the memo key
	key         []uint64
	memo        tailMemo
	shared      *sharedMemo // used instead of memo by the workers of CountParallel

	overflow bool

	// ctx, when set, stops the search: every stopCheckNodes nodes the
	// search looks at it, and once it is done every node returns at once
	// and stopErr says why.
	ctx context.Context
	// progress, when set, is told how the subtrees of CountParallel go.
	progress func(total int) (subtreeDone func())
	nodes    uint32
	stopErr  error

	// nodes counts the calls of searchOuter and searchTail: the work of
	// the searches, which a time prediction divides by.
	work Nodes
}

// Nodes counts the nodes of a counter's searches: the outer search, dead
// ends and leaves (where the tail is counted) included, and the tail
// searches run on memo misses.
type Nodes struct {
	Outer, Tail uint64
}

// stopCheckNodes is how often (in search nodes, a power of two) the search
// looks at its context: a few microseconds apart.
const stopCheckNodes = 1 << 12

// SetContext makes Count stop, with ctx's error, soon after ctx is done.
func (c *Counter) SetContext(ctx context.Context) { c.ctx = ctx }

// SetProgress has CountParallel report its progress: once it has cut the
// search into total subtrees it calls start(total), and the function that
// returns after each subtree is counted (from any worker).
func (c *Counter) SetProgress(start func(total int) (subtreeDone func())) { c.progress = start }

// stopped counts a search node and reports whether the search must stop.
func (c *Counter) stopped() bool {
	if c.ctx == nil {
		return false
	}
	if c.nodes++; c.nodes%stopCheckNodes == 0 && c.stopErr == nil {
		c.stopErr = c.ctx.Err()
	}
	return c.stopErr != nil
}

// NewCounter returns an empty counter for grids of the given shape.
func NewCounter(shape Shape) (*Counter, error) {
	n := shape.N()
	if shape.R < 1 || shape.C < 1 || n > MaxN {
		return nil, fmt.Errorf("grid: box shape %s: want R, C ≥ 1 and R·C ≤ %d", shape, MaxN)
	}
	c := &Counter{
		shape:     shape,
		n:         n,
		full:      ^uint64(0) >> (64 - n),
		row:       make([]uint8, n*n),
		col:       make([]uint8, n*n),
		box:       make([]uint8, n*n),
		value:     make([]uint8, n*n),
		rowUsed:   make([]uint64, n),
		colUsed:   make([]uint64, n),
		boxUsed:   make([]uint64, n),
		outer:     make([]int32, 0, n*n),
		tail:      make([]int32, 0, n*n),
		tailIndex: -1,
	}
	for cell := range n * n {
		r, k := cell/n, cell%n
		c.row[cell] = uint8(r)
		c.col[cell] = uint8(k)
		c.box[cell] = uint8(shape.BoxOf(r, k))
	}
	// The memo key packs each tail cell's candidate set into n bits.
	perWord := 64 / n
	tailSize := max(shape.R, shape.C) * n
	c.key = make([]uint64, (tailSize+perWord-1)/perWord)
	c.tailCells = make([]int32, 0, tailSize)
	return c, nil
}

// BoxOf is the index of the box holding row r, column k: boxes are numbered
// row-major, R rows × C columns each, N/C = R boxes to a band.
func (s Shape) BoxOf(r, k int) int {
	return (r/s.R)*s.R + k/s.C
}

// Shape is the counter's box shape.
func (c *Counter) Shape() Shape { return c.shape }

// Reset empties every cell.
func (c *Counter) Reset() {
	clear(c.value)
	clear(c.rowUsed)
	clear(c.colUsed)
	clear(c.boxUsed)
}

// Load empties the grid and places the givens of cells (row-major, 0 for
// empty). Two givens that share a unit and a symbol give an error wrapping
// ErrClash that names them; the counter is then left empty.
func (c *Counter) Load(cells []uint8) error {
	if len(cells) != c.n*c.n {
		return fmt.Errorf("grid: %d cells, want %d for box shape %s", len(cells), c.n*c.n, c.shape)
	}
	c.Reset()
	for cell, v := range cells {
		if v == 0 {
			continue
		}
		if int(v) > c.n {
			c.Reset()
			return fmt.Errorf("grid: %s holds %d, want 0..%d", CellName(cell, c.n), v, c.n)
		}
		if c.Candidates(cell)&(1<<(v-1)) == 0 {
			err := c.clash(cell, v)
			c.Reset()
			return err
		}
		c.Place(cell, v)
	}
	return nil
}

// clash names the earlier given that shares a unit and symbol v with cell.
func (c *Counter) clash(cell int, v uint8) error {
	for other := range cell {
		if c.value[other] != v {
			continue
		}
		unit := ""
		switch {
		case c.row[other] == c.row[cell]:
			unit = "row"
		case c.col[other] == c.col[cell]:
			unit = "column"
		case c.box[other] == c.box[cell]:
			unit = "box"
		default:
			continue
		}
		return &ClashError{Cells: [2]int{other, cell}, Symbol: v, Unit: unit, N: c.n}
	}
	panic("grid: clash without a clashing cell")
}

// Value is the symbol in cell (0 when empty).
func (c *Counter) Value(cell int) uint8 { return c.value[cell] }

// Candidates is the set of symbols cell may take: bit v-1 for symbol v,
// every symbol absent from its row, column and box. It is computed for
// empty and filled cells alike (a filled cell's own symbol is excluded).
func (c *Counter) Candidates(cell int) uint64 {
	return c.full &^ (c.rowUsed[c.row[cell]] | c.colUsed[c.col[cell]] | c.boxUsed[c.box[cell]])
}

// Place puts symbol v in the empty cell; v must be one of its Candidates.
func (c *Counter) Place(cell int, v uint8) {
	bit := uint64(1) << (v - 1)
	c.value[cell] = v
	c.rowUsed[c.row[cell]] |= bit
	c.colUsed[c.col[cell]] |= bit
	c.boxUsed[c.box[cell]] |= bit
}

// Unplace empties cell, undoing Place.
func (c *Counter) Unplace(cell int) {
	bit := uint64(1) << (c.value[cell] - 1)
	c.value[cell] = 0
	c.rowUsed[c.row[cell]] &^= bit
	c.colUsed[c.col[cell]] &^= bit
	c.boxUsed[c.box[cell]] &^= bit
}

// Count returns the exact number of completions of the current grid. It
// leaves the grid as it found it.
func (c *Counter) Count() (Uint128, error) {
	c.prepare(c.chooseTail())
	return c.countPrepared()
}

// chooseTail returns the tail: the band or stack with the most empty cells
// (the last of equals, bands counted before stacks), or -1 when the grid is full. Bands are
// numbered 0..N/R-1 and stacks N/R..N/R+N/C-1.
func (c *Counter) chooseTail() int {
	best, bestEmpty := -1, 0
	for t := range c.n/c.shape.R + c.n/c.shape.C {
		empty := 0
		for cell, v := range c.value {
			if v == 0 && c.inTail(cell, t) {
				empty++
			}
		}
		if empty > 0 && empty >= bestEmpty {
			best, bestEmpty = t, empty
		}
	}
	return best
}

// inTail reports whether cell lies in tail t (a band, then the stacks).
func (c *Counter) inTail(cell, t int) bool {
	bands := c.n / c.shape.R
	if t < bands {
		return int(c.row[cell])/c.shape.R == t
	}
	return int(c.col[cell])/c.shape.C == t-bands
}

// prepare lists the empty cells inside and outside the tail. A change of
// tail clears the memo, whose keys are laid out per tail.
func (c *Counter) prepare(tail int) {
	if tail != c.tailIndex {
		c.memo.clear()
		c.tailIndex = tail
		c.tailCells = c.tailCells[:0]
		for cell := range c.value {
			if tail >= 0 && c.inTail(cell, tail) {
				c.tailCells = append(c.tailCells, int32(cell))
			}
		}
	}
	c.outer, c.tail = c.outer[:0], c.tail[:0]
	for cell, v := range c.value {
		switch {
		case v != 0:
		case tail >= 0 && c.inTail(cell, tail):
			c.tail = append(c.tail, int32(cell))
		default:
			c.outer = append(c.outer, int32(cell))
		}
	}
}

// searchOuter counts the completions with outer[:d] filled.
func (c *Counter) searchOuter(d int) Uint128 {
	if c.stopped() {
		return Uint128{}
	}
	c.work.Outer++
	if d == len(c.outer) {
		return c.countTail()
	}
	// Branch on the outer cell with the fewest candidates. Tail cells left
	// without candidates are found at the leaf, in countTail: checking them
	// at every node costs more than the subtrees it prunes.
	best, bestSet := c.mostConstrained(c.outer, d)
	if bestSet == 0 {
		return Uint128{}
	}
	cell := c.bringForward(d, best)
	var total Uint128
	for set := bestSet; set != 0; set &= set - 1 {
		c.Place(cell, uint8(bits.TrailingZeros64(set)+1))
		sub := c.searchOuter(d + 1)
		c.Unplace(cell)
		var carry bool
		if total, carry = total.Add(sub); carry {
			c.overflow = true
		}
	}
	c.sendBack(d, best)
	return total
}

// countTail returns the number of ways to fill the empty tail cells, from
// the memo when their candidate sets have been seen before.
func (c *Counter) countTail() Uint128 {
	if len(c.tail) == 0 {
		return Uint128{Lo: 1}
	}
	perWord := 64 / c.n
	clear(c.key)
	for i, cell := range c.tailCells {
		var set uint64
		if c.value[cell] == 0 {
			set = c.Candidates(int(cell))
			if set == 0 {
				return Uint128{}
			}
		}
		c.key[i/perWord] |= set << (uint(i%perWord) * uint(c.n))
	}
	if c.shared != nil {
		if v, ok := c.shared.get(c.key); ok {
			return v
		}
		v := c.searchTail(0)
		if c.stopErr == nil { // a stopped search's counts are partial
			c.shared.put(c.key, v)
		}
		return v
	}
	if v, ok := c.memo.get(c.key); ok {
		return v
	}
	v := c.searchTail(0)
	if c.stopErr == nil {
		c.memo.put(c.key, v)
	}
	return v
}

// mostConstrained returns the index in cells[d:] of the cell with the
// fewest candidates (the first such), and its candidates; an empty set
// means a dead end.
func (c *Counter) mostConstrained(cells []int32, d int) (int, uint64) {
	best, bestK, bestSet := d, 65, uint64(0)
	for i := d; i < len(cells); i++ {
		set := c.Candidates(int(cells[i]))
		k := bits.OnesCount64(set)
		if k < bestK {
			best, bestK, bestSet = i, k, set
			if k <= 1 {
				break
			}
		}
	}
	return best, bestSet
}

// bringForward moves outer[best] to position d, shifting outer[d:best] one
// place on, so outer[d+1:] keeps its order; it returns the moved cell. The
// shift costs no more than the scan of mostConstrained that found best.
func (c *Counter) bringForward(d, best int) int {
	cell := c.outer[best]
	copy(c.outer[d+1:best+1], c.outer[d:best])
	c.outer[d] = cell
	return int(cell)
}

// sendBack undoes bringForward(d, best).
func (c *Counter) sendBack(d, best int) {
	cell := c.outer[d]
	copy(c.outer[d:best], c.outer[d+1:best+1])
	c.outer[best] = cell
}

// Nodes is the number of search nodes the counter has visited since it was
// made.
func (c *Counter) Nodes() Nodes { return c.work }

// searchTail counts the fillings of tail[d:], the other cells being fixed.
func (c *Counter) searchTail(d int) Uint128 {
	if c.stopped() {
		return Uint128{}
	}
	c.work.Tail++
	if d == len(c.tail)-1 {
		// The last empty cell takes any of its candidates.
		return Uint128{Lo: uint64(bits.OnesCount64(c.Candidates(int(c.tail[d]))))}
	}
	best, bestSet := c.mostConstrained(c.tail, d)
	if bestSet == 0 {
		return Uint128{}
	}
	c.tail[d], c.tail[best] = c.tail[best], c.tail[d]
	cell := int(c.tail[d])
	var total Uint128
	for set := bestSet; set != 0; set &= set - 1 {
		c.Place(cell, uint8(bits.TrailingZeros64(set)+1))
		sub := c.searchTail(d + 1)
		c.Unplace(cell)
		var carry bool
		if total, carry = total.Add(sub); carry {
			c.overflow = true
		}
	}
	return total
}
