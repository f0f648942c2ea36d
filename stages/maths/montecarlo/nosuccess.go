package montecarlo

import "math"

// NoSuccessUpper95 is the upper end of the exact (Clopper–Pearson) 95%
// interval for the probability p that one sample succeeds (is nonzero),
// when none of n independent samples did: the p with (1−p)^n = 0.025,
// p = 1 − 0.025^(1/n), close to 3.69/n for large n (the rule of three,
// 3/n, is the one-sided bound with (1−p)^n = 0.05). An estimator with no
// successful sample has estimate 0 and a zero-width normal interval; this
// bound is what its samples do say. NaN for n ≤ 0.
func NoSuccessUpper95(n int64) float64 {
	if n <= 0 {
		return math.NaN()
	}
	// −expm1 keeps the digits that 1 − exp(x) loses for large n.
	return -math.Expm1(math.Log(0.025) / float64(n))
}
