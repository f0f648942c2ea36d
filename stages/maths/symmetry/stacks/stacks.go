// Package stacks counts the grids fixed by an element of the symmetry group
// (package symmetry) up to relabelling, F(g), by the stack method instead of
// a search, for boxes of 2 rows or 2 columns and width ≤ 6; from width 6 the
// involutive stack exchanges by a sum over pattern orbits (see "Involutive
// exchanges by pattern orbits").
//
// Contract: Fixed(ctx, s, e) returns F(e) exactly, as defined in package
// symmetry, for any element e without transposition of a 2×c or c×2 shape,
// c ≤ 6; it agrees with search.Fixed, and the tests check that class by class
// where the search finishes, and by independent counts where it does not.
//
// # The stack method
//
// For boxes of 2 rows and c columns (c×2 by transposing the grid and g),
// Fixed counts the same F(g) as package search, without a search, from the
// structure of package pair. The grid has c bands of rows 2i (upper) and 2i+1 and two
// stacks L (columns 0…c-1) and M. A symbol x lies in one row of each band of
// L: its row set P(x), one of 2^c; M's row sets are the complements P(x)^c
// (the other row of every band). g = (ρ, κ) with ρ ∈ B_c = S_2 wr S_c on
// the rows. For one σ the grids with X∘g = σ∘X are counted as follows.
//
// Family 1, κ keeps the stacks (κ₀ on L's columns, κ₁ on M's):
// X∘g = σ∘X holds on each stack separately, so L(ρr, κ₀j) = σ(L(r, j)) and
// likewise M with κ₁; reading rows, P(σx) = ρ(P(x)). Hence
//
//	#{X} = Σ_P  E_{ρ,κ₀,σ}(P) · E_{ρ,κ₁,σ}(P^c),
//
// over the assignments P equivariant for ρ̂ = ρ (P∘σ = ρ̂∘P) with every row
// holding c symbols, where E_{h,τ}(P) counts the stacks with row sets P
// fixed by h up to τ. With h = id and τ = id this is the pair method's
// Σ_σ E(σ)² (the identity, checked on 2×2 to 2×4).
//
// Family 2, κ exchanges the stacks (κ₀: L → M, κ₁: M → L): the equations
// M(ρr, κ₀j) = σ(L(r, j)) and L(ρr, κ₁j) = σ(M(r, j)) make M the image of L,
// and L fixed by h = (ρ², κ₁κ₀) up to τ = σ²; M's rows are the complements
// of L's exactly when P(σx) = ρ(P(x))^c. Hence
//
//	#{X} = Σ_P  E_{(ρ², κ₁κ₀), σ²}(P)   (P equivariant for ρ̂ = ρ(·)^c).
//
// For the plain exchange this is E_σ in place of E²: σ is an involution
// pairing each symbol with one of the complementary pattern, and
// F = Σ_T E(T)/Π_{p<~p} m_p! over the pattern multisets closed under
// complement (checked against package pair's orbits and stack counter).
//
// Twisted stack counts. E_{h,τ}(P) counts the proper c-edge-colourings of
// the symbol–row graph (columns as colours) with col(τx, ρ'r) = κ'(col(x, r)):
// a dynamic programme places one τ-cycle of symbols at a time (its first
// symbol's colours fix the cycle's, and must close up after the cycle), the
// state being the row set of each column. States are invariant under
// (ρ', κ'), so one column per κ'-cycle stores it, and after k symbols every
// column holds k rows, so a row set is stored as its rank among the 2c-bit
// masks of popcount k (< C(12,6) = 924, 10 bits; 60 bits for c = 6), and
// states equal up to the centraliser of κ' (rotating a cycle, permuting
// cycles of equal length) are merged. When h and τ are identities (the
// involutive stack exchanges) E is the pair method's E(T); from c = 6 Fixed
// counts those classes by pattern orbits instead (below), where the pair
// method's split-and-join kernel computes each E(O) once.
//
// Sum over assignments. F(g) = Σ_λ #{X : σ = σ_λ}/|Z(σ_λ)|. An equivariant P
// is fixed by its value on the first symbol of each cycle of σ_λ, a row set
// whose ⟨ρ̂⟩-orbit has a length dividing the cycle's; Z(σ_λ) rotates cycles
// (moving that value along its orbit) and permutes cycles of equal length,
// and leaves the counts unchanged, so the sum runs over the multisets of
// orbits per cycle length, with weight Π multinomial·Π |orbit|. The band maps
// commuting with ρ also leave the counts unchanged (they carry fixed stacks
// to fixed stacks), so terms are computed once per class under both. Each
// #{X : σ = σ_λ} must be a multiple of |Z(σ_λ)| (Z acts freely on the
// grids), which is checked.
//
// # Involutive exchanges by pattern orbits
//
// Let g = (ρ, κ) exchange the two stacks of a 2×c grid with ρ² = id and
// κ₁κ₀ = id: on 2×6 the 12 plain exchanges and the 4 classes 142, 153, 164
// and 175, where the rows of some bands are swapped in place and the
// relabelling may fix every symbol's row set, so that the stack method
// lists about 10^9 assignments. X∘g = σ∘X makes the right stack σ applied
// to the left one with its rows moved by ρ, the left stack is any stack,
// and σ is an involution with P(σx) = ĥ(P(x)), ĥ(P) = ρ(P)ᶜ (an involution
// of the patterns, an element of B_c). For a stack whose symbols have the
// patterns T (m_p symbols of pattern p) the relabellings that qualify number
//
//	A_ĥ(T) = Π_{p = ĥp} I(m_p) · Π_{p < ĥp} [m_p = m_ĥp] · m_p!,
//
// I(m) the involutions of m points, and the stacks with a given assignment
// of patterns to the n = 2c symbols number E(T) (package pair). Summing over
// the n!/Π m_p! assignments of each multiset and dividing by n! (F counts
// grids up to relabelling),
//
//	n!·F(g) = Σ_O E(O) · W(O) · Σ_{ĥ' ~ ĥ} A_ĥ'(Rep(O)) / #{ĥ' ~ ĥ}
//
// over the pattern orbits O of B_c (pair.Orbits), W(O) = Σ_{T∈O} n!/Π m_p!
// (Orbit.Weight), the inner sum over the conjugates of ĥ under B_c: the
// members of O are the images b(Rep), each |Stab(Rep)| times, and
// A_ĥ(b(T)) = A_{b⁻¹ĥb}(T). Each orbit's term and the total's division by
// n! must be exact, which is checked. E(O) for every orbit is the pair
// method's work (the shapes stage's 2×6 count), shared by every element of
// the family. The orbit sum is checked against the stack method on every
// such class of 2×2 to 2×5; from c = 6 Fixed uses it for the whole family
// (minOrbitC), at the cost of the pair method's E(O) for every orbit once
// per process, 3.64 CPU-hours on 2×6 (the shapes stage's bundle): the
// stack method cannot list the assignments of the four whose ĥ fixes a
// pattern, and would take several CPU-hours more for the 12 plain
// exchanges (class 10: 407 CPU-s, class 21: 735).
package stacks

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/big"
	"math/bits"
	"runtime"
	"slices"
	"sync/atomic"

	"github.com/sudoku-census/sudoku-census/stages/maths/parallel"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/perm"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/search"
)

// KernelVersion names the version of Fixed for results kept across runs
// (the symmetry stage's bundle of 12×12 classes): a fixed count is exact, so
// it changes only with a change that could change a count (a fix), not with
// one of speed.
const KernelVersion = 1

// ErrTooManyAssignments is returned by Fixed for a class whose listing of
// equivariant assignments would not fit in memory. On 2×6 the classes 142,
// 153, 164 and 175, where a relabelling may fix every symbol's row set,
// would list about 10^9 (the others at most 16,179,808, class 37), and
// Fixed counts them (with the other involutive exchanges) by pattern orbits
// instead (FixedByOrbits); so no 2×6 class returns it.
var ErrTooManyAssignments = errors.New("symmetry: too many assignments for the stack method")

// maxAssignments bounds the assignments assignmentClasses lists (with
// about assignmentBytes each, 3 GB in all; the most a 2×6 class that Fixed
// gives the stack method lists is 16,179,808, class 37), so that a class
// beyond it fails after a few minutes (class 142 did: 4.5 minutes, 11 GB)
// instead of exhausting memory. A variable for the test.
var maxAssignments = 40_000_000

// assignmentBytes is the memory of one listed assignment: class 37's
// 16,179,808 took a peak resident 1.2 GB (2026-11-27; 220 bytes each
// before the assignments were kept flat, without their rows).
const assignmentBytes = 75

// stackProblem is F(g) for one element g of a 2×c grid, by the stack method
// (see Fixed).
type stackProblem struct {
	c, n  int
	full  uint16 // all 2c rows
	swap  bool   // g exchanges the two stacks
	rho   []int  // g on the rows
	k0    []int  // g on the columns of stack 0, as columns 0…c-1 of its image stack
	k1    []int  // likewise for stack 1
	hat   []uint16
	valid []uint16 // the 2^c row sets with one row per band
	// orbitRep[q] is the least member of the ⟨ρ̂⟩-orbit of q, orbitLen its size.
	orbitRep []uint16
	orbitLen []int
	// gens[i][q] is orbitRep of the image of q under the i-th of a set of
	// band maps (permutations of the rows) generating those that commute
	// with ρ.
	gens [][]uint16
}

func newStackProblem(c int, e symmetry.Element) *stackProblem {
	n := 2 * c
	p := &stackProblem{c: c, n: n, full: uint16(1)<<n - 1, rho: e.Rows, swap: e.Cols[0] >= c}
	p.k0, p.k1 = make([]int, c), make([]int, c)
	for j := range c {
		p.k0[j] = e.Cols[j] % c
		p.k1[j] = e.Cols[c+j] % c
	}
	p.hat = make([]uint16, 1<<n)
	p.orbitRep = make([]uint16, 1<<n)
	p.orbitLen = make([]int, 1<<n)
	for m := range 1 << c {
		var q uint16
		for i := range c {
			q |= 1 << (2*i + 1 - m>>i&1)
		}
		p.valid = append(p.valid, q)
	}
	for _, q := range p.valid {
		h := mapMask(p.rho, q)
		if p.swap {
			h ^= p.full
		}
		p.hat[q] = h
	}
	for _, q := range p.valid {
		best, l := q, 1
		for y := p.hat[q]; y != q; y = p.hat[y] {
			best = min(best, y)
			l++
		}
		p.orbitRep[q], p.orbitLen[q] = best, l
	}
	// B_c on the rows: band permutation π then exchanges in the bands of m.
	// The elements commuting with ρ form a group; keep a generating set,
	// each element outside the subgroup generated by the earlier ones.
	var gens [][]int
	inGroup := map[string]bool{fmt.Sprint(perm.Identity(n)): true}
	for _, pi := range perm.All(c) {
		for m := range 1 << c {
			bm := make([]int, n)
			for i := range c {
				for j := range 2 {
					bm[2*i+j] = 2*pi[i] + (j ^ (m >> pi[i] & 1))
				}
			}
			if !slices.Equal(perm.Compose(bm, p.rho), perm.Compose(p.rho, bm)) || inGroup[fmt.Sprint(bm)] {
				continue
			}
			gens = append(gens, bm)
			// the closure, by multiplying by the generators
			queue := [][]int{perm.Identity(n)}
			inGroup = map[string]bool{fmt.Sprint(perm.Identity(n)): true}
			for len(queue) > 0 {
				x := queue[len(queue)-1]
				queue = queue[:len(queue)-1]
				for _, g := range gens {
					y := perm.Compose(g, x)
					if k := fmt.Sprint(y); !inGroup[k] {
						inGroup[k] = true
						queue = append(queue, y)
					}
				}
			}
		}
	}
	for _, bm := range gens {
		img := make([]uint16, 1<<n)
		for _, q := range p.valid {
			img[q] = p.orbitRep[mapMask(bm, q)]
		}
		p.gens = append(p.gens, img)
	}
	return p
}

// A termClass is a class of equivariant pattern assignments whose terms
// are equal (see assignmentClasses): one assignment's rows (the row set of
// each symbol) and the sum of the weights of the class's assignments.
type termClass struct {
	rows   []uint16
	weight *big.Int
}

// assignmentClasses lists the equivariant pattern assignments of σ = σ_λ
// (one per orbit of Z(σ_λ), weighted by its orbit's size) in classes under
// the band maps commuting with ρ, which keep the terms: Σ_X over the grids X
// with X∘g = σ∘X is Σ over the classes of term(rows)·weight.
//
// Listing a class's assignments can take a minute (16 M for 2×6 class 37),
// so ctx is checked every ctxEvery leaves while listing and joining.
func (p *stackProblem) assignmentClasses(ctx context.Context, lam []int) ([]termClass, error) {
	var starts []int
	at := 0
	for _, l := range lam {
		starts = append(starts, at)
		at += l
	}
	var reps []uint16 // orbit representatives, increasing
	for _, q := range p.valid {
		if p.orbitRep[q] == q {
			reps = append(reps, q)
		}
	}
	slices.Sort(reps)
	// Each cycle of length l takes a representative q whose ⟨ρ̂⟩-orbit
	// length divides l, and its symbols the row sets q, ρ̂q, …, ρ̂^{l-1}q.
	// The rows' symbol counts, at most c each, are kept packed, countBits
	// bits a row (a count reaches at most c + l ≤ 3c < 2^countBits while a
	// cycle is tried): a candidate's counts are added at once, and a count
	// past c shows as the top bit of its field once bias is added.
	const countBits = 5
	if p.n*countBits > 64 {
		return nil, fmt.Errorf("symmetry: internal error: %d rows do not fit the packed counts", p.n)
	}
	var bias, tops uint64
	for r := range p.n {
		bias |= uint64(1<<(countBits-1)-1-p.c) << (countBits * r)
		tops |= uint64(1<<(countBits-1)) << (countBits * r)
	}
	type candidate struct {
		ri     int    // index into reps
		counts uint64 // packed row counts of the cycle's l row sets
	}
	cands := map[int][]candidate{}
	for _, l := range lam {
		if _, ok := cands[l]; ok {
			continue
		}
		var list []candidate
		for ri, q := range reps {
			if l%p.orbitLen[q] != 0 {
				continue
			}
			var counts uint64
			y := q
			for range l {
				for m := y; m != 0; m &= m - 1 {
					counts += 1 << (countBits * bits.TrailingZeros16(m))
				}
				y = p.hat[y]
			}
			list = append(list, candidate{ri, counts})
		}
		cands[l] = list
	}
	// The leaves, flat: leaf i's choice of representative per cycle is
	// chosenAll[i*len(lam):][:len(lam)], its weight weights[i].
	var chosenAll []uint8
	var weights []uint64
	tooMany := false
	var stopped error               // ctx's error once it is done
	chosen := make([]int, len(lam)) // index into reps per cycle
	pos := make([]int, len(lam))    // index into cands[lam[j]] per cycle
	var rec func(j int, counts, weight uint64)
	rec = func(j int, counts, weight uint64) {
		if j == len(lam) {
			// the multinomial of each run of equal cycle lengths
			w := weight
			for i := 0; i < len(lam); {
				k := i
				for k < len(lam) && lam[k] == lam[i] {
					k++
				}
				w *= uint64(factorialInt(k - i))
				for a0 := i; a0 < k; {
					b := a0
					for b < k && chosen[b] == chosen[a0] {
						b++
					}
					w /= uint64(factorialInt(b - a0))
					a0 = b
				}
				i = k
			}
			if len(weights) == maxAssignments {
				tooMany = true
				return
			}
			if len(weights)%ctxEvery == 0 {
				stopped = ctx.Err()
			}
			for _, ri := range chosen {
				chosenAll = append(chosenAll, uint8(ri))
			}
			weights = append(weights, w)
			return
		}
		if tooMany || stopped != nil {
			return
		}
		l := lam[j]
		list := cands[l]
		from := 0
		if j > 0 && lam[j-1] == l {
			from = pos[j-1]
		}
		for ci := from; ci < len(list); ci++ {
			next := counts + list[ci].counts
			if (next+bias)&tops != 0 {
				continue
			}
			chosen[j], pos[j] = list[ci].ri, ci
			rec(j+1, next, weight*uint64(p.orbitLen[reps[list[ci].ri]]))
		}
	}
	rec(0, 0, 1)
	if stopped != nil {
		return nil, stopped
	}
	if tooMany {
		return nil, fmt.Errorf("%w: σ type %v has more than %d equivariant assignments (about %d bytes each)",
			ErrTooManyAssignments, lam, maxAssignments, assignmentBytes)
	}
	numLeaves := len(weights)
	chosenOf := func(i int) []uint8 { return chosenAll[i*len(lam) : (i+1)*len(lam)] }
	// rowsOf returns the row set of each symbol under leaf i's choice.
	rowsOf := func(i int) []uint16 {
		rows := make([]uint16, p.n)
		for j, ri := range chosenOf(i) {
			y := reps[ri]
			for k := range lam[j] {
				rows[starts[j]+k] = y
				y = p.hat[y]
			}
		}
		return rows
	}
	// The band maps commuting with ρ permute the leaves (they commute with
	// ρ̂ and keep the rows balanced) and keep their terms: join each leaf to
	// its images under the generators, and compute one term per class.
	// A leaf's key: its orbit indices, one byte per cycle (len(lam) ≤ 2c ≤
	// 12), bytes 0-7 in hi and 8-11 in lo, most significant first, so that
	// keys compare as the index lists do lexicographically. rec lists the
	// leaves in that order (checked), so a leaf is found by binary search.
	keyOf := func(ch []uint8) leafKey {
		var k leafKey
		for j := range maxRows {
			var b uint64
			if j < len(ch) {
				b = uint64(ch[j])
			}
			if j < 8 {
				k.hi |= b << (56 - 8*j)
			} else {
				k.lo |= b << (56 - 8*(j-8))
			}
		}
		return k
	}
	cmpKey := func(a, b leafKey) int {
		switch {
		case a.hi != b.hi:
			return cmp.Compare(a.hi, b.hi)
		default:
			return cmp.Compare(a.lo, b.lo)
		}
	}
	keys := make([]leafKey, numLeaves)
	for i := range numLeaves {
		keys[i] = keyOf(chosenOf(i))
		if i > 0 && cmpKey(keys[i-1], keys[i]) >= 0 {
			return nil, fmt.Errorf("symmetry: internal error: the assignments of σ type %v are not listed in increasing order", lam)
		}
	}
	var repIndex [1 << maxRows]uint8
	for i, q := range reps {
		repIndex[q] = uint8(i)
	}
	parent := make([]int, numLeaves)
	for i := range parent {
		parent[i] = i
	}
	var find func(i int) int
	find = func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	img := make([]uint8, len(lam))
	for i := range numLeaves {
		if i%ctxEvery == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		for _, g := range p.gens {
			for j, x := range chosenOf(i) {
				img[j] = repIndex[g[reps[x]]]
			}
			for a := 1; a < len(lam); a++ {
				for j := a; j > 0 && lam[j-1] == lam[j] && img[j-1] > img[j]; j-- {
					img[j-1], img[j] = img[j], img[j-1]
				}
			}
			k, ok := slices.BinarySearchFunc(keys, keyOf(img), cmpKey)
			if !ok {
				return nil, fmt.Errorf("symmetry: internal error: a band map takes an assignment of σ type %v outside the assignments", lam)
			}
			if ri, rk := find(i), find(k); ri != rk {
				parent[max(ri, rk)] = min(ri, rk)
			}
		}
	}
	var classes []termClass
	classOf := map[int]int{} // root → its class
	for i, w := range weights {
		r := find(i)
		k, ok := classOf[r]
		if !ok {
			k = len(classes)
			classOf[r] = k
			classes = append(classes, termClass{rows: rowsOf(r), weight: new(big.Int)})
		}
		classes[k].weight.Add(classes[k].weight, new(big.Int).SetUint64(w))
	}
	return classes, nil
}

// ctxEvery is how many assignments assignmentClasses lists or joins between
// two checks of its context: a few milliseconds of work.
const ctxEvery = 1 << 16

// leafKey is an assignment's key in assignmentClasses: its orbit indices,
// one byte per cycle, bytes 0-7 in hi and 8-11 in lo.
type leafKey struct{ hi, lo uint64 }

// sumFor returns Σ_X over the grids X with X∘g = σ∘X, σ = σ_λ: the sum over
// the equivariant pattern assignments of their stack products, one term per
// class of assignmentClasses, computed by workers goroutines taking the
// classes in turn (the sum does not depend on their number).
func (p *stackProblem) sumFor(ctx context.Context, lam []int, workers int) (*big.Int, error) {
	sigma := perm.WithCycleType(lam)
	classes, err := p.assignmentClasses(ctx, lam)
	if err != nil {
		return nil, err
	}
	terms := make([]*big.Int, len(classes))
	var next atomic.Int64
	err = parallel.Run(workers, func(int) error {
		for {
			i := int(next.Add(1) - 1)
			if i >= len(classes) {
				return nil
			}
			a, err := p.term(ctx, sigma, classes[i].rows)
			if err != nil {
				return err
			}
			terms[i] = a
		}
	})
	if err != nil {
		return nil, err
	}
	return weightedSum(classes, terms), nil
}

// weightedSum returns Σ terms[i]·weight over the classes.
func weightedSum(classes []termClass, terms []*big.Int) *big.Int {
	total := new(big.Int)
	for i, cl := range classes {
		total.Add(total, new(big.Int).Mul(terms[i], cl.weight))
	}
	return total
}

// patternsOf returns the pair method's patterns of the symbols' row sets:
// bit i set when the symbol is in the upper row of band i.
func patternsOf(c int, rows []uint16) []uint8 {
	patterns := make([]uint8, len(rows))
	for x, q := range rows {
		for i := range c {
			patterns[x] |= uint8(q>>(2*i)&1) << i
		}
	}
	return patterns
}

// complementRows returns the row sets of the other stack: each symbol's
// complement within the rows full.
func complementRows(rows []uint16, full uint16) []uint16 {
	comp := make([]uint16, len(rows))
	for x, q := range rows {
		comp[x] = q ^ full
	}
	return comp
}

func factorialInt(k int) int {
	f := 1
	for i := 2; i <= k; i++ {
		f *= i
	}
	return f
}

// term returns the number of grids X with X∘g = σ∘X whose left stack has
// the given rows: the product of the two stacks' fixed counts, or, when g
// exchanges the stacks, the left stack's count under (ρ², κ₁κ₀) and σ².
// sumFor computes it once per class of assignments under the relabellings
// commuting with σ and the band maps commuting with ρ.
func (p *stackProblem) term(ctx context.Context, sigma []int, rows []uint16) (*big.Int, error) {
	var a *big.Int
	if p.swap {
		e, err := stackCount(ctx, p.c, rows, perm.Compose(sigma, sigma), perm.Compose(p.rho, p.rho), perm.Compose(p.k1, p.k0))
		if err != nil {
			return nil, err
		}
		a = new(big.Int).SetUint64(e)
	} else {
		e0, err := stackCount(ctx, p.c, rows, sigma, p.rho, p.k0)
		if err != nil {
			return nil, err
		}
		a = new(big.Int).SetUint64(e0)
		if e0 != 0 {
			e1, err := stackCount(ctx, p.c, complementRows(rows, p.full), sigma, p.rho, p.k1)
			if err != nil {
				return nil, err
			}
			a.Mul(a, new(big.Int).SetUint64(e1))
		}
	}
	return a, nil
}

// stackCount returns E_{h,τ}(rows), h = (ρ', κ'), the number of stacks with
// the given row sets fixed by h up to τ (see twistedStacks).
func stackCount(ctx context.Context, c int, rows []uint16, tau, rho, kappa []int) (uint64, error) {
	return newTwisted(c, rows, tau, rho, kappa).countOrZero(ctx)
}

// countOrZero is count, 0 for a nil counter (incompatible rows).
func (t *twistedStacks) countOrZero(ctx context.Context) (uint64, error) {
	if t == nil {
		return 0, nil
	}
	return t.count(ctx)
}

// Fixed returns F(g) for an element g without transposition of a
// grid with boxes of 2 rows (2×c) or 2 columns (c×2, by transposing), c ≤ 6,
// by the stack method of the package documentation, instead of a search;
// for c ≥ 6 the involutive stack exchanges by the sum over pattern orbits
// (FixedByOrbits, the pair method's CPU-hours once per process).
func Fixed(ctx context.Context, s symmetry.Shape, e symmetry.Element) (*big.Int, error) {
	if err := e.Check(s); err != nil {
		return nil, err
	}
	s2, e2 := s, e
	switch {
	case e.Transpose:
		return nil, fmt.Errorf("symmetry: the stack method does not handle transposition")
	case s.R == 2:
	case s.C == 2:
		s2, e2 = symmetry.Shape{R: 2, C: s.R}, symmetry.Element{Rows: e.Cols, Cols: e.Rows}
	default:
		return nil, fmt.Errorf("symmetry: the stack method needs boxes of 2 rows or 2 columns, shape is %v", s)
	}
	if s2.C > maxTwistedC {
		return nil, fmt.Errorf("symmetry: the stack method handles boxes of 2×c with c ≤ %d, shape is %v", maxTwistedC, s)
	}
	types := search.SigmaTypes(s2, e2)
	if len(types) == 0 {
		return new(big.Int), nil // no relabelling type: no grid is fixed
	}
	if ByOrbits(s2, e2) {
		return FixedByOrbits(ctx, s2, e2, runtime.GOMAXPROCS(0))
	}
	p := newStackProblem(s2.C, e2)
	total := new(big.Int)
	for _, lam := range types {
		sum, err := p.sumFor(ctx, lam, runtime.GOMAXPROCS(0))
		if err != nil {
			return nil, err
		}
		z := perm.Centralizer(lam)
		q, r := new(big.Int).QuoRem(sum, z, new(big.Int))
		if r.Sign() != 0 {
			return nil, fmt.Errorf("symmetry: internal error: %v grids of %v fixed with σ of type %v, not a multiple of its centraliser order %v", sum, s, lam, z)
		}
		total.Add(total, q)
	}
	return total, nil
}
