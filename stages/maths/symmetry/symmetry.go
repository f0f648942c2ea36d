// Package symmetry counts essentially different Sudoku grids by Burnside's
// lemma, for boxes of any shape R×C.
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
//
// # Fixed grids
//
// F(g) is computed by a search (see Fixed): X∘g = σ∘X for one σ exactly
// (each symbol occurs in every row), and the set of grids with a given σ
// is carried onto that of τστ⁻¹ by relabelling with τ, so
//
//	F(g) = Σ_λ #{X : X∘g = σ_λ∘X} / |Z(σ_λ)|,
//
// over the cycle types λ of S_N, with σ_λ one permutation of type λ and
// Z(σ_λ) its centralizer, which acts freely on those grids. The search fixes
// σ_λ and counts only the grids whose first row is the canonical one of its
// Z(σ_λ)-orbit, so the division is exact and implicit.
//
// # The stack method (boxes of 2 rows)
//
// For boxes of 2 rows and c columns (c×2 by transposing the grid and g),
// FixedByStacks counts the same F(g) without a search, from the structure
// of package pair. The grid has c bands of rows 2i (upper) and 2i+1 and two
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
// (ρ', κ'), so one column per κ'-cycle stores it (64 bits for c ≤ 5), and
// states equal up to the centraliser of κ' (rotating a cycle, permuting
// cycles of equal length) are merged.
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
package symmetry

import (
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"
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

// cellPerm returns the permutation of the n² cells (index r·n+c) that e
// induces.
func (e Element) cellPerm(n int) []int {
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
	return permOrder(e.cellPerm(len(e.Rows)))
}

// IsIdentity reports whether e is the identity.
func (e Element) IsIdentity() bool {
	return !e.Transpose && isIdentity(e.Rows) && isIdentity(e.Cols)
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
		if !isIdentity(h) {
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

func isIdentity(p []int) bool {
	for i, x := range p {
		if x != i {
			return false
		}
	}
	return true
}

func identity(n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	return p
}

// cycleType returns the cycle lengths of p, largest first.
func cycleType(p []int) []int {
	seen := make([]bool, len(p))
	var t []int
	for i := range p {
		if seen[i] {
			continue
		}
		l := 0
		for j := i; !seen[j]; j = p[j] {
			seen[j] = true
			l++
		}
		t = append(t, l)
	}
	slices.Sort(t)
	slices.Reverse(t)
	return t
}

func permOrder(p []int) int {
	o := 1
	for _, l := range cycleType(p) {
		o = lcm(o, l)
	}
	return o
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func lcm(a, b int) int { return a / gcd(a, b) * b }

func factorial(n int) *big.Int {
	f := big.NewInt(1)
	for i := 2; i <= n; i++ {
		f.Mul(f, big.NewInt(int64(i)))
	}
	return f
}
