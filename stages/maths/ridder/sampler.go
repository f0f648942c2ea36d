package ridder

import (
	"math/big"
	"math/rand/v2"

	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
	"github.com/sudoku-census/sudoku-census/stages/maths/montecarlo"
)

// Population returns |Ω| = (n!)^n, the number of n-permutation grids
// (every row a permutation of 1…n) of a shape with n = R·C symbols.
func Population(s grid.Shape) *big.Int {
	n := int64(s.N())
	f := new(big.Int).MulRange(1, n)
	return f.Exp(f, big.NewInt(n), nil)
}

// Sampler draws X from Ridder's change of measure q and returns the
// importance-sampling estimate |Ω|·1{X∈A}·L(X) of the number of grids |A|,
// with L = u/q the likelihood ratio against the uniform measure u on Ω.
//
// Under q the grid is generated row by row, cell by cell; cell (i, j) gets a
// symbol drawn uniformly from R_ij, the symbols not yet used in row i left
// of j, in column j above i, or in its box (the box cells of earlier rows).
// If R_ij is empty (a dead end) the remaining cells are filled as under u:
// the rest of row i with a uniformly random arrangement of the symbols the
// row still lacks, every later row with a uniform random permutation.
//
// Membership. If no R_ij was empty every cell avoided its row, column and
// box predecessors, so X ∈ A. At a dead end (i, j) every symbol is in row i,
// column j or the box before (i, j); the uniform completion gives (i, j) a
// symbol missing from row i, so it repeats one in column j or the box and
// X ∉ A. Hence 1{X∈A} = 1{no dead end}, which is what Sample uses (the
// tests check it against an explicit membership test).
//
// Likelihood ratio. u(X) = 1/|Ω|, and for X ∈ A, q(X) = Π_ij 1/|R_ij|, so
//
//	L(X) = Π_ij |R_ij| / |Ω|   and   |Ω|·1{X∈A}·L(X) = Π_ij |R_ij|.
//
// Relation to Knuth. Knuth's row-major walk visits the same cells in the
// same order and draws from the same candidate sets (montecarlo.Choose);
// with the same random stream both make the same choices up to the first
// dead end, where Knuth's sample is 0 = 1{X∉A}·…, and on a complete walk
// Knuth's sample is Π_ij |R_ij| = |Ω|·L(X). The two estimators agree sample
// by sample; the importance sampler only spends extra draws on the uniform
// completion of dead ends, which changes X but not the estimate.
//
// Work. Sample returns the cells whose R_ij was computed, as Knuth's
// row-major walk does (one per step up to and including the dead end), so
// that the two compare on the same cost. The uniform completion is not part
// of the estimator (its cells never change the estimate); Filled says how
// many cells it filled, and after a dead end at cell d the two add up to
// d+1 + n²−d = n²+1 (WorkWithCompletion).
type Sampler struct {
	board        *grid.Counter
	n            int
	X            []uint8 // the last X, row-major, when FillDeadEnds
	fillDeadEnds bool
	population   montecarlo.Value
	// Trail[i] = |R_ij| of the i-th cell of the last sample in reading
	// order (0 at its dead end); Steps is the number of entries.
	Trail []uint8
	Steps int
	// Filled is the number of cells the uniform completion filled in the
	// last sample (0 without a dead end or without FillDeadEnds).
	Filled int
}

// NewSampler returns a sampler for shape s. With fillDeadEnds false the
// uniform completion after a dead end is skipped: the estimate is the same,
// the work and the random draws are not.
func NewSampler(s grid.Shape, fillDeadEnds bool) (*Sampler, error) {
	b, err := grid.NewCounter(s)
	if err != nil {
		return nil, err
	}
	n := s.N()
	return &Sampler{
		board: b, n: n, X: make([]uint8, n*n), fillDeadEnds: fillDeadEnds,
		population: montecarlo.ValueOfInt(Population(s)), Trail: make([]uint8, n*n),
	}, nil
}

// Sample draws X from q and returns |Ω|·1{X∈A}·L(X) and the work: the
// cells whose R_ij was computed (the uniform completion's cells are in
// Filled).
func (s *Sampler) Sample(src *rand.ChaCha8) (montecarlo.Value, int64, error) {
	b := s.board
	b.Reset()
	s.Steps, s.Filled = 0, 0
	ratio := montecarlo.One // Π |R_ij| so far: q(X)^-1 on the cells drawn from q
	for cell := range s.X {
		k := montecarlo.Choose(b, src, cell) // |R_ij|; the symbol is placed when k > 0
		s.Trail[cell] = uint8(k)
		s.Steps++
		if k == 0 {
			if s.fillDeadEnds {
				s.Filled = s.completeUniformly(src, cell)
			}
			return montecarlo.Value{}, int64(cell + 1), nil // 1{X∈A} = 0
		}
		ratio = ratio.MulInt(uint64(k))
	}
	if s.fillDeadEnds {
		for c := range s.X {
			s.X[c] = b.Value(c)
		}
	}
	likelihood := ratio.Div(s.population) // L(X) = u(X)/q(X) = Π|R_ij| / |Ω|
	return s.population.Mul(likelihood), int64(len(s.X)), nil
}

// completeUniformly fills X from the dead-end cell on as the uniform measure
// would, given the cells before it, and returns the number of cells filled.
func (s *Sampler) completeUniformly(src *rand.ChaCha8, dead int) int {
	n := s.n
	for c := range dead {
		s.X[c] = s.board.Value(c)
	}
	row := dead / n
	var missing [64]uint8
	for r := row; r < n; r++ {
		// The symbols row r lacks, in increasing order, shuffled into its
		// empty cells (Fisher–Yates): a uniform arrangement.
		var used uint64
		first := r * n
		if r == row {
			first = dead
		}
		for c := r * n; c < first; c++ {
			used |= 1 << (s.X[c] - 1)
		}
		m := 0
		for v := 1; v <= n; v++ {
			if used&(1<<(v-1)) == 0 {
				missing[m] = uint8(v)
				m++
			}
		}
		for i := m - 1; i > 0; i-- {
			j := montecarlo.Uniform(src, uint64(i+1))
			missing[i], missing[j] = missing[j], missing[i]
		}
		copy(s.X[first:(r+1)*n], missing[:m])
	}
	return n*n - dead
}

// WorkWithCompletion returns the work of a run of samples on shape s
// counted as Ridder does, the uniform completion of every dead end
// included: the cells decided (work, as Sample returns them) plus the cells
// filled, which is samples·n² plus one per dead end (a dead end at cell d
// decides d+1 cells and fills n²−d; a grid decides n²). Without
// fillDeadEnds it is work.
func WorkWithCompletion(s grid.Shape, samples, nonzero, work int64, fillDeadEnds bool) int64 {
	if !fillDeadEnds {
		return work
	}
	n := int64(s.N())
	return samples*n*n + (samples - nonzero)
}
