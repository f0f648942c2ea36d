package stacks

import (
	"context"
	"fmt"
	"math/big"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/perm"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/search"
)

// These tests check the stack method of 2×5, where the search does not
// finish on the classes that fix the most grids, by counts that share none
// of its machinery: a plain backtracking for the twisted stack counts, a sum
// over every pattern assignment instead of orbits, weights and joins, and a
// count by bands instead of stacks.

// backtrackStacks counts the stacks with row sets rows fixed by (ρ', κ') up
// to τ, as twistedStacks does, by plain backtracking: it colours the
// symbol–row edges one orbit of ⟨(τ, ρ', κ')⟩ at a time, edge (x, r) with
// colour (column) b forcing edge (τx, ρ'r) to colour κ'(b), each symbol and
// each row with distinct colours.
func backtrackStacks(c int, rows []uint16, tau, rho, kappa []int) uint64 {
	count, _ := backtrackStacksWithin(c, rows, tau, rho, kappa, 0)
	return count
}

// backtrackStacksWithin is backtrackStacks visiting at most maxNodes search
// nodes (0: no limit); ok is false when it stopped there. (For 2×6 the
// search can take minutes even when it finds few stacks.)
func backtrackStacksWithin(c int, rows []uint16, tau, rho, kappa []int, maxNodes int) (count uint64, ok bool) {
	n := 2 * c
	col := make([][]int8, n)
	for x := range col {
		col[x] = make([]int8, n)
		for r := range col[x] {
			col[x][r] = -1
		}
	}
	usedX := make([]uint16, n)
	usedR := make([]uint16, n)
	type edge struct{ x, r int }
	var edges []edge
	for x := range n {
		for m := rows[x]; m != 0; m &= m - 1 {
			edges = append(edges, edge{x, bits.TrailingZeros16(m)})
		}
	}
	var set []edge
	nodes := 0
	var rec func(i int)
	rec = func(i int) {
		if nodes++; maxNodes > 0 && nodes > maxNodes {
			return
		}
		for i < len(edges) && col[edges[i].x][edges[i].r] >= 0 {
			i++
		}
		if i == len(edges) {
			count++
			return
		}
		for b := range c {
			mark := len(set)
			ok := true
			for x, r, b := edges[i].x, edges[i].r, b; ; x, r, b = tau[x], rho[r], kappa[b] {
				if rows[x]>>r&1 == 0 {
					ok = false // τ and ρ' do not carry the row sets along
					break
				}
				if col[x][r] >= 0 {
					ok = int(col[x][r]) == b // the orbit closed up
					break
				}
				if usedX[x]>>b&1 == 1 || usedR[r]>>b&1 == 1 {
					ok = false
					break
				}
				col[x][r] = int8(b)
				usedX[x] |= 1 << b
				usedR[r] |= 1 << b
				set = append(set, edge{x, r})
			}
			if ok {
				rec(i + 1)
			}
			for _, e := range set[mark:] {
				b := col[e.x][e.r]
				usedX[e.x] &^= 1 << b
				usedR[e.r] &^= 1 << b
				col[e.x][e.r] = -1
			}
			set = set[:mark]
		}
	}
	rec(0)
	return count, maxNodes == 0 || nodes <= maxNodes
}

// sides returns the one or two twisted stack problems of a term (see term):
// the row sets, relabelling, row map and column map of each.
func (p *stackProblem) sides(sigma []int, rows []uint16) [][4]any {
	if p.swap {
		return [][4]any{{rows, perm.Compose(sigma, sigma), perm.Compose(p.rho, p.rho), perm.Compose(p.k1, p.k0)}}
	}
	comp := make([]uint16, len(rows))
	for x, q := range rows {
		comp[x] = q ^ p.full
	}
	return [][4]any{{rows, sigma, p.rho, p.k0}, {comp, sigma, p.rho, p.k1}}
}

// randomAssignment draws pattern assignments equivariant for σ_λ and ρ̂
// until one has c symbols in every row, and returns it (nil after many
// failures).
func (p *stackProblem) randomAssignment(rng *rand.Rand, lam []int) []uint16 {
	for range 10000 {
		rows := make([]uint16, p.n)
		at := 0
		ok := true
		for _, l := range lam {
			var cands []uint16
			for _, q := range p.valid {
				if l%p.orbitLen[q] == 0 {
					cands = append(cands, q)
				}
			}
			if len(cands) == 0 {
				return nil
			}
			q := cands[rng.IntN(len(cands))]
			for k := range l {
				rows[at+k] = q
				q = p.hat[q]
			}
			at += l
		}
		var count [16]int
		for _, q := range rows {
			for m := q; m != 0; m &= m - 1 {
				count[bits.TrailingZeros16(m)]++
			}
		}
		for r := range p.n {
			ok = ok && count[r] == p.c
		}
		if ok {
			return rows
		}
	}
	return nil
}

// maxBacktracked is the largest twisted count TestTwistedMatchesBacktracking
// recounts by backtracking, which visits every stack.
const maxBacktracked = 200000

// TestTwistedMatchesBacktracking checks the twisted stack counter against
// backtrackStacks on random assignments of every class of 2×3, 2×4 and 2×5
// (2×3 only in short mode) that some σ type allows.
func TestTwistedMatchesBacktracking(t *testing.T) {
	maxC, perType := 5, 2
	if testing.Short() {
		maxC, perType = 3, 3
	}
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(20, 25))
	for c := 3; c <= maxC; c++ {
		s := symmetry.Shape{R: 2, C: c}
		g, err := symmetry.NewGroup(s, false)
		if err != nil {
			t.Fatal(err)
		}
		checked, skipped := 0, 0
		for _, cl := range g.Classes[1:] {
			p := newStackProblem(c, cl.Rep)
			for _, lam := range search.SigmaTypes(s, cl.Rep) {
				sigma := perm.WithCycleType(lam)
				for range perType {
					rows := p.randomAssignment(rng, lam)
					if rows == nil {
						break
					}
					for _, side := range p.sides(sigma, rows) {
						rs, tau, rho, kappa := side[0].([]uint16), side[1].([]int), side[2].([]int), side[3].([]int)
						got, err := newTwisted(c, rs, tau, rho, kappa).countOrZero(ctx)
						if err != nil {
							t.Fatal(err)
						}
						if got > maxBacktracked {
							skipped++ // backtracking visits every stack
							continue
						}
						if want := backtrackStacks(c, rs, tau, rho, kappa); got != want {
							t.Errorf("%v class %d (%s), σ type %v, rows %v: twisted count %d, backtracking %d", s, cl.Index, cl.Desc, lam, rs, got, want)
						}
						checked++
					}
				}
			}
		}
		t.Logf("%v: %d twisted stack counts checked, %d above %d skipped", s, checked, skipped, maxBacktracked)
	}
}

// TestStacksByEveryAssignment recounts F(g) for classes that keep the
// stacks with ρ an involution moving every row, summing the product of the
// two stacks' twisted counts over every equivariant pattern assignment one
// by one, instead of over the orbit representatives with weights and joins
// (sumFor); terms are cached by the assignment's multiset of (cycle length,
// ⟨ρ̂⟩-orbit), on which relabelling by the centraliser of σ_λ keeps them.
// For 2×5 it takes classes 70 and 77, the two with κ = id and ρ ≠ the
// exchange of every band's rows.
func TestStacksByEveryAssignment(t *testing.T) {
	maxC := 5
	if testing.Short() {
		maxC = 4
	}
	ctx := context.Background()
	for c := 2; c <= maxC; c++ {
		s := symmetry.Shape{R: 2, C: c}
		g, err := symmetry.NewGroup(s, false)
		if err != nil {
			t.Fatal(err)
		}
		checked := 0
		for _, cl := range g.Classes[1:] {
			e := cl.Rep
			if e.Cols[0] >= c || !slices.Equal(perm.Compose(e.Rows, e.Rows), perm.Identity(2*c)) || slices.ContainsFunc(rangeFrom(0, 2*c), func(r int) bool { return e.Rows[r] == r }) {
				continue
			}
			if c == 5 && (!perm.IsIdentity(e.Cols) || slices.Equal(e.Rows, swapAllRows(c))) {
				continue
			}
			p := newStackProblem(c, e)
			want := new(big.Int)
			for _, lam := range search.SigmaTypes(s, e) {
				sum := p.sumEveryAssignment(ctx, t, lam)
				q, r := new(big.Int).QuoRem(sum, perm.Centralizer(lam), new(big.Int))
				if r.Sign() != 0 {
					t.Fatalf("%v class %d, σ type %v: %v grids, not a multiple of the centraliser order", s, cl.Index, lam, sum)
				}
				want.Add(want, q)
			}
			got, err := Fixed(ctx, s, e)
			if err != nil {
				t.Fatal(err)
			}
			if got.Cmp(want) != 0 {
				t.Errorf("%v class %d (%s): stack method %v, every assignment %v", s, cl.Index, cl.Desc, got, want)
			}
			checked++
		}
		t.Logf("%v: %d classes checked", s, checked)
	}
}

func swapAllRows(c int) []int {
	rows := make([]int, 2*c)
	for r := range rows {
		rows[r] = r ^ 1
	}
	return rows
}

// sumEveryAssignment returns Σ over every assignment P equivariant for σ_λ
// and ρ̂ with c symbols per row of the product of its twisted stack counts.
func (p *stackProblem) sumEveryAssignment(ctx context.Context, t *testing.T, lam []int) *big.Int {
	sigma := perm.WithCycleType(lam)
	var starts []int
	at := 0
	for _, l := range lam {
		starts = append(starts, at)
		at += l
	}
	cache := map[string]*big.Int{}
	sum := new(big.Int)
	rows := make([]uint16, p.n)
	var count [16]int
	var rec func(j int)
	rec = func(j int) {
		if j == len(lam) {
			key := make([]int, len(lam))
			for k, l := range lam {
				key[k] = l<<16 | int(p.orbitRep[rows[starts[k]]])
			}
			slices.Sort(key)
			k := fmt.Sprint(key)
			term, ok := cache[k]
			if !ok {
				term = big.NewInt(1)
				for _, side := range p.sides(sigma, rows) {
					rs, tau, rho, kappa := side[0].([]uint16), side[1].([]int), side[2].([]int), side[3].([]int)
					e, err := newTwisted(p.c, rs, tau, rho, kappa).countOrZero(ctx)
					if err != nil {
						t.Fatal(err)
					}
					term.Mul(term, new(big.Int).SetUint64(e))
				}
				cache[k] = term
			}
			sum.Add(sum, term)
			return
		}
		l := lam[j]
		for _, q := range p.valid {
			ok := true
			y := q
			for k := range l {
				rows[starts[j]+k] = y
				for m := y; m != 0; m &= m - 1 {
					r := bits.TrailingZeros16(m)
					count[r]++
					ok = ok && count[r] <= p.c
				}
				y = p.hat[y]
			}
			if ok && y == q {
				rec(j + 1)
			}
			for k := range l {
				for m := rows[starts[j]+k]; m != 0; m &= m - 1 {
					count[bits.TrailingZeros16(m)]--
				}
			}
		}
	}
	rec(0)
	return sum
}

// TestRowsSwappedBandsExchangedByBands counts F(g) for g = (ρ, id) of 2×c,
// ρ exchanging the two rows of each of the bands 1 … c−2 and exchanging
// bands c−1 and c (class 70 of 2×5), by bands instead of stacks, and checks
// it against the stack method and, up to 2×4, the search.
//
// X(ρr, j) = σX(r, j) makes σ a fixed-point-free involution (a column is a
// bijection from the rows, on which ρ moves every row in 2-cycles); take
// σ = (0 1)(2 3)…, with centraliser order 2^c·c!, and call {2p, 2p+1} pair
// p. Each of the bands 1 … c−2 has lower row σ(upper row); its box in a
// stack holds both members of every pair, so its upper row holds the pairs
// once each in the stack's c columns, and a column holds no pair twice over
// these bands: the stack carries a (c−2)×c Latin rectangle of pairs, and
// each band a free choice of the upper member in one stack (2^c; the other
// stack's upper members are then forced by the row). Band c is σ(band c−1),
// so column j's last two pairs R(j) fill band c−1 at column j, one in each
// row; every pair misses exactly two columns of the rectangle, so band
// c−1's box holds each pair twice, its two members in either order. With
// V(A) the number of (rectangle, band c−1 box) fillings of one stack whose
// upper row of band c−1 holds the symbol set A, the other stack's must hold
// the complement, so
//
//	F = 2^{c(c−2)} · Σ_A V(A)·V(Ā) / (2^c·c!).
func TestRowsSwappedBandsExchangedByBands(t *testing.T) {
	maxC := 5
	for c := 2; c <= maxC; c++ {
		n := 2 * c
		V := make([]int64, 1<<n)
		used := make([]uint8, c) // pairs in each column of the rectangle
		rowUsed := make([]uint8, c-2)
		var rec func(cell int)
		rec = func(cell int) {
			if cell == (c-2)*c {
				addBandBoxes(c, used, V)
				return
			}
			i, j := cell/c, cell%c
			for p := range c {
				if used[j]>>p&1 == 0 && rowUsed[i]>>p&1 == 0 {
					used[j] |= 1 << p
					rowUsed[i] |= 1 << p
					rec(cell + 1)
					used[j] &^= 1 << p
					rowUsed[i] &^= 1 << p
				}
			}
		}
		rec(0)
		sum := new(big.Int)
		full := 1<<n - 1
		for a, v := range V {
			sum.Add(sum, new(big.Int).Mul(big.NewInt(v), big.NewInt(V[full^a])))
		}
		sum.Lsh(sum, uint(c*(c-2)))
		den := new(big.Int).Lsh(perm.Factorial(c), uint(c))
		want, r := new(big.Int).QuoRem(sum, den, new(big.Int))
		if r.Sign() != 0 {
			t.Fatalf("2x%d: %v grids by bands, not a multiple of 2^c·c!", c, sum)
		}
		rows := swapAllRows(c)
		for j := range 2 {
			rows[2*(c-2)+j], rows[2*(c-1)+j] = 2*(c-1)+j, 2*(c-2)+j
		}
		s := symmetry.Shape{R: 2, C: c}
		e := symmetry.Element{Rows: rows, Cols: perm.Identity(n)}
		got, err := Fixed(context.Background(), s, e)
		if err != nil {
			t.Fatal(err)
		}
		if got.Cmp(want) != 0 {
			t.Errorf("2x%d (%s): stack method %v, by bands %v", c, e.Describe(s), got, want)
		}
		if c <= 4 {
			viaSearch, err := search.FixedElement(context.Background(), s, e)
			if err != nil {
				t.Fatal(err)
			}
			if viaSearch.Cmp(want) != 0 {
				t.Errorf("2x%d (%s): search %v, by bands %v", c, e.Describe(s), viaSearch, want)
			}
		}
		t.Logf("2x%d (%s): %v by bands", c, e.Describe(s), want)
	}
}

// addBandBoxes adds to V, for a stack whose Latin rectangle leaves column j
// without the pairs outside used[j], every filling of band c−1's box: which
// of column j's two pairs goes to the upper row, and which member of each
// pair goes to the first of its two cells, keyed by the upper row's symbols.
func addBandBoxes(c int, used []uint8, V []int64) {
	missing := make([][2]int, c)
	for j := range c {
		k := 0
		for p := range c {
			if used[j]>>p&1 == 0 {
				missing[j][k] = p
				k++
			}
		}
	}
	for upper := range 1 << c {
		// firstUpper[p]: whether pair p's first cell (in column order) is in
		// the upper row, secondUpper likewise for its second cell.
		var firstUpper, secondUpper [8]bool
		var seen [8]int
		for j := range c {
			for k, p := range missing[j] {
				inUpper := (upper>>j&1 == 1) == (k == 0)
				if seen[p] == 0 {
					firstUpper[p] = inUpper
				} else {
					secondUpper[p] = inUpper
				}
				seen[p]++
			}
		}
		for members := range 1 << c {
			var a uint16
			for p := range c {
				x := 2*p + members>>p&1 // in the first cell; x^1 in the second
				if firstUpper[p] {
					a |= 1 << x
				}
				if secondUpper[p] {
					a |= 1 << (x ^ 1)
				}
			}
			V[a]++
		}
	}
}

// heavy2x5 are the 25 classes of 2×5 that fix the most grids, where the
// search does not finish (class 70 plans 10^13 nodes).
var heavy2x5 = []int{6, 27, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83}

// TestStacksMatchSearch2x5 checks the stack method against the search on
// every class of 2×5 that some relabelling type allows (85 classes; the
// others fix nothing, see search.TestSigmaTypesByUnitImages) but the 25 of
// heavy2x5, which the other tests of this file and stacks_test.go check.
func TestStacksMatchSearch2x5(t *testing.T) {
	if testing.Short() {
		t.Skip("about a minute")
	}
	s := symmetry.Shape{R: 2, C: 5}
	g, err := symmetry.NewGroup(s, false)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, cl := range g.Classes[1:] {
		if len(search.SigmaTypes(s, cl.Rep)) == 0 || slices.Contains(heavy2x5, cl.Index) {
			continue
		}
		want, err := search.Fixed(context.Background(), s, cl)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Fixed(context.Background(), s, cl.Rep)
		if err != nil {
			t.Fatal(err)
		}
		if got.Cmp(want) != 0 {
			t.Errorf("2x5 class %d (%s): stacks %v, search %v", cl.Index, cl.Desc, got, want)
		}
		checked++
	}
	if checked != 60 {
		t.Errorf("%d classes checked, want 60", checked)
	}
}
