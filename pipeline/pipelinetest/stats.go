package pipelinetest

import "math"

// MeanInterval returns the mean of xs and the half-width of its 95%
// interval by Student's t (the sample's spread; 0 for one value), as the
// cost projections of the measurement tests state them.
func MeanInterval(xs []float64) (mean, half float64) {
	for _, x := range xs {
		mean += x
	}
	n := float64(len(xs))
	mean /= n
	if len(xs) < 2 {
		return mean, 0
	}
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	// two-sided 97.5% quantiles of t for 1 to 9 degrees of freedom, then 2
	tq := []float64{12.71, 4.30, 3.18, 2.78, 2.57, 2.45, 2.36, 2.31, 2.26}
	q := 2.0
	if len(xs)-1 <= len(tq) {
		q = tq[len(xs)-2]
	}
	return mean, q * math.Sqrt(ss/(n-1)/n)
}
