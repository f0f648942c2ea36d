package heuristic

import (
	"fmt"
	"math/big"
	"math/bits"
	"math/rand/v2"

	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
	"github.com/sudoku-census/sudoku-census/stages/maths/montecarlo"
)

// CompletionsSampler estimates M(R,C) without bias where the dynamic
// programme of BandCompletions is out of reach (six rows and four or more
// columns).
//
// Each of the N symbols of a band takes a permutation σ of the R rows:
// σ(j) is its row in box j. A band's set array is a sequence σ₁, …, σ_N of
// such permutations whose matrices sum to C·J (every row of every box gets
// C symbols); call their number L(R,C). The first box's sets fix each
// σ_x(1) up to the N!/(C!)^R ways to deal them out, all with the same
// number of completions, so
//
//	M(R,C) = L(R,C) · (C!)^R / N!.
//
// A sample deals the symbols one at a time (Knuth's estimator of the leaves
// of the tree of partial sequences). With k symbols left and A the R×R
// matrix of free places (row and column sums k; A = C·J at the start), σ
// is drawn with probability ∏ w(σ(j), j) / per_w(A), per_w the permanent of
// the weights
//
//	w(i,j) = A(i,j)·(k − A(i,j)),  or A(i,j) where A(i,j) = k (a forced place),
//
// and A loses σ's matrix; the sample is the product of the probabilities'
// inverses times (C!)^R/N!. Any weights positive exactly on the free places
// keep it unbiased; these make the draw nearly proportional to the
// completions left. Counting the completions of A as if rows, columns and
// places were independent (Kilfoil's reasoning one level down) gives
// L(A) ≈ (k!)^(2R−R²) ∏ (k − A(i,j))!/A(i,j)!, and removing σ multiplies
// it by about ∏ A(i,j)(k − A(i,j)) over σ's places. The weight A alone (a
// uniform perfect matching of the multigraph of free places, as in the
// stack estimator of package walks) gives relvar 10 on 6×6; these give
// 0.33 (BenchmarkCompletionsRelvarSeconds). The permanents and the draw
// come from one table over column subsets, f(S) = per_w of the last |S|
// rows in the columns S, 2^R entries, so a sample costs about N·R·2^R
// multiplications.
//
// Not safe for concurrent use.
type CompletionsSampler struct {
	r, c, n int
	scale   montecarlo.Value // (C!)^R / N!
	free    [MaxSide][MaxSide]uint64
	weight  [MaxSide][MaxSide]uint64
	perm    [1 << MaxSide]uint64
	boxes   []uint8 // Sample's array, N·R
}

// NewCompletionsSampler returns the sampler of M(R,C) for shape s, with
// sides 1…MaxSide and N ≤ MaxN, like BandCompletions.
func NewCompletionsSampler(s grid.Shape) (*CompletionsSampler, error) {
	if s.R < 1 || s.C < 1 || s.R > MaxSide || s.C > MaxSide || s.N() > MaxN {
		return nil, fmt.Errorf("band completions of %v: box sides must be between 1 and %d, with R·C at most %d", s, MaxSide, MaxN)
	}
	cFact := new(big.Int).MulRange(1, int64(s.C))
	num := new(big.Int).Exp(cFact, big.NewInt(int64(s.R)), nil)
	den := new(big.Int).MulRange(1, int64(s.N()))
	return &CompletionsSampler{r: s.R, c: s.C, n: s.N(),
		scale: montecarlo.ValueOfInt(num).Div(montecarlo.ValueOfInt(den))}, nil
}

// Sample returns one estimate of M(R,C): Draw's 1/P times (C!)^R/N!; its
// work is the permanent table's multiplications. It never fails.
func (e *CompletionsSampler) Sample(src *rand.ChaCha8) (montecarlo.Value, int64, error) {
	if e.boxes == nil {
		e.boxes = make([]uint8, e.n*e.r)
	}
	inv, work := e.Draw(src, e.boxes)
	return inv.Mul(e.scale), work, nil
}

// Draw draws a labelled set array σ₁, …, σ_N (see CompletionsSampler)
// into boxes, boxes[x·R + i] = σ_x(i) for symbol x (in the order dealt)
// and row i, and returns 1/P, P the probability of the array drawn (an
// unbiased estimate of L(R,C): its mean is Σ P·(1/P) over the arrays), and
// the permanent table's multiplications. Every array has P > 0, so a sum
// over arrays of P·(1/P)·f is the sum of f: a caller may weigh any
// function of the array by 1/P. boxes needs N·R entries.
func (e *CompletionsSampler) Draw(src *rand.ChaCha8, boxes []uint8) (montecarlo.Value, int64) {
	r := e.r
	boxes = boxes[:e.n*r]
	for i := range r {
		for j := range r {
			e.free[i][j] = uint64(e.c)
		}
	}
	full := 1<<r - 1
	x, taken := montecarlo.One, montecarlo.One
	var work int64
	for left := e.n; left > 0; left-- {
		work += e.permanents(uint64(left))
		x = x.MulInt(e.perm[full])
		// Row i (i = 0…R−1) takes column j with probability
		// w(i,j)·f(S∖j)/f(S), S the columns rows i… still need.
		sigma := boxes[(e.n-left)*r:]
		cols := full
		for i := range r {
			u := montecarlo.Uniform(src, e.perm[cols])
			for rest := cols; ; rest &= rest - 1 {
				j := bits.TrailingZeros(uint(rest))
				w := e.weight[i][j] * e.perm[cols&^(1<<j)]
				if u < w {
					taken = taken.MulInt(e.weight[i][j])
					e.free[i][j]--
					cols &^= 1 << j
					sigma[i] = uint8(j)
					break
				}
				u -= w
			}
		}
	}
	return x.Div(taken), work
}

// permanents sets the weights of the free places for k symbols left, fills
// perm[S] with the permanent of the weights of the last |S| rows in the
// columns S, and returns the multiplications made. A place holds at most C
// and k ≤ N, so a weight is at most C·(N − C) ≤ 180 (6×6) and a permanent
// at most 6!·180^6 < 2^55: uint64 is exact;
// perm[S] > 0 for the full S, since the free places always form a
// k-regular bipartite multigraph, which has a perfect matching (König).
func (e *CompletionsSampler) permanents(k uint64) int64 {
	r := e.r
	for i := range r {
		for j := range r {
			a := e.free[i][j]
			if a == k {
				e.weight[i][j] = a
			} else {
				e.weight[i][j] = a * (k - a)
			}
		}
	}
	e.perm[0] = 1
	var work int64
	for s := 1; s < 1<<r; s++ {
		i := r - bits.OnesCount(uint(s))
		var p uint64
		for rest := s; rest != 0; rest &= rest - 1 {
			j := bits.TrailingZeros(uint(rest))
			p += e.weight[i][j] * e.perm[s&^(1<<j)]
		}
		e.perm[s] = p
		work += int64(bits.OnesCount(uint(s)))
	}
	return work
}
