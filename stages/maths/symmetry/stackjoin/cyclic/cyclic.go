// Package cyclic counts, for an element g = (ρ, κ) of the symmetry group
// of a shape R×C (package symmetry) whose stack permutation π is one cycle
// of all R stacks, with g^R keeping stack 0 cell by cell and ρ keeping
// every band, the grids X with X∘g = σ∘X for a relabelling σ: a sum over
// the column permutations of the symbols σ moves of per-band weights times
// the ways to place the symbols σ fixes, C!^(s−1) terms for s symbols
// moved. Package stackjoin uses it for the σ that move at most MaxSpecial
// symbols, where its enumeration of configurations is slow (on 3×4 class
// 145, the rows of every band and the stacks cycled: the σ types 1¹²,
// 3·1⁹ and 3²·1⁶). The argument is in the comment at the head of
// cyclic.go.
package cyclic

import (
	"context"
	"fmt"
	"math/big"
	"math/bits"

	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/perm"
)

// One stack cycle, counted by columns.
//
// When π is a single cycle of all R stacks, the grids with X∘g = σ∘X are
// determined by stack 0, S = S_0: the others are its images
// S_{π^k(0)}(ρ^k(r), κ^k(j)) = σ^k(S(r, j)), k < R. If moreover g^R keeps
// stack 0 cell by cell (ρ^R = id, κ^R = id on its columns), the cycle closes
// exactly when σ^R = id (every symbol lies in every column of S), and the
// images are valid stacks whenever S is. What is left is the grid's rows:
// row r is ⊔_k σ^k P(ρ^{-k}(r)), P(r) the symbols of S's row r, and when ρ
// keeps every band this is a condition on each band of S alone, and on each
// σ-orbit O of symbols alone (y ∈ σ^k P(ρ^{-k} r) iff σ^{-k}y lies in row
// ρ^{-k} r):
//
//	for every row r of the band and y ∈ O, exactly one k < R has
//	row(σ^{-k} y) = ρ^{-k}(r),
//
// row(x) the row of the band holding x. So
//
//	#{X : X∘g = σ∘X} = #{valid stacks S whose bands meet the condition}.
//
// A valid stack is, for each band b, a bijection from the symbols to its
// R×C cells (symbol x in row ψ_b(x), column c_b(x)), with the columns of each
// symbol distinct over the C bands (c_·(x) a permutation of the columns).
// Symbols fixed by σ meet the condition in a row r0 of band b iff the ρ-orbit
// of r0 holds every row of the band once (allowedRow). Let the special
// symbols be those σ moves, s of them. Summing first over their column
// permutations p_x (b ↦ c_b(x)), then over their rows,
//
//	#{S} = Σ_{p_x, x special} Π_b W_b(c_b) · Fill(T),
//
// W_b(c) = Σ_ψ [cells distinct, condition on every special orbit] ·
// Π_j f(free rows of column j), f(F) = |F|! when every row of F is allowed
// (the fixed symbols placed in column j take its free rows in any order),
// else 0; and Fill(T) the number of ways to give each fixed symbol a
// permutation of the columns over the bands with exactly T[b][j] = R − m_bj
// of them in column j of band b (m_bj: special symbols there), a memoised
// recursion over the fixed symbols. A simultaneous relabelling of the
// columns keeps every factor, so the first special symbol's permutation is
// fixed (to any one) and the sum multiplied by C!. There are C!^(s−1)
// terms, so the method is used for s ≤ MaxSpecial (C!^5 ≈ 8·10^6 on
// 3×4), the enumeration of configurations for the rest; on 3×4 class 145
// (rows cycled in every band, stacks cycled) it turns the σ types 1¹²,
// 3·1⁹ and 3²·1⁶, whose configurations are counted in 10^13, into seconds.

// MaxSpecial bounds the symbols σ moves for which Applies holds.
const MaxSpecial = 6

// Applies reports whether Count is used for g = e of shape s and σ: Fits,
// and σ moving at most MaxSpecial symbols.
func Applies(s symmetry.Shape, e symmetry.Element, sigma []int) bool {
	moved := 0
	for x, y := range sigma {
		if x != y {
			moved++
		}
	}
	return Fits(s, e) && moved <= MaxSpecial
}

// Fits reports whether Count takes e: no transposition, π one cycle of
// the R stacks, g^R the identity on stack 0, ρ keeping every band, and
// Fill's table key, (R+1)^(C²), within 64 bits.
func Fits(s symmetry.Shape, e symmetry.Element) bool {
	if e.Transpose {
		return false
	}
	stacks := 1
	for t := e.Cols[0] / s.C; t != 0; t = e.Cols[t*s.C] / s.C {
		stacks++
	}
	if stacks != s.R || !perm.IsIdentity(perm.Power(e.Rows, s.R)) {
		return false
	}
	kap := perm.Power(e.Cols, s.R)
	for j := range s.C {
		if kap[j] != j {
			return false
		}
	}
	for r, x := range e.Rows {
		if r/s.R != x/s.R {
			return false
		}
	}
	key := 1.0
	for range s.C * s.C {
		key *= float64(s.R + 1)
	}
	return key < 1<<63
}

// Count returns #{X : X∘g = σ∘X} for g = e of shape s and σ by the column
// sum above; Fits(s, e) must hold. Its cost is C!^(s−1) terms for s
// symbols moved by σ.
func Count(ctx context.Context, sh symmetry.Shape, e symmetry.Element, sigma []int) (*big.Int, error) {
	n, R, C := sh.N(), sh.R, sh.C
	rho := e.Rows
	if !perm.IsIdentity(perm.Power(sigma, R)) {
		return new(big.Int), nil // the cycle cannot close
	}
	var special []int
	for x := range n {
		if sigma[x] != x {
			special = append(special, x)
		}
	}
	s := len(special)
	// inverse powers of σ and ρ
	sigInv := perm.Inverse(sigma)
	rhoInv := perm.Inverse(rho)
	sigNeg := [][]int{perm.Identity(n)}
	rhoNeg := [][]int{perm.Identity(n)}
	for k := 1; k < R; k++ {
		sigNeg = append(sigNeg, perm.Compose(sigInv, sigNeg[k-1]))
		rhoNeg = append(rhoNeg, perm.Compose(rhoInv, rhoNeg[k-1]))
	}
	// rowOK reports the condition on band b for the σ-orbit of y, rows
	// row[x] (absolute rows) of its symbols.
	rowOK := func(b int, y int, row []int) bool {
		for r := b * R; r < b*R+R; r++ {
			hits := 0
			for k := range R {
				if row[sigNeg[k][y]] == rhoNeg[k][r] {
					hits++
				}
			}
			if hits != 1 {
				return false
			}
		}
		return true
	}
	// allowed[r]: a fixed symbol may lie in row r (whichever: its orbit
	// is itself).
	allowed := make([]bool, n)
	for z := range n {
		if sigma[z] == z {
			at := make([]int, n)
			for r := range n {
				at[z] = r
				allowed[r] = rowOK(r/R, z, at)
			}
			break
		}
	}
	fact := make([]uint64, R+1)
	fact[0] = 1
	for i := 1; i <= R; i++ {
		fact[i] = fact[i-1] * uint64(i)
	}
	// W[b][code]: code = Σ_i c_b(special[i])·C^i.
	codes := 1
	for range s {
		codes *= C
	}
	W := make([][]*big.Int, C)
	cols := make([]int, s)
	rows := make([]int, n)
	for b := range C {
		W[b] = make([]*big.Int, codes)
		for code := range codes {
			for i, c := 0, code; i < s; i, c = i+1, c/C {
				cols[i] = c % C
			}
			w := new(big.Int)
			var used [16]uint16 // per column, rows of the band taken
			var place func(i int)
			place = func(i int) {
				if i == s {
					for _, y := range special {
						if !rowOK(b, y, rows) {
							return
						}
					}
					term := uint64(1)
					for j := range C {
						free := (1<<R - 1) &^ used[j]
						for r := range R {
							if free>>r&1 != 0 && !allowed[b*R+r] {
								return
							}
						}
						term *= fact[bits.OnesCount16(free)]
					}
					w.Add(w, new(big.Int).SetUint64(term))
					return
				}
				j := cols[i]
				for r := range R {
					if used[j]>>r&1 != 0 {
						continue
					}
					used[j] |= 1 << r
					rows[special[i]] = b*R + r
					place(i + 1)
					used[j] &^= 1 << r
				}
			}
			place(0)
			W[b][code] = w
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	fill := newFillTable(R, C, n-s)
	perms := perm.All(C)
	total := new(big.Int)
	term := new(big.Int)
	var T [16][16]int
	code := make([]int, C)
	pw := make([]int, s+1) // C^i
	pw[0] = 1
	for i := range s {
		pw[i+1] = pw[i] * C
	}
	leaves := 0
	var err error
	var walk func(i int)
	walk = func(i int) {
		if err != nil {
			return
		}
		if i == s {
			if leaves++; leaves%4096 == 0 {
				if err = ctx.Err(); err != nil {
					return
				}
			}
			term.SetInt64(1)
			for b := range C {
				w := W[b][code[b]]
				if w.Sign() == 0 {
					return
				}
				term.Mul(term, w)
			}
			for b := range C {
				for j := range C {
					T[b][j] = R
				}
			}
			for b := range C {
				for k := range s {
					T[b][code[b]/pw[k]%C]--
				}
			}
			var f uint64
			if f, err = fill.count(&T); err != nil || f == 0 {
				return
			}
			total.Add(total, term.Mul(term, new(big.Int).SetUint64(f)))
			return
		}
		choices := perms
		if i == 0 {
			// one permutation, any (the first listed): a relabelling of
			// the columns carries its terms onto any other's
			choices = perms[:1]
		}
		for _, q := range choices {
			for b := range C {
				code[b] += q[b] * pw[i]
			}
			walk(i + 1)
			for b := range C {
				code[b] -= q[b] * pw[i]
			}
		}
	}
	walk(0)
	if err != nil {
		return nil, err
	}
	if s > 0 {
		total.Mul(total, perm.Factorial(C))
	}
	return total, nil
}

// fillTable counts the ways to give each of m distinguishable symbols a
// permutation of the C columns over the C bands (a bijection b ↦ column)
// with exactly T[b][j] of them in column j of band b, memoised by T.
type fillTable struct {
	r, c, m int
	perms   [][]int
	memo    map[uint64]uint64
}

func newFillTable(r, c, m int) *fillTable {
	return &fillTable{r: r, c: c, m: m, perms: perm.All(c), memo: map[uint64]uint64{}}
}

// count returns the number of ways for T, whose rows each sum to the same
// number k ≤ m of symbols left; an error when it passes 64 bits.
func (f *fillTable) count(T *[16][16]int) (uint64, error) {
	key := uint64(0)
	left := 0
	for b := range f.c {
		for j := range f.c {
			if T[b][j] < 0 {
				return 0, nil
			}
			key = key*uint64(f.r+1) + uint64(T[b][j])
			if b == 0 {
				left += T[b][j]
			}
		}
	}
	if left == 0 {
		return 1, nil
	}
	if v, ok := f.memo[key]; ok {
		return v, nil
	}
	// The next symbol takes some permutation q.
	sum := uint64(0)
	for _, q := range f.perms {
		ok := true
		for b := range f.c {
			if T[b][q[b]] == 0 {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		for b := range f.c {
			T[b][q[b]]--
		}
		v, err := f.count(T)
		for b := range f.c {
			T[b][q[b]]++
		}
		if err != nil {
			return 0, err
		}
		var carry uint64
		sum, carry = bits.Add64(sum, v, 0)
		if carry != 0 {
			return 0, fmt.Errorf("cyclic: column fillings past 64 bits")
		}
	}
	f.memo[key] = sum
	return sum, nil
}
