package reduce

import (
	"runtime"
	"slices"
	"testing"

	"github.com/sudoku-census/sudoku-census/stages/bands"
	"github.com/sudoku-census/sudoku-census/stages/sudoku"
)

func TestReduceIndependentOfWorkers(t *testing.T) {
	var bs []sudoku.Band
	for b := range sudoku.AllBands() {
		bs = append(bs, b)
	}
	r2, m2 := Reduce(bs, true)
	procs := runtime.GOMAXPROCS(1)
	r1, m1 := Reduce(bs, true)
	runtime.GOMAXPROCS(procs)
	if !slices.Equal(r1, r2) || !slices.Equal(m1, m2) {
		t.Errorf("Reduce differs between GOMAXPROCS=1 and %d", procs)
	}
	// Half the bands: the counts are those of the bands given, not of the
	// whole catalogue.
	half := bs[:len(bs)/2]
	_, mh := Reduce(half, true)
	total := 0
	for _, m := range mh {
		total += m
	}
	if total != len(half) {
		t.Errorf("half the bands: multiplicities sum to %d, want %d", total, len(half))
	}
}

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

func BenchmarkReduce(b *testing.B) {
	var bs []sudoku.Band
	for x := range sudoku.AllBands() {
		bs = append(bs, x)
	}
	for b.Loop() {
		Reduce(bs, true)
	}
}
