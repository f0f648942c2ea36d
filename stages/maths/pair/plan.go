package pair

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/sudoku-census/sudoku-census/stages/maths/pairstacks"
	"github.com/sudoku-census/sudoku-census/stages/maths/parallel"
)

// KernelVersion names the split-and-join kernel's definition of its work:
// the split of each orbit (the first c symbols of the stack DP's order),
// the canonical halves and the join order. A result computed under another
// version belongs to other units and is never mixed with these.
const KernelVersion = 1

// A Plan is the orbits of c in the order the split-and-join kernel takes
// them (see package pairstacks): each orbit's two halves are mapped to their
// canonical forms, numbered in lexicographic order, and the orbits are
// sorted so that consecutive orbits share half tables and a bounded cache
// holds what is needed again (see NewPlan). The order is a pure function
// of c.
type Plan struct {
	C int
	// Orbits in join order.
	Orbits  []Orbit
	entries []planEntry
	// halves[id] is a canonical half; table computes it. bound[id] is its
	// pairstacks.StateBound.
	halves [][]uint8
	bound  []uint64
	cache  *HalfCache
	// index[j] is the position of Orbits[j] in the list the plan was made
	// from.
	index []int
	// scratch keeps the workers' DP tables between calls: for c = 6 they
	// grow to hundreds of MB each, and new ones per unit would be garbage
	// the collector must catch up with.
	scratchMu sync.Mutex
	scratch   []*planWorker
}

// planEntry says how to join an orbit: the classes of its halves (a the
// leading one) and the map from a's frame to b's.
type planEntry struct {
	a, b int32
	aToB pairstacks.RowPerm
}

// NewPlan lists the orbits of c (checked against Burnside's count by the
// caller as for Orbits) and orders them for the kernel, using workers
// goroutines; cacheBytes bounds the memory of the half tables kept between
// orbits (least recently used out first; a table in use is kept until its
// join ends).
func NewPlan(ctx context.Context, c, workers int, cacheBytes int64) (*Plan, error) {
	if err := pairstacks.CheckC(c); err != nil {
		return nil, err
	}
	orbits, err := orderlyOrbits(ctx, c, workers) // Orbits, on workers goroutines
	if err != nil {
		return nil, err
	}
	return newPlanOf(ctx, c, orbits, workers, NewHalfCache(cacheBytes))
}

// StackCountsOf returns E(T) for each multiset T of multisets (2c valid
// patterns, any order; see Orbit.Rep), in that order, computed by the
// split-and-join kernel on workers goroutines: the multisets are planned
// as NewPlan plans the orbits (so that consecutive ones share half
// tables), and their canonical half tables come from cache, which callers
// may share between calls (package symmetry/stacks does, across the
// elements of one grid shape, whose terms use few distinct halves).
func StackCountsOf(ctx context.Context, c int, multisets [][]uint8, workers int, cache *HalfCache) ([]uint64, error) {
	if err := pairstacks.CheckC(c); err != nil {
		return nil, err
	}
	orbits := make([]Orbit, len(multisets))
	for i, t := range multisets {
		if len(t) != 2*c {
			return nil, fmt.Errorf("pair: multiset %d has %d patterns, want %d", i, len(t), 2*c)
		}
		orbits[i] = Orbit{C: c, Rep: slices.Sorted(slices.Values(t))}
	}
	p, err := newPlanOf(ctx, c, orbits, workers, cache)
	if err != nil {
		return nil, err
	}
	es, err := p.StackCounts(ctx, 0, len(orbits), workers)
	if err != nil {
		return nil, err
	}
	out := make([]uint64, len(es))
	for j, e := range es {
		out[p.index[j]] = e
	}
	return out, nil
}

// newPlanOf plans the orbits (or any pattern multisets with Rep set) for
// the kernel, taking half tables from cache.
func newPlanOf(ctx context.Context, c int, orbits []Orbit, workers int, cache *HalfCache) (*Plan, error) {
	type halvesOf struct {
		h  [2][]uint8
		g  [2]element
		id [2]int32
	}
	per := make([]halvesOf, len(orbits))
	err := eachIndex(ctx, len(orbits), workers, func(_, i int) error {
		per[i].h[0], per[i].h[1] = pairstacks.Split(c, orbits[i].Rep, c)
		return nil
	})
	if err != nil {
		return nil, err
	}
	// The 126,398 halves of c = 6 are 32,784 distinct lists: canonicalise
	// each list once (canonicalWith is a pure function of the list).
	distinct := map[string]int{}
	var raw [][]uint8
	for i := range per {
		for k := range 2 {
			if _, ok := distinct[string(per[i].h[k])]; !ok {
				distinct[string(per[i].h[k])] = len(raw)
				raw = append(raw, per[i].h[k])
			}
		}
	}
	canon := make([][]uint8, len(raw))
	canonBy := make([]element, len(raw))
	err = eachIndex(ctx, len(raw), workers, func(_, j int) error {
		canon[j], canonBy[j] = canonicalWith(c, raw[j])
		return nil
	})
	if err != nil {
		return nil, err
	}
	for i := range per {
		for k := range 2 {
			j := distinct[string(per[i].h[k])]
			per[i].h[k], per[i].g[k] = canon[j], canonBy[j]
		}
	}
	var halves [][]uint8
	for i := range per {
		halves = append(halves, per[i].h[0], per[i].h[1])
	}
	slices.SortFunc(halves, slices.Compare)
	halves = slices.CompactFunc(halves, func(x, y []uint8) bool { return slices.Equal(x, y) })
	for i := range per {
		for k := range 2 {
			id, _ := slices.BinarySearchFunc(halves, per[i].h[k], slices.Compare)
			per[i].id[k] = int32(id)
		}
	}
	// Each orbit is led by its half with the larger table (by
	// pairstacks.StateBound, then class number), and the orbits go by
	// leading class, largest first: once a class has led, no later orbit
	// needs it, and the smaller tables that follow it are the ones worth
	// keeping. With a
	// cache of a tenth of all tables, about 1.04 builds per class
	// (simulated on c = 6); by lower class number instead, 3.6.
	bound := make([]uint64, len(halves))
	for id, h := range halves {
		bound[id] = pairstacks.StateBound(c, h)
	}
	ahead := func(x, y int32) bool { return bound[x] > bound[y] || bound[x] == bound[y] && x < y }
	order := make([]int, len(orbits))
	for i := range order {
		order[i] = i
		if ahead(per[i].id[1], per[i].id[0]) {
			per[i].h[0], per[i].h[1] = per[i].h[1], per[i].h[0]
			per[i].g[0], per[i].g[1] = per[i].g[1], per[i].g[0]
			per[i].id[0], per[i].id[1] = per[i].id[1], per[i].id[0]
		}
	}
	slices.SortFunc(order, func(x, y int) int {
		for k := range 2 {
			a, b := per[x].id[k], per[y].id[k]
			switch {
			case a == b:
				continue
			case ahead(a, b):
				return -1
			default:
				return 1
			}
		}
		return x - y // the orbit list is sorted by representative
	})
	p := &Plan{C: c, halves: halves, bound: bound, cache: cache}
	for _, i := range order {
		h := per[i]
		p.Orbits = append(p.Orbits, orbits[i])
		p.index = append(p.index, i)
		p.entries = append(p.entries, planEntry{a: h.id[0], b: h.id[1],
			aToB: h.g[0].rows(c).Inverse(c).Then(h.g[1].rows(c), c)})
	}
	return p, nil
}

// NumHalves returns the number of distinct canonical halves of the plan's
// orbits (1,618 for c = 6).
func (p *Plan) NumHalves() int { return len(p.halves) }

// TableBound returns the sum of pairstacks.StateBound over the distinct
// half classes that the orbits lo, …, hi-1 join: roughly the states of the
// tables that computing that range with an empty cache builds, which is
// most of its cost.
func (p *Plan) TableBound(lo, hi int) (uint64, error) {
	if lo < 0 || hi > len(p.Orbits) || lo > hi {
		return 0, fmt.Errorf("pair: orbits %d to %d of a plan of %d", lo, hi, len(p.Orbits))
	}
	seen := map[int32]bool{}
	var sum uint64
	for _, e := range p.entries[lo:hi] {
		for _, id := range []int32{e.a, e.b} {
			if !seen[id] {
				seen[id] = true
				if s, carry := bits.Add64(sum, p.bound[id], 0); carry == 0 {
					sum = s
				} else {
					sum = math.MaxUint64
				}
			}
		}
	}
	return sum, nil
}

// TablesBuilt returns how many half tables the plan's cache has computed so
// far (more than NumHalves when the cache had to drop some).
func (p *Plan) TablesBuilt() int64 { return p.cache.built.Load() }

// A planWorker is one goroutine's scratch.
type planWorker struct {
	s pairstacks.StackCounter
	j pairstacks.Joiner
}

// stacks returns E(rep) of the plan's orbit i by joining its half tables.
func (p *Plan) stacks(ctx context.Context, w *planWorker, i int) (uint64, error) {
	e := p.entries[i]
	a, err := p.cache.get(ctx, p.halves[e.a], func() (*pairstacks.HalfTable, error) { return pairstacks.BuildHalf(ctx, &w.s, p.C, p.halves[e.a]) })
	if err != nil {
		return 0, err
	}
	b, err := p.cache.get(ctx, p.halves[e.b], func() (*pairstacks.HalfTable, error) { return pairstacks.BuildHalf(ctx, &w.s, p.C, p.halves[e.b]) })
	if err != nil {
		return 0, err
	}
	// Walk the smaller table.
	if b.Len() < a.Len() {
		return w.j.Join(b, a, e.aToB.Inverse(p.C))
	}
	return w.j.Join(a, b, e.aToB)
}

// StackCounts returns E(rep) for the plan's orbits lo, …, hi-1, computed by
// workers goroutines taking the orbits in turn; out[j] is orbit lo+j's.
func (p *Plan) StackCounts(ctx context.Context, lo, hi, workers int) ([]uint64, error) {
	if lo < 0 || hi > len(p.Orbits) || lo > hi {
		return nil, fmt.Errorf("pair: orbits %d to %d of a plan of %d", lo, hi, len(p.Orbits))
	}
	out := make([]uint64, hi-lo)
	workers = max(1, min(workers, hi-lo))
	scratch := make([]*planWorker, workers)
	p.scratchMu.Lock()
	for w := range scratch {
		if n := len(p.scratch); n > 0 {
			scratch[w], p.scratch = p.scratch[n-1], p.scratch[:n-1]
		} else {
			scratch[w] = new(planWorker)
		}
	}
	p.scratchMu.Unlock()
	defer func() {
		p.scratchMu.Lock()
		p.scratch = append(p.scratch, scratch...)
		p.scratchMu.Unlock()
	}()
	err := eachIndex(ctx, hi-lo, workers, func(w, j int) error {
		if testHook != nil {
			testHook(lo + j)
		}
		e, err := p.stacks(ctx, scratch[w], lo+j)
		out[j] = e
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Sum returns Σ W·E(rep)² over the plan's orbits lo, …, hi-1, adding the
// terms in plan order.
func (p *Plan) Sum(ctx context.Context, lo, hi, workers int) (*big.Int, error) {
	es, err := p.StackCounts(ctx, lo, hi, workers)
	if err != nil {
		return nil, err
	}
	total := new(big.Int)
	for j, e := range es {
		total.Add(total, term(p.Orbits[lo+j].Weight, e))
	}
	return total, nil
}

// eachIndex calls fn(w, i) for i = 0, …, n-1 on workers goroutines (w is
// the goroutine's number), which take the indices in turn; it stops at the
// first error or panic, or when ctx is cancelled, and returns it.
func eachIndex(ctx context.Context, n, workers int, fn func(w, i int) error) error {
	var next atomic.Int64
	var stop atomic.Bool
	err := parallel.Run(min(max(1, workers), max(1, n)), func(w int) (err error) {
		defer func() {
			if err != nil {
				stop.Store(true)
			}
		}()
		for !stop.Load() {
			i := int(next.Add(1) - 1)
			if i >= n {
				return nil
			}
			if err := ctx.Err(); err != nil {
				return err
			}
			if err := fn(w, i); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	return ctx.Err()
}

// A HalfCache keeps the half tables of canonical halves (see
// canonicalWith) up to a byte budget, least recently used out first; it
// may be shared by several plans of the same c. Each missing table is
// computed once even when several goroutines ask for it at once.
type HalfCache struct {
	mu      sync.Mutex
	budget  int64
	used    int64
	tick    uint64
	entries map[string]*cacheEntry // by canonical half
	built   atomic.Int64
}

type cacheEntry struct {
	ready chan struct{}
	table *pairstacks.HalfTable
	err   error
	last  uint64
}

// NewHalfCache returns an empty cache keeping up to budget bytes of tables
// (a table in use is kept until its join ends).
func NewHalfCache(budget int64) *HalfCache {
	return &HalfCache{budget: budget, entries: map[string]*cacheEntry{}}
}

// get returns the table of the canonical half, computing it with build if
// absent.
func (h *HalfCache) get(ctx context.Context, half []uint8, build func() (*pairstacks.HalfTable, error)) (*pairstacks.HalfTable, error) {
	h.mu.Lock()
	h.tick++
	if e, ok := h.entries[string(half)]; ok {
		e.last = h.tick
		h.mu.Unlock()
		select {
		case <-e.ready:
			if e.err != nil {
				return nil, e.err
			}
			return e.table, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	id := string(half)
	e := &cacheEntry{ready: make(chan struct{}), last: h.tick}
	h.entries[id] = e
	h.mu.Unlock()

	t, err := build()
	h.built.Add(1)
	h.mu.Lock()
	if err != nil {
		delete(h.entries, id) // a later call tries again (after a cancellation, say)
	} else {
		h.used += t.Bytes()
		h.evict(id)
	}
	e.table, e.err = t, err
	h.mu.Unlock()
	close(e.ready)
	return t, err
}

// evict drops the least recently used finished tables but keep while the
// cache is over budget. Callers still holding a dropped table keep it
// until they finish with it.
func (h *HalfCache) evict(keep string) {
	for h.used > h.budget {
		var old string
		found := false
		var oldest uint64
		for id, e := range h.entries {
			if id == keep || e.table == nil {
				continue
			}
			if !found || e.last < oldest {
				old, oldest, found = id, e.last, true
			}
		}
		if !found {
			return
		}
		h.used -= h.entries[old].table.Bytes()
		delete(h.entries, old)
	}
}
