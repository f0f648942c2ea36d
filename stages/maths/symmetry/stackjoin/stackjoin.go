package stackjoin

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"sync"

	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/perm"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/search"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/stackjoin/cyclic"
)

// KernelVersion names the version of Fixed for results kept across runs
// (the symmetry stage's bundle of 3×4 classes): a fixed count is exact, so
// it changes only with a change that could change a count (a fix), not
// with one of speed.
const KernelVersion = 2

// ErrBudget is returned when the count needs more work units (enumeration
// nodes plus dynamic-programme states) than the budget allows.
var ErrBudget = errors.New("stackjoin: work budget exceeded")

// Stats describes the work of one Fixed call.
type Stats struct {
	Nodes      uint64   // enumeration nodes (orbits assigned), plus |symmetries|/8 per canonical check
	DPStates   uint64   // dynamic-programme states visited for E
	Stacks     []uint64 // configurations completed, per stack cycle (E computed or looked up)
	Nonzero    []uint64 // of those, with E ≠ 0
	Distinct   []int    // configurations whose E was computed (not found in stackCounts), per stack cycle
	Memoised   uint64   // sums over the later stack cycles taken from the walker's memo (walker.later)
	FirstRows  int      // first-row orbit representatives run, summed over σ types
	SigmaTypes int      // σ types allowed
}

// Fixed returns F(e) by the method of the package documentation, or
// ErrBudget when the work (nodes plus dynamic-programme states) passes
// budget (0: no limit).
func Fixed(ctx context.Context, s symmetry.Shape, e symmetry.Element, budget uint64) (*big.Int, error) {
	f, _, err := FixedStats(ctx, s, e, budget)
	return f, err
}

// FixedStats is Fixed with the work done.
func FixedStats(ctx context.Context, s symmetry.Shape, e symmetry.Element, budget uint64) (*big.Int, Stats, error) {
	return fixedStats(ctx, s, e, budget, options{})
}

// FixedWorkers is Fixed on workers goroutines (at least one), with no
// budget: FixedPart of the whole (part 0 of 1), combined.
func FixedWorkers(ctx context.Context, s symmetry.Shape, e symmetry.Element, workers int) (*big.Int, error) {
	sums, err := FixedPart(ctx, s, e, 0, 1, workers)
	if err != nil {
		return nil, err
	}
	return Combine(s, e, sums)
}

// FixedPart returns one part of Fixed's sums, for a count split into units
// of work that may run anywhere: for each relabelling type λ of e
// (search.SigmaTypes order), the number of grids X with X∘g = σ_λ∘X and
// canonical first row, over the part'th of parts shares of the
// enumeration. Combine adds the parts' sums and divides.
//
// The shares: the enumeration (the first stack cycle's configurations,
// below each the next cycle's, and so on) meets its nodes in the same
// order in every process. A first pass counts its nodes depth by depth
// (orbits assigned after the first row, the depth running on through the
// cycles) and picks the shallowest depth with at least shareSubtrees of
// them (or the whole tree); below it the i-th subtree met belongs to part
// i mod parts, and a configuration of the last cycle complete above it is
// a subtree of its own. So the parts partition the sum exactly (it is
// linear in each subtree's sum), and each enumerates only the nodes above
// the depth beside its own subtrees. (A fixed depth of 2 left most parts
// of 3×4 class 12 empty, its first two rows having 6 completions; sharing
// the complete configurations made every part of class 46 enumerate its
// millions; and sharing only the first cycle's nodes left all of class
// 12's work in one part, its first stack having a single canonical
// configuration, so KernelVersion 2 runs the depth on through the cycles.)
// Within a part, the workers goroutines deal its subtrees out in turn the
// same way; the sums do not depend on workers. A σ type that package cyclic
// counts is not shared: part 0's first worker counts it whole, the
// other parts give 0 for it.
func FixedPart(ctx context.Context, s symmetry.Shape, e symmetry.Element, part, parts, workers int) ([]*big.Int, error) {
	if parts < 1 || part < 0 || part >= parts {
		return nil, fmt.Errorf("stackjoin: part %d of %d: want 0 ≤ part < parts", part, parts)
	}
	sums, _, err := partSums(ctx, s, e, 0, options{workers: workers, part: part, parts: parts})
	return sums, err
}

// FixedPartByFirstRows is FixedPart with the first rows dealt out whole: the
// i-th first-row representative met (over the σ types in order) belongs to
// part i mod parts, and a part's to its workers in turn. The memo of the
// later cycles' sums (walker.later) lasts one first row: FixedPart's
// subtrees split each first row over many parts, each filling the same
// memo (6×2 class 172, whose 5,778 first rows FixedPart's depth 1 cut into
// 260,010 subtrees: part 5 of 65,536 passed 150 CPU-s). Its parts differ
// from FixedPart's (FirstRowShareVersion names them); Combine adds them alike.
func FixedPartByFirstRows(ctx context.Context, s symmetry.Shape, e symmetry.Element, part, parts, workers int) ([]*big.Int, error) {
	if parts < 1 || part < 0 || part >= parts {
		return nil, fmt.Errorf("stackjoin: part %d of %d: want 0 ≤ part < parts", part, parts)
	}
	sums, _, err := partSums(ctx, s, e, 0, options{workers: workers, part: part, parts: parts, byFirstRows: true})
	return sums, err
}

// FirstRowShareVersion names FixedPartByFirstRows's division into parts, beside
// KernelVersion: a change of it changes every part's sums.
const FirstRowShareVersion = 1

// Combine returns F(e) from the sums of every part of FixedPart (any
// number of parts), each a list in SigmaTypes order: each type's total
// divided by the order of σ's centraliser, the division checked to be
// exact, and summed over the types.
func Combine(s symmetry.Shape, e symmetry.Element, parts ...[]*big.Int) (*big.Int, error) {
	lams := search.SigmaTypes(s, e)
	total := new(big.Int)
	for i, lam := range lams {
		sum := new(big.Int)
		for _, p := range parts {
			if len(p) != len(lams) {
				return nil, fmt.Errorf("stackjoin: a part has %d sums, %v has %d relabelling types", len(p), e, len(lams))
			}
			sum.Add(sum, p[i])
		}
		z := perm.Centralizer(lam)
		q, r := new(big.Int).QuoRem(sum, z, new(big.Int))
		if r.Sign() != 0 {
			return nil, fmt.Errorf("stackjoin: %v grids of %v fixed with σ of type %v, not a multiple of its centraliser order %v", sum, s, lam, z)
		}
		total.Add(total, q)
	}
	return total, nil
}

// options select the reference paths that the tests compare against, and
// how the work is shared.
type options struct {
	plainE bool // E by the unreduced programme (stackCountPlain)
	checkE bool // E both ways, an error when they differ
	// noPrefix: no pruning by prefixLeast (the tests check that a part's
	// sums do not depend on it)
	noPrefix bool
	// private: E neither taken from nor kept in stackCounts (Project times
	// its sampled units as a cold start would)
	private bool
	// noCyclic: every σ type by the enumeration, none by package cyclic (the
	// tests compare the two)
	noCyclic bool
	// noMemo: the sums over the later stack cycles computed every time,
	// none taken from walker.later (the tests compare the two)
	noMemo bool
	// byFirstRows: the first rows are dealt out whole (FixedPartByFirstRows)
	byFirstRows bool
	workers     int // goroutines; 0 or 1: one
	// part of parts (FixedPart); parts 0 or 1: the whole
	part, parts int
}

// shareSubtrees is how many subtrees of the enumeration the parts and
// workers share at least, when it has that many nodes at some depth: 2^14,
// 64 for each of 256 parts. The work is far from even: the least
// configurations, the only ones counted, lie mostly in the first subtrees
// (3×4 class 12 in 1,024 parts: part 0 took 68 s, part 511 0.2 s; at 2^18
// subtrees part 0 took 82 s and part 1 64 s, part 511 0.3 s), so the
// first parts are the heaviest.
const shareSubtrees = 1 << 14

// share is one worker's subtrees of the enumeration (see FixedPart), those
// below depth: the i-th one met (i from 0, over every σ type and first
// row) belongs to part i mod parts, and that part's m-th one
// (m = i div parts) to its worker m mod workers.
type share struct {
	part, parts, worker, workers uint64
	depth                        int
	seq                          uint64
}

// mine reports whether the next subtree is the worker's.
func (sh *share) mine() bool {
	i := sh.seq
	sh.seq++
	return i%sh.parts == sh.part && (i/sh.parts)%sh.workers == sh.worker
}

func fixedStats(ctx context.Context, s symmetry.Shape, e symmetry.Element, budget uint64, opt options) (*big.Int, Stats, error) {
	sums, st, err := partSums(ctx, s, e, budget, opt)
	if err != nil {
		return nil, st, err
	}
	f, err := Combine(s, e, sums)
	return f, st, err
}

// partSums returns the sums of FixedPart for opt's part (the whole when
// opt.parts ≤ 1) on opt.workers goroutines, within budget per worker.
func partSums(ctx context.Context, s symmetry.Shape, e symmetry.Element, budget uint64, opt options) ([]*big.Int, Stats, error) {
	var st Stats
	if err := e.Check(s); err != nil {
		return nil, st, err
	}
	if e.Transpose {
		return nil, st, fmt.Errorf("stackjoin: transposition is not handled")
	}
	n := s.N()
	if n > 16 || s.C*n > 64 {
		return nil, st, fmt.Errorf("stackjoin: shape %v: a stack's state needs C·N = %d ≤ 64 bits", s, s.C*n)
	}
	p := newProblem(s, e)
	lams := search.SigmaTypes(s, e)
	// byColumns[i]: σ of type lams[i] is counted whole by package cyclic
	byColumns := make([]bool, len(lams))
	for i, lam := range lams {
		byColumns[i] = !opt.noCyclic && cyclic.Applies(s, e, perm.WithCycleType(lam))
	}
	workers := max(opt.workers, 1)
	parts := max(opt.parts, 1)
	depth := 0
	if parts > 1 || workers > 1 {
		var err error
		// the σ types package cyclic counts whole are not shared
		var walked [][]int
		for i, lam := range lams {
			if !byColumns[i] {
				walked = append(walked, lam)
			}
		}
		if !opt.byFirstRows { // else depth 0: the first rows are the subtrees
			if depth, err = shareDepth(ctx, p, walked); err != nil {
				return nil, st, err
			}
		}
	}
	// sums[k][i]: worker k's #{X : X∘g = σ∘X} for σ of type lams[i].
	sums := make([][]*big.Int, workers)
	stats := make([]Stats, workers)
	errs := make([]error, workers)
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	for k := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ws := &stats[k]
			ws.Stacks = make([]uint64, len(p.cycles))
			ws.Nonzero = make([]uint64, len(p.cycles))
			ws.Distinct = make([]int, len(p.cycles))
			sh := &share{part: uint64(opt.part), parts: uint64(parts), worker: uint64(k), workers: uint64(workers), depth: depth}
			for i, lam := range lams {
				if byColumns[i] {
					// one count, not shared: part 0's first worker's
					sum := new(big.Int)
					if opt.part == 0 && k == 0 {
						var err error
						if sum, err = cyclic.Count(wctx, s, e, perm.WithCycleType(lam)); err != nil {
							errs[k] = err
							cancel()
							return
						}
					}
					sums[k] = append(sums[k], sum)
					continue
				}
				w := newWalker(wctx, p, lam, budget, ws)
				w.opt = opt
				if parts > 1 || workers > 1 {
					w.share = sh
				}
				sum, err := w.sum()
				if err != nil {
					errs[k] = err
					cancel() // the other workers' counts are of no use
					return
				}
				sums[k] = append(sums[k], sum)
			}
		}()
	}
	wg.Wait()
	st = mergeStats(stats, len(p.cycles))
	st.SigmaTypes = len(lams)
	if err := firstError(ctx, errs); err != nil {
		return nil, st, err
	}
	out := make([]*big.Int, len(lams))
	for i := range lams {
		out[i] = new(big.Int)
		for k := range workers {
			out[i].Add(out[i], sums[k][i])
		}
	}
	return out, st, nil
}

// shareDepth returns the shallowest depth of the enumeration (orbits
// assigned after the first row, in every stack cycle, over every σ type
// and first row) with at least shareSubtrees subtrees: its nodes at that
// depth, and the last cycle's configurations complete above it. It walks
// one depth deeper each pass (the passes cost about twice the last); when
// there is no node at a depth, every configuration is a subtree there.
func shareDepth(ctx context.Context, p *problem, lams [][]int) (int, error) {
	for d := 1; ; d++ {
		var st Stats
		st.Stacks = make([]uint64, len(p.cycles))
		st.Nonzero = make([]uint64, len(p.cycles))
		st.Distinct = make([]int, len(p.cycles))
		counts := make([]uint64, d+1)
		leaves := uint64(0)
		for _, lam := range lams {
			w := newWalker(ctx, p, lam, 0, &st)
			w.probe = counts
			if _, err := w.sum(); err != nil {
				return 0, err
			}
			leaves += w.probeLeaves
		}
		if counts[d] == 0 || counts[d]+leaves >= shareSubtrees {
			return d, nil
		}
	}
}

// mergeStats adds the workers' work; every worker runs every first row, so
// FirstRows is one worker's.
func mergeStats(stats []Stats, cycles int) Stats {
	st := Stats{Stacks: make([]uint64, cycles), Nonzero: make([]uint64, cycles), Distinct: make([]int, cycles)}
	for k, ws := range stats {
		st.Nodes += ws.Nodes
		st.DPStates += ws.DPStates
		st.Memoised += ws.Memoised
		for i := range cycles {
			st.Stacks[i] += ws.Stacks[i]
			st.Nonzero[i] += ws.Nonzero[i]
			st.Distinct[i] += ws.Distinct[i]
		}
		if k == 0 {
			st.FirstRows = ws.FirstRows
		}
	}
	return st
}

// firstError returns the workers' error: the caller's cancellation first,
// then ErrBudget or another failure, ignoring the cancellations that one
// worker's failure caused in the others.
func firstError(ctx context.Context, errs []error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	for _, err := range errs {
		if err != nil && !errors.Is(err, context.Canceled) {
			return err
		}
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
