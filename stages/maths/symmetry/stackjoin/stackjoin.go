package stackjoin

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"math/bits"
	"slices"
	"sync"

	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/perm"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/search"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/stackjoin/cyclic"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/stackjoin/rowkeys"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/stackjoin/stackcount"
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
	workers  int // goroutines; 0 or 1: one
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
		if depth, err = shareDepth(ctx, p, walked); err != nil {
			return nil, st, err
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

// problem is the part that depends on g only.
type problem struct {
	s        symmetry.Shape
	n, r, c  int // side, rows per box, columns per box
	rho, pi  []int
	kappa    []int // on all columns
	cycles   [][]int
	cycleOf  []int // stack → index of its cycle
	twistRho [][]int
	twistKap [][]int // per cycle: ρ^ℓ, κ^ℓ on the representative's columns (0…C-1)
	twistPow []int   // per cycle: ℓ
	// rowSym lists the row permutations y (in S_R wr S_C) with yρ = ρy and
	// y(0) = 0, as images y[r].
	rowSym [][]int
	// symWalk is rowSym in the order of its inverses, for reading images
	// row by row (newRowSymWalk).
	symWalk rowSymWalk
}

// sigmaTables holds sigmaPowerTables for the process, by fmt.Sprint(σ).
var sigmaTables sync.Map

// sigmaPowerTables returns the images σ^k(m) of every symbol set m for
// k = 0…ord, as tables t[k][m]; read-only, shared by every walker of σ.
func sigmaPowerTables(sigma []int, ord int) [][]uint16 {
	key := fmt.Sprint(sigma)
	if t, ok := sigmaTables.Load(key); ok {
		return t.([][]uint16)
	}
	n := len(sigma)
	t := make([][]uint16, ord+1)
	pow := perm.Identity(n)
	for k := range ord + 1 {
		t[k] = make([]uint16, 1<<n)
		for m := 1; m < 1<<n; m++ {
			// the set without its lowest symbol's image, plus that image
			t[k][m] = t[k][m&(m-1)] | 1<<pow[bits.TrailingZeros(uint(m))]
		}
		pow = perm.Compose(sigma, pow)
	}
	sigmaTables.Store(key, t)
	return t
}

// firstRowSets holds each shape's and σ's first-row representatives
// (walker.firstRows) for the process: every walker of one σ type has the
// same, and a run of parts makes many walkers. Key: fmt.Sprint(shape, σ).
var firstRowSets sync.Map

func newProblem(s symmetry.Shape, e symmetry.Element) *problem {
	n := s.N()
	p := &problem{s: s, n: n, r: s.R, c: s.C, rho: e.Rows, kappa: e.Cols}
	p.pi = make([]int, s.R)
	for t := range s.R {
		p.pi[t] = e.Cols[t*s.C] / s.C
	}
	p.cycleOf = make([]int, s.R)
	seen := make([]bool, s.R)
	for t := range s.R {
		if seen[t] {
			continue
		}
		var cyc []int
		for x := t; !seen[x]; x = p.pi[x] {
			seen[x] = true
			p.cycleOf[x] = len(p.cycles)
			cyc = append(cyc, x)
		}
		p.cycles = append(p.cycles, cyc)
		l := len(cyc)
		pw := e.Power(l)
		kap := make([]int, s.C)
		for j := range s.C {
			kap[j] = pw.Cols[t*s.C+j] - t*s.C
		}
		p.twistRho = append(p.twistRho, pw.Rows)
		p.twistKap = append(p.twistKap, kap)
		p.twistPow = append(p.twistPow, l)
	}
	for _, bp := range perm.All(s.C) {
		inner := perm.All(s.R)
		idx := make([]int, s.C)
		for {
			y := make([]int, n)
			for b := range s.C {
				for j := range s.R {
					y[b*s.R+j] = bp[b]*s.R + inner[idx[b]][j]
				}
			}
			if y[0] == 0 && slices.Equal(perm.Compose(y, p.rho), perm.Compose(p.rho, y)) {
				p.rowSym = append(p.rowSym, y)
			}
			i := 0
			for i < s.C {
				idx[i]++
				if idx[i] < len(inner) {
					break
				}
				idx[i] = 0
				i++
			}
			if i == s.C {
				break
			}
		}
	}
	p.symWalk = newRowSymWalk(p.rowSym, n)
	return p
}

// rowSymWalk lists row permutations y sorted by their inverses read as
// words, so that those whose inverses agree on rows 0…r are consecutive.
// An image z∘P∘y⁻¹ read row by row, row i being z(P(y⁻¹(i))), is decided
// at the first row where it differs from P, and that row depends on
// y⁻¹(0…r) alone: when it is decided there (or cannot be, a row not yet
// set) the whole run of y sharing that prefix is decided with it, and
// next[k·N+r] is where the run of entry k at row r ends. A least-image
// test then reads a few rows of a few runs instead of every y.
type rowSymWalk struct {
	y, inv [][]int
	next   []int32
	n      int
}

func newRowSymWalk(ys [][]int, n int) rowSymWalk {
	order := make([]int, len(ys))
	invs := make([][]int, len(ys))
	for i, y := range ys {
		order[i] = i
		invs[i] = perm.Inverse(y)
	}
	slices.SortStableFunc(order, func(a, b int) int { return slices.Compare(invs[a], invs[b]) })
	sw := rowSymWalk{n: n, next: make([]int32, len(ys)*n)}
	for _, i := range order {
		sw.y = append(sw.y, ys[i])
		sw.inv = append(sw.inv, invs[i])
	}
	for k := len(order) - 1; k >= 0; k-- {
		for r := range n {
			if k+1 < len(order) && slices.Equal(sw.inv[k][:r+1], sw.inv[k+1][:r+1]) {
				sw.next[k*n+r] = sw.next[(k+1)*n+r]
			} else {
				sw.next[k*n+r] = int32(k + 1)
			}
		}
	}
	return sw
}

// orbit is one orbit of ⟨(π, ρ)⟩ on the (stack, row) cells.
type orbit struct {
	stack, row []int // the cells, the k-th being g^k of the first
	cycle      int   // its stack cycle
}

// walker holds the state of the enumeration for one σ.
type walker struct {
	ctx    context.Context
	p      *problem
	n, c   int
	full   uint16
	ord    int
	sigma  []int
	sigM   [][]uint16 // sigM[k][m] = σ^k(m)
	subs   []uint16   // the C-subsets of the symbols
	subsOf [][]uint16 // per mask, its C-subsets (subsetsOf)
	orbits []orbit
	// last[i]: the index after the last orbit of cycle i.
	last []int
	// config[t][r]: the set at (t, r), 0 when unset.
	config  [][]uint16
	rowUsed []uint16   // per row
	boxUsed [][]uint16 // per stack, per band
	twistID []int32    // per stack cycle, its twist's id in stackCounts
	st      *Stats
	budget  uint64
	err     error
	acc     []*big.Int          // acc[i]: sum over completions of cycles ≥ i
	twists  []*stackcount.Twist // per stack cycle, built on first use
	norms   []*rowkeys.RowNormal
	tmp     []*big.Int // complete's scratch, per stack cycle
	opt     options
	share   *share // FixedPart: this worker's subtrees; nil: all
	// probe, when set, counts the enumeration's nodes by depth down to
	// len(probe)-1, and probeLeaves the last cycle's configurations
	// complete above that depth, instead of counting grids (shareDepth).
	probe       []uint64
	probeLeaves uint64

	// symQ: the non-identity relabellings of the first row's stabiliser
	// (firstRowSymbols), each as two byte tables of its image of a symbol
	// set; nil when it is trivial or too large to use. Listed on first use
	// below each first row (symQReady; relabellings): most first rows of a
	// part have no subtree of its own.
	symQ      [][2][256]uint16
	symQReady bool
	firstQ    []uint16 // the first row set by setFirstRow
	symRows   []uint16 // canonical's scratch
	// stab0: the stabiliser of the first cycle's configuration in the
	// group canonical uses (the pairs (y, z) mapping it onto itself), which
	// the second cycle's configurations are taken up to (secondCanonical).
	stab0 []symmetryPair
	// tauFree[i]: stack cycle i's τ = σ^ℓ is the identity, so its E is
	// kept by every relabelling (rowkeys.RelabelKey); rhoFree[i]: its ρ^ℓ is too.
	tauFree, rhoFree []bool
	// tauCycles[i]: the cycles of stack cycle i's τ (rowkeys.CycleKey)
	tauCycles [][][]int

	// Projection (project.go): the orbit choices made so far, and, when
	// collect is set, a hook that takes the first cycle's canonical
	// configurations instead of counting below them.
	path      []choice
	firstDone []int // stacks whose first-row orbit setFirstRow assigned
	reps      [][]uint16
	repSizes  []int
	collect   func(weight uint64)
}

// choice is one orbit's value.
type choice struct {
	orbit int
	value uint16
}

func newWalker(ctx context.Context, p *problem, lam []int, budget uint64, st *Stats) *walker {
	n := p.n
	w := &walker{ctx: ctx, p: p, n: n, c: p.c, full: uint16(1<<n - 1), st: st, budget: budget}
	w.sigma = perm.WithCycleType(lam)
	w.ord = perm.Order(w.sigma)
	w.sigM = sigmaPowerTables(w.sigma, w.ord)
	for m := range 1 << n {
		if bits.OnesCount(uint(m)) == p.c {
			w.subs = append(w.subs, uint16(m))
		}
	}
	// Orbits, cycle by cycle, from the representative's rows in order.
	seen := make([][]bool, p.r)
	for t := range seen {
		seen[t] = make([]bool, n)
	}
	for ci, cyc := range p.cycles {
		t0 := cyc[0]
		for r := range n {
			if seen[t0][r] {
				continue
			}
			o := orbit{cycle: ci}
			for t, x := t0, r; !seen[t][x]; t, x = p.pi[t], p.rho[x] {
				seen[t][x] = true
				o.stack = append(o.stack, t)
				o.row = append(o.row, x)
			}
			w.orbits = append(w.orbits, o)
		}
		w.last = append(w.last, len(w.orbits))
	}
	w.config = make([][]uint16, p.r)
	w.boxUsed = make([][]uint16, p.r)
	for t := range p.r {
		w.config[t] = make([]uint16, n)
		w.boxUsed[t] = make([]uint16, p.c)
	}
	w.rowUsed = make([]uint16, n)
	for ci := range p.cycles {
		tau := perm.Power(w.sigma, p.twistPow[ci])
		w.tauFree = append(w.tauFree, perm.IsIdentity(tau))
		w.tauCycles = append(w.tauCycles, perm.Cycles(tau))
		w.rhoFree = append(w.rhoFree, perm.IsIdentity(p.twistRho[ci]))
		w.twistID = append(w.twistID, stackCounts.twistID(p.s, p.twistRho[ci], p.twistKap[ci], tau))
	}
	w.twists = make([]*stackcount.Twist, len(p.cycles))
	w.norms = make([]*rowkeys.RowNormal, len(p.cycles))
	w.tmp = make([]*big.Int, len(p.cycles))
	for i := range w.tmp {
		w.tmp[i] = new(big.Int)
	}
	w.acc = make([]*big.Int, len(p.cycles)+1)
	for i := range w.acc {
		w.acc[i] = new(big.Int)
	}
	return w
}

// set tries P_t(r) = m; it reports false (changing nothing) on a clash.
func (w *walker) set(t, r int, m uint16) bool {
	b := r / w.p.r
	if w.config[t][r] != 0 || w.rowUsed[r]&m != 0 || w.boxUsed[t][b]&m != 0 {
		return false
	}
	w.config[t][r] = m
	w.rowUsed[r] |= m
	w.boxUsed[t][b] |= m
	return true
}

func (w *walker) unset(t, r int) {
	m := w.config[t][r]
	b := r / w.p.r
	w.config[t][r] = 0
	w.rowUsed[r] &^= m
	w.boxUsed[t][b] &^= m
}

// assign gives orbit o the value a at its first cell, and σ^k(a) at its
// k-th; it reports false (changing nothing) when a clashes or the orbit
// does not close.
func (w *walker) assign(o *orbit, a uint16) bool {
	L := len(o.stack)
	if w.sigM[L%w.ord][a] != a {
		return false
	}
	for k := range L {
		if !w.set(o.stack[k], o.row[k], w.sigM[k%w.ord][a]) {
			for j := range k {
				w.unset(o.stack[j], o.row[j])
			}
			return false
		}
	}
	return true
}

func (w *walker) unassign(o *orbit) {
	for k := range o.stack {
		w.unset(o.stack[k], o.row[k])
	}
}

// sum returns #{X : X∘g = σ∘X} over the first-row orbit representatives.
func (w *walker) sum() (*big.Int, error) {
	total := new(big.Int)
	reps, sizes := w.firstRows()
	for i, q := range reps {
		if w.setFirstRow(q) {
			w.st.FirstRows++
			w.acc[0].SetInt64(0)
			w.fill(0)
			if w.err != nil {
				return nil, w.err
			}
			total.Add(total, new(big.Int).Mul(w.acc[0], big.NewInt(int64(sizes[i]))))
		}
		w.clearFirstRow(q)
	}
	return total, nil
}

// setFirstRow assigns the orbits of the first row's cells so that
// P_t(0) = q[t]; it reports false on a clash (clearFirstRow undoes the part
// done).
func (w *walker) setFirstRow(q []uint16) bool {
	w.firstDone = w.firstDone[:0]
	for t := range w.p.r {
		if w.config[t][0] == q[t] {
			continue
		}
		if w.config[t][0] != 0 || !w.fillCell(t, 0, q[t]) {
			return false
		}
		w.firstDone = append(w.firstDone, t)
	}
	w.firstQ, w.symQ, w.symQReady = q, nil, false
	return true
}

// relabellings returns symQ, listing it on first use below the first row.
func (w *walker) relabellings() [][2][256]uint16 {
	if !w.symQReady {
		w.symQ, w.symQReady = w.firstRowSymbols(w.firstQ), true
	}
	return w.symQ
}

// maxSymbolImages bounds |Y|·|Z_Q|, the images canonical tries on a
// configuration that is least: above it the relabellings are not used
// (the row permutations alone are a group too).
const maxSymbolImages = 1 << 22

// firstRowSymbols returns the relabellings z ≠ id with zσ = σz and
// z(Q_t) = Q_t for every stack t, the stabiliser Z_Q of the first row q in
// Z(σ), as byte tables of z on symbol sets; nil when Z_Q is trivial or
// |Y|·|Z_Q| passes maxSymbolImages. X ↦ z∘X keeps X∘g = σ∘X (z commutes
// with σ) and the first row's sets, so canonical takes the configurations
// of the first cycle up to Z_Q as well as the row permutations. Such a z
// maps each σ-cycle onto one of the same length, rotated, keeping every
// symbol's stack: the backtracking below lists them.
func (w *walker) firstRowSymbols(q []uint16) [][2][256]uint16 {
	n := w.n
	stackOf := make([]int, n)
	for t, m := range q {
		for x := range n {
			if m>>x&1 != 0 {
				stackOf[x] = t
			}
		}
	}
	cycles := perm.Cycles(w.sigma)
	var zs [][]int
	z := make([]int, n)
	used := make([]bool, len(cycles))
	limit := maxSymbolImages / max(len(w.p.rowSym), 1)
	var place func(i int) bool // false: too many
	place = func(i int) bool {
		if i == len(cycles) {
			zs = append(zs, slices.Clone(z))
			return len(zs) <= limit
		}
		ci := cycles[i]
		l := len(ci)
		for j, cj := range cycles {
			if used[j] || len(cj) != l {
				continue
			}
		rotations:
			for k := range l {
				for p := range l {
					if stackOf[cj[(p+k)%l]] != stackOf[ci[p]] {
						continue rotations
					}
				}
				for p := range l {
					z[ci[p]] = cj[(p+k)%l]
				}
				used[j] = true
				ok := place(i + 1)
				used[j] = false
				if !ok {
					return false
				}
			}
		}
		return true
	}
	if !place(0) || len(zs) <= 1 {
		return nil
	}
	var out [][2][256]uint16
	for _, z := range zs {
		if slices.Equal(z, perm.Identity(n)) {
			continue
		}
		out = append(out, [2][256]uint16{})
		tab := &out[len(out)-1]
		for h := range 2 {
			// a set's image is its set without the lowest symbol's, plus
			// that symbol's image
			for b := 1; b < 256; b++ {
				if x := h*8 + bits.TrailingZeros(uint(b)); x < n {
					tab[h][b] = tab[h][b&(b-1)] | 1<<z[x]
				} else {
					tab[h][b] = tab[h][b&(b-1)]
				}
			}
		}
	}
	return out
}

// clearFirstRow undoes setFirstRow.
func (w *walker) clearFirstRow([]uint16) {
	for j := len(w.firstDone) - 1; j >= 0; j-- {
		w.unassign(w.orbitOfCell(w.firstDone[j], 0))
	}
	w.firstDone = w.firstDone[:0]
}

// orbitOfCell returns the orbit holding cell (t, r).
func (w *walker) orbitOfCell(t, r int) *orbit {
	for i := range w.orbits {
		o := &w.orbits[i]
		for k := range o.stack {
			if o.stack[k] == t && o.row[k] == r {
				return o
			}
		}
	}
	panic("stackjoin: cell in no orbit")
}

// fillCell assigns the orbit of (t, r) so that P_t(r) = m.
func (w *walker) fillCell(t, r int, m uint16) bool {
	o := w.orbitOfCell(t, r)
	for k := range o.stack {
		if o.stack[k] == t && o.row[k] == r {
			// the first cell's value a has σ^k(a) = m: a = σ^{-k}(m)
			back := (w.ord - k%w.ord) % w.ord
			return w.assign(o, w.sigM[back][m])
		}
	}
	return false
}

// firstRows returns representatives of the Z(σ)-orbits on the ordered
// partitions of the symbols into R sets of C (a first row), and the orbit
// sizes.
func (w *walker) firstRows() ([][]uint16, []int) {
	if w.reps == nil {
		key := fmt.Sprint(w.p.s, w.sigma)
		if c, ok := firstRowSets.Load(key); ok {
			fr := c.(firstRowSet)
			w.reps, w.repSizes = fr.reps, fr.sizes
		} else {
			w.reps, w.repSizes = w.computeFirstRows()
			firstRowSets.Store(key, firstRowSet{w.reps, w.repSizes})
		}
	}
	return w.reps, w.repSizes
}

// firstRowSet is the first-row representatives of one σ and their orbit
// sizes, read-only once computed.
type firstRowSet struct {
	reps  [][]uint16
	sizes []int
}

func (w *walker) computeFirstRows() ([][]uint16, []int) {
	var all [][]uint16
	index := map[[16]uint16]int{}
	var rec func(cur []uint16, used uint16)
	rec = func(cur []uint16, used uint16) {
		if len(cur) == w.p.r {
			var k [16]uint16
			copy(k[:], cur)
			index[k] = len(all)
			all = append(all, append([]uint16(nil), cur...))
			return
		}
		for _, a := range w.subs {
			if a&used == 0 {
				rec(append(cur, a), used|a)
			}
		}
	}
	rec(nil, 0)
	// Generators of Z(σ): rotate one cycle; exchange consecutive cycles of
	// equal length.
	var gens [][]int
	lam := perm.CycleType(w.sigma)
	at := 0
	for i, l := range lam {
		rot := perm.Identity(w.n)
		for j := range l {
			rot[at+j] = at + (j+1)%l
		}
		gens = append(gens, rot)
		if i+1 < len(lam) && lam[i+1] == l {
			sw := perm.Identity(w.n)
			for j := range l {
				sw[at+j], sw[at+l+j] = at+l+j, at+j
			}
			gens = append(gens, sw)
		}
		at += l
	}
	mapMask := func(g []int, m uint16) uint16 {
		var out uint16
		for v := range w.n {
			if m>>v&1 != 0 {
				out |= 1 << g[v]
			}
		}
		return out
	}
	comp := make([]int, len(all))
	for i := range comp {
		comp[i] = -1
	}
	var reps [][]uint16
	var sizes []int
	for i := range all {
		if comp[i] >= 0 {
			continue
		}
		comp[i] = len(reps)
		queue := []int{i}
		for len(queue) > 0 {
			x := queue[len(queue)-1]
			queue = queue[:len(queue)-1]
			for _, g := range gens {
				var k [16]uint16
				for t, m := range all[x] {
					k[t] = mapMask(g, m)
				}
				y := index[k]
				if comp[y] < 0 {
					comp[y] = len(reps)
					queue = append(queue, y)
				}
			}
		}
		reps = append(reps, all[i])
		sizes = append(sizes, 0)
	}
	for _, c := range comp {
		sizes[c]++
	}
	return reps, sizes
}

func (w *walker) charge(k uint64) bool {
	w.st.Nodes += k
	if w.budget > 0 && w.st.Nodes+w.st.DPStates > w.budget {
		w.err = ErrBudget
	}
	if w.st.Nodes&0xfff == 0 && w.err == nil {
		w.err = w.ctx.Err()
	}
	return w.err != nil
}

// fill assigns orbits from o on, adding to acc[cycle of o] the sum over
// completions of the products of E of the cycles from o's on.
func (w *walker) fill(o int) {
	if w.charge(1) {
		return
	}
	// Skip orbits already assigned (the first row).
	for o < len(w.orbits) && w.config[w.orbits[o].stack[0]][w.orbits[o].row[0]] != 0 {
		ci := w.orbits[o].cycle
		if o+1 == w.last[ci] {
			w.complete(ci)
			return
		}
		o++
	}
	if o == len(w.orbits) {
		return
	}
	ob := &w.orbits[o]
	t, r := ob.stack[0], ob.row[0]
	free := w.full &^ (w.rowUsed[r] | w.boxUsed[t][r/w.p.r])
	for _, a := range w.subsetsOf(free) {
		if !w.assign(ob, a) {
			continue
		}
		// Every completion of a node that prefixLeast rejects has a smaller
		// image: none is least. Nodes down to the sharing depth are kept,
		// so that the subtrees dealt out are those of KernelVersion 2.
		if ob.cycle == 0 && w.probe == nil && !w.opt.noPrefix && (w.share == nil || len(w.path) >= w.share.depth) && !w.prefixLeast() {
			w.unassign(ob)
			continue
		}
		if w.share != nil || w.probe != nil {
			d := len(w.path) + 1 // the depth of this node, over every cycle
			switch {
			case w.probe != nil:
				w.probe[d]++
				if d >= len(w.probe)-1 {
					w.unassign(ob)
					continue // deep enough: the depth is chosen
				}
			case d == w.share.depth && !w.share.mine():
				w.unassign(ob)
				continue // another part's or worker's subtree
			}
		}
		w.path = append(w.path, choice{o, a})
		if o+1 == w.last[ob.cycle] {
			w.complete(ob.cycle)
		} else {
			w.fill(o + 1)
		}
		w.unassign(ob)
		w.path = w.path[:len(w.path)-1]
		if w.err != nil {
			return
		}
	}
}

// subsetsOf returns the C-subsets of free in increasing order (the order
// of subs), listed once per mask: most masks leave few of the subsets.
func (w *walker) subsetsOf(free uint16) []uint16 {
	if w.subsOf == nil {
		w.subsOf = make([][]uint16, 1<<w.n)
	}
	l := w.subsOf[free]
	if l == nil {
		l = []uint16{}
		for _, a := range w.subs {
			if a&^free == 0 {
				l = append(l, a)
			}
		}
		w.subsOf[free] = l
	}
	return l
}

// complete handles a completed stack cycle ci: E of its representative,
// then the cycles after it.
func (w *walker) complete(ci int) {
	t := w.p.cycles[ci][0]
	weight := uint64(1)
	if ci+1 == len(w.p.cycles) {
		// A configuration complete above the sharing depth ends its branch:
		// a subtree of its own.
		if w.probe != nil {
			w.probeLeaves++
			return
		}
		if w.share != nil && len(w.path) < w.share.depth && !w.share.mine() {
			return // another part's or worker's
		}
	}
	if ci == 0 {
		var ok bool
		if weight, ok = w.canonical(w.config[t]); !ok {
			return
		}
		if w.collect != nil {
			w.collect(weight)
			return
		}
	}
	if ci == 1 && len(w.stab0) > 1 {
		var ok bool
		if weight, ok = w.secondCanonical(w.config[t]); !ok {
			return
		}
	}
	w.st.Stacks[ci]++
	var key [16]uint16
	if w.opt.plainE {
		copy(key[:], w.config[t])
	} else {
		if w.norms[ci] == nil {
			w.norms[ci] = rowkeys.NewRowNormal(w.n, w.p.r, w.p.twistRho[ci])
		}
		switch {
		case w.tauFree[ci] && w.rhoFree[ci]:
			// canonical under every row permutation: no normal form first
			key = rowkeys.RelabelKey(w.config[t], w.p.r, true)
		case w.tauFree[ci]:
			key = w.norms[ci].Key(w.config[t])
			key = rowkeys.RelabelKey(key[:w.n], w.p.r, false)
		default:
			key = w.norms[ci].Key(w.config[t])
			key = rowkeys.CycleKey(key[:w.n], w.p.r, w.tauCycles[ci])
		}
	}
	var e uint64
	ok := false
	shared := !w.opt.plainE && !w.opt.private // the process's counts
	if shared {
		e, ok = stackCounts.get(w.twistID[ci], key)
	}
	if !ok {
		e, ok = w.stackCount(ci, w.config[t])
		if !ok {
			return
		}
		w.st.Distinct[ci]++
		if shared {
			stackCounts.put(w.twistID[ci], key, e)
		}
	}
	if w.opt.checkE {
		// the memo key's configuration has the same E
		keyRows := key[:w.n]
		switch {
		case w.opt.plainE:
		case w.tauFree[ci]:
			keyRows = rowkeys.RelabelKeyRows(key, w.n, w.p.r)
		default:
			keyRows = rowkeys.CycleKeyRows(key, w.n, w.p.r, w.tauCycles[ci])
		}
		if e2, ok2 := w.stackCountPlain(ci, keyRows); ok2 && e2 != e {
			w.err = fmt.Errorf("stackjoin: stack cycle %d, rows %x: E = %d, its memo key %x has %d", ci, w.config[t], e, key[:w.n], e2)
			return
		}

	}
	if e == 0 {
		return
	}
	w.st.Nonzero[ci]++
	// we in a per-cycle scratch value: no allocation per configuration
	we := w.tmp[ci].SetUint64(e)
	if weight != 1 {
		we.Mul(we, new(big.Int).SetUint64(weight))
	}
	if ci+1 == len(w.p.cycles) {
		w.acc[ci].Add(w.acc[ci], we)
		return
	}
	w.acc[ci+1].SetInt64(0)
	w.fill(w.last[ci])
	if w.acc[ci+1].Sign() != 0 {
		w.acc[ci].Add(w.acc[ci], we.Mul(we, w.acc[ci+1]))
	}
}

// canonical reports whether the first stack cycle's configuration (its
// representative's row sets) is the least, read row by row, of its images
// z∘P∘y⁻¹ under the row permutations y of problem.rowSym and the
// relabellings z of symQ, and the size of its orbit, |Y|·|Z_Q|/|stabiliser|.
// Those y commute with g and fix row 0, those z commute with σ and fix the
// first row's sets, so X ↦ z∘X∘y⁻¹ carries the grids counted under one
// configuration onto those under its image (and E of every stack cycle is
// kept): the sum over configurations is the sum over the least ones
// weighted by their orbits. The row permutations are tried first: they
// reject most configurations at once.
func (w *walker) canonical(rows []uint16) (uint64, bool) {
	if w.charge(uint64(len(w.p.rowSym)) / 8) {
		return 0, false
	}
	var stab uint64
	w.stab0 = w.stab0[:0]
	// least reports whether no y maps src (rows relabelled by z, nil for
	// the identity) below rows, counting into stab and stab0 those that map
	// it onto rows; it skips the runs of y decided together (rowSymWalk).
	least := func(src []uint16, z *[2][256]uint16) bool {
		sw := &w.p.symWalk
		for k := 0; k < len(sw.inv); {
			inv := sw.inv[k]
			r := 0
			for ; r < w.n; r++ {
				if v := src[inv[r]]; v != rows[r] {
					if v < rows[r] {
						return false
					}
					break
				}
			}
			if r < w.n {
				k = int(sw.next[k*w.n+r])
				continue
			}
			stab++
			w.stab0 = append(w.stab0, symmetryPair{sw.y[k], z})
			k++
		}
		return true
	}
	if !least(rows, nil) {
		return 0, false
	}
	symQ := w.relabellings()
	if len(symQ) > 0 {
		if w.charge(uint64(len(w.p.rowSym)*len(symQ)) / 8) {
			return 0, false
		}
		if len(w.symRows) != w.n {
			w.symRows = make([]uint16, w.n)
		}
		for zi := range symQ {
			tab := &symQ[zi]
			for r, m := range rows {
				w.symRows[r] = tab[0][m&0xff] | tab[1][m>>8]
			}
			if !least(w.symRows, tab) {
				return 0, false
			}
		}
	}
	group := uint64(len(w.p.rowSym)) * uint64(len(symQ)+1)
	if group%stab != 0 {
		w.err = fmt.Errorf("stackjoin: a stabiliser of order %d in a group of order %d", stab, group)
		return 0, false
	}
	return group / stab, true
}

// stackCounts keeps the stack counts E_{h,τ} computed in the process, by
// twist (ρ', κ', τ) and memo key: E is a function of those two alone,
// whatever the class, σ type, worker or part that meets it. So the parts
// of a class (the symmetry stage's local executor runs them one after
// another in one process) share its counts instead of each computing them
// again, and classes with the same twist share theirs: the plain count
// (every one the identity) is met by the stack exchanges of every class.
var stackCounts = &countCache{m: map[countKey]uint64{}, ids: map[string]int32{}}

// maxStackCounts bounds each of stackCounts' two generations (about 60
// bytes an entry with the map's overhead, 2 GB at most in all). When the
// current one is full it becomes the old one, whose counts are still
// found, and the older is dropped: a run of many parts keeps the counts
// it meets again. (With one table of 2^22 emptied when full, a part of
// 3×4 class 115, about 5·10^6 distinct counts, emptied it once and met
// its own counts again no faster; with room for two parts the second took
// 70 s instead of 100, and a part met again 15 s, 2026-11-28.)
const maxStackCounts = 1 << 24

type countKey struct {
	twist int32
	key   [16]uint16
}

type countCache struct {
	mu     sync.RWMutex
	m, old map[countKey]uint64
	ids    map[string]int32 // shape and twist, as bytes → id
}

// twistID returns the id of the twist (ρ', κ', τ) of shape s.
func (c *countCache) twistID(s symmetry.Shape, rho, kap, tau []int) int32 {
	b := []byte{byte(s.R), byte(s.C)}
	for _, p := range [][]int{rho, kap, tau} {
		b = append(b, byte(len(p)))
		for _, x := range p {
			b = append(b, byte(x))
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	id, ok := c.ids[string(b)]
	if !ok {
		id = int32(len(c.ids))
		c.ids[string(b)] = id
	}
	return id
}

func (c *countCache) get(twist int32, key [16]uint16) (uint64, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	k := countKey{twist, key}
	if e, ok := c.m[k]; ok {
		return e, true
	}
	e, ok := c.old[k]
	return e, ok
}

func (c *countCache) put(twist int32, key [16]uint16, e uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m) >= maxStackCounts {
		c.old, c.m = c.m, make(map[countKey]uint64, len(c.m))
	}
	c.m[countKey{twist, key}] = e
}

// maxPrefixSymmetries bounds the symmetries prefixLeast tries at every
// node of the first cycle: beyond it they would cost more than they save.
const maxPrefixSymmetries = 1 << 16

// prefixLeast reports whether the first cycle's partial configuration can
// still complete to one that canonical keeps: false when some symmetry of
// canonical's group maps it below itself in the rows already set. The
// image's row i is z(P(y⁻¹(i))); read in order, as long as both it and
// row i are set the comparison is decided by them whatever the rows left
// become, so a smaller image there stays smaller in every completion. It
// tries the row permutations with the relabellings when there are at most
// maxPrefixSymmetries of them, else the row permutations alone when few
// enough, else none (any subset of the group prunes only what canonical
// would reject).
func (w *walker) prefixLeast() bool {
	rows := w.config[w.p.cycles[0][0]]
	sw := &w.p.symWalk
	ys := len(sw.inv)
	if ys > maxPrefixSymmetries {
		return true
	}
	symQ := w.relabellings()
	withZ := ys*(len(symQ)+1) <= maxPrefixSymmetries
	for zi := -1; zi < len(symQ); zi++ {
		if zi >= 0 && !withZ {
			break
		}
		for k := 0; k < ys; {
			inv := sw.inv[k]
			r := 0
			for ; r < w.n; r++ {
				src, dst := rows[inv[r]], rows[r]
				if src == 0 || dst == 0 {
					break
				}
				if zi >= 0 {
					src = symQ[zi][0][src&0xff] | symQ[zi][1][src>>8]
				}
				if src != dst {
					if src < dst {
						return false
					}
					break
				}
			}
			if r < w.n {
				k = int(sw.next[k*w.n+r])
			} else {
				k++
			}
		}
	}
	return true
}

// symmetryPair is a symmetry X ↦ z∘X∘y⁻¹ of canonical's group: y a row
// permutation, z a relabelling as byte tables (nil: the identity).
type symmetryPair struct {
	y []int
	z *[2][256]uint16
}

// secondCanonical is canonical for the second stack cycle's configuration
// (its representative's row sets) under stab0, the symmetries that fix the
// first cycle's: whether it is the least of its images, and the size of
// its orbit. They carry the grids counted under the pair of
// configurations onto those under the image pair, so the sum over the
// second cycle's configurations is the sum over the least ones weighted
// by their orbits (the first cycle's weight counts the orbit of the
// first alone).
func (w *walker) secondCanonical(rows []uint16) (uint64, bool) {
	if w.charge(uint64(len(w.stab0)) / 8) {
		return 0, false
	}
	if len(w.symRows) != w.n {
		w.symRows = make([]uint16, w.n)
	}
	img := w.symRows
	var stab uint64
	for _, sp := range w.stab0 {
		for r, m := range rows {
			if sp.z != nil {
				m = sp.z[0][m&0xff] | sp.z[1][m>>8]
			}
			img[sp.y[r]] = m
		}
		for r := range w.n {
			if img[r] != rows[r] {
				if img[r] < rows[r] {
					return 0, false
				}
				break
			}
			if r == w.n-1 {
				stab++
			}
		}
	}
	group := uint64(len(w.stab0))
	if stab == 0 || group%stab != 0 {
		w.err = fmt.Errorf("stackjoin: a stabiliser of order %d in a group of order %d", stab, group)
		return 0, false
	}
	return group / stab, true
}

// stackCount returns E_{h,τ}(rows) for the representative of stack cycle ci
// (h = (ρ^ℓ, κ^ℓ), τ = σ^ℓ) by package stackcount; false when the work passed the
// budget, the context ended or a count overflowed (w.err says which).
func (w *walker) stackCount(ci int, rows []uint16) (uint64, bool) {
	if w.opt.plainE {
		return w.stackCountPlain(ci, rows)
	}
	if w.twists[ci] == nil {
		p := w.p
		w.twists[ci] = stackcount.New(w.n, w.c, p.twistRho[ci], p.twistKap[ci], w.tauCycles[ci])
	}
	e, err := w.twists[ci].Count(rows, func(states int) error {
		w.st.DPStates += uint64(states)
		w.charge(0)
		return w.err
	})
	if err != nil {
		w.err = err
		return 0, false
	}
	if w.opt.checkE {
		if e2, ok2 := w.stackCountPlain(ci, rows); ok2 && e2 != e {
			w.err = fmt.Errorf("stackjoin: stack cycle %d, rows %x: E = %d, the plain programme %d", ci, rows, e, e2)
			return 0, false
		}
	}
	return e, true
}

// stackCountPlain is stackCount by the dynamic programme of the package
// documentation without reductions: the states in Go maps, the τ-cycles in
// symbol order. The tests compare it with stackcount.Twist.Count.
func (w *walker) stackCountPlain(ci int, rows []uint16) (uint64, bool) {
	n, c := w.n, w.c
	rho, kap := w.p.twistRho[ci], w.p.twistKap[ci]
	l := w.p.twistPow[ci]
	tau := make([]int, n)
	for v := range n {
		x := v
		for range l {
			x = w.sigma[x]
		}
		tau[v] = x
	}
	perms := perm.All(c)
	states := map[uint64]uint64{0: 1}
	seen := make([]bool, n)
	for x0 := range n {
		if seen[x0] {
			continue
		}
		var cyc []int
		for x := x0; !seen[x]; x = tau[x] {
			seen[x] = true
			cyc = append(cyc, x)
		}
		m := len(cyc)
		var rx []int
		for r := range n {
			if rows[r]>>x0&1 != 0 {
				rx = append(rx, r)
			}
		}
		if len(rx) != c {
			return 0, true
		}
		// after[i]: the index of ρ'^m(rx[i]) in rx.
		after := make([]int, c)
		for i, r := range rx {
			y := r
			for range m {
				y = rho[y]
			}
			after[i] = -1
			for j, r2 := range rx {
				if r2 == y {
					after[i] = j
				}
			}
			if after[i] < 0 {
				return 0, true
			}
		}
		var moves []uint64
	perms:
		for _, b := range perms {
			for i := range c {
				y := b[i]
				for range m {
					y = kap[y]
				}
				if b[after[i]] != y {
					continue perms
				}
			}
			var pm uint64
			for i := range c {
				r, col := rx[i], b[i]
				for range m {
					bit := uint64(1) << (col*n + r)
					if pm&bit != 0 {
						continue perms
					}
					pm |= bit
					r, col = rho[r], kap[col]
				}
			}
			moves = append(moves, pm)
		}
		next := make(map[uint64]uint64, len(states))
		for st, cnt := range states {
			for _, pm := range moves {
				if st&pm != 0 {
					continue
				}
				v, carry := bits.Add64(next[st|pm], cnt, 0)
				if carry != 0 {
					w.err = fmt.Errorf("stackjoin: a stack count passed 64 bits")
					return 0, false
				}
				next[st|pm] = v
			}
		}
		w.st.DPStates += uint64(len(states))
		if w.charge(0) {
			return 0, false
		}
		states = next
		if len(states) == 0 {
			return 0, true
		}
	}
	var e uint64
	for _, cnt := range states {
		e += cnt // one state: every cell placed
	}
	return e, true
}
