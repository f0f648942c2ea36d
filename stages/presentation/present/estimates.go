package present

import (
	"math/big"

	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
	"github.com/sudoku-census/sudoku-census/stages/shared/literature"
)

// NoSuccess reports whether none of e's samples found a grid: its
// estimate is 0 and its normal interval [0, 0], which says nothing; what
// its samples do say is montecarlo.NoSuccessUpper95(e.Samples), a bound on
// the chance that one sample succeeds.
func (e Estimator) NoSuccess() bool { return e.Samples > 0 && e.Estimate.Sign() == 0 }

// ZeroVariance reports whether every sample of e was the same positive
// number (the 4×4 hybrid, whose walk ends where every partial grid
// completes equally often): its interval has zero width and is no test of
// the estimator.
func (e Estimator) ZeroVariance() bool { return e.Estimate.Sign() > 0 && e.StdError.Sign() == 0 }

// Z returns e's z-score against the count n, (estimate − n)/standard
// error, and false when it has none (no success, or zero variance).
func (e Estimator) Z(n *big.Int) (float64, bool) {
	if e.Estimate.Sign() <= 0 || e.StdError.Sign() <= 0 {
		return 0, false
	}
	d := new(big.Float).Sub(e.Estimate, new(big.Float).SetInt(n))
	return Float64(d.Quo(d, e.StdError)), true
}

// PublishedCite returns the BibTeX key of the published count of shape s
// (for the counts this pipeline makes too, the one it agrees with), or "".
func PublishedCite(s grid.Shape) string {
	if p, ok := literature.Grids(s); ok {
		return p.Cite
	}
	return ""
}
