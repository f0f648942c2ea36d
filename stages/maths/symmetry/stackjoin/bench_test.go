package stackjoin

import (
	"context"
	"fmt"
	"testing"

	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry"
)

// BenchmarkFixedWorkers3x4 counts 3×4 class 11 (every stack's columns
// (1 2)(3 4), the search's heaviest plan; about 2,000 first-cycle
// configurations) and class 141 (the rows of every band cycled; 18,270)
// on one worker and on two.
func BenchmarkFixedWorkers3x4(b *testing.B) {
	s := symmetry.Shape{R: 3, C: 4}
	g, err := symmetry.NewGroup(s, false)
	if err != nil {
		b.Fatal(err)
	}
	for _, class := range []int{11, 141} {
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("class%d/workers%d", class, workers), func(b *testing.B) {
				for range b.N {
					if _, err := FixedWorkers(context.Background(), s, g.Classes[class].Rep, workers); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
