package montecarlo

import (
	"math/bits"
	"math/rand/v2"

	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
)

// Choose fills the empty cell of c with a symbol drawn uniformly from its
// candidates (the symbols its row, column and box still allow) and returns
// how many candidates there were; at a dead end (none) it returns 0 and
// leaves the cell empty. It draws exactly one Uniform value when there is a
// candidate and none otherwise, so walks that visit the same cells make the
// same choices from the same stream (the knuth–importance identity).
func Choose(c *grid.Counter, src *rand.ChaCha8, cell int) int {
	cand := c.Candidates(cell)
	k := bits.OnesCount64(cand)
	if k == 0 {
		return 0
	}
	c.Place(cell, uint8(NthBit(cand, Uniform(src, uint64(k)))+1))
	return k
}

// ValueOf128 returns the Value nearest to the 128-bit count hi·2^64 + lo.
func ValueOf128(hi, lo uint64) Value {
	return Value{Frac: float64(hi)*0x1p64 + float64(lo)}
}
