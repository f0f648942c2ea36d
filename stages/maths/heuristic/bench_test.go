package heuristic

import (
	"testing"

	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
)

// BenchmarkEstimate times the whole estimate of each default shape: both
// band counts, the power products and the reduction of the fraction.
func BenchmarkEstimate(b *testing.B) {
	for _, text := range []string{"2x2", "2x3", "3x2", "2x4", "4x2", "3x3", "2x5", "5x2", "3x4", "4x3", "2x6", "6x2", "4x4", "3x5", "5x3", "4x5", "5x4", "5x5"} {
		s, err := grid.ParseShape(text)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(text, func(b *testing.B) {
			for b.Loop() {
				if _, err := NewEstimate(s); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
