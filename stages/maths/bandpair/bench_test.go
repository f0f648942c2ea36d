package bandpair

import (
	"sync"
	"testing"

	"github.com/sudoku-census/sudoku-census/stages/maths/sudoku"
)

// classRepresentatives returns the first reduced band, in dictionary order,
// of each distinct Key: the 44 class representatives.
var classRepresentatives = sync.OnceValue(func() []sudoku.Band {
	c := sharedCounter()
	seen := map[int]bool{}
	var reps []sudoku.Band
	for b := range sudoku.AllBands() {
		if !b.IsReduced() {
			continue
		}
		if k := c.Key(b); !seen[k] {
			seen[k] = true
			reps = append(reps, b)
		}
	}
	return reps
})

// BenchmarkBandPair44 counts the 44 class representatives by the band-pair
// method, table of N(S) included.
func BenchmarkBandPair44(b *testing.B) {
	reps := classRepresentatives()
	if len(reps) != 44 {
		b.Fatalf("%d representatives", len(reps))
	}
	for b.Loop() {
		c, err := NewCounter(0)
		if err != nil {
			b.Fatal(err)
		}
		for _, r := range reps {
			if _, _, err := c.Completions(r); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkBandPair44Warm is the same with the table of N(S) built once.
func BenchmarkBandPair44Warm(b *testing.B) {
	reps := classRepresentatives()
	c := sharedCounter()
	for b.Loop() {
		for _, r := range reps {
			c.Completions(r)
		}
	}
}

// BenchmarkNewCounter builds the table of N(S).
func BenchmarkNewCounter(b *testing.B) {
	for b.Loop() {
		if _, err := NewCounter(0); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkKeyAllReduced computes Key for all 36,288 reduced bands on one
// goroutine.
func BenchmarkKeyAllReduced(b *testing.B) {
	var bands []sudoku.Band
	for band := range sudoku.AllBands() {
		if band.IsReduced() {
			bands = append(bands, band)
		}
	}
	c := sharedCounter()
	for b.Loop() {
		for _, band := range bands {
			c.Key(band)
		}
	}
}

// BenchmarkBandsWithColumnSets computes one N(S) from scratch.
func BenchmarkBandsWithColumnSets(b *testing.B) {
	s := standardSets(17, 200)
	for b.Loop() {
		BandsWithColumnSets(s)
	}
}
