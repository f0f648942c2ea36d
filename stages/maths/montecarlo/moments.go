package montecarlo

import (
	"math"
	"math/big"
)

// Moments summarise samples x₁…x_N ≥ 0: the mean and the sum of squared
// deviations M2 = Σ(xᵢ − mean)², both stored divided by a common power of two
// (mean = Mean·2^Exp, M2 = M2·2^(2·Exp)), so that samples of any magnitude can
// be accumulated in float64 without overflow. Add uses Welford's update and
// Merge the pairwise formula of Chan, Golub and LeVeque, which stay accurate
// when the relative variance is tiny (the hybrid estimator with small k).
type Moments struct {
	N       int64   // number of samples
	Nonzero int64   // number of samples > 0
	Work    int64   // total deterministic work of the samples (cells visited)
	Exp     int     // common binary scale
	Mean    float64 // mean / 2^Exp
	M2      float64 // Σ(x − mean)² / 2^(2·Exp)
}

// rescaleAbove bounds the scaled samples: a sample more than 2^rescaleAbove
// times 2^Exp moves the scale up first, so Mean stays below 2^64 and M2
// below 2^128·N.
const rescaleAbove = 64

// rescale changes the scale to exp ≥ m.Exp.
func (m *Moments) rescale(exp int) {
	d := exp - m.Exp
	m.Mean = math.Ldexp(m.Mean, -d)
	m.M2 = math.Ldexp(m.M2, -2*d)
	m.Exp = exp
}

// Add records one sample x with its work.
func (m *Moments) Add(x Value, work int64) {
	m.N++
	m.Work += work
	var y float64 // x / 2^Exp
	if x.Frac != 0 {
		m.Nonzero++
		f, e := math.Frexp(x.Frac)
		e += x.Exp
		switch {
		case m.Mean == 0 && m.M2 == 0:
			m.Exp = e // nothing to rescale
		case e > m.Exp+rescaleAbove:
			m.rescale(e)
		}
		y = math.Ldexp(f, e-m.Exp)
	}
	delta := y - m.Mean
	m.Mean += delta / float64(m.N)
	m.M2 += delta * (y - m.Mean)
}

// Merge adds the samples summarised by o (taken after m's samples).
func (m *Moments) Merge(o Moments) {
	if o.N == 0 {
		return
	}
	if m.N == 0 {
		*m = o
		return
	}
	switch {
	case o.Mean == 0 && o.M2 == 0:
		o.Exp = m.Exp
	case m.Mean == 0 && m.M2 == 0:
		m.Exp = o.Exp
	case o.Exp > m.Exp:
		m.rescale(o.Exp)
	case m.Exp > o.Exp:
		o.rescale(m.Exp)
	}
	n := m.N + o.N
	delta := o.Mean - m.Mean
	fm, fo, fn := float64(m.N), float64(o.N), float64(n)
	m.Mean += delta * fo / fn
	m.M2 += o.M2 + delta*delta*fm*fo/fn
	m.N = n
	m.Nonzero += o.Nonzero
	m.Work += o.Work
}

// Z95 is the 0.975 quantile of the standard normal distribution: a 95%
// interval is the estimate ± Z95 standard errors.
const Z95 = 1.959963984540054

// Stats are the summary statistics of a run.
type Stats struct {
	Samples         int64
	Estimate        *big.Float // sample mean
	StdError        *big.Float // sample standard deviation / √N
	CILow, CIHigh   *big.Float // Estimate ∓ 1.96·StdError, the lower end cut at 0
	RelativeError   float64    // StdError / Estimate (+Inf if Estimate is 0)
	RelVar          float64    // sample variance / Estimate², per sample
	NonzeroFraction float64
	WorkPerSample   float64
	RelVarWork      float64 // RelVar · WorkPerSample: samples × work needed per unit RE²
}

// Stats computes the summary statistics; the variance is the unbiased
// sample variance M2/(N−1) (0 when N = 1).
func (m Moments) Stats() Stats {
	s := Stats{Samples: m.N}
	scaled := func(x float64) *big.Float { return Value{Frac: x, Exp: m.Exp}.Float() }
	variance := 0.0
	if m.N > 1 {
		variance = m.M2 / float64(m.N-1)
	}
	se := 0.0
	if m.N > 0 {
		se = math.Sqrt(variance / float64(m.N))
	}
	s.Estimate, s.StdError = scaled(m.Mean), scaled(se)
	s.CILow, s.CIHigh = scaled(math.Max(0, m.Mean-Z95*se)), scaled(m.Mean+Z95*se)
	if m.N > 0 {
		s.NonzeroFraction = float64(m.Nonzero) / float64(m.N)
		s.WorkPerSample = float64(m.Work) / float64(m.N)
	}
	if m.Mean > 0 {
		s.RelativeError = se / m.Mean
		s.RelVar = variance / (m.Mean * m.Mean)
	} else {
		s.RelativeError, s.RelVar = math.Inf(1), math.Inf(1)
	}
	s.RelVarWork = s.RelVar * s.WorkPerSample
	return s
}

// Log10Estimate returns log10 of the mean (−Inf if it is 0).
func (m Moments) Log10Estimate() float64 {
	return Value{Frac: m.Mean, Exp: m.Exp}.Log10()
}

// Log10MeanSquare returns log10 of the mean of the squared samples,
// (M2/N + mean²), the second moment RAT needs.
func (m Moments) Log10MeanSquare() float64 {
	if m.N == 0 {
		return math.Inf(-1)
	}
	ms := m.M2/float64(m.N) + m.Mean*m.Mean
	return math.Log10(ms) + 2*float64(m.Exp)*math.Log10(2)
}

// ZScore is (Estimate − x)/StdError: how many standard errors the estimate
// lies from x. With a zero standard error (every sample equal) it is 0 when
// the estimate equals x and +Inf otherwise.
func (s Stats) ZScore(x *big.Float) float64 {
	d := new(big.Float).Sub(s.Estimate, x)
	if s.StdError.Sign() == 0 {
		if d.Sign() == 0 {
			return 0
		}
		return math.Inf(1)
	}
	z, _ := d.Quo(d, s.StdError).Float64()
	return z
}
