package stackjoin

import (
	"fmt"
	"math/bits"
	"slices"
	"sync"

	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/perm"
)

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
	// laterSwaps: the involutions of rowSym that exchange two of ρ's row
	// cycles at most (at most twice its longest cycle's rows moved), each
	// as its exchanged row pairs (a, b), a < b, by increasing a: the
	// generators walker.reduceLaterKey descends by.
	laterSwaps [][][2]uint8
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
	longest := 0
	for _, c := range perm.Cycles(p.rho) {
		longest = max(longest, len(c))
	}
	for _, y := range p.rowSym {
		var pairs [][2]uint8
		for a, b := range y {
			if a < b {
				pairs = append(pairs, [2]uint8{uint8(a), uint8(b)})
			}
		}
		if perm.IsIdentity(perm.Compose(y, y)) && len(pairs) > 0 && len(pairs) <= longest {
			p.laterSwaps = append(p.laterSwaps, pairs)
		}
	}
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
