package pair

import (
	"context"
	"fmt"
	"math/big"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/sudoku-census/sudoku-census/stages/maths/pairstacks"
	"github.com/sudoku-census/sudoku-census/stages/maths/parallel"
)

// Stacks returns E(T), the number of stacks (2c rows × c columns, every
// column and every 2 × c box holding each symbol once) whose rows hold the
// row sets of any tuple σ with pattern multiset T = patterns (any order). It
// is the number of proper c-edge-colourings of the graph G(T) (see package
// pairstacks), counted by a dynamic programme over the symbols whose states
// are the multisets of row sets of the columns.
func Stacks(ctx context.Context, c int, patterns []uint8) (uint64, error) {
	if err := checkPatterns(c, patterns); err != nil {
		return 0, err
	}
	var s pairstacks.StackCounter
	return s.Count(ctx, c, patterns)
}

// testHook, when set by a test, is called by a worker before each orbit.
var testHook func(j int)

// checkOrbit returns an error unless o's representative is a valid multiset
// in sorted order.
func checkOrbit(o Orbit) error {
	if err := checkPatterns(o.C, o.Rep); err != nil {
		return fmt.Errorf("orbit %s: %w", o, err)
	}
	if !slices.IsSorted(o.Rep) {
		return fmt.Errorf("pair: orbit %s: patterns not sorted", o)
	}
	return nil
}

// Term returns the orbit's term W·E(rep)² of the grid count.
func Term(ctx context.Context, o Orbit) (*big.Int, error) {
	if err := checkOrbit(o); err != nil {
		return nil, err
	}
	var s pairstacks.StackCounter
	e, err := s.Count(ctx, o.C, o.Rep)
	if err != nil {
		return nil, err
	}
	return term(o.Weight, e), nil
}

// term returns w·e².
func term(w, e uint64) *big.Int {
	t := new(big.Int).SetUint64(e)
	t.Mul(t, t)
	return t.Mul(t, new(big.Int).SetUint64(w))
}

// StackCounts returns E(rep) for each orbit by the full layer DP (Stacks),
// the split-and-join kernel's reference, computed by workers goroutines
// (at least one) taking the orbits in turn; out[j] belongs to orbits[j].
func StackCounts(ctx context.Context, orbits []Orbit, workers int) ([]uint64, error) {
	for _, o := range orbits {
		if err := checkOrbit(o); err != nil {
			return nil, err
		}
	}
	out := make([]uint64, len(orbits))
	workers = max(1, min(workers, len(orbits)))
	errs := make([]error, workers)
	var next atomic.Int64
	var stop atomic.Bool
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			defer func() {
				if errs[w] != nil {
					stop.Store(true)
				}
			}()
			defer parallel.Recover(&errs[w]) // runs first
			var s pairstacks.StackCounter
			for !stop.Load() {
				j := int(next.Add(1) - 1)
				if j >= len(orbits) {
					return
				}
				if testHook != nil {
					testHook(j)
				}
				e, err := s.Count(ctx, orbits[j].C, orbits[j].Rep)
				if err != nil {
					errs[w] = err
					stop.Store(true)
					return
				}
				out[j] = e
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// Sum returns Σ W·E(rep)² over the orbits by the full layer DP, adding the
// terms in list order (so the result is the same for any number of
// workers).
func Sum(ctx context.Context, orbits []Orbit, workers int) (*big.Int, error) {
	es, err := StackCounts(ctx, orbits, workers)
	if err != nil {
		return nil, err
	}
	total := new(big.Int)
	for j, o := range orbits {
		total.Add(total, term(o.Weight, es[j]))
	}
	return total, nil
}

// Count returns the number of Sudoku grids with boxes of 2 rows × c columns
// (the same as c rows × 2 columns), 1 ≤ c ≤ MaxC, by the split-and-join
// kernel: the Plan's Sum over every orbit, keeping up to DefaultCacheBytes
// of half tables. For c = 1, …, 5 it is 2; 288; 28,200,960;
// 29,136,487,207,403,520 and 1,903,816,047,972,624,930,994,913,280,000;
// c = 6 takes hours (the shapes stage runs it as units).
func Count(ctx context.Context, c, workers int) (*big.Int, error) {
	p, err := NewPlan(ctx, c, workers, DefaultCacheBytes)
	if err != nil {
		return nil, err
	}
	return p.Sum(ctx, 0, len(p.Orbits), workers)
}

// DefaultCacheBytes is the memory Count lets a plan keep in half tables:
// the 1,618 tables of c = 6 take about 50 GB in all, and the plan's order
// needs about a tenth of that to build each table about once.
const DefaultCacheBytes = 6 << 30
