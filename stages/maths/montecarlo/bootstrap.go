package montecarlo

import (
	"math"
	"math/rand/v2"
	"slices"
)

// The relative variance of a run has an interval from a bootstrap over its
// blocks: the blocks are drawn with replacement, as many as the run has,
// their moments merged in the order drawn, and the relative variance per
// sample of the merge (Moments.Stats) recorded; after BootstrapResamples
// such draws the 2.5% and 97.5% quantiles of the values recorded are the
// 95% interval (the percentile interval). Blocks of a thousand samples are
// far longer than any dependence between samples (there is none: every
// sample has its own draws), so the blocks are independent and the
// resampling of whole blocks keeps what matters for a heavy tail: a block
// holding one huge sample is drawn or not as a whole.
//
// The draws come from ChaCha8 seeded with
//
//	SHA-256("sudoku-census/montecarlo/bootstrap/v1" ‖ u64(seed) ‖ str(stage) ‖ str(shape) ‖ str(variant) ‖ u64(0))
//
// (the run's Spec, as for the block seeds), so the interval is a pure
// function of the run's blocks and identity: the same bytes on every
// machine.

// BootstrapResamples is the number of bootstrap draws of a run's blocks:
// the 2.5% quantile is then the 25th smallest of 1000 values, which moves
// by about a tenth of the interval's width from one seed to another.
const BootstrapResamples = 1000

// bootstrapDomain separates the bootstrap's stream from the blocks'.
const bootstrapDomain = "sudoku-census/montecarlo/bootstrap/v1"

// RelVarInterval is a 95% bootstrap interval of a run's relative variance
// per sample.
type RelVarInterval struct {
	Low, High float64
}

// MinBootstrapBlocks is the fewest blocks a run needs for a bootstrap
// interval. n blocks give at most C(2n−1, n) distinct resamples (3 for two
// blocks, 126 for five), and the percentile interval of so few blocks is
// far narrower than the relative variance's real uncertainty under a heavy
// tail, so a run of fewer blocks gets no interval (and so no efficiency
// interval and no place in a ranking).
const MinBootstrapBlocks = 10

// BootstrapRelVar returns the 95% bootstrap interval of the relative
// variance per sample of the run spec made of blocks (given in block
// order), from resamples draws (see above). With fewer than
// MinBootstrapBlocks blocks, or resamples < 1, both ends are NaN. A
// draw whose blocks have mean 0 has relative variance +Inf, so an end may
// be +Inf when most blocks found nothing.
func BootstrapRelVar(spec Spec, blocks []Moments, resamples int) RelVarInterval {
	n := len(blocks)
	if n < MinBootstrapBlocks || resamples < 1 {
		return RelVarInterval{Low: math.NaN(), High: math.NaN()}
	}
	src := rand.NewChaCha8(spec.seed(bootstrapDomain, 0))
	values := make([]float64, resamples)
	for r := range values {
		var m Moments
		for range n {
			m.Merge(blocks[Uniform(src, uint64(n))])
		}
		values[r] = m.Stats().RelVar
	}
	slices.Sort(values)
	return RelVarInterval{Low: quantile(values, 0.025), High: quantile(values, 0.975)}
}

// quantile returns the q-quantile of sorted values (not empty): the
// ⌈q·n⌉-th smallest, the first when q·n < 1.
func quantile(sorted []float64, q float64) float64 {
	k := int(math.Ceil(q*float64(len(sorted)))) - 1
	return sorted[min(max(k, 0), len(sorted)-1)]
}

// Efficiency is 1/(relvar × cost), the samples' worth per unit of cost:
// with cost the CPU seconds of a sample, the inverse of the CPU seconds
// needed to bring the relative error to 1 (ε² less for a relative error
// ε). It is +Inf for a zero relative variance and NaN when either factor
// is NaN or the cost is not positive.
func Efficiency(relvar, cost float64) float64 {
	if !(cost > 0) || math.IsNaN(relvar) {
		return math.NaN()
	}
	return 1 / (relvar * cost)
}

// EfficiencyInterval returns the efficiency interval that the relative
// variance's interval iv gives at the fixed cost per sample cost: the
// high relative variance gives the low efficiency.
func EfficiencyInterval(iv RelVarInterval, cost float64) (low, high float64) {
	return Efficiency(iv.High, cost), Efficiency(iv.Low, cost)
}

// BlockMoments returns the moments of each of blocks, in order: what
// BootstrapRelVar resamples.
func BlockMoments(blocks []Block) []Moments {
	out := make([]Moments, len(blocks))
	for i, b := range blocks {
		out[i] = b.Moments
	}
	return out
}
