package reduce

import (
	"testing"

	"github.com/sudoku-census/sudoku-census/stages/bands"
	"github.com/sudoku-census/sudoku-census/stages/maths/sudoku"
)

func TestParseBandsRejects(t *testing.T) {
	good := bands.RowOf(sudoku.Band{{1, 2, 3, 4, 5, 8, 6, 7, 9}, {4, 5, 6, 1, 7, 9, 2, 3, 8}, {7, 8, 9, 2, 3, 6, 1, 4, 5}})
	notCanonical := bands.Row{Row1: "213458679", Row2: "546179238", Row3: "879236145"}
	if _, err := ParseBands([]bands.Row{good}); err != nil {
		t.Fatal(err)
	}
	if _, err := ParseBands([]bands.Row{good, notCanonical}); err == nil {
		t.Error("a band whose B1 is not canonical was accepted")
	}
}
