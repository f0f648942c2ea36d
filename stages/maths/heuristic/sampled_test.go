package heuristic

import (
	"context"
	"math"
	"math/big"
	"testing"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
	"github.com/sudoku-census/sudoku-census/stages/maths/montecarlo"
)

// runCompletions runs the sampler of M for shape text, n samples, seed 1.
func runCompletions(t testing.TB, text string, n int64) montecarlo.Stats {
	t.Helper()
	s, err := grid.ParseShapeUpTo(text, MaxN)
	if err != nil {
		t.Fatal(err)
	}
	spec := montecarlo.Spec{Seed: 1, Stage: "test", Shape: text, Variant: "bands", BlockSize: 1000}
	res, err := montecarlo.Run(context.Background(), spec, n, 2, func() (montecarlo.Sampler, error) { return NewCompletionsSampler(s) }, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res.Total.Stats()
}

// The sampler's mean lies within four standard errors of the exact M on
// every shape whose M is known: a wrong scale, a biased draw or a wrong
// permanent moves it by many (M(2,C) = 1 tests the scale with a sampler
// that still varies). The dynamic programme counts the small shapes here;
// 5×6 and 6×3 take it 20 and 180 CPU-seconds, so their values are written
// out (5×6 is checked by TestBandCompletions5x6 and walkbands; 6×3 was
// counted by BandCompletions when this test was written).
func TestCompletionsSamplerAgreesWithExact(t *testing.T) {
	known := map[string]string{
		"5x6": "3261734691836217181002772823310336",
		"6x3": "714171414063392602560921600",
	}
	for _, text := range []string{"2x3", "3x2", "3x3", "2x5", "4x3", "3x4", "4x4", "5x3", "4x5", "5x5", "6x2", "5x6", "6x3"} {
		s, _ := grid.ParseShape(text)
		exact, ok := new(big.Int).SetString(known[text], 10)
		if !ok {
			var err error
			if exact, err = BandCompletions(s); err != nil {
				t.Fatal(err)
			}
		}
		st := runCompletions(t, text, 20000)
		z := st.ZScore(new(big.Float).SetInt(exact))
		t.Logf("%s: M = %s, estimate %.6g ± %.2g%%, relvar %.3g, z %.2f", text, exact, st.Estimate, 100*st.RelativeError, st.RelVar, z)
		if math.IsNaN(z) || math.Abs(z) > 4 {
			t.Errorf("%s: the estimate of M is %.2f standard errors from %s", text, z, exact)
		}
	}
}

// Rejected shapes get an error, not a panic.
func TestCompletionsSamplerRejectsLargeShapes(t *testing.T) {
	for _, s := range []grid.Shape{{R: 7, C: 2}, {R: 2, C: 7}, {R: 0, C: 3}} {
		if _, err := NewCompletionsSampler(s); err == nil {
			t.Errorf("%v accepted", s)
		}
	}
}

// BenchmarkCompletionsRelvarSeconds reports relvar × CPU-seconds per sample
// of M's sampler on the shapes the dynamic programme cannot count.
func BenchmarkCompletionsRelvarSeconds(b *testing.B) {
	for _, text := range []string{"5x6", "6x4", "6x5", "6x6"} {
		b.Run(text, func(b *testing.B) {
			for b.Loop() {
				start := pipeline.ProcessCPU()
				const n = 100000
				st := runCompletions(b, text, n)
				perSample := (pipeline.ProcessCPU() - start).Seconds() / n
				b.ReportMetric(st.RelVar, "relvar")
				b.ReportMetric(perSample*1e6, "µs/sample")
				b.ReportMetric(st.RelVar*perSample*1e6, "relvar·µs")
			}
		})
	}
}

// Draw writes what it draws: every symbol's σ is a permutation of the
// boxes, every row gives every box exactly C symbols, and Sample is Draw's
// 1/P times (C!)^R/N! on the same random stream.
func TestCompletionsSamplerDrawsSetArrays(t *testing.T) {
	for _, s := range []grid.Shape{{R: 3, C: 2}, {R: 6, C: 6}, {R: 5, C: 6}} {
		e, err := NewCompletionsSampler(s)
		if err != nil {
			t.Fatal(err)
		}
		boxes := make([]uint8, s.N()*s.R)
		src, again := montecarlo.Spec{Seed: 2}.Source(0), montecarlo.Spec{Seed: 2}.Source(0)
		for range 20 {
			inv, _ := e.Draw(src, boxes)
			load := make([]int, s.R*s.R)
			for x := range s.N() {
				var seen uint
				for i, j := range boxes[x*s.R : (x+1)*s.R] {
					if int(j) >= s.R || seen>>j&1 != 0 {
						t.Fatalf("%s: symbol %d takes boxes %v, not a permutation", s, x, boxes[x*s.R:(x+1)*s.R])
					}
					seen |= 1 << j
					load[i*s.R+int(j)]++
				}
			}
			for k, l := range load {
				if l != s.C {
					t.Fatalf("%s: row %d gives box %d %d symbols, want %d", s, k/s.R, k%s.R, l, s.C)
				}
			}
			x, _, _ := e.Sample(again)
			if want := inv.Mul(e.scale); x != want || inv.IsZero() {
				t.Fatalf("%s: Sample %v, Draw's 1/P·scale %v", s, x, want)
			}
		}
	}
}
