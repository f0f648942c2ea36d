package montecarlo

import (
	"cmp"
	"container/heap"
	"math"
	"slices"
)

// Diagnostics of the weights (the samples) of an estimate, which tell an
// interval that deserves trust from one that a few huge samples hold up.
// With samples w₁…w_n ≥ 0:
//
//   - ESS, the effective sample size (Σw)²/Σw² (Kish): n when every sample
//     is equal, 1 when one sample holds the whole sum. From the moments,
//     Σw = n·mean and Σw² = M2 + n·mean², so ESS = n/(1 + M2/(n·mean²)).
//   - MaxShare, the largest sample's share of the sum, max w / Σw.
//   - ParetoK, k̂, the shape of a generalized Pareto distribution fitted to
//     the upper tail of the samples, as in Pareto smoothed importance
//     sampling (Vehtari, Simpson, Gelman, Yao and Gabry): the exceedances
//     wᵢ − u of the M = ⌈min(n/5, 3√n)⌉ largest samples over the next one,
//     u, fitted by the estimator of Zhang and Stephens (2009) with the weak
//     prior PSIS adds (see ParetoK). The mean of a distribution with tail
//     shape k has finite variance only for k < 1/2 and is finite only for
//     k < 1; PSIS calls an estimate unreliable beyond k̂ = 0.7, where the
//     central limit theorem needs far more samples than any run draws, and
//     beyond 1 − 1/log₁₀ n on fewer than 2,155 samples (UnreliableKFullFrom), where k̂
//     itself is too uncertain to vouch for the interval (UnreliableAbove).
//     NaN when there are fewer than 5 tail samples or they do not spread
//     (all exceedances 0: no tail at all).
//   - Unreliable: k̂ > UnreliableAbove(n).
type Diagnostics struct {
	ESS        float64
	MaxShare   float64
	ParetoK    float64
	Unreliable bool
}

// UnreliableK is the k̂ above which an interval of any number of samples
// is marked unreliable.
const UnreliableK = 0.7

// HeadlineK is the k̂ from which an interval gives no headline figure, however
// many samples it has: a tail of shape k ≥ 1/2 has infinite variance, so the
// normal interval's half-width estimates nothing (the paper's headline rule).
const HeadlineK = 0.5

// UnreliableAbove returns the k̂ above which an interval of n samples is
// marked unreliable: min(1 − 1/log₁₀ n, UnreliableK), the sample-size
// dependent threshold of Vehtari et al. (2024, eq. 13): 0.5 at 100 samples,
// 0.6 at 316, UnreliableK from about 2,154 on. −∞ for n ≤ 1.
func UnreliableAbove(n int64) float64 {
	if n <= 1 {
		return math.Inf(-1)
	}
	return min(1-1/math.Log10(float64(n)), UnreliableK)
}

// UnreliableKFullFrom is the smallest sample size n at which the
// sample-size dependent threshold 1 − 1/log₁₀ n reaches UnreliableK, so
// that UnreliableAbove(n) = UnreliableK: n = ⌈10^(1/(1−UnreliableK))⌉
// (2,155 for 0.7). Below it k̂ is too uncertain to vouch for an interval
// even when it is under UnreliableK.
func UnreliableKFullFrom() int64 {
	n := int64(math.Ceil(math.Pow(10, 1/(1-UnreliableK))))
	// Settle the rounding of Pow at the boundary with the function itself.
	for n > 2 && UnreliableAbove(n-1) >= UnreliableK {
		n--
	}
	for UnreliableAbove(n) < UnreliableK {
		n++
	}
	return n
}

// ParetoTailSize is the number of largest samples a run of n samples keeps
// for k̂: the M = ⌈min(n/5, 3√n)⌉ of the tail and the one below them, the
// threshold u.
func ParetoTailSize(n int64) int {
	if n <= 0 {
		return 0
	}
	m := math.Ceil(min(float64(n)/5, 3*math.Sqrt(float64(n))))
	return int(m) + 1
}

// Diagnose returns the diagnostics of the samples summarised by m, whose
// largest samples (at least ParetoTailSize(m.N) of them, or all) are tail,
// in decreasing order (Result.Tail).
func Diagnose(m Moments, tail []Value) Diagnostics {
	d := Diagnostics{ParetoK: math.NaN()}
	if m.N == 0 || m.Mean <= 0 {
		return d
	}
	n := float64(m.N)
	d.ESS = n / (1 + m.M2/(n*m.Mean*m.Mean))
	if len(tail) > 0 {
		// max/(n·mean), both scaled by 2^Exp.
		top := tail[0]
		d.MaxShare = math.Ldexp(top.Frac, top.Exp-m.Exp) / m.Mean / n
	}
	size := ParetoTailSize(m.N)
	if len(tail) < size {
		return d
	}
	tail = tail[:size]
	// Divide by the largest sample, so samples beyond the float64 range
	// (25×25) fit; k̂ does not depend on the scale.
	u := tail[size-1].Div(tail[0])
	x := make([]float64, size-1)
	for i, v := range tail[:size-1] {
		r := v.Div(tail[0])
		x[size-2-i] = math.Ldexp(r.Frac, r.Exp) - math.Ldexp(u.Frac, u.Exp)
	}
	d.ParetoK = ParetoK(x)
	d.Unreliable = d.ParetoK > UnreliableAbove(m.N)
	return d
}

// ParetoK returns the shape k of a generalized Pareto distribution (with
// location 0) fitted to the exceedances x (≥ 0, in increasing order) by
// the method of Zhang and Stephens (2009), with the adjustment of PSIS:
//
// With θ = −k/σ (σ the scale) the profile log-likelihood of n samples is
// ℓ(θ) = n·(log(−θ/k(θ)) − k(θ) − 1) with k(θ) = mean log(1 − θxᵢ), for
// θ < 1/max x, and k(θ) is the likelihood's best shape for that θ. Zhang and Stephens take the posterior mean of θ over the
// grid θⱼ = 1/x₍ₙ₎ + (1 − √(m/(j − ½)))/(3·x*), j = 1…m, m = 30 + ⌊√n⌋,
// x* the first quartile x₍⌊n/4+½⌋₎, with weights ∝ exp ℓ(θⱼ); k̂ is then
// k(θ̂). PSIS shrinks it towards ½ by a weak prior worth 10 samples:
// k̂·n/(n+10) + 5/(n+10). NaN for fewer than 5 exceedances or when the
// largest is 0.
func ParetoK(x []float64) float64 {
	n := len(x)
	if n < 5 || !(x[n-1] > 0) {
		return math.NaN()
	}
	xstar := x[int(math.Floor(float64(n)/4+0.5))-1]
	if !(xstar > 0) {
		// A tail whose lower quarter ties with the threshold: the
		// smallest positive exceedance sets the scale of the grid instead.
		i, _ := slices.BinarySearch(x, math.SmallestNonzeroFloat64)
		xstar = x[i]
	}
	m := 30 + int(math.Sqrt(float64(n)))
	theta := make([]float64, m)
	logL := make([]float64, m)
	kOf := func(t float64) float64 {
		s := 0.0
		for _, v := range x {
			s += math.Log1p(-t * v)
		}
		return s / float64(n)
	}
	maxL := math.Inf(-1)
	for j := range theta {
		t := 1/x[n-1] + (1-math.Sqrt(float64(m)/(float64(j+1)-0.5)))/3/xstar
		theta[j] = t
		k := kOf(t)
		// −θ/k > 0 (θ and k have opposite signs); θ = 0 is the
		// exponential limit, where −θ/k → 1/mean x.
		ratio := -t / k
		if t == 0 || k == 0 {
			ratio = 1 / meanOf(x)
		}
		logL[j] = float64(n) * (math.Log(ratio) - k - 1)
		maxL = max(maxL, logL[j])
	}
	var sum, thetaHat float64
	for j := range theta {
		w := math.Exp(logL[j] - maxL)
		sum += w
		thetaHat += w * theta[j]
	}
	thetaHat /= sum
	k := kOf(thetaHat)
	fn := float64(n)
	return k*fn/(fn+10) + 5/(fn+10)
}

func meanOf(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

// normal returns v with Frac in [½, 1) (or the zero Value), so that
// Values compare by (Exp, Frac) and equal numbers are equal structs.
func normal(v Value) Value {
	if v.Frac == 0 {
		return Value{}
	}
	f, e := math.Frexp(v.Frac)
	return Value{Frac: f, Exp: e + v.Exp}
}

// CompareValues orders normal Values (as tails and decoded blocks hold
// them) by size: -1, 0 or +1, as cmp.Compare.
func CompareValues(a, b Value) int {
	switch {
	case a.Frac == 0 || b.Frac == 0:
		return cmp.Compare(a.Frac, b.Frac)
	case a.Exp != b.Exp:
		return cmp.Compare(a.Exp, b.Exp)
	}
	return cmp.Compare(a.Frac, b.Frac)
}

// topHeap keeps the largest samples seen: a min-heap of at most its
// capacity.
type topHeap []Value

func (h topHeap) Len() int           { return len(h) }
func (h topHeap) Less(i, j int) bool { return CompareValues(h[i], h[j]) < 0 }
func (h topHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *topHeap) Push(x any)        { *h = append(*h, x.(Value)) }
func (h *topHeap) Pop() any {
	old := *h
	v := old[len(old)-1]
	*h = old[:len(old)-1]
	return v
}

// offer adds v (normal) when it is among the size largest.
func (h *topHeap) offer(v Value, size int) {
	switch {
	case len(*h) < size:
		heap.Push(h, v)
	case size > 0 && CompareValues(v, (*h)[0]) > 0:
		(*h)[0] = v
		heap.Fix(h, 0)
	}
}

// sortedDesc returns the heap's values in decreasing order.
func (h topHeap) sortedDesc() []Value {
	out := slices.Clone([]Value(h))
	slices.SortFunc(out, func(a, b Value) int { return CompareValues(b, a) })
	return out
}

// MergeTails returns the size largest values of the tails a and b (each in
// decreasing order), in decreasing order: the tail of the union, whatever
// the order of the merges.
func MergeTails(a, b []Value, size int) []Value {
	out := make([]Value, 0, min(size, len(a)+len(b)))
	for len(out) < size && (len(a) > 0 || len(b) > 0) {
		if len(b) == 0 || (len(a) > 0 && CompareValues(a[0], b[0]) >= 0) {
			out, a = append(out, a[0]), a[1:]
		} else {
			out, b = append(out, b[0]), b[1:]
		}
	}
	return out
}

// Wilson returns the Wilson score interval of a binomial proportion with
// x successes in n trials at the normal quantile z (Z95 for 95%):
//
//	(p̂ + z²/2n ∓ z·√(p̂(1−p̂)/n + z²/4n²)) / (1 + z²/n),   p̂ = x/n,
//
// which, unlike p̂ ± z·√(p̂(1−p̂)/n), stays inside [0, 1] and keeps a
// width when x is 0 or n (the coverage study's runs). (0, 1) for n = 0.
func Wilson(x, n int64, z float64) (lo, hi float64) {
	if n <= 0 {
		return 0, 1
	}
	fn := float64(n)
	p := float64(x) / fn
	d := 1 + z*z/fn
	center := (p + z*z/(2*fn)) / d
	half := z / d * math.Sqrt(p*(1-p)/fn+z*z/(4*fn*fn))
	return max(0, center-half), min(1, center+half)
}
