package walks

import (
	"context"
	"syscall"
	"testing"
	"time"

	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
	"github.com/sudoku-census/sudoku-census/stages/maths/montecarlo"
)

// BenchmarkSample measures one sample (walk) per op on one core.
func BenchmarkSample(b *testing.B) {
	for _, c := range []struct {
		shape string
		v     Variant
	}{
		{"3x3", Variant{Name: "rowmajor", Order: RowMajor, HybridK: 81}},
		{"3x3", Variant{Name: "random", Order: Random, HybridK: 81}},
		{"3x3", Variant{Name: "mrv", Order: MRV, HybridK: 81}},
		{"3x3", Variant{Name: "hybrid60", Order: MRV, HybridK: 60, Hybrid: true}},
		{"3x3", Variant{Name: "cover", Order: Cover, HybridK: 81}},
		{"4x4", Variant{Name: "mrv", Order: MRV, HybridK: 256}},
		{"4x4", Variant{Name: "cover", Order: Cover, HybridK: 256}},
		{"4x4", Variant{Name: "hybrid210", Order: MRV, HybridK: 210, Hybrid: true}},
		{"4x4", Variant{Name: "hybrid200cover", Order: Cover, HybridK: 200, Hybrid: true}},
		{"3x3", Variant{Name: "se10cover", Order: Cover, HybridK: 81, Budget: 10}},
		{"4x4", Variant{Name: "se10mrv", Order: MRV, HybridK: 256, Budget: 10}},
		{"4x4", Variant{Name: "se10cover", Order: Cover, HybridK: 256, Budget: 10}},
		{"4x4", Variant{Name: "se100mrv", Order: MRV, HybridK: 256, Budget: 100}},
		{"4x4", Variant{Name: "bandse100", Order: MRV, HybridK: 256, Budget: 100, FirstBand: true}}, // the 16×16 long run
		{"3x3", Variant{Name: "bandmrv", Order: MRV, HybridK: 81, FirstBand: true}},
		{"3x3", Variant{Name: "bandse30", Order: MRV, HybridK: 81, Budget: 30, FirstBand: true}},
		{"3x3", Variant{Name: "se30mrv", Order: MRV, HybridK: 81, Budget: 30}},
		{"4x4", Variant{Name: "lookahead100", Order: MRV, HybridK: 256, Budget: 100, Lookahead: true, Alpha: 0.25}},
		{"4x5", Variant{Name: "se300mrv", Order: MRV, HybridK: 400, Budget: 300}}, // the 20×20 long run
		{"4x4", Variant{Name: "stacks", Stacks: true}},
		{"4x5", Variant{Name: "stacks", Stacks: true}},
		{"4x5", Variant{Name: "stackshybrid", Stacks: true, StacksExact: StacksHybridColumns}},
		{"5x5", Variant{Name: "stackshybrid", Stacks: true, StacksExact: StacksHybridColumns}},
	} {
		b.Run(c.shape+"/"+c.v.Name, func(b *testing.B) {
			s, err := NewSampler(context.Background(), mustShape(b, c.shape), c.v)
			if err != nil {
				b.Fatal(err)
			}
			src := montecarlo.Spec{Seed: 1}.Source(0)
			var m montecarlo.Moments
			b.ReportAllocs()
			for b.Loop() {
				x, w, _ := s.Sample(src)
				m.Add(x, w)
			}
			st := m.Stats()
			b.ReportMetric(st.RelVar, "relvar")
			b.ReportMetric(st.WorkPerSample, "work/op")
		})
	}
}

// cpuTime is the process's CPU time (user and system): the machine may be
// shared, so wall time would count other processes' turns.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkRelvarSeconds measures, per estimator, relvar × CPU seconds per
// sample on one core (the time a run needs per unit of relative variance of
// its mean: RE² = relvar·s / seconds), over a fixed number of samples per
// op, for the last-band variants beside those they refine, and for the
// stack estimator up to 36×36 (6×6: about 1.4 s a sample). Run with
// -benchtime 1x; the samples are few, so relvar is known to about
// ±10–30% (more for the heavy-tailed walks).
func BenchmarkRelvarSeconds(b *testing.B) {
	for _, c := range []struct {
		shape   string
		samples int64
		v       Variant
	}{
		{"3x3", 100000, Variant{Name: "bandmrv", Order: MRV, FirstBand: true}},
		{"3x3", 100000, Variant{Name: "bandmrvlast", Order: MRV, FirstBand: true, LastBand: true}},
		{"3x3", 10000, Variant{Name: "bandse30", Order: MRV, Budget: 30, FirstBand: true}},
		{"3x3", 10000, Variant{Name: "bandselast30", Order: MRV, Budget: 30, FirstBand: true, LastBand: true}},
		{"2x6", 20000, Variant{Name: "bandmrv", Order: MRV, FirstBand: true}},
		{"2x6", 20000, Variant{Name: "bandmrvlast", Order: MRV, FirstBand: true, LastBand: true}},
		{"2x6", 2000, Variant{Name: "bandse30", Order: MRV, Budget: 30, FirstBand: true}},
		{"2x6", 2000, Variant{Name: "bandselast30", Order: MRV, Budget: 30, FirstBand: true, LastBand: true}},
		{"3x4", 20000, Variant{Name: "bandmrv", Order: MRV, FirstBand: true}},
		{"3x4", 20000, Variant{Name: "bandmrvlast", Order: MRV, FirstBand: true, LastBand: true}},
		{"3x4", 1000, Variant{Name: "bandse100", Order: MRV, Budget: 100, FirstBand: true}},
		{"3x4", 1000, Variant{Name: "bandselast100", Order: MRV, Budget: 100, FirstBand: true, LastBand: true}},
		{"3x3", 100000, Variant{Name: "stacks", Stacks: true}},
		{"3x4", 20000, Variant{Name: "stacks", Stacks: true}},
		{"4x4", 5000, Variant{Name: "stacks", Stacks: true}},
		{"3x5", 2000, Variant{Name: "stacks", Stacks: true}},
		{"4x5", 1000, Variant{Name: "stacks", Stacks: true}},
		{"4x5", 1000, Variant{Name: "stackshybrid", Stacks: true, StacksExact: StacksHybridColumns}},
		{"5x5", 2000, Variant{Name: "stackshybrid", Stacks: true, StacksExact: StacksHybridColumns}},
		// Box width 6: structures by sequential importance sampling.
		{"6x5", 300, Variant{Name: "stackshybrid", Stacks: true, StacksExact: StacksHybridColumns}},
		{"5x6", 300, Variant{Name: "stackshybrid", Stacks: true, StacksExact: StacksHybridColumns}},
		{"6x6", 150, Variant{Name: "stackshybrid", Stacks: true, StacksExact: StacksHybridColumns}},
	} {
		b.Run(c.shape+"/"+c.v.Name, func(b *testing.B) {
			s, err := grid.ParseShapeUpTo(c.shape, MaxStacksSide)
			if err != nil {
				b.Fatal(err)
			}
			c.v.HybridK = s.N() * s.N()
			for b.Loop() {
				start := cpuTime()
				spec := montecarlo.Spec{Seed: 1, Stage: "bench", Shape: c.shape, Variant: c.v.Name, BlockSize: 1000, TailSize: montecarlo.ParetoTailSize(c.samples)}
				res, err := montecarlo.Run(context.Background(), spec, c.samples, 1, func() (montecarlo.Sampler, error) { return NewSampler(context.Background(), s, c.v) }, nil)
				if err != nil {
					b.Fatal(err)
				}
				perSample := (cpuTime() - start).Seconds() / float64(c.samples)
				st := res.Total.Stats()
				b.ReportMetric(st.RelVar, "relvar")
				b.ReportMetric(perSample*1e6, "µs/sample")
				b.ReportMetric(st.RelVar*perSample*1e6, "relvar·µs")
				b.ReportMetric(res.Diagnostics().ParetoK, "k̂")
			}
		})
	}
}
