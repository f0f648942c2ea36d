package walkbands

import (
	"fmt"
	"math/big"
	"math/bits"
	"math/rand/v2"

	"github.com/sudoku-census/sudoku-census/stages/maths/montecarlo"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/perm"
)

// setArrays counts and draws the set arrays of bands whose box height R is
// too large for the closed forms of FirstBand (R = 4; boxSets takes R = 5). With box 0 holding
// the type-t symbols tC…tC+C−1 in row t, a set array gives every symbol s a
// bijection π_s from the boxes to the rows with π_s(0) = type(s) (row
// π_s(j) of box j holds s: each box and each row holds s once), such that
// every row of every box holds C symbols. Their number is M(R,C), and
//
//	g(s, cap) = Σ_{π allowed for s, cap(j, π(j)) > 0 for j ≥ 1} g(s+1, cap − π)
//
// counts the ways to finish from symbol s with cap(j, i) symbols still to
// place in row i of box j ≥ 1 (g(N, 0) = 1; s follows from Σ cap, which is
// (R−1)(N−s)). The symbols are labelled, so M = g(0, C…C), and a uniform
// rank in [0, M) unranked symbol by symbol through g is a uniform set array.
// The count is an independent computation of package heuristic's
// BandCompletions (a programme over boxes, not symbols), which the tests
// compare.
type setArrays struct {
	r, c, n int
	width   uint // bits per capacity in a packed state
	// perms[t] are the bijections allowed for a symbol of type t, each as
	// the rows of boxes 1…R−1.
	perms [][][]int
	memo  map[uint64]*big.Int
	full  uint64
	total *big.Int
	x     big.Int // draw's scratch
}

// newSetArrays returns the counter of the set arrays of R×C bands, R ≥ 2,
// or an error when a state does not fit 64 bits.
func newSetArrays(r, c int) (*setArrays, error) {
	a := &setArrays{r: r, c: c, n: r * c, width: uint(bits.Len(uint(c))), memo: map[uint64]*big.Int{}}
	if uint(r*(r-1))*a.width > 64 {
		return nil, fmt.Errorf("walks: the set arrays of %d×%d bands need states wider than 64 bits", r, c)
	}
	a.perms = make([][][]int, r)
	for _, p := range perm.All(r) {
		a.perms[p[0]] = append(a.perms[p[0]], p[1:])
	}
	for j := 1; j < r; j++ {
		for i := range r {
			a.full |= uint64(c) << a.shift(j, i)
		}
	}
	a.total = a.count(a.full)
	return a, nil
}

// shift is the position of cap(j, i) in a packed state.
func (a *setArrays) shift(j, i int) uint { return uint((j-1)*a.r+i) * a.width }

// next returns the state after giving the next symbol rows p (of boxes
// 1…R−1), and false when a row of a box is already full.
func (a *setArrays) next(state uint64, p []int) (uint64, bool) {
	mask := uint64(1)<<a.width - 1
	for k, i := range p {
		sh := a.shift(k+1, i)
		if state>>sh&mask == 0 {
			return 0, false
		}
		state -= 1 << sh
	}
	return state, true
}

// symbol returns the index of the next symbol to place in state.
func (a *setArrays) symbol(state uint64) int {
	left, mask := 0, uint64(1)<<a.width-1
	for ; state != 0; state >>= a.width {
		left += int(state & mask)
	}
	return a.n - left/(a.r-1)
}

// count returns g(s, state), memoised.
func (a *setArrays) count(state uint64) *big.Int {
	if state == 0 {
		return big.NewInt(1)
	}
	if v, ok := a.memo[state]; ok {
		return v
	}
	sum := new(big.Int)
	for _, p := range a.perms[a.symbol(state)/a.c] {
		if nx, ok := a.next(state, p); ok {
			sum.Add(sum, a.count(nx))
		}
	}
	a.memo[state] = sum
	return sum
}

// draw writes a uniformly random set array into row (row[j][s] = π_s(j)).
func (a *setArrays) draw(src *rand.ChaCha8, row [][]int) {
	uniformBig(src, a.total, &a.x)
	state := a.full
	for s := range a.n {
		t := s / a.c
		row[0][s] = t
		for _, p := range a.perms[t] {
			nx, ok := a.next(state, p)
			if !ok {
				continue
			}
			if g := a.count(nx); a.x.Cmp(g) >= 0 {
				a.x.Sub(&a.x, g)
				continue
			}
			for k, i := range p {
				row[k+1][s] = i
			}
			state = nx
			break
		}
	}
}

// uniformBig sets x to a uniform integer in [0, m), m > 0, by rejection on
// bit strings of m's length (fewer than two tries on average).
func uniformBig(src *rand.ChaCha8, m *big.Int, x *big.Int) {
	if m.IsUint64() {
		x.SetUint64(montecarlo.Uniform(src, m.Uint64()))
		return
	}
	n := m.BitLen()
	words := make([]big.Word, (n+bits.UintSize-1)/bits.UintSize)
	for {
		for i := range words {
			words[i] = big.Word(src.Uint64())
		}
		if r := n % bits.UintSize; r != 0 {
			words[len(words)-1] &= 1<<r - 1
		}
		x.SetBits(words)
		if x.Cmp(m) < 0 {
			return
		}
		words = make([]big.Word, len(words)) // x took the last slice
	}
}
