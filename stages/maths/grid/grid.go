package grid

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"math/bits"
	"runtime"
	"sync/atomic"

	"github.com/sudoku-census/sudoku-census/stages/maths/parallel"
)

// Grid is a partial grid: Cells holds the N×N cells row-major, 0 for an
// empty cell and 1..N for a symbol.
type Grid struct {
	Shape Shape
	Cells []uint8
}

// ErrClash is wrapped by the error for givens that break the rule: two
// equal symbols in one row, column or box. Such a grid has 0 completions.
var ErrClash = errors.New("clashing givens")

// ClashError names two givens holding the same symbol in one unit.
type ClashError struct {
	Cells  [2]int // row-major cell indices, the earlier first
	Symbol uint8
	Unit   string // "row", "column" or "box"
	N      int    // grid side, to name cells and symbols
}

func (e *ClashError) Error() string {
	return fmt.Sprintf("givens %s and %s both hold %c in one %s",
		CellName(e.Cells[0], e.N), CellName(e.Cells[1], e.N), SymbolRune(e.Symbol), e.Unit)
}

// Unwrap makes errors.Is(err, ErrClash) true.
func (e *ClashError) Unwrap() error { return ErrClash }

// CellName writes a cell as r<row>c<column>, both counted from 1.
func CellName(cell, n int) string {
	return fmt.Sprintf("r%dc%d", cell/n+1, cell%n+1)
}

// Count returns the exact number of ways to fill the empty cells so that
// every row, column and box holds each symbol once. Givens that clash give
// an error wrapping ErrClash (and no count).
//
// workers goroutines share the work (GOMAXPROCS when workers < 1): the
// search tree is cut at a fixed depth into subtrees that are counted
// independently and added up in their fixed order, so the result does not
// depend on workers. The count stops with ctx's error soon after ctx is
// done.
func (g Grid) Count(ctx context.Context, workers int) (*big.Int, error) {
	count, _, err := g.CountNodes(ctx, workers)
	return count, err
}

// CountNodes is Count that also returns the number of search nodes it
// visited (see Counter.Nodes): of the outer search, for every number of
// workers the same when the count finishes; of the tail searches, which
// depend on the memo and hence on the workers. When ctx stops it, the count is nil, the
// error ctx's, and the nodes those visited until then: a short count under
// a deadline measures the counter's speed on this grid.
func (g Grid) CountNodes(ctx context.Context, workers int) (*big.Int, Nodes, error) {
	return g.countNodes(ctx, workers, nil)
}

// CountWithProgress is Count that reports, through progress (see
// Counter.SetProgress), the subtrees counted out of those its workers share.
func (g Grid) CountWithProgress(ctx context.Context, workers int, progress func(total int) (subtreeDone func())) (*big.Int, error) {
	count, _, err := g.countNodes(ctx, workers, progress)
	return count, err
}

func (g Grid) countNodes(ctx context.Context, workers int, progress func(total int) (subtreeDone func())) (*big.Int, Nodes, error) {
	c, err := NewCounter(g.Shape)
	if err != nil {
		return nil, Nodes{}, err
	}
	c.SetContext(ctx)
	c.SetProgress(progress)
	if err := c.Load(g.Cells); err != nil {
		return nil, Nodes{}, err
	}
	if workers < 1 {
		workers = runtime.GOMAXPROCS(0)
	}
	total, err := c.CountParallel(workers)
	if err != nil {
		return nil, c.work, err
	}
	return total.Big(), c.work, nil
}

// assignment is one branch of the cut search tree: cell gets value.
type assignment struct {
	cell  int32
	value uint8
}

// CountParallel is Count shared among workers goroutines, each with a copy
// of the counter and all with one memo of tails; the result is the same for
// every number of workers.
func (c *Counter) CountParallel(workers int) (Uint128, error) {
	tail := c.chooseTail()
	c.prepare(tail)
	if workers <= 1 || len(c.outer) == 0 {
		return c.Count()
	}
	// Cut the outer search, breadth first with the same branching rule, at
	// the first depth that yields enough subtrees to balance the load.
	jobs := [][]assignment{nil}
	for depth := 0; depth < len(c.outer) && len(jobs) < 64*workers; depth++ {
		var next [][]assignment
		for _, job := range jobs {
			next = c.expand(job, next)
		}
		jobs = next
		if len(jobs) == 0 {
			return Uint128{}, nil
		}
	}
	subtreeDone := func() {}
	if c.progress != nil {
		subtreeDone = c.progress(len(jobs))
	}
	results := make([]Uint128, len(jobs))
	errs := make([]error, len(jobs))
	var nextJob atomic.Int64
	var outerNodes, tailNodes atomic.Uint64
	shared := newSharedMemo()
	err := parallel.Run(min(workers, len(jobs)), func(int) error {
		w := c.clone()
		w.shared = shared
		defer func() {
			outerNodes.Add(w.work.Outer)
			tailNodes.Add(w.work.Tail)
		}()
		for {
			j := int(nextJob.Add(1) - 1)
			if j >= len(jobs) {
				return nil
			}
			for _, a := range jobs[j] {
				w.Place(int(a.cell), a.value)
			}
			w.prepare(tail)
			results[j], errs[j] = w.countPrepared()
			subtreeDone()
			for _, a := range jobs[j] {
				w.Unplace(int(a.cell))
			}
			if errs[j] != nil {
				return errs[j]
			}
		}
	})
	c.work.Outer += outerNodes.Load()
	c.work.Tail += tailNodes.Load()
	if err != nil {
		return Uint128{}, err
	}
	var total Uint128
	for j, r := range results {
		if errs[j] != nil {
			return Uint128{}, errs[j]
		}
		var carry bool
		if total, carry = total.Add(r); carry {
			return Uint128{}, ErrOverflow
		}
	}
	return total, nil
}

// expand appends to out the children of the node reached by job: one per
// candidate of the outer cell with the fewest candidates, chosen as
// searchOuter chooses (the first in reading order, stopping at the first
// with at most one), so the cut tree is the tree Count searches. A dead
// node has no children; a node with every outer cell filled is its own
// child (and is counted as a node by the worker that gets it).
func (c *Counter) expand(job []assignment, out [][]assignment) [][]assignment {
	for _, a := range job {
		c.Place(int(a.cell), a.value)
	}
	defer func() {
		for _, a := range job {
			c.Unplace(int(a.cell))
		}
	}()
	best, bestK, bestSet := -1, 65, uint64(0)
	for _, cell := range c.outer {
		if c.value[cell] != 0 {
			continue
		}
		set := c.Candidates(int(cell))
		if k := bits.OnesCount64(set); k < bestK {
			best, bestK, bestSet = int(cell), k, set
			if k <= 1 {
				break
			}
		}
	}
	if best < 0 {
		return append(out, job)
	}
	c.work.Outer++
	for set := bestSet; set != 0; set &= set - 1 {
		child := append(append(make([]assignment, 0, len(job)+1), job...),
			assignment{int32(best), uint8(bits.TrailingZeros64(set) + 1)})
		out = append(out, child)
	}
	return out
}

// clone returns a counter with the same shape, cells and context and an
// empty memo.
func (c *Counter) clone() *Counter {
	w, _ := NewCounter(c.shape)
	w.ctx = c.ctx
	for cell, v := range c.value {
		if v != 0 {
			w.Place(cell, v)
		}
	}
	return w
}

// countPrepared counts after prepare has listed the empty cells.
func (c *Counter) countPrepared() (Uint128, error) {
	total := c.searchOuter(0)
	if err := c.stopErr; err != nil {
		return Uint128{}, err
	}
	if c.overflow {
		c.overflow = false
		return Uint128{}, ErrOverflow
	}
	return total, nil
}
