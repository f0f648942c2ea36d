package walkbands

import (
	"context"
	"fmt"
	"math/big"
	"math/rand/v2"

	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
	"github.com/sudoku-census/sudoku-census/stages/maths/montecarlo"
)

// FirstBand draws the first band of a grid (rows 0…R−1 of boxes of R rows
// and C columns, N = RC) uniformly at random among all b(R,C) valid bands,
// for box heights R ≤ MaxFirstBandHeight.
//
// The band variants start every walk from such a band: the sample is
// b(R,C) times the walk's (or stochastic enumeration's) estimate of the
// completions of the band. With the band uniform and the inner estimate
// unbiased given the band,
//
//	E[b·Ŵ] = Σ_bands (1/b)·b·completions(band) = number of grids,
//
// so the estimator is unbiased. b is the exact number of bands, from the
// closed form below (combinatorics, not the answer). What it buys: the
// walk's own way of filling the first band weighs each band by the inverse
// of its probability, a product of branching factors that varies from band
// to band; here that factor is the constant b, and only the spread of the
// bands' completions remains (on 9×9 the relative variance per walk falls
// from about 4.7 to 3.2).
//
// A uniform band is a uniform relabelling σ (N! ways) of a band whose first
// box holds, in row i, the symbols iC+1…iC+C (type i), with a uniform
// choice of which row of every other box each symbol goes to (the set
// array, M(R,C) ways; see package heuristic), and uniform orders of the C
// symbols in each row of each other box ((C!)^(R(R−1)) ways): every band
// arises from exactly one such triple, so uniform parts give a uniform
// band. The set arrays are simple for R ≤ 3. R = 1: none (the band is a
// row). R = 2: box 2's row 0 holds the type-1 symbols and row 1 the type-0
// ones. R = 3: with a of the type-0 symbols in row 1 of box 2 (and C − a in
// row 2), row 1 can take only C − a type-2 symbols (the other a go to row
// 0), so row 0 takes C − a type-1 symbols (a to row 2); box 3 is then
// forced. Each a has C(C,a)³ set arrays (which symbols of each type move),
// and M(3,C) = Σₐ C(C,a)³, the Franel number. For R = 4 the set array is
// unranked from a uniform rank through the symbol-by-symbol count of
// setArrays, for R = 5 drawn box by box through the counts of boxSets.
type FirstBand struct {
	shape   grid.Shape
	n, r, c int
	count   montecarlo.Value // b(R,C)
	// franel[a] = Σ_{a' ≤ a} C(C,a')³ for R = 3, the cumulative weights.
	franel []uint64
	// arrays draws the set arrays for R = 4, boxes (with boxDraw's
	// scratch) for R = 5.
	arrays  *setArrays
	boxes   *boxSets
	boxDraw boxDraw
	// row[j][s] is the row of box j that symbol s (0-based, before
	// relabelling) goes to; sigma the relabelling.
	row   [][]int
	sigma []uint8
	types [][]uint8 // symbols of each type, shuffled to choose subsets
	seg   []uint8   // one row segment being ordered
	cells []uint8   // the band drawn
}

// MaxFirstBandHeight is the largest box height R FirstBand draws for: for
// R = 4 the set arrays are counted symbol by symbol (12 ms on 4×4, 26 ms on
// 4×5; 6 minutes on 5×4), for R = 5 box by box (boxSets: 33 s on 5×5, once
// per process).
const MaxFirstBandHeight = 5

// NewFirstBand returns a drawer of first bands of shape s (R ≤
// MaxFirstBandHeight); ctx stops the count of R = 5 set arrays it may
// build.
func NewFirstBand(ctx context.Context, s grid.Shape) (*FirstBand, error) {
	if s.R < 1 || s.R > MaxFirstBandHeight || s.C < 1 || s.N() > grid.MaxN {
		return nil, fmt.Errorf("walks: uniform first bands need box height 1 ≤ R ≤ %d, not %s (count the transposed shape C×R: same number of grids)", MaxFirstBandHeight, s)
	}
	f := &FirstBand{shape: s, n: s.N(), r: s.R, c: s.C,
		row: make([][]int, s.R), sigma: make([]uint8, s.N()), types: make([][]uint8, s.R), seg: make([]uint8, s.C), cells: make([]uint8, s.R*s.N())}
	for j := range f.row {
		f.row[j] = make([]int, f.n)
	}
	for t := range f.types {
		f.types[t] = make([]uint8, s.C)
	}
	// b = N!·(C!)^(R(R−1))·M with M = 1 for R ≤ 2, the Franel number
	// Σₐ C(C,a)³ for R = 3 and setArrays' count beyond (the test checks it
	// against package heuristic's general count).
	m := big.NewInt(1)
	switch {
	case s.R == 4:
		a, err := newSetArrays(s.R, s.C)
		if err != nil {
			return nil, err
		}
		f.arrays = a
		m.Set(a.total)
	case s.R >= 5:
		b, err := sharedBoxSets(ctx, s.R, s.C)
		if err != nil {
			return nil, err
		}
		f.boxes = b
		m.Set(b.total)
	case s.R == 3:
		var sum uint64
		for a := 0; a <= s.C; a++ {
			k := new(big.Int).Binomial(int64(s.C), int64(a)).Uint64()
			sum += k * k * k
			f.franel = append(f.franel, sum)
		}
		m.SetUint64(sum)
	}
	cFact := new(big.Int).MulRange(1, int64(s.C))
	b := new(big.Int).MulRange(1, int64(s.N()))
	b.Mul(b, new(big.Int).Exp(cFact, big.NewInt(int64(s.R*(s.R-1))), nil))
	b.Mul(b, m)
	f.count = montecarlo.ValueOfInt(b)
	return f, nil
}

// Count is b(R,C), the number of bands, as a Value.
func (f *FirstBand) Count() montecarlo.Value { return f.count }

// Cells is the number of cells of the band, R·N.
func (f *FirstBand) Cells() int { return f.r * f.n }

// Draw returns a uniformly random band, its R·N cells row by row; the
// slice is the drawer's own, overwritten by the next Draw.
func (f *FirstBand) Draw(src *rand.ChaCha8) []uint8 {
	n, r, c := f.n, f.r, f.c
	cells := f.cells
	// Which row of each box every symbol takes: box 0 by type.
	for s := range n {
		f.row[0][s] = s / c
	}
	if r <= 3 {
		for t := range r {
			for i := range c {
				f.types[t][i] = uint8(t*c + i)
			}
			shuffle(src, f.types[t])
		}
	}
	switch {
	case r == 4:
		f.arrays.draw(src, f.row)
	case r >= 5:
		f.boxes.draw(src, &f.boxDraw, f.row)
	case r == 2:
		for s := range n {
			f.row[1][s] = 1 - s/c
		}
	case r == 3:
		x := montecarlo.Uniform(src, f.franel[c])
		a := 0
		for f.franel[a] <= x {
			a++
		}
		// The first a of each shuffled type move as the doc comment says.
		moved := [3]struct{ first, rest int }{{1, 2}, {2, 0}, {0, 1}}
		for t := range 3 {
			for i, s := range f.types[t] {
				if i < a {
					f.row[1][s] = moved[t].first
				} else {
					f.row[1][s] = moved[t].rest
				}
				f.row[2][s] = 3 - t - f.row[1][s] // the row left
			}
		}
	}
	// Relabel uniformly, then write each row segment in a uniform order.
	for i := range f.sigma {
		f.sigma[i] = uint8(i + 1)
	}
	shuffle(src, f.sigma)
	for j := range r {
		for i := range r {
			seg := f.seg[:0]
			for s := range n {
				if f.row[j][s] == i {
					seg = append(seg, f.sigma[s])
				}
			}
			if j > 0 {
				shuffle(src, seg)
			}
			copy(cells[i*n+j*c:i*n+j*c+c], seg)
		}
	}
	return cells
}

// shuffle puts xs in a uniformly random order (Fisher–Yates).
func shuffle(src *rand.ChaCha8, xs []uint8) {
	for i := len(xs) - 1; i > 0; i-- {
		j := montecarlo.Uniform(src, uint64(i+1))
		xs[i], xs[j] = xs[j], xs[i]
	}
}
