package present

import (
	"math"
	"testing"

	"github.com/sudoku-census/sudoku-census/stages/presentation/typeset"
)

// TestTablesAlign checks that every table's column spec has as many
// columns as its head.
func TestTablesAlign(t *testing.T) {
	for _, tab := range Tables {
		if got, head := len(tab.Make(&Results{}).Aligns()), len(tab.Make(&Results{}).Head); got != head {
			t.Errorf("table %s: %d columns in its spec, %d in its head", tab.Name, got, head)
		}
	}
}

// TestIntervalCell prints an interval with enough digits to tell its ends
// apart, and a dash for an interval that is not one.
func TestIntervalCell(t *testing.T) {
	for _, c := range []struct {
		lo, hi float64
		want   string
	}{
		{0.51, 0.74, `[0.51, 0.74]`},
		{0.1102, 0.1149, `[0.1102, 0.1149]`}, // one digit below the width's leading digit (IntervalDigits)
		{2, 2, `2.0`},
		{14.93, 185.2, `[15, 190]`},
		{2.2e-3, 0.91, `[2.2\times 10^{-3}, 0.91]`},
		{0, 0, `0`},
		{math.NaN(), 1, "dash"},
		{1, math.Inf(1), "dash"},
	} {
		cell := IntervalCell(c.lo, c.hi, 2)
		var got string
		for _, p := range cell.Pieces {
			if p.Kind == typeset.Dash {
				got += "dash"
			}
			got += p.S
		}
		if got != c.want {
			t.Errorf("IntervalCell(%g, %g) = %s, want %s", c.lo, c.hi, got, c.want)
		}
	}
}
