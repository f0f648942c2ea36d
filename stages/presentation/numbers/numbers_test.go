package numbers

import (
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
	"github.com/sudoku-census/sudoku-census/stages/presentation/present"
	"github.com/sudoku-census/sudoku-census/stages/presentation/typeset"
)

// TestLongDisagreements lists a pair of long runs of one shape only when
// their intervals are disjoint, the lower one first.
func TestLongDisagreements(t *testing.T) {
	five := grid.Shape{R: 5, C: 5}
	run := func(variant string, s grid.Shape, lo, hi, k float64) present.Estimator {
		return present.Estimator{Method: "knuth", Shape: s, Variant: variant, CILow: big.NewFloat(lo), CIHigh: big.NewFloat(hi), ParetoK: k}
	}
	text := func(items [][]typeset.Piece) string {
		var b strings.Builder
		for _, it := range items {
			for _, p := range it {
				b.WriteString(p.S)
			}
			b.WriteString("|")
		}
		return b.String()
	}
	got := text(longDisagreements([]present.Estimator{
		run("stackshybrid", five, 4.32, 4.41, 0.33),
		run("se", five, 2.92, 3.82, 0.74),
		run("bandse", five, 0.1, 9.0, math.NaN()), // meets both
		run("stacks", grid.Shape{R: 4, C: 5}, 5, 6, 0.2),
	}))
	if strings.Count(got, "|") != 1 || !strings.Contains(got, "se's") || !strings.Contains(got, "0.74") ||
		strings.Index(got, "se's") > strings.Index(got, "stackshybrid's") || strings.Contains(got, "bandse") {
		t.Errorf("disagreements %q: want se below stackshybrid alone", got)
	}
	if got := longDisagreements([]present.Estimator{run("a", five, 1, 2, 0.1), run("b", five, 2, 3, 0.1)}); len(got) != 0 {
		t.Errorf("intervals that touch listed: %v", got)
	}
}
