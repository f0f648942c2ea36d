// Package search counts the grids fixed by an element of the symmetry group
// (package symmetry) up to relabelling, F(g), by a search over the orbits of
// ⟨g⟩ on the cells. It works for every shape and class; its cost is what
// limits it (see Fixed).
//
// Contract: Fixed(ctx, s, class) returns F(class.Rep) exactly, as defined in
// package symmetry; SigmaTypes lists the cycle types of the relabellings σ
// that X∘g = σ∘X allows, which the stack method (package stacks) reuses.
//
// # Fixed grids
//
// X∘g = σ∘X for one σ exactly (each symbol occurs in every row), and the
// set of grids with a given σ is carried onto that of τστ⁻¹ by relabelling
// with τ, so
//
//	F(g) = Σ_λ #{X : X∘g = σ_λ∘X} / |Z(σ_λ)|,
//
// over the cycle types λ of S_N, with σ_λ one permutation of type λ and
// Z(σ_λ) its centralizer, which acts freely on those grids. The search fixes
// σ_λ and counts only the grids whose first row is the canonical one of its
// Z(σ_λ)-orbit, so the division is exact and implicit.
package search

import (
	"context"
	"fmt"
	"math/big"
	"math/bits"
	"math/rand/v2"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/sudoku-census/sudoku-census/stages/maths/parallel"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/perm"
)

// Fixed returns F(g) for g = class.Rep: the number of grids X of shape s
// with X∘g = σ∘X for some relabelling σ, divided by N! — exactly, because
// only the canonical grid of each relabelling orbit is counted.
//
// Method. The σ of a grid is unique, and relabelling by τ carries the grids
// of σ onto those of τστ⁻¹, so F(g) = Σ_λ #{X : X∘g = σ_λ∘X}/|Z(σ_λ)| over
// the cycle types λ of S_N (σ_λ: the cycles of λ on consecutive symbols,
// largest first; Z: centralizer). Most λ are ruled out at once: if a row,
// column or box U returns to itself first after ℓ steps of g, then
// X(g^ℓ(c)) = σ^ℓ(X(c)) on U, and X is a bijection from U to the symbols,
// so σ^ℓ has the cycle type of g^ℓ on U's cells.
//
// For a remaining λ the search fills one orbit of ⟨g⟩ on the cells at a
// time: choosing X(c) = v fixes X(g^k(c)) = σ^k(v); v must satisfy
// σ^L(v) = v for an orbit of length L, and the orbit must not repeat a
// symbol in a row, column or box. Z(σ_λ) acts freely on these grids, and
// each orbit has exactly one grid whose first row is canonical: reading the
// first row from the left, each symbol lies either in a cycle of σ_λ met
// earlier in the row or is the first symbol of the first cycle of its
// length not met yet. (A z ∈ Z maps cycles to cycles of equal length,
// rotating them; scanning the row fixes z one cycle at a time.) The search
// fills the first row's cells in order under this rule, then the other
// orbits, most constrained first.
//
// Fixed checks ctx every few thousand search nodes and returns ctx.Err()
// when it is cancelled. The identity class works too, but counts every grid
// (up to relabelling) one by one: use it only for small shapes, and pass the
// exact count instead (symmetry.IdentityFixed).
func Fixed(ctx context.Context, s symmetry.Shape, class symmetry.Class) (*big.Int, error) {
	return FixedElement(ctx, s, class.Rep)
}

// FixedIndex is Fixed for class index of symmetry.NewGroup(s, transpose):
// the unit of work that can be run on its own, e.g. on another machine.
func FixedIndex(ctx context.Context, s symmetry.Shape, transpose bool, index int) (*big.Int, error) {
	g, err := symmetry.NewGroup(s, transpose)
	if err != nil {
		return nil, err
	}
	c, err := g.Class(index)
	if err != nil {
		return nil, err
	}
	return Fixed(ctx, s, c)
}

// FixedElement is Fixed for any element e of G.
func FixedElement(ctx context.Context, s symmetry.Shape, e symmetry.Element) (*big.Int, error) {
	return fixedElement(ctx, s, e, runtime.GOMAXPROCS(0), nil)
}

// fixedElement counts with the given number of worker goroutines; stats,
// if not nil, receives one line per cycle type searched.
func fixedElement(ctx context.Context, s symmetry.Shape, e symmetry.Element, workers int, stats func(string)) (*big.Int, error) {
	if err := e.Check(s); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	problems := []*problem{newProblem(s, e)}
	for _, x := range conjugates(s, e)[1:] {
		problems = append(problems, newProblem(s, x))
	}
	total := new(big.Int)
	for _, lam := range problems[0].sigmaTypes() {
		var sv *solver
		cost := 0.0
		for _, p := range problems {
			for _, order := range p.orders() {
				cand := newSolver(ctx, p, lam, order)
				if c := cand.plan(); sv == nil || c < cost {
					sv, cost = cand, c
				}
			}
		}
		if stats != nil {
			stats(fmt.Sprintf("plan σ %v unit %v k=%d m=%d r0=%d cost %.3g\nA=%.3g\nB=%.3g", lam, sv.canon, sv.k, sv.m, sv.r0, cost, sv.estA, sv.estB))
		}
		cnt, err := sv.count(workers)
		if err != nil {
			return nil, err
		}
		if stats != nil {
			stats(fmt.Sprintf("σ type %v: %v grids; unit %v, split %d+%d of %d orbits (estimates %.3g, %.3g; cost %.3g), %d table keys, %d nodes",
				lam, cnt, sv.canon, sv.k, sv.m-sv.k, sv.m, sv.estA[sv.k], sv.estB[sv.k], cost, len(sv.table), sv.nodes.Load()))
		}
		total.Add(total, cnt)
	}
	return total, nil
}

// conjugates returns e and its distinct conjugates x·e·x⁻¹ by the x that
// permute whole bands and whole stacks. Conjugates fix equally many grids
// for every σ (X ↦ X∘x⁻¹ carries one set onto the other), but the search,
// which starts in the top-left corner, can be a hundred times smaller for
// one of them: for 9×9, "bands (2 3); rows in band 1: (1 2); stacks (2 3);
// columns in stack 1: (1 2)" plans 6·10⁹ nodes, its conjugate with the
// swapped lines in band 3 and stack 3 about 6·10⁷.
func conjugates(s symmetry.Shape, e symmetry.Element) []symmetry.Element {
	out := []symmetry.Element{e}
	seen := map[string]bool{fmt.Sprint(e): true}
	for _, bp := range perm.All(s.C) {
		for _, sp := range perm.All(s.R) {
			x := symmetry.Element{Rows: perm.Conjugate(e.Rows, blocks(bp, s.R)), Cols: perm.Conjugate(e.Cols, blocks(sp, s.C)), Transpose: e.Transpose}
			if e.Transpose {
				// (ρ, κ, t) conjugated by (x, y) is (yρx⁻¹, xκy⁻¹, t).
				x.Rows = perm.Compose(perm.Compose(blocks(sp, s.C), e.Rows), perm.Inverse(blocks(bp, s.R)))
				x.Cols = perm.Compose(perm.Compose(blocks(bp, s.R), e.Cols), perm.Inverse(blocks(sp, s.C)))
			}
			if k := fmt.Sprint(x); !seen[k] {
				seen[k] = true
				out = append(out, x)
			}
		}
	}
	return out
}

// blocks returns the permutation of the m·len(b) lines that moves block i
// (lines m·i … m·i+m−1) onto block b[i], keeping each line's place.
func blocks(b []int, m int) []int {
	out := make([]int, len(b)*m)
	for i, bi := range b {
		for j := range m {
			out[i*m+j] = bi*m + j
		}
	}
	return out
}

// SigmaTypes returns the cycle types λ of S_N, largest part first, that the
// relabelling σ of a grid X with X∘e = σ∘X can have: those meeting the
// constraint of every row, column and box (see Fixed).
func SigmaTypes(s symmetry.Shape, e symmetry.Element) [][]int {
	return newProblem(s, e).sigmaTypes()
}

// problem is the part of the search that depends only on g.
type problem struct {
	s    symmetry.Shape
	n    int
	g    []int    // g on cells, index r·n+c
	unit [][3]int // row, n+column, 2n+box of each cell
	// constraint lists the conditions on σ: for each (ℓ, cycle type τ),
	// σ^ℓ must have cycle type τ.
	constraint []sigmaConstraint
}

type sigmaConstraint struct {
	l   int
	typ []int
}

func newProblem(s symmetry.Shape, e symmetry.Element) *problem {
	n := s.N()
	p := &problem{s: s, n: n, g: e.CellPerm(n), unit: make([][3]int, n*n)}
	for r := range n {
		for c := range n {
			p.unit[r*n+c] = [3]int{r, n + c, 2*n + (r/s.R)*s.R + c/s.C}
		}
	}
	// The units as cell sets, keyed by their sorted cells.
	units := make([][]int, 3*n)
	for c := range n * n {
		for _, u := range p.unit[c] {
			units[u] = append(units[u], c)
		}
	}
	key := func(cells []int) string {
		in := make([]bool, n*n)
		for _, c := range cells {
			in[c] = true
		}
		var b strings.Builder
		for c, ok := range in {
			if ok {
				b.WriteString(strconv.Itoa(c))
				b.WriteByte(',')
			}
		}
		return b.String()
	}
	done := map[string]bool{}
	for _, u := range units {
		k0 := key(u)
		img := u
		l := 0
		for {
			next := make([]int, len(img))
			for i, c := range img {
				next[i] = p.g[c]
			}
			img = next
			l++
			if key(img) == k0 {
				break
			}
		}
		// g^ℓ on U's cells.
		idx := map[int]int{}
		for i, c := range u {
			idx[c] = i
		}
		onU := make([]int, len(u))
		for i, c := range u {
			x := c
			for range l {
				x = p.g[x]
			}
			onU[i] = idx[x]
		}
		sc := sigmaConstraint{l, perm.CycleType(onU)}
		k := fmt.Sprint(sc)
		if !done[k] {
			done[k] = true
			p.constraint = append(p.constraint, sc)
		}
	}
	return p
}

// orders returns the cell orders the search may follow: by rows, by
// columns and by boxes. Each begins with a unit (the first row, column or
// box), the one whose canonical filling the search counts.
func (p *problem) orders() [][]int {
	n, s := p.n, p.s
	var byRow, byCol, byBox []int
	for i := range n {
		for j := range n {
			byRow = append(byRow, i*n+j)
			byCol = append(byCol, j*n+i)
			// box i, place j: box row i/R, box column i%R (R stacks)
			r := (i/s.R)*s.R + j/s.C
			c := (i%s.R)*s.C + j%s.C
			byBox = append(byBox, r*n+c)
		}
	}
	return [][]int{byRow, byCol, byBox}
}

// sigmaTypes returns the cycle types λ of S_N that meet every constraint.
func (p *problem) sigmaTypes() [][]int {
	var out [][]int
	for _, lam := range perm.Partitions(p.n) {
		ok := true
		for _, sc := range p.constraint {
			if !equalInts(perm.PowerType(lam, sc.l), sc.typ) {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, lam)
		}
	}
	return out
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// solver counts the canonical grids for one g and one σ = σ_λ. It holds
// the read-only tables; the search state lives in walkers, one per
// goroutine.
//
// Meet in the middle. The orbits are numbered by their first cell in
// reading order, so orbits 0 … r0-1 are those meeting the first row. A
// split k ≥ r0 divides them into A = orbits < k and B = orbits ≥ k. Every
// row, column and box holds each symbol once, so a filling a of A and a
// filling b of B (each valid on its own) make a grid exactly when, in every
// unit meeting both, b uses the symbols a leaves free. The fillings of B are
// enumerated once and counted by their used symbols on those shared units;
// then each canonical filling of A looks up the count stored under the
// complement of its own. k is chosen to minimise the estimated number of
// search nodes of both sides (Knuth's random-probe estimate of each level of
// the two search trees); k = m leaves B empty and is the plain search.
type solver struct {
	ctx  context.Context
	n    int
	full uint16
	size int // 1 << n

	// σ: sigPow[k·n+v] = σ^k(v) and inv[k·size+m] = {v : σ^k(v) ∈ m} for
	// k < ord(σ).
	ord    int
	sigPow []uint8
	inv    []uint16

	// Orbits, flattened: orbit o has the cells start[o] … start[o+1]-1, with
	// their three units and the power of σ (mod its order) giving their
	// symbol from the orbit's value v = X(first cell).
	m             int   // number of orbits
	r0            int   // orbits meeting the canonical unit: 0 … r0-1
	canon         []int // the canonical unit's cells, in order
	start         []int
	ur, uc, ub    []uint8
	pk            []uint8
	static        []uint16 // values v allowed by the orbit itself
	orbitOf, posK []int    // for each cell: its orbit and its position in it

	// Cycles of σ by length: cycles[l] lists the masks of the cycles of
	// length l in order; cycleOf is the mask of each symbol's cycle.
	cycles  [][]uint16
	cycleOf []uint16

	// The split, the units shared by A and B, and B's table.
	k          int
	shared     []uint8
	table      map[string]uint64
	estA, estB []float64 // estimated search-tree level sizes

	nodes atomic.Uint64
}

// tableLimit bounds the number of keys of B's table; past it the split
// moves towards a smaller B.
const tableLimit = 1 << 23

func newSolver(ctx context.Context, p *problem, lam []int, order []int) *solver {
	n := p.n
	s := &solver{ctx: ctx, n: n, full: uint16(1<<n - 1), size: 1 << n, canon: order[:n]}
	// The orbits of ⟨g⟩ on cells, numbered by their first cell in order.
	var orbits [][]int
	seen := make([]bool, n*n)
	for i, c := range order {
		if seen[c] {
			continue
		}
		if i < n {
			s.r0 = len(orbits) + 1
		}
		var o []int
		for x := c; !seen[x]; x = p.g[x] {
			seen[x] = true
			o = append(o, x)
		}
		orbits = append(orbits, o)
	}
	s.m = len(orbits)
	sigma := perm.WithCycleType(lam)
	s.ord = perm.Order(sigma)
	s.sigPow = make([]uint8, s.ord*n)
	for v := range n {
		x := v
		for k := range s.ord {
			s.sigPow[k*n+v] = uint8(x)
			x = sigma[x]
		}
	}
	s.inv = make([]uint16, s.ord*s.size)
	for k := range s.ord {
		for v := range n {
			img := uint16(1) << s.sigPow[k*n+v]
			bit := uint16(1) << v
			for m := range s.size {
				if uint16(m)&img != 0 {
					s.inv[k*s.size+m] |= bit
				}
			}
		}
	}
	s.cycles = make([][]uint16, n+1)
	s.cycleOf = make([]uint16, n)
	at := 0
	for _, l := range lam {
		mask := uint16(1<<l-1) << at
		s.cycles[l] = append(s.cycles[l], mask)
		for i := range l {
			s.cycleOf[at+i] = mask
		}
		at += l
	}
	s.orbitOf = make([]int, n*n)
	s.posK = make([]int, n*n)
	for o, orb := range orbits {
		s.start = append(s.start, len(s.ur))
		for k, c := range orb {
			u := p.unit[c]
			s.ur = append(s.ur, uint8(u[0]))
			s.uc = append(s.uc, uint8(u[1]))
			s.ub = append(s.ub, uint8(u[2]))
			s.pk = append(s.pk, uint8(k%s.ord))
			s.orbitOf[c] = o
			s.posK[c] = k
		}
		var ok uint16
	values:
		for v := range n {
			if int(s.sigPow[(len(orb)%s.ord)*n+v]) != v {
				continue
			}
			for i := range orb {
				for j := range i {
					ui, uj := p.unit[orb[i]], p.unit[orb[j]]
					if (ui[0] == uj[0] || ui[1] == uj[1] || ui[2] == uj[2]) &&
						s.sigPow[(i%s.ord)*n+v] == s.sigPow[(j%s.ord)*n+v] {
						continue values
					}
				}
			}
			ok |= 1 << v
		}
		s.static = append(s.static, ok)
	}
	s.start = append(s.start, len(s.ur))
	return s
}

// setSplit sets k and the shared units.
func (s *solver) setSplit(k int) {
	s.k = k
	inA := make([]bool, 3*s.n)
	inB := make([]bool, 3*s.n)
	for o := range s.m {
		for j := s.start[o]; j < s.start[o+1]; j++ {
			for _, u := range [3]uint8{s.ur[j], s.uc[j], s.ub[j]} {
				if o < k {
					inA[u] = true
				} else {
					inB[u] = true
				}
			}
		}
	}
	s.shared = s.shared[:0]
	for u := range inA {
		if inA[u] && inB[u] {
			s.shared = append(s.shared, uint8(u))
		}
	}
}

// plan estimates the two search trees and chooses the split k with the
// least estimated cost, the number of nodes of both searches. It returns
// that cost.
func (s *solver) plan() float64 {
	k, cost := s.planProbes(256)
	s.k = k
	return cost
}

// count returns the number of canonical grids, searching with the given
// number of goroutines, with the split chosen by plan.
func (s *solver) count(workers int) (*big.Int, error) {
	for k := s.k; ; k += (s.m - k + 1) / 2 {
		s.setSplit(k)
		ok, err := s.buildTable(workers)
		if err != nil {
			return nil, err
		}
		if ok {
			break
		}
	}
	if len(s.table) == 0 {
		return new(big.Int), nil
	}
	return s.searchA(workers)
}

// estimate sets estA[d], the estimated number of canonical fillings of
// orbits < d (d ≥ r0), and estB[d], that of fillings of orbits ≥ d, each
// the mean over probes of the product of the branching factors along a
// random path (Knuth's estimator; the seed is fixed, so the choice of split
// is repeatable).
func (s *solver) estimate(probes int) {
	s.estA = make([]float64, s.m+1)
	s.estB = make([]float64, s.m+1)
	w := s.newWalker()
	rng := rand.New(rand.NewPCG(1, 2))
	pick := func(m uint16) int {
		j := rng.IntN(bits.OnesCount16(m))
		for ; j > 0; j-- {
			m &= m - 1
		}
		return bits.TrailingZeros16(m)
	}
	for range probes {
		w.reset()
		weight := 1.0
		alive := true
		for i := 0; i < s.n && alive; i++ {
			o := s.orbitOf[s.canon[i]]
			if w.done[o] {
				continue
			}
			m, k := w.firstRowCand(i)
			if m == 0 {
				alive = false
				break
			}
			weight *= float64(bits.OnesCount16(m))
			w.firstRowAssign(o, k, pick(m))
		}
		for d := s.r0; alive; d++ {
			s.estA[d] += weight
			if d == s.m {
				break
			}
			m := w.cand(d)
			if m == 0 {
				break
			}
			weight *= float64(bits.OnesCount16(m))
			w.assign(d, pick(m))
		}
		w.reset()
		weight = 1.0
		for d := s.m; d >= s.r0; d-- {
			s.estB[d] += weight
			if d == s.r0 {
				break
			}
			m := w.cand(d - 1)
			if m == 0 {
				break
			}
			weight *= float64(bits.OnesCount16(m))
			w.assign(d-1, pick(m))
		}
	}
	for d := range s.estA {
		s.estA[d] /= float64(probes)
		s.estB[d] /= float64(probes)
	}
}

// buildTable enumerates the fillings of B and counts them by their masks
// on the shared units. It reports false, with no table, when the table
// would pass tableLimit.
func (s *solver) buildTable(workers int) (bool, error) {
	if s.k == s.m {
		s.table = map[string]uint64{"": 1}
		return true, nil
	}
	tickets := s.ticketDepth(s.estB, s.m, s.k, workers)
	var full atomic.Bool
	tables := make([]map[string]uint64, workers)
	err := s.parallel(workers, tickets, func(w *walker) error {
		w.table = map[string]uint64{}
		w.full = &full
		w.searchB()
		tables[w.id] = w.table
		return nil
	})
	if err != nil {
		return false, err
	}
	if full.Load() {
		return false, nil
	}
	s.table = tables[0]
	for _, t := range tables[1:] {
		for key, v := range t {
			s.table[key] += v
		}
	}
	return true, nil
}

// searchA enumerates the canonical fillings of A and sums the table
// entries they meet.
func (s *solver) searchA(workers int) (*big.Int, error) {
	tickets := s.ticketDepth(s.estA, s.r0, s.k, workers)
	var mu sync.Mutex
	total := new(big.Int)
	err := s.parallel(workers, tickets, func(w *walker) error {
		w.firstRow(0)
		sum := new(big.Int).SetUint64(w.hi)
		sum.Lsh(sum, 64)
		sum.Add(sum, new(big.Int).SetUint64(w.lo))
		mu.Lock()
		total.Add(total, sum)
		mu.Unlock()
		return nil
	})
	if err != nil {
		return nil, err
	}
	return total, nil
}

// ticketDepth picks the level at which the walkers share out the subtrees
// of one side: the first of the levels from, from±1, …, to whose estimated
// size reaches 64 per worker, as a number of filled orbits of that side
// (levels count filled orbits for A, orbits left for B). -1 means no
// sharing (one worker).
func (s *solver) ticketDepth(est []float64, from, to, workers int) int {
	if workers <= 1 {
		return -1
	}
	dir := 1
	if to < from {
		dir = -1
	}
	for d := from; ; d += dir {
		if est[d] >= float64(64*workers) {
			if dir > 0 {
				return d
			}
			return s.m - d
		}
		if d == to {
			return -1
		}
	}
}

// parallel runs f on workers walkers sharing a ticket counter, converting
// panics into errors with the stack, and returns the first error or the
// context's error.
func (s *solver) parallel(workers, ticketDepth int, f func(w *walker) error) error {
	if ticketDepth < 0 {
		workers = 1
	}
	var counter atomic.Int64
	err := parallel.Run(workers, func(i int) error {
		w := s.newWalker()
		w.id = i
		w.ticketDepth = ticketDepth
		w.counter = &counter
		w.mine = counter.Add(1) - 1
		err := f(w)
		s.nodes.Add(w.nodes)
		if err == nil {
			err = w.err
		}
		return err
	})
	if err != nil {
		return err
	}
	return s.ctx.Err()
}

// walker is the search state of one goroutine.
type walker struct {
	s      *solver
	id     int
	used   []uint16 // symbols used in each unit
	done   []bool   // orbit filled
	pinned uint16   // symbols of the cycles met in the first row
	npin   []int    // number of cycles of each length met
	nodes  uint64
	err    error
	buf    []byte

	// Tickets: the nodes at ticketDepth filled orbits of the side being
	// searched are numbered in search order (seq); a walker takes node mine
	// and then draws the next number from counter.
	ticketDepth int
	depth       int
	seq, mine   int64
	counter     *atomic.Int64

	hi, lo uint64            // A: the count so far, 128 bits
	table  map[string]uint64 // B: this walker's table
	full   *atomic.Bool      // B: some table passed tableLimit
}

func (s *solver) newWalker() *walker {
	return &walker{s: s, used: make([]uint16, 3*s.n), done: make([]bool, s.m), npin: make([]int, s.n+1)}
}

func (w *walker) reset() {
	clear(w.used)
	clear(w.done)
	clear(w.npin)
	w.pinned = 0
	w.depth = 0
}

// cand returns the values v orbit o can take now.
func (w *walker) cand(o int) uint16 {
	s := w.s
	m := s.static[o]
	for j := s.start[o]; j < s.start[o+1] && m != 0; j++ {
		free := ^(w.used[s.ur[j]] | w.used[s.uc[j]] | w.used[s.ub[j]]) & s.full
		m &= s.inv[int(s.pk[j])*s.size+int(free)]
	}
	return m
}

// assign gives orbit o the value v.
func (w *walker) assign(o int, v int) {
	s := w.s
	for j := s.start[o]; j < s.start[o+1]; j++ {
		bit := uint16(1) << s.sigPow[int(s.pk[j])*s.n+v]
		w.used[s.ur[j]] |= bit
		w.used[s.uc[j]] |= bit
		w.used[s.ub[j]] |= bit
	}
	w.done[o] = true
	w.depth++
}

// unassign undoes assign(o, v).
func (w *walker) unassign(o int, v int) {
	s := w.s
	for j := s.start[o]; j < s.start[o+1]; j++ {
		bit := uint16(1) << s.sigPow[int(s.pk[j])*s.n+v]
		w.used[s.ur[j]] &^= bit
		w.used[s.uc[j]] &^= bit
		w.used[s.ub[j]] &^= bit
	}
	w.done[o] = false
	w.depth--
}

// tick counts a node and checks the context now and then; it reports
// whether to stop.
func (w *walker) tick() bool {
	w.nodes++
	if w.nodes&0x3fff == 0 && w.err == nil {
		w.err = w.s.ctx.Err()
	}
	return w.err != nil
}

// claim reports whether this walker searches the subtree below the
// current node, a node at the ticket depth.
func (w *walker) claim() bool {
	if w.depth != w.ticketDepth {
		return true
	}
	i := w.seq
	w.seq++
	if i != w.mine {
		return false
	}
	w.mine = w.counter.Add(1) - 1
	return true
}

// firstRowCand returns the canonical values of the orbit of first-row cell
// i, in terms of the orbit's value, and the position of i in its orbit.
func (w *walker) firstRowCand(i int) (uint16, int) {
	s := w.s
	canon := w.pinned
	for l := 1; l <= s.n; l++ {
		if w.npin[l] < len(s.cycles[l]) {
			c := s.cycles[l][w.npin[l]]
			canon |= c & -c // its first symbol
		}
	}
	c := s.canon[i]
	k := s.posK[c] % s.ord
	return w.cand(s.orbitOf[c]) & s.inv[k*s.size+int(canon)], k
}

// firstRowAssign gives the orbit o of a first-row cell at position k of its
// orbit the value v, pinning the cycle of the cell's symbol; it returns
// the cycle newly pinned, or 0.
func (w *walker) firstRowAssign(o, k, v int) uint16 {
	s := w.s
	cyc := s.cycleOf[s.sigPow[k*s.n+v]]
	var pinned uint16
	if w.pinned&cyc == 0 {
		w.pinned |= cyc
		w.npin[bits.OnesCount16(cyc)]++
		pinned = cyc
	}
	w.assign(o, v)
	return pinned
}

// firstRow fills the first row's cells i, i+1, … in order, each with a
// canonical symbol, then the rest of A.
func (w *walker) firstRow(i int) {
	if w.tick() {
		return
	}
	s := w.s
	if i == s.n {
		w.searchA()
		return
	}
	o := s.orbitOf[s.canon[i]]
	if w.done[o] {
		w.firstRow(i + 1) // already filled through its orbit
		return
	}
	m, k := w.firstRowCand(i)
	for ; m != 0; m &= m - 1 {
		v := bits.TrailingZeros16(m)
		pinned := w.firstRowAssign(o, k, v)
		w.firstRow(i + 1)
		w.unassign(o, v)
		if pinned != 0 {
			w.pinned &^= pinned
			w.npin[bits.OnesCount16(pinned)]--
		}
	}
}

// searchA fills A's remaining orbits, fewest values first, and at each
// complete filling adds the count of B's fillings that fit.
func (w *walker) searchA() {
	if w.tick() || !w.claim() {
		return
	}
	s := w.s
	best, bestN := -1, 99
	var bestM uint16
	for o := s.r0; o < s.k; o++ {
		if w.done[o] {
			continue
		}
		m := w.cand(o)
		c := bits.OnesCount16(m)
		if c < bestN {
			best, bestN, bestM = o, c, m
			if c <= 1 {
				break
			}
		}
	}
	if best < 0 {
		key := w.buf[:0]
		for _, u := range s.shared {
			m := s.full ^ w.used[u]
			key = append(key, byte(m), byte(m>>8))
		}
		w.buf = key
		var carry uint64
		w.lo, carry = bits.Add64(w.lo, s.table[string(key)], 0)
		w.hi += carry
		return
	}
	for m := bestM; m != 0; m &= m - 1 {
		v := bits.TrailingZeros16(m)
		w.assign(best, v)
		w.searchA()
		w.unassign(best, v)
	}
}

// lookup adds the table's count under the complement of A's masks.
func (w *walker) lookup() {
	s := w.s
	key := w.buf[:0]
	for _, u := range s.shared {
		m := s.full ^ w.used[u]
		key = append(key, byte(m), byte(m>>8))
	}
	w.buf = key
	var carry uint64
	w.lo, carry = bits.Add64(w.lo, s.table[string(key)], 0)
	w.hi += carry
}

// record counts B's filling in the walker's table.
func (w *walker) record() {
	s := w.s
	key := w.buf[:0]
	for _, u := range s.shared {
		m := w.used[u]
		key = append(key, byte(m), byte(m>>8))
	}
	w.buf = key
	if _, ok := w.table[string(key)]; !ok && len(w.table) >= tableLimit {
		w.full.Store(true)
		return
	}
	w.table[string(key)]++
}

// searchB enumerates B's fillings, fewest values first, counting each in
// the walker's table under its masks on the shared units.
func (w *walker) searchB() {
	if w.tick() || !w.claim() || w.full.Load() {
		return
	}
	s := w.s
	best, bestN := -1, 99
	var bestM uint16
	for o := s.k; o < s.m; o++ {
		if w.done[o] {
			continue
		}
		m := w.cand(o)
		c := bits.OnesCount16(m)
		if c < bestN {
			best, bestN, bestM = o, c, m
			if c <= 1 {
				break
			}
		}
	}
	if best < 0 {
		key := w.buf[:0]
		for _, u := range s.shared {
			m := w.used[u]
			key = append(key, byte(m), byte(m>>8))
		}
		w.buf = key
		if _, ok := w.table[string(key)]; !ok && len(w.table) >= tableLimit {
			w.full.Store(true)
			return
		}
		w.table[string(key)]++
		return
	}
	for m := bestM; m != 0; m &= m - 1 {
		v := bits.TrailingZeros16(m)
		w.assign(best, v)
		w.searchB()
		w.unassign(best, v)
	}
}
