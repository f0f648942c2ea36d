package funnel

import (
	"runtime"
	"slices"
	"testing"

	"github.com/sudoku-census/sudoku-census/stages/maths/sudoku"
)

func TestReduceIndependentOfWorkers(t *testing.T) {
	var bs []sudoku.Band
	for b := range sudoku.AllBands() {
		bs = append(bs, b)
	}
	r2, m2, _ := Reduce(bs, true)
	procs := runtime.GOMAXPROCS(1)
	r1, m1, _ := Reduce(bs, true)
	runtime.GOMAXPROCS(procs)
	if !slices.Equal(r1, r2) || !slices.Equal(m1, m2) {
		t.Errorf("Reduce differs between GOMAXPROCS=1 and %d", procs)
	}
	// Half the bands: the counts are those of the bands given, not of the
	// whole catalogue.
	half := bs[:len(bs)/2]
	_, mh, _ := Reduce(half, true)
	total := 0
	for _, m := range mh {
		total += m
	}
	if total != len(half) {
		t.Errorf("half the bands: multiplicities sum to %d, want %d", total, len(half))
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
