package bandjoin

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"math/bits"
	"slices"
	"strconv"

	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/perm"
)

// ErrBudget is returned when a count passes its node budget.
var ErrBudget = errors.New("bandjoin: work budget exceeded")

// errOverflow is returned when a per-type count passes 64 bits.
var errOverflow = errors.New("bandjoin: a count passes 64 bits")

const empty = -1

// problem is one element g and one relabelling σ: the grid state and the
// band orbits to fill.
type problem struct {
	n, r, c int
	order   int      // order of g
	gPow    [][]int  // gPow[k][cell] = g^k(cell), k < order
	sPow    [][]int  // sPow[k][x] = σ^k(x), k < order
	orbits  [][]int  // per band orbit, the cells of its representative band, row-major
	cycles  [][]int  // the cycles of σ, each from its least symbol
	cycleOf []int    // σ-cycle index of each symbol
	grid    []int    // symbol per cell or empty
	rowM    []uint32 // symbols used per row
	colM    []uint32 // per column
	boxM    []uint32 // per box
	trail   []int    // cells placed, for undo
	memo    []map[string]uint64
	keyBuf  []byte
	nodes   uint64
	budget  uint64 // 0: none
	ctx     context.Context
	err     error
	opened  []bool // σ-cycles met in the first row
}

func (p *problem) box(cell int) int {
	row, col := cell/p.n, cell%p.n
	return (row/p.r)*p.r + col/p.c
}

// place puts x in cell and σ^k(x) in g^k(cell) for every k, checking that the
// cells it meets again agree and that rows, columns and boxes stay proper.
// It returns false (with the trail holding what to undo) on a conflict.
func (p *problem) place(cell, x int) bool {
	for k := 0; k < p.order; k++ {
		c, y := p.gPow[k][cell], p.sPow[k][x]
		if v := p.grid[c]; v != empty {
			if v != y {
				return false
			}
			continue
		}
		bit := uint32(1) << y
		row, col, b := c/p.n, c%p.n, p.box(c)
		if (p.rowM[row]|p.colM[col]|p.boxM[b])&bit != 0 {
			return false
		}
		p.grid[c] = y
		p.rowM[row] |= bit
		p.colM[col] |= bit
		p.boxM[b] |= bit
		p.trail = append(p.trail, c)
	}
	return true
}

func (p *problem) undo(to int) {
	for len(p.trail) > to {
		c := p.trail[len(p.trail)-1]
		p.trail = p.trail[:len(p.trail)-1]
		y := p.grid[c]
		bit := ^(uint32(1) << y)
		p.rowM[c/p.n] &= bit
		p.colM[c%p.n] &= bit
		p.boxM[p.box(c)] &= bit
		p.grid[c] = empty
	}
}

// tick counts a node and reports whether to stop (budget or cancellation).
func (p *problem) tick() bool {
	p.nodes++
	if p.budget != 0 && p.nodes > p.budget {
		p.err = ErrBudget
		return true
	}
	if p.nodes&0xfffff == 0 {
		if err := p.ctx.Err(); err != nil {
			p.err = err
			return true
		}
	}
	return false
}

// firstRowChoices returns the symbols the first row may take at a cell:
// those of σ-cycles already met, and the start of the first cycle not yet
// met of each length, so that every orbit of first rows under the
// centraliser Z(σ) is taken exactly once (see the package doc).
func (p *problem) firstRowChoices(used uint32) []int {
	var out []int
	seenLen := map[int]bool{}
	for i, cyc := range p.cycles {
		if p.opened[i] {
			for _, x := range cyc {
				if used&(1<<x) == 0 {
					out = append(out, x)
				}
			}
			continue
		}
		if !seenLen[len(cyc)] {
			seenLen[len(cyc)] = true
			out = append(out, cyc[0])
		}
	}
	return out
}

// count returns the number of fixed grids that complete the state, filling
// band orbit o from position pos of its representative band's cells.
func (p *problem) count(o, pos int) uint64 {
	if p.err != nil || p.tick() {
		return 0
	}
	cells := p.orbits[o]
	for pos < len(cells) && p.grid[cells[pos]] != empty {
		pos++
	}
	if pos == len(cells) {
		return p.next(o + 1)
	}
	cell := cells[pos]
	var total uint64
	try := func(x int) {
		mark := len(p.trail)
		if p.place(cell, x) {
			v := p.count(o, pos+1)
			var carry uint64
			total, carry = bits.Add64(total, v, 0)
			if carry != 0 && p.err == nil {
				p.err = errOverflow
			}
		}
		p.undo(mark)
	}
	if o == 0 && cell < p.n { // the first row: one per Z(σ)-orbit
		for _, x := range p.firstRowChoices(p.rowM[0]) {
			cyc := p.cycleOf[x]
			was := p.opened[cyc]
			p.opened[cyc] = true
			try(x)
			p.opened[cyc] = was
		}
		return total
	}
	row, col := cell/p.n, cell%p.n
	free := ^(p.rowM[row] | p.colM[col] | p.boxM[p.box(cell)]) & (1<<p.n - 1)
	for free != 0 {
		x := bits.TrailingZeros32(free)
		free &= free - 1
		try(x)
	}
	return total
}

// next counts the completions once band orbits before o are full: they
// depend only on the symbols each column holds, so they are memoised by them.
func (p *problem) next(o int) uint64 {
	if o == len(p.orbits) {
		return 1
	}
	p.keyBuf = p.keyBuf[:0]
	for _, m := range p.colM {
		p.keyBuf = append(p.keyBuf, byte(m), byte(m>>8))
	}
	if v, ok := p.memo[o][string(p.keyBuf)]; ok {
		return v
	}
	key := string(p.keyBuf)
	v := p.count(o, 0)
	if p.err == nil {
		p.memo[o][key] = v
	}
	return v
}

// SigmaTypes returns the cycle types λ of the relabelling σ that a grid X
// with X∘e = σ∘X can have: if a row, column or box U returns to itself
// first after ℓ steps of e, X carries e^ℓ on U's cells to σ^ℓ, so σ^ℓ has
// the cycle type of e^ℓ there. Written here, apart from package search's
// filter of the same statement, so that the two counts share only the
// group code.
func SigmaTypes(s symmetry.Shape, e symmetry.Element) [][]int {
	n := s.N()
	var units [][]int // cells of every row, column and box
	for i := range n {
		row, col, b := make([]int, 0, n), make([]int, 0, n), make([]int, 0, n)
		for j := range n {
			row = append(row, i*n+j)
			col = append(col, j*n+i)
			br, bc := (i/s.R)*s.R+j/s.C, (i%s.R)*s.C+j%s.C
			b = append(b, br*n+bc)
		}
		units = append(units, row, col, b)
	}
	order := e.Order()
	var need [][2][]int // (power ℓ, cycle type of e^ℓ on the unit)
	for _, u := range units {
		set := map[int]bool{}
		for _, c := range u {
			set[c] = true
		}
		for l := 1; l <= order; l++ {
			pl := e.Power(l).CellPerm(n)
			if !set[pl[u[0]]] {
				continue
			}
			local := make([]int, len(u))
			idx := map[int]int{}
			for i, c := range u {
				idx[c] = i
			}
			for i, c := range u {
				local[i] = idx[pl[c]]
			}
			need = append(need, [2][]int{{l}, perm.CycleType(local)})
			break
		}
	}
	var out [][]int
	for _, lam := range perm.Partitions(n) {
		ok := true
		for _, c := range need {
			if !slices.Equal(perm.PowerType(lam, c[0][0]), c[1]) {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, slices.Clone(lam))
		}
	}
	return out
}

// newProblem builds the problem of e and σ of type lam on shape s.
func newProblem(ctx context.Context, s symmetry.Shape, e symmetry.Element, lam []int, budget uint64) (*problem, error) {
	n := s.N()
	if e.Transpose {
		return nil, fmt.Errorf("bandjoin: %s: transposition is not handled", e.Describe(s))
	}
	if err := e.Check(s); err != nil {
		return nil, err
	}
	p := &problem{n: n, r: s.R, c: s.C, order: e.Order(), budget: budget, ctx: ctx}
	sigma := perm.WithCycleType(lam)
	for k := 0; k < p.order; k++ {
		p.gPow = append(p.gPow, e.Power(k).CellPerm(n))
		p.sPow = append(p.sPow, perm.Power(sigma, k))
	}
	p.cycleOf = make([]int, n)
	p.cycles = perm.Cycles(sigma)
	for i, cyc := range p.cycles {
		for _, x := range cyc {
			p.cycleOf[x] = i
		}
	}
	p.opened = make([]bool, len(p.cycles))
	// Band orbits under the band permutation of e, the one of band 0 first.
	bands := s.C
	seen := make([]bool, bands)
	for b := range bands {
		if seen[b] {
			continue
		}
		for x := b; !seen[x]; x = e.Rows[x*s.R] / s.R {
			seen[x] = true
		}
		var cells []int
		for r := b * s.R; r < (b+1)*s.R; r++ {
			for c := range n {
				cells = append(cells, r*n+c)
			}
		}
		p.orbits = append(p.orbits, cells)
	}
	p.grid = make([]int, n*n)
	for i := range p.grid {
		p.grid[i] = empty
	}
	p.rowM, p.colM, p.boxM = make([]uint32, n), make([]uint32, n), make([]uint32, n)
	p.memo = make([]map[string]uint64, len(p.orbits))
	for i := range p.memo {
		p.memo[i] = map[string]uint64{}
	}
	return p, nil
}

// FixedType returns #{X : X∘e = σ_λ∘X}/|Z(σ_λ)| for the cycle type lam, the
// number of those grids whose first row is the canonical one of its
// Z(σ_λ)-orbit, and the search nodes it took.
func FixedType(ctx context.Context, s symmetry.Shape, e symmetry.Element, lam []int, budget uint64) (uint64, uint64, error) {
	p, err := newProblem(ctx, s, e, lam, budget)
	if err != nil {
		return 0, 0, err
	}
	v := p.count(0, 0)
	return v, p.nodes, p.err
}

// Fixed returns F(e) = Σ_λ #{X : X∘e = σ_λ∘X}/|Z(σ_λ)| over SigmaTypes(s,
// e), for an element without transposition, or ErrBudget when a type takes
// more than budget nodes (0: no budget).
func Fixed(ctx context.Context, s symmetry.Shape, e symmetry.Element, budget uint64) (*big.Int, error) {
	if err := s.Check(); err != nil {
		return nil, err
	}
	total := new(big.Int)
	for _, lam := range SigmaTypes(s, e) {
		v, _, err := FixedType(ctx, s, e, lam, budget)
		if err != nil {
			return nil, fmt.Errorf("%s, σ of type %v: %w", s, lam, err)
		}
		total.Add(total, new(big.Int).SetUint64(v))
	}
	return total, nil
}

// typeString writes a cycle type as 2^6 or 3·2·1^7.
func typeString(lam []int) string {
	out := ""
	for i := 0; i < len(lam); {
		j := i
		for j < len(lam) && lam[j] == lam[i] {
			j++
		}
		if out != "" {
			out += "·"
		}
		out += strconv.Itoa(lam[i])
		if j-i > 1 {
			out += "^" + strconv.Itoa(j-i)
		}
		i = j
	}
	return out
}
