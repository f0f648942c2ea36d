// Package symmetry is the group side of counting essentially different
// Sudoku grids by Burnside's lemma, for boxes of any shape R×C: the
// symmetry group, its conjugacy classes with their sizes, the identity's
// term, and an independent count by canonical forms for small grids. The
// grids fixed by a class are counted by the subpackages below.
//
// # Subpackages: which method counts which shape, and which checks it
//
// The symmetry stage counts each class's F(g) by one method (its first
// count) and, where it can, again by another (a second count, package
// stages/shared/symchecks); the canonical forms of this package check the
// totals for sides ≤ 6.
//
//   - search: F(g) by a search over the orbits of ⟨g⟩ on the cells, any
//     shape and class; the first count for sides ≤ 9.
//   - stacks: the stack method for boxes of 2 rows or 2 columns, a sum of
//     products of twisted stack counts; the first count for 2×5, 5×2, 2×6
//     and 6×2, the 16 2×6 classes that exchange the stacks by an involution
//     by its sum over pattern orbits (FixedFromOrbits), which is also the
//     second count (half: the same package) of 2×6 classes 10, 21 and 32.
//   - stackjoin: the R-stack method for boxes of R rows, joining twisted
//     stack counts (subpackages rowkeys, stackcount, cyclic); the first
//     count for 3×4 and 4×3, and the second count, on the R×2 orientation,
//     of every class of 2×2 to 2×5 and their transposes.
//   - multisets: F of the classes of 2×c and c×2 (c ≤ 5) that exchange the
//     stacks by an involution, from package pair's stack counts over
//     pattern multisets; a second count of those classes, beside stackjoin.
//   - bandjoin: F band orbit by band orbit, the column contents joining the
//     orbits, any class without transposition; it shares only the group code
//     and perm with the others, and finishes 9×9's classes and 3×4's light
//     ones but not 3×4's heavy ones (not yet run by the stage).
//   - perm: the permutation arithmetic the others share.
//
// # Grids and the group
//
// A grid of shape R×C has side N = R·C; its boxes have R rows and C
// columns, so the rows fall into C bands of R rows and the columns into R
// stacks of C columns. Row r lies in band r/R at place r%R; column c lies in
// stack c/C at place c%C.
//
// The validity-preserving symmetries considered are
//
//   - permuting the bands and, independently inside every band, its rows:
//     the wreath product S_R wr S_C, of order (R!)^C·C!;
//   - permuting the stacks and, inside every stack, its columns:
//     S_C wr S_R, of order (C!)^R·R!;
//   - when R = C, transposition (reflection in the main diagonal).
//
// So G = (S_R wr S_C) × (S_C wr S_R), or (S_R wr S_R)² ⋊ C₂ when transposition
// is included, the C₂ exchanging the two factors. For 9×9,
// |G| = 2·1296² = 3,359,232. Relabelling the symbols (S_N) is not part of G:
// it is taken into account through "fixed up to relabelling" below.
//
// An Element (ρ, κ, t) maps cell (r, c) to (ρ(r), κ(c)), followed, if t, by
// transposition: (r, c) ↦ (κ(c), ρ(r)).
//
// # Burnside's lemma
//
// Two grids are essentially the same when one becomes the other by an
// element of G followed by a relabelling σ ∈ S_N. Burnside's lemma for
// G × S_N, and the fact that S_N acts freely on grids, give
//
//	essentially different grids = (1/|G|) Σ_{g∈G} F(g),
//	F(g) = #{X : X∘g = σ∘X for some σ ∈ S_N} / N!,
//
// where X∘g = σ∘X means X(g(c)) = σ(X(c)) for every cell c. F is constant on
// conjugacy classes of G, so the sum runs over classes, weighted by their
// sizes. F(identity) = (number of grids)/N!.
//
// # Conjugacy classes
//
// The classes of a wreath product H wr S_k (here H = S_m) are given by the
// type of an element (h_0, …, h_{k-1}; π): for each cycle (i, π(i), …) of
// length ℓ of the block permutation π, the class in H of the cycle product
// h_{π^{ℓ-1}(i)}⋯h_{π(i)}h_i. A type is a multiset of pairs (ℓ, μ), μ a
// partition of m, with Σℓ = k; the centralizer of an element of type
// {(ℓ, μ)^{a_{ℓ,μ}}} has order Π a_{ℓ,μ}!·(ℓ·z_μ)^{a_{ℓ,μ}}, where
// z_μ = Π_i i^{b_i}·b_i! is the centralizer order of μ (b_i parts equal to i)
// in S_m. The class sizes are |H wr S_k| divided by these.
//
// Without transposition the classes of G are pairs (row class, column
// class). With transposition (R = C, A = S_R wr S_R): the elements without
// transposition form the classes {(a, b), (b, a)} over unordered pairs of
// classes of A — of size |a|·|b| when a = b and 2|a|·|b| otherwise — and the
// elements (ρ, κ, transposed) form one class for each class K of A, the one
// with ρ∘κ ∈ K, of size |A|·|K|: conjugating (ρ, κ, t) by (x, y) gives
// (yρx⁻¹, xκy⁻¹, t), whose product yρκy⁻¹ is conjugate to ρκ, conjugating
// it by the transposition gives (κ, ρ, t), with κρ = ρ⁻¹(ρκ)ρ, and any two
// elements with conjugate products are conjugate this way. For 9×9 that is
// 22·23/2 + 22 = 275 classes; for 2×3, 10·9 = 90.
package symmetry

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/perm"
)

// MaxSide is the largest grid side N = R·C the package accepts (symbol sets
// are 16-bit masks).
const MaxSide = 16

// Shape is a box shape: R rows and C columns per box. The grid side is R·C.
type Shape struct {
	R int `json:"r"` // rows per box; the grid has C bands of R rows
	C int `json:"c"` // columns per box; the grid has R stacks of C columns
}

// N is the side of the grid, R·C.
func (s Shape) N() int { return s.R * s.C }

func (s Shape) String() string { return fmt.Sprintf("%dx%d", s.R, s.C) }

// Check reports whether the shape is usable: R, C ≥ 1 and R·C ≤ MaxSide.
func (s Shape) Check() error {
	if s.R < 1 || s.C < 1 || s.R*s.C > MaxSide {
		return fmt.Errorf("symmetry: shape %dx%d: need R, C ≥ 1 and R·C ≤ %d", s.R, s.C, MaxSide)
	}
	return nil
}

// Element is one element of G: a permutation of the rows, one of the
// columns, and a transposition flag. It maps cell (r, c) to (Rows[r], Cols[c]),
// or, when Transpose is set, to (Cols[c], Rows[r]).
type Element struct {
	Rows      []int `json:"rows"`      // Rows[r] is the image of row r
	Cols      []int `json:"cols"`      // Cols[c] is the image of column c
	Transpose bool  `json:"transpose"` // transpose after permuting (only when R = C)
}

// Apply returns the image of cell (r, c).
func (e Element) Apply(r, c int) (int, int) {
	if e.Transpose {
		return e.Cols[c], e.Rows[r]
	}
	return e.Rows[r], e.Cols[c]
}

// Check reports whether e is an element of G for shape s: Rows keeps every
// band's rows together, Cols every stack's columns, and Transpose only when
// R = C.
func (e Element) Check(s Shape) error {
	if err := s.Check(); err != nil {
		return err
	}
	n := s.N()
	if err := checkWreath(e.Rows, n, s.R); err != nil {
		return fmt.Errorf("symmetry: rows: %w", err)
	}
	if err := checkWreath(e.Cols, n, s.C); err != nil {
		return fmt.Errorf("symmetry: columns: %w", err)
	}
	if e.Transpose && s.R != s.C {
		return fmt.Errorf("symmetry: transposition needs square boxes, shape is %v", s)
	}
	return nil
}

// checkWreath checks that p is a permutation of 0..n-1 mapping each block
// of m consecutive indices onto a block.
func checkWreath(p []int, n, m int) error {
	if len(p) != n {
		return fmt.Errorf("length %d, want %d", len(p), n)
	}
	seen := make([]bool, n)
	for i, x := range p {
		if x < 0 || x >= n || seen[x] {
			return fmt.Errorf("%v is not a permutation", p)
		}
		seen[x] = true
		if x/m != p[i-i%m]/m {
			return fmt.Errorf("%v splits a block of %d", p, m)
		}
	}
	return nil
}

// CellPerm returns the permutation of the n² cells (index r·n+c) that e
// induces.
func (e Element) CellPerm(n int) []int {
	p := make([]int, n*n)
	for r := range n {
		for c := range n {
			r2, c2 := e.Apply(r, c)
			p[r*n+c] = r2*n + c2
		}
	}
	return p
}

// Order is the order of e in G.
func (e Element) Order() int {
	return perm.Order(e.CellPerm(len(e.Rows)))
}

// IsIdentity reports whether e is the identity.
func (e Element) IsIdentity() bool {
	return !e.Transpose && perm.IsIdentity(e.Rows) && perm.IsIdentity(e.Cols)
}

// Describe writes e readably for shape s, numbering from 1: the permutation
// of the bands and the non-identity row permutations inside bands (band i
// sends its place j to place h(j) of its image band), likewise for stacks and
// columns, and "transpose". Example: "bands (1 2 3); rows in band 3: (1 2);
// stacks id; transpose".
func (e Element) Describe(s Shape) string {
	var parts []string
	parts = append(parts, describeWreath(e.Rows, s.R, "bands", "rows in band")...)
	parts = append(parts, describeWreath(e.Cols, s.C, "stacks", "columns in stack")...)
	if e.Transpose {
		parts = append(parts, "transpose")
	}
	return strings.Join(parts, "; ")
}

func describeWreath(p []int, m int, blocks, inner string) []string {
	k := len(p) / m
	top := make([]int, k)
	for i := range k {
		top[i] = p[i*m] / m
	}
	out := []string{blocks + " " + cycles(top)}
	for i := range k {
		h := make([]int, m)
		for j := range m {
			h[j] = p[i*m+j] - top[i]*m
		}
		if !perm.IsIdentity(h) {
			out = append(out, fmt.Sprintf("%s %d: %s", inner, i+1, cycles(h)))
		}
	}
	return out
}

// cycles writes a permutation in cycle notation from 1, without fixed
// points; "id" for the identity.
func cycles(p []int) string {
	seen := make([]bool, len(p))
	var b strings.Builder
	for i := range p {
		if seen[i] || p[i] == i {
			continue
		}
		b.WriteByte('(')
		for j := i; !seen[j]; j = p[j] {
			seen[j] = true
			if j != i {
				b.WriteByte(' ')
			}
			b.WriteString(strconv.Itoa(j + 1))
		}
		b.WriteByte(')')
	}
	if b.Len() == 0 {
		return "id"
	}
	return b.String()
}

// IdentityFixed returns F(identity) = grids/N!, with an error if N! does not
// divide grids.
func IdentityFixed(s Shape, grids *big.Int) (*big.Int, error) {
	if err := s.Check(); err != nil {
		return nil, err
	}
	q, r := new(big.Int).QuoRem(grids, perm.Factorial(s.N()), new(big.Int))
	if r.Sign() != 0 {
		return nil, fmt.Errorf("symmetry: %v grids of shape %v is not a multiple of %d!", grids, s, s.N())
	}
	return q, nil
}
