package ridder

import (
	"testing"

	"github.com/sudoku-census/sudoku-census/stages/maths/montecarlo"
)

// BenchmarkSample measures one importance sample per op on one core.
func BenchmarkSample(b *testing.B) {
	for _, shape := range []string{"2x3", "3x3"} {
		for _, fill := range []bool{true, false} {
			name := shape + "/fill"
			if !fill {
				name = shape + "/nofill"
			}
			b.Run(name, func(b *testing.B) {
				s, _ := NewSampler(shapeOf(b, shape), fill)
				src := montecarlo.Spec{Seed: 1}.Source(0)
				b.ReportAllocs()
				for b.Loop() {
					s.Sample(src)
				}
			})
		}
	}
}
