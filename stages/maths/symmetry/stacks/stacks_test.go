package stacks

import (
	"context"
	"errors"
	"math/big"
	"slices"
	"strings"

	"testing"
	"time"

	"github.com/sudoku-census/sudoku-census/stages/maths/pair"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/perm"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/search"
)

// TestStacksMatchSearch checks the stack method against the search on
// every class without transposition of the shapes with boxes of 2 rows or
// 2 columns up to 8×8.
func TestStacksMatchSearch(t *testing.T) {
	shapes := []symmetry.Shape{{R: 2, C: 1}, {R: 1, C: 2}, {R: 2, C: 2}, {R: 2, C: 3}, {R: 3, C: 2}, {R: 2, C: 4}, {R: 4, C: 2}}
	grids := []string{"2", "2", "288", "28200960", "28200960", "29136487207403520", "29136487207403520"}
	if testing.Short() {
		shapes = shapes[:5]
	}
	for i, s := range shapes {
		g, err := symmetry.NewGroup(s, false)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range g.Classes {
			var want *big.Int
			if c.Index == 0 {
				// the search would count every grid one by one
				n, _ := new(big.Int).SetString(grids[i], 10)
				want, err = symmetry.IdentityFixed(s, n)
			} else {
				want, err = search.Fixed(context.Background(), s, c)
			}
			if err != nil {
				t.Fatal(err)
			}
			got, err := Fixed(context.Background(), s, c.Rep)
			if err != nil {
				t.Fatalf("%v class %d (%s): %v", s, c.Index, c.Desc, err)
			}
			if got.Cmp(want) != 0 {
				t.Errorf("%v class %d (%s): stacks %v, search %v", s, c.Index, c.Desc, got, want)
			}
		}
	}
}

// TestStackSwapByPairOrbits checks the class that exchanges the two stacks
// (and nothing else) of 2×c against a formula over the pair method's orbits
// with package pair's own stack counter: a grid fixed by the exchange up to
// a relabelling σ has a right stack σ(left stack), so σ is an involution
// pairing each symbol with one of the complementary pattern, and
//
//	F = Σ_T E(T) / Π_{p < ~p} m_p!   over multisets T closed under complement
//
// (n!/Π m_p! tuples with pattern multiset T, Π_{p<~p} m_p! involutions each,
// divided by n!).
func TestStackSwapByPairOrbits(t *testing.T) {
	maxC := 5
	if testing.Short() {
		maxC = 4
	}
	ctx := context.Background()
	for c := 2; c <= maxC; c++ {
		orbits, err := pair.Orbits(ctx, c)
		if err != nil {
			t.Fatal(err)
		}
		sum := new(big.Rat)
		for _, o := range orbits {
			var m [64]int64
			for _, p := range o.Rep {
				m[p]++
			}
			full := uint8(1)<<c - 1
			closed := true
			den := big.NewInt(1)
			for p := range 1 << c {
				q := int(uint8(p) ^ full)
				if m[p] != m[q] {
					closed = false
				}
				if p < q {
					den.Mul(den, perm.Factorial(int(m[p])))
				}
			}
			if !closed {
				continue
			}
			e, err := pair.Stacks(ctx, c, o.Rep)
			if err != nil {
				t.Fatal(err)
			}
			num := new(big.Int).Mul(new(big.Int).SetUint64(o.Size), new(big.Int).SetUint64(e))
			sum.Add(sum, new(big.Rat).SetFrac(num, den))
		}
		s := symmetry.Shape{R: 2, C: c}
		swap := symmetry.Element{Rows: perm.Identity(2 * c), Cols: append(rangeFrom(c, 2*c), rangeFrom(0, c)...)}
		got, err := Fixed(ctx, s, swap)
		if err != nil {
			t.Fatal(err)
		}
		if !sum.IsInt() || sum.Num().Cmp(got) != 0 {
			t.Errorf("2x%d stack exchange: stack method %v, pair orbits %v", c, got, sum)
		}
		t.Logf("2x%d: the stack exchange fixes %v grids up to relabelling", c, got)
	}
}

func rangeFrom(lo, hi int) []int {
	var out []int
	for i := lo; i < hi; i++ {
		out = append(out, i)
	}
	return out
}

// TestSwapAllByPairOrbits checks the class that exchanges the two stacks and
// the two rows of every band of 2×c against pair's orbits: X∘g = σ∘X makes
// the right stack σ(left stack) with every band's rows exchanged, so the left
// stack is any stack, σ any involution keeping each symbol's pattern, and
//
//	F = Σ_T E(T) · Π_p I(m_p)/m_p!,   I(m) the involutions of m points.
func TestSwapAllByPairOrbits(t *testing.T) {
	maxC := 5
	if testing.Short() {
		maxC = 4
	}
	ctx := context.Background()
	for c := 2; c <= maxC; c++ {
		orbits, err := pair.Orbits(ctx, c)
		if err != nil {
			t.Fatal(err)
		}
		sum := new(big.Rat)
		for _, o := range orbits {
			var m [64]int
			for _, p := range o.Rep {
				m[p]++
			}
			f := new(big.Rat).SetUint64(o.Size)
			for p := range 1 << c {
				f.Mul(f, new(big.Rat).SetFrac(new(big.Int).SetUint64(involutionsSmall[m[p]]), perm.Factorial(m[p])))
			}
			e, err := pair.Stacks(ctx, c, o.Rep)
			if err != nil {
				t.Fatal(err)
			}
			sum.Add(sum, f.Mul(f, new(big.Rat).SetUint64(e)))
		}
		rows := make([]int, 2*c)
		for r := range rows {
			rows[r] = r ^ 1
		}
		g := symmetry.Element{Rows: rows, Cols: append(rangeFrom(c, 2*c), rangeFrom(0, c)...)}
		got, err := Fixed(ctx, symmetry.Shape{R: 2, C: c}, g)
		if err != nil {
			t.Fatal(err)
		}
		if !sum.IsInt() || sum.Num().Cmp(got) != 0 {
			t.Errorf("2x%d rows of every band and stacks exchanged: stack method %v, pair orbits %v", c, got, sum)
		}
		t.Logf("2x%d: fixes %v grids up to relabelling (pair orbits %v)", c, got, sum.RatString())
	}
}

// TestRowsSwappedClosedForm checks the class that exchanges the two rows of
// every band of 2×c (and nothing else) against a closed form. Row 2i+1 is
// σ(row 2i), so σ is a fixed-point-free involution, and the upper rows form
// a c × 2c array whose every box half and every column holds one symbol of
// each pair of σ: the pairs in each stack form a c×c Latin square, and each
// row chooses freely which member of each pair goes left. So
//
//	F = (2c-1)!! · L_c² · 2^{c²} / (2c)!,   L_c the c×c Latin squares.
//
// 2×6 takes about half a minute.
func TestRowsSwappedClosedForm(t *testing.T) {
	latin := []int64{1, 1, 2, 12, 576, 161280, 812851200}
	maxC := 6
	if testing.Short() {
		maxC = 4
	}
	for c := 1; c <= maxC; c++ {
		want := big.NewInt(latin[c] * latin[c])
		for k := 2*c - 1; k > 1; k -= 2 {
			want.Mul(want, big.NewInt(int64(k)))
		}
		want.Lsh(want, uint(c*c))
		want.Quo(want, perm.Factorial(2*c))
		rows := make([]int, 2*c)
		for r := range rows {
			rows[r] = r ^ 1
		}
		got, err := Fixed(context.Background(), symmetry.Shape{R: 2, C: c}, symmetry.Element{Rows: rows, Cols: perm.Identity(2 * c)})
		if err != nil {
			t.Fatal(err)
		}
		if got.Cmp(want) != 0 {
			t.Errorf("2x%d rows of every band exchanged: stack method %v, closed form %v", c, got, want)
		}
	}
}

// TestStackExchangesByMultisets checks every class of 2×c (c ≤ 5) that
// exchanges the two stacks with κ₁κ₀ = id and ρ² = id against a sum over
// the pattern multisets T with package pair's stack counter: the left stack
// is any stack, the right one σ(left) with its rows moved by ρ, so σ is an
// involution with P(σx) = ĥ(P(x)), ĥ(p) = ρ(p) complemented, and
//
//	F = Σ_T E(T) · Π_{p = ĥp} I(m_p)/m_p! · Π_{p < ĥp} [m_p = m_ĥp]/m_p!.
//
// (The summand depends on T, not only on its B_c-orbit, unless ρ is
// central; E(T) is looked up by orbit.)
func TestStackExchangesByMultisets(t *testing.T) {
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
		eOf := map[string]uint64{}
		full := uint16(1)<<(2*c) - 1
		checked := 0
		for _, cl := range g.Classes {
			e := cl.Rep
			if e.Cols[0] < c || !slices.Equal(perm.Compose(e.Rows, e.Rows), perm.Identity(2*c)) {
				continue
			}
			k := make([]int, c)
			for j := range c {
				k[j] = e.Cols[e.Cols[j]] // κ₁κ₀ on stack 0
			}
			if !slices.Equal(k, perm.Identity(c)) {
				continue
			}
			hat := make([]int, 1<<c)
			for p := range 1 << c {
				var q uint16
				for i := range c {
					q |= 1 << (2*i + 1 - p>>i&1)
				}
				h := mapMask(e.Rows, q) ^ full
				var hp int
				for i := range c {
					if h>>(2*i)&1 == 1 {
						hp |= 1 << i
					}
				}
				hat[p] = hp
			}
			sum := new(big.Rat)
			var m [64]int
			var ones [8]int
			pats := make([]uint8, 0, 2*c)
			var rec func(from int)
			rec = func(from int) {
				if len(pats) == 2*c {
					f := big.NewRat(1, 1)
					for p := range 1 << c {
						switch q := hat[p]; {
						case q == p:
							f.Mul(f, new(big.Rat).SetFrac(new(big.Int).SetUint64(involutionsSmall[m[p]]), perm.Factorial(m[p])))
						case m[p] != m[q]:
							return
						case p < q:
							f.Quo(f, new(big.Rat).SetInt(perm.Factorial(m[p])))
						}
					}
					o, err := pair.NewOrbit(c, pats)
					if err != nil {
						t.Fatal(err)
					}
					key := o.String()
					ev, ok := eOf[key]
					if !ok {
						if ev, err = pair.Stacks(ctx, c, o.Rep); err != nil {
							t.Fatal(err)
						}
						eOf[key] = ev
					}
					sum.Add(sum, f.Mul(f, new(big.Rat).SetUint64(ev)))
					return
				}
				for p := from; p < 1<<c; p++ {
					ok := true
					for i := range c {
						if p>>i&1 == 1 && ones[i] == c || p>>i&1 == 0 && len(pats)-ones[i] == c {
							ok = false // each bit set in exactly c patterns
						}
					}
					if !ok {
						continue
					}
					for i := range c {
						ones[i] += p >> i & 1
					}
					m[p]++
					pats = append(pats, uint8(p))
					rec(p)
					pats = pats[:len(pats)-1]
					m[p]--
					for i := range c {
						ones[i] -= p >> i & 1
					}
				}
			}
			rec(0)
			got, err := Fixed(ctx, s, e)
			if err != nil {
				t.Fatal(err)
			}
			if !sum.IsInt() || sum.Num().Cmp(got) != 0 {
				t.Errorf("%v class %d (%s): stack method %v, multisets %v", s, cl.Index, cl.Desc, got, sum.RatString())
			}
			checked++
		}
		t.Logf("%v: %d classes checked", s, checked)
	}
}

// A class with more equivariant assignments than maxAssignments fails with
// ErrTooManyAssignments instead of listing them all (class 37 of 2×6 has
// 16,179,808 of σ type 1^8.2^2; the limit is lowered here).
func TestTooManyAssignments(t *testing.T) {
	defer func(m int) { maxAssignments = m }(maxAssignments)
	maxAssignments = 1000
	s, cl := class2x6(t, 37)
	_, err := Fixed(context.Background(), s, cl.Rep)
	if !errors.Is(err, ErrTooManyAssignments) || strings.Contains(err.Error(), "\n") {
		t.Fatalf("class 37 with at most 1000 assignments: error %v, want one line wrapping ErrTooManyAssignments", err)
	}
}

// Listing the assignments of a σ type stops soon after its context is done:
// class 37 of 2×6 (σ type 1^8.2^2, 16,179,808 assignments, about a minute)
// with a 100 ms deadline.
func TestAssignmentsStop(t *testing.T) {
	s, cl := class2x6(t, 37)
	p := newStackProblem(s.C, cl.Rep)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := p.assignmentClasses(ctx, []int{2, 2, 1, 1, 1, 1, 1, 1, 1, 1})
	if elapsed := time.Since(start); !errors.Is(err, context.DeadlineExceeded) || elapsed > 2*time.Second {
		t.Fatalf("listing class 37's assignments with a 100 ms deadline: error %v after %v, want the deadline within 2 s", err, elapsed)
	}
}
