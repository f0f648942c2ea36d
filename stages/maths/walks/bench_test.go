package walks

import (
	"testing"

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
		{"3x3", Variant{Name: "bandmrv", Order: MRV, HybridK: 81, FirstBand: true}},
		{"3x3", Variant{Name: "bandse30", Order: MRV, HybridK: 81, Budget: 30, FirstBand: true}},
		{"3x3", Variant{Name: "se30mrv", Order: MRV, HybridK: 81, Budget: 30}},
		{"4x4", Variant{Name: "lookahead100", Order: MRV, HybridK: 256, Budget: 100, Lookahead: true, Alpha: 0.25}},
	} {
		b.Run(c.shape+"/"+c.v.Name, func(b *testing.B) {
			s, err := NewSampler(mustShape(b, c.shape), c.v)
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
