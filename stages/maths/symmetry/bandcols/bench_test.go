package bandcols

import (
	"context"
	"testing"

	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry"
)

// BenchmarkFixedType6 times FixedType on 2×6 class 164 (two band pairs,
// halves alike) with σ of one 2-cycle, the whole programme of one unit
// type: about 8 CPU-s.
func BenchmarkFixedType6(b *testing.B) {
	s := symmetry.Shape{R: 2, C: 6}
	g, err := symmetry.NewGroup(s, false)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := FixedType(context.Background(), s, g.Classes[164].Rep, 1); err != nil {
			b.Fatal(err)
		}
	}
}
