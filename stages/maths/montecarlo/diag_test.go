package montecarlo

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// ESS and the largest share for given weights, exactly: weights 1, 2, 3, 4
// have Σw = 10, Σw² = 30, ESS = 100/30, largest share 4/10; equal weights
// have ESS n.
func TestDiagnoseESSAndShare(t *testing.T) {
	for _, tc := range []struct {
		w             []float64
		ess, maxShare float64
	}{
		{[]float64{1, 2, 3, 4}, 100.0 / 30, 0.4},
		{[]float64{5, 5, 5, 5, 5, 5}, 6, 1.0 / 6},
		{[]float64{0, 0, 0, 7}, 1, 1},
	} {
		var m Moments
		var tail []Value
		for _, x := range tc.w {
			v := Value{Frac: x, Exp: 700} // far beyond float64 once scaled
			m.Add(v, 1)
			tail = append(tail, normal(v))
		}
		slices.SortFunc(tail, func(a, b Value) int { return CompareValues(b, a) })
		d := Diagnose(m, tail)
		if math.Abs(d.ESS-tc.ess) > 1e-12*tc.ess || math.Abs(d.MaxShare-tc.maxShare) > 1e-12 {
			t.Errorf("weights %v: ESS %v, max share %v; want %v, %v", tc.w, d.ESS, d.MaxShare, tc.ess, tc.maxShare)
		}
		if !math.IsNaN(d.ParetoK) || d.Unreliable {
			t.Errorf("weights %v: k̂ %v from %d samples, want NaN (too few for a tail)", tc.w, d.ParetoK, len(tc.w))
		}
	}
}

func TestParetoTailSize(t *testing.T) {
	// M = ⌈min(n/5, 3√n)⌉, plus the threshold.
	for n, want := range map[int64]int{0: 0, 1: 2, 10: 3, 100: 21, 225: 46, 10000: 301, 1000000: 3001} {
		if got := ParetoTailSize(n); got != want {
			t.Errorf("ParetoTailSize(%d) = %d, want %d", n, got, want)
		}
	}
}

// k̂ of samples from a generalized Pareto distribution of known shape k
// (x = ((1−U)^(−k) − 1)/k) is k within a few standard errors (about
// (1+k)/√n for the maximum-likelihood fit).
func TestParetoKOfGeneralizedPareto(t *testing.T) {
	src := rand.NewChaCha8([32]byte{21})
	const n = 4000
	for _, k := range []float64{0.1, 0.3, 0.5, 0.7, 0.9} {
		x := make([]float64, n)
		for i := range x {
			u := float64(src.Uint64()>>11) / (1 << 53)
			x[i] = 3 * (math.Pow(1-u, -k) - 1) / k // scale 3: k̂ ignores it
		}
		slices.Sort(x)
		got := ParetoK(x)
		if tol := 4 * (1 + k) / math.Sqrt(n); math.Abs(got-k) > tol {
			t.Errorf("k = %v: k̂ = %v, want within %.3f", k, got, tol)
		}
	}
	// The exponential distribution is the k = 0 limit.
	x := make([]float64, n)
	for i := range x {
		x[i] = -math.Log(float64(src.Uint64()>>11)/(1<<53) + 0x1p-54)
	}
	slices.Sort(x)
	if got := ParetoK(x); math.Abs(got) > 4/math.Sqrt(n) {
		t.Errorf("exponential: k̂ = %v, want 0", got)
	}
	if got := ParetoK([]float64{0, 0, 0, 0, 0, 0}); !math.IsNaN(got) {
		t.Errorf("no spread: k̂ = %v, want NaN", got)
	}
}

// paretoSampler draws Pareto weights U^(−1/α) (tail shape 1/α) scaled by
// 2^1100, beyond float64.
type paretoSampler struct{ alpha float64 }

func (p paretoSampler) Sample(src *rand.ChaCha8) (Value, int64, error) {
	u := (float64(src.Uint64()>>11) + 1) / (1 << 53)
	return Value{Frac: math.Pow(u, -1/p.alpha), Exp: 1100}, 1, nil
}

// A run's diagnostics: its tail is the largest samples whatever the
// blocks, k̂ finds the shape 1/α of Pareto weights and marks α = 1.25
// (k = 0.8, infinite variance) unreliable but not α = 4 (k = 0.25).
func TestRunDiagnostics(t *testing.T) {
	const n = 100000
	for _, tc := range []struct {
		alpha      float64
		unreliable bool
	}{{4, false}, {2, false}, {1.25, true}} {
		spec := Spec{Seed: 5, Stage: "test", Shape: "2x2", Variant: "pareto", BlockSize: 1000, TailSize: ParetoTailSize(n)}
		s := paretoSampler{tc.alpha}
		res, err := Run(context.Background(), spec, n, 2, func() (Sampler, error) { return s, nil }, nil)
		if err != nil {
			t.Fatal(err)
		}
		var all []Value
		for b := range n / 1000 {
			src := spec.Source(b)
			for range 1000 {
				x, _, _ := s.Sample(src)
				all = append(all, normal(x))
			}
		}
		slices.SortFunc(all, func(a, b Value) int { return CompareValues(b, a) })
		if !slices.Equal(res.Tail, all[:ParetoTailSize(n)]) {
			t.Fatalf("α = %v: the run's tail is not its %d largest samples", tc.alpha, ParetoTailSize(n))
		}
		d := res.Diagnostics()
		if k := 1 / tc.alpha; math.Abs(d.ParetoK-k) > 0.12 || d.Unreliable != tc.unreliable {
			t.Errorf("α = %v: k̂ = %v (unreliable %v), want %v (unreliable %v)", tc.alpha, d.ParetoK, d.Unreliable, k, tc.unreliable)
		}
		if d.ESS <= 0 || d.ESS > n || d.MaxShare <= 0 || d.MaxShare > 1 {
			t.Errorf("α = %v: ESS %v, max share %v", tc.alpha, d.ESS, d.MaxShare)
		}
	}
}

// MergeTails keeps the largest values of both, in decreasing order.
func TestMergeTails(t *testing.T) {
	v := func(xs ...float64) []Value {
		var out []Value
		for _, x := range xs {
			out = append(out, normal(Value{Frac: x}))
		}
		return out
	}
	got := MergeTails(v(9, 4, 1, 0), v(8, 4, 3), 5)
	if want := v(9, 8, 4, 4, 3); !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// Wilson intervals of known cases (computed independently from the
// formula): 95 of 100 gives [0.88825, 0.97846]; 0 of 10, [0, 0.27753];
// 10 of 10, [0.72247, 1].
func TestWilson(t *testing.T) {
	for _, c := range []struct {
		x, n   int64
		lo, hi float64
	}{{95, 100, 0.8882495307680808, 0.9784563208456319}, {0, 10, 0, 0.2775327998628892}, {10, 10, 0.7224672001371107, 1}, {0, 0, 0, 1}} {
		lo, hi := Wilson(c.x, c.n, Z95)
		if math.Abs(lo-c.lo) > 1e-12 || math.Abs(hi-c.hi) > 1e-12 {
			t.Errorf("Wilson(%d, %d) = [%v, %v], want [%v, %v]", c.x, c.n, lo, hi, c.lo, c.hi)
		}
	}
}

// 10^(1/0.3) = 2154.43…: the threshold is below 0.7 at 2,154 and 0.7 from 2,155.
func TestUnreliableKFullFrom(t *testing.T) {
	n := UnreliableKFullFrom()
	if n != 2155 || UnreliableAbove(n-1) >= UnreliableK || UnreliableAbove(n) != UnreliableK {
		t.Errorf("UnreliableKFullFrom() = %d; threshold %v at %d, %v at %d", n, UnreliableAbove(n-1), n-1, UnreliableAbove(n), n)
	}
}

func TestUnreliableAbove(t *testing.T) {
	for n, want := range map[int64]float64{100: 0.5, 1000: 2.0 / 3, 2154: 0.7, 10000: 0.7, 1e9: 0.7} {
		if got := UnreliableAbove(n); math.Abs(got-want) > 1e-3 {
			t.Errorf("UnreliableAbove(%d) = %v, want %v", n, got, want)
		}
	}
	if got := UnreliableAbove(1); !math.IsInf(got, -1) {
		t.Errorf("UnreliableAbove(1) = %v, want −∞", got)
	}
}

// The same tail shape, k = 0.6 (finite mean, infinite variance), is
// unreliable on 100 samples, where k̂ cannot vouch for the interval, and
// not on 100,000: the samples are the generalized Pareto distribution's
// quantiles at (i − ½)/n, so k̂ lands near 0.6 at both sizes.
func TestDiagnoseThresholdBySampleSize(t *testing.T) {
	const k = 0.6
	for n, unreliable := range map[int64]bool{100: true, 100000: false} {
		var m Moments
		var all []Value
		for i := range n {
			p := (float64(i) + 0.5) / float64(n)
			v := Value{Frac: (math.Pow(p, -k) - 1) / k}
			m.Add(v, 1)
			all = append(all, normal(v))
		}
		slices.SortFunc(all, func(a, b Value) int { return CompareValues(b, a) })
		d := Diagnose(m, all[:ParetoTailSize(n)])
		if !(d.ParetoK > 0.5 && d.ParetoK < UnreliableK) || d.Unreliable != unreliable {
			t.Errorf("n = %d: k̂ = %v, unreliable %v; want k̂ in (0.5, %v), unreliable %v", n, d.ParetoK, d.Unreliable, UnreliableK, unreliable)
		}
	}
}
