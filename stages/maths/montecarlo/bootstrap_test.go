package montecarlo

import (
	"math"
	"math/rand/v2"
	"testing"
)

// blocksOf cuts xs into blocks of size samples and returns their moments.
func blocksOf(xs []Value, size int) []Moments {
	var out []Moments
	for i := 0; i < len(xs); i += size {
		var m Moments
		for _, x := range xs[i:min(i+size, len(xs))] {
			m.Add(x, 1)
		}
		out = append(out, m)
	}
	return out
}

func valuesOf(fs ...float64) []Value {
	out := make([]Value, len(fs))
	for i, f := range fs {
		out[i] = Value{Frac: f}
	}
	return out
}

var bootSpec = Spec{Seed: 1, Stage: "test", Shape: "3x3", Variant: "mrv", BlockSize: 2}

// TestBootstrapRelVarByHand checks two runs whose bootstrap can be worked
// out on paper, and that runs of fewer than MinBootstrapBlocks blocks get
// no interval.
func TestBootstrapRelVarByHand(t *testing.T) {
	// Ten blocks {1, 3}: every draw is ten ones and ten threes: mean 2,
	// Σ(x − 2)² = 20, variance 20/19, relvar 5/19.
	same := blocksOf(valuesOf(1, 3, 1, 3, 1, 3, 1, 3, 1, 3, 1, 3, 1, 3, 1, 3, 1, 3, 1, 3), 2)
	if iv := BootstrapRelVar(bootSpec, same, BootstrapResamples); math.Abs(iv.Low-5.0/19) > 1e-15 || math.Abs(iv.High-5.0/19) > 1e-15 {
		t.Errorf("identical blocks: %+v, want [5/19, 5/19]", iv)
	}
	// Five blocks {0, 0} and five {1, 1}: a draw with j blocks {1, 1} has
	// mean m = j/10 and relvar 20(1 − m)/(19m), j binomial(10, 1/2). Of
	// 1,000 draws about 11 have j ≥ 9 and 55 have j ≥ 8, so the 25th
	// smallest relvar is j = 8's, 5/19; about 11 have j ≤ 1 and 55 j ≤ 2,
	// so the 975th is j = 2's, 80/19.
	var xs []float64
	for i := range 10 {
		x := float64(i % 2)
		xs = append(xs, x, x)
	}
	split := blocksOf(valuesOf(xs...), 2)
	iv := BootstrapRelVar(bootSpec, split, BootstrapResamples)
	if math.Abs(iv.Low-5.0/19) > 1e-12 || math.Abs(iv.High-80.0/19) > 1e-12 {
		t.Errorf("blocks {0,0} and {1,1}: %+v, want [5/19, 80/19]", iv)
	}
	// Too few blocks, or no draws: no interval.
	for _, iv := range []RelVarInterval{BootstrapRelVar(bootSpec, same[:MinBootstrapBlocks-1], 1000), BootstrapRelVar(bootSpec, same[:1], 1000), BootstrapRelVar(bootSpec, same, 0)} {
		if !math.IsNaN(iv.Low) || !math.IsNaN(iv.High) {
			t.Errorf("too little to resample: %+v, want NaN ends", iv)
		}
	}
	// The efficiency: the high relvar gives the low efficiency.
	if lo, hi := EfficiencyInterval(RelVarInterval{Low: 0.5, High: 2}, 0.25); lo != 2 || hi != 8 {
		t.Errorf("efficiency of relvar [0.5, 2] at 0.25 s: [%g, %g], want [2, 8]", lo, hi)
	}
	if e := Efficiency(1, 0); !math.IsNaN(e) {
		t.Errorf("efficiency at cost 0: %g, want NaN", e)
	}
}

// skewedSamples draws n samples of a skewed distribution (exponential, a
// fifth of them zero), with the finite fourth moment that makes the
// relvar's interval narrow as 1/√samples.
func skewedSamples(n int, seed uint64) []Value {
	r := rand.New(rand.NewPCG(seed, 1))
	xs := make([]Value, n)
	for i := range xs {
		if r.IntN(5) > 0 {
			xs[i] = Value{Frac: r.ExpFloat64()}
		}
	}
	return xs
}

// TestBootstrapRelVarContainsAndShrinks checks that the interval holds
// the run's relvar, narrows as the run grows (about as 1/√blocks), and is
// the same for the same blocks and identity.
func TestBootstrapRelVarContainsAndShrinks(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		var widths []float64
		for _, blocks := range []int{20, 2000} {
			ms := blocksOf(skewedSamples(100*blocks, seed), 100)
			var total Moments
			for _, m := range ms {
				total.Merge(m)
			}
			rv := total.Stats().RelVar
			iv := BootstrapRelVar(bootSpec, ms, BootstrapResamples)
			if !(iv.Low <= rv && rv <= iv.High) || !(iv.Low < iv.High) {
				t.Errorf("seed %d, %d blocks: relvar %g outside its interval [%g, %g]", seed, blocks, rv, iv.Low, iv.High)
			}
			if again := BootstrapRelVar(bootSpec, ms, BootstrapResamples); again != iv {
				t.Errorf("seed %d, %d blocks: %+v then %+v", seed, blocks, iv, again)
			}
			widths = append(widths, (iv.High-iv.Low)/rv)
		}
		// 100 times the blocks: about a tenth of the width; a third is a
		// margin for the skewed tails.
		if widths[1] > widths[0]/3 {
			t.Errorf("seed %d: relative width %g with 20 blocks, %g with 2000", seed, widths[0], widths[1])
		}
	}
}
