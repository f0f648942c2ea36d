package stacks

import (
	"context"
	"fmt"
	"math/big"
	"sync"

	"github.com/sudoku-census/sudoku-census/stages/maths/pair"
	"github.com/sudoku-census/sudoku-census/stages/maths/pairstacks"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/perm"
)

// An OrbitExchange is the sum over pattern orbits that gives F(g) for one
// element g of the family (see NewOrbitExchange).
type OrbitExchange struct {
	c          int
	conjugates [][64]uint8 // the conjugates of ĥ under B_c, each once
}

// NewOrbitExchange prepares the orbit sum of g, an element of a 2×c grid
// (c ≤ 6) that exchanges the two stacks with ρ² = id and κ₁κ₀ = id; any other
// element is refused (InvolutiveExchange says which are in the family).
func NewOrbitExchange(s symmetry.Shape, e symmetry.Element) (*OrbitExchange, error) {
	if !InvolutiveExchange(s, e) {
		return nil, fmt.Errorf("symmetry: %v element %v is not a stack exchange with ρ² = id and κ₁κ₀ = id", s, e)
	}
	c := s.C
	hat := exchangeHat(c, e.Rows)
	// B_c on the patterns: b(p) = π(p) ⊕ m, bit i moved to bit π(i).
	seen := map[[64]uint8]bool{}
	x := &OrbitExchange{c: c}
	for _, pi := range perm.All(c) {
		var move [64]uint8
		for p := range 1 << c {
			for i := range c {
				move[p] |= uint8(p>>i&1) << pi[i]
			}
		}
		for m := range 1 << c {
			var b, bInv [64]uint8
			for p := range 1 << c {
				b[p] = move[p] ^ uint8(m)
				bInv[b[p]] = uint8(p)
			}
			var conj [64]uint8
			for p := range 1 << c {
				conj[p] = bInv[hat[b[p]]]
			}
			if !seen[conj] {
				seen[conj] = true
				x.conjugates = append(x.conjugates, conj)
			}
		}
	}
	return x, nil
}

// exchangeHat returns ĥ on the 2^c patterns: p ↦ the pattern of ρ(P)ᶜ, P
// the row set of p (bit i of p set when P holds the upper row of band i).
func exchangeHat(c int, rho []int) [64]uint8 {
	full := uint16(1)<<(2*c) - 1
	var hat [64]uint8
	for p := range 1 << c {
		var rows uint16
		for i := range c {
			rows |= 1 << (2*i + 1 - p>>i&1)
		}
		hat[p] = patternsOf(c, []uint16{mapMask(rho, rows) ^ full})[0]
	}
	return hat
}

// minOrbitC is the narrowest box for which Fixed counts the involutive
// exchanges by the orbit sum. From c = 6 the stack method cannot list the
// assignments of those whose ĥ fixes a pattern (ErrTooManyAssignments),
// and the orbits' stack counts, computed once per process, serve all 16 of
// 2×6 (the stack method would take CPU-hours for the 12 plain exchanges
// alone); below it the stack method is the faster. A variable for the
// test.
var minOrbitC = 6

// ByOrbits reports whether Fixed counts e by the orbit sum: e is an
// involutive exchange of a 2×c grid, c ≥ minOrbitC (on 2×6 the 12 plain
// exchanges and classes 142, 153, 164 and 175).
func ByOrbits(s symmetry.Shape, e symmetry.Element) bool {
	return s.C >= minOrbitC && InvolutiveExchange(s, e)
}

// fixesAPattern reports whether ĥ of the involutive exchange e fixes a
// pattern, so that a relabelling may fix the row sets of some symbols.
func fixesAPattern(c int, e symmetry.Element) bool {
	hat := exchangeHat(c, e.Rows)
	for p := range 1 << c {
		if int(hat[p]) == p {
			return true
		}
	}
	return false
}

// InvolutiveExchange reports whether e, an element of a 2×c grid (c ≤ 6)
// without transposition, exchanges the stacks with ρ² = id and κ₁κ₀ = id.
func InvolutiveExchange(s symmetry.Shape, e symmetry.Element) bool {
	c := s.C
	if s.R != 2 || c > maxTwistedC || e.Transpose || e.Check(s) != nil || e.Cols[0] < c {
		return false
	}
	// The columns move stack by stack, so κ₁κ₀ = id is Cols² = id.
	return perm.IsIdentity(perm.Compose(e.Rows, e.Rows)) && perm.IsIdentity(perm.Compose(e.Cols, e.Cols))
}

// Term returns orbit o's term of n!·F(g), E(O)·W(O)·Σ_ĥ' A_ĥ'(Rep)/#ĥ',
// given its stack count e = E(Rep).
func (x *OrbitExchange) Term(o pair.Orbit, e uint64) (*big.Int, error) {
	if o.C != x.c {
		return nil, fmt.Errorf("symmetry: an orbit of c = %d in the orbit sum of c = %d", o.C, x.c)
	}
	var mult [64]int
	var distinct []uint8
	for _, p := range o.Rep {
		if mult[p] == 0 {
			distinct = append(distinct, p)
		}
		mult[p]++
	}
	// A ≤ Π m_p! ≤ (2c)! and there are at most |B_c| = 46,080 conjugates:
	// the sum stays below 2^45 for c ≤ 6.
	var total uint64
	for _, h := range x.conjugates {
		a := uint64(1)
		for _, p := range distinct {
			q := h[p]
			switch {
			case q == p:
				a *= involutionsSmall[mult[p]]
			case mult[q] != mult[p]:
				a = 0
			case p < q:
				a *= pairstacks.Factorial(mult[p])
			}
			if a == 0 {
				break
			}
		}
		total += a
	}
	sum := new(big.Int).SetUint64(total)
	sum.Mul(sum, new(big.Int).SetUint64(o.Weight))
	q, r := sum.QuoRem(sum, big.NewInt(int64(len(x.conjugates))), new(big.Int))
	if r.Sign() != 0 {
		return nil, fmt.Errorf("symmetry: internal error: orbit %v: its relabellings summed over the conjugates of ĥ are not a multiple of their number %d", o, len(x.conjugates))
	}
	return q.Mul(q, new(big.Int).SetUint64(e)), nil
}

// Total returns F(g) from sum = n!·F(g), the sum of every orbit's Term,
// checking that n! divides it.
func (x *OrbitExchange) Total(sum *big.Int) (*big.Int, error) {
	nf := perm.Factorial(2 * x.c)
	q, r := new(big.Int).QuoRem(sum, nf, new(big.Int))
	if r.Sign() != 0 {
		return nil, fmt.Errorf("symmetry: internal error: the orbit sum %v is not a multiple of %d!", sum, 2*x.c)
	}
	return q, nil
}

// FixedByOrbits returns F(g) for an element of the family of
// NewOrbitExchange by the sum over every pattern orbit of c, counting the
// orbits' stacks with pair.StackCountsOf on workers goroutines the first
// time the process needs them (orbitStacks keeps them): for c ≤ 5 in
// seconds; for c = 6 the pair method's 3.64 CPU-hours.
func FixedByOrbits(ctx context.Context, s symmetry.Shape, e symmetry.Element, workers int) (*big.Int, error) {
	orbits, es, err := orbitStacks(ctx, s.C, workers)
	if err != nil {
		return nil, err
	}
	return FixedFromOrbits(s, e, orbits, es)
}

// FixedFromOrbits returns F(g) for an element of the family of
// NewOrbitExchange by the sum over pattern orbits, given every orbit of c
// (each once) and its stack count E(O), es[i] that of orbits[i], counted
// elsewhere (the symmetry stage takes them from the shapes stage's
// bundled units).
func FixedFromOrbits(s symmetry.Shape, e symmetry.Element, orbits []pair.Orbit, es []uint64) (*big.Int, error) {
	x, err := NewOrbitExchange(s, e)
	if err != nil {
		return nil, err
	}
	if len(es) != len(orbits) {
		return nil, fmt.Errorf("symmetry: %d orbits and %d stack counts", len(orbits), len(es))
	}
	sum := new(big.Int)
	for i, o := range orbits {
		if o.C != s.C {
			return nil, fmt.Errorf("symmetry: orbit %v is not one of %v", o, s)
		}
		t, err := x.Term(o, es[i])
		if err != nil {
			return nil, err
		}
		sum.Add(sum, t)
	}
	return x.Total(sum)
}

// orbitMemo keeps the orbits of each c with their stack counts E(O), once
// computed in full, for the process: every involutive exchange that Fixed
// counts by orbits needs them all (2×6: 63,199 counts, 0.5 MB, 3.64
// CPU-hours to compute).
var orbitMemo struct {
	mu     sync.Mutex
	orbits map[int][]pair.Orbit
	stacks map[int][]uint64
}

// orbitStacks returns pair.Orbits(c) and E(O) of each, computed on workers
// goroutines the first time (a caller asking meanwhile waits for it; an
// interrupted computation keeps nothing).
func orbitStacks(ctx context.Context, c, workers int) ([]pair.Orbit, []uint64, error) {
	orbitMemo.mu.Lock()
	defer orbitMemo.mu.Unlock()
	if es, ok := orbitMemo.stacks[c]; ok {
		return orbitMemo.orbits[c], es, nil
	}
	orbits, err := pair.Orbits(ctx, c)
	if err != nil {
		return nil, nil, err
	}
	reps := make([][]uint8, len(orbits))
	for i, o := range orbits {
		reps[i] = o.Rep
	}
	es, err := pair.StackCountsOf(ctx, c, reps, workers, pair.NewHalfCache(pair.DefaultCacheBytes))
	if err != nil {
		return nil, nil, err
	}
	if orbitMemo.stacks == nil {
		orbitMemo.orbits, orbitMemo.stacks = map[int][]pair.Orbit{}, map[int][]uint64{}
	}
	orbitMemo.orbits[c], orbitMemo.stacks[c] = orbits, es
	return orbits, es, nil
}

// OrbitGrids returns Σ_O W(O)·E(O)² over the pattern orbits of c, from the
// stack counts the orbit sum uses (orbitStacks): the pair method's count of
// the grids with boxes of 2 rows × c columns, so that a caller can check
// those stack counts against a count made elsewhere (the symmetry stage
// checks them against the shapes stage's).
func OrbitGrids(ctx context.Context, c, workers int) (*big.Int, error) {
	orbits, es, err := orbitStacks(ctx, c, workers)
	if err != nil {
		return nil, err
	}
	total := new(big.Int)
	for i, o := range orbits {
		t := new(big.Int).SetUint64(es[i])
		t.Mul(t, t)
		total.Add(total, t.Mul(t, new(big.Int).SetUint64(o.Weight)))
	}
	return total, nil
}

// involutionsSmall[m] is I(m), the number of involutions of m ≤ 2·6
// points: I(m) = I(m-1) + (m-1)·I(m-2).
var involutionsSmall = func() [2*maxTwistedC + 1]uint64 {
	var t [2*maxTwistedC + 1]uint64
	t[0], t[1] = 1, 1
	for m := 2; m < len(t); m++ {
		t[m] = t[m-1] + uint64(m-1)*t[m-2]
	}
	return t
}()
