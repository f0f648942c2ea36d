package shapes

import (
	"testing"

	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
)

// Grid counts from the literature for boxes of 2 rows × C columns (the
// same for C rows × 2 columns).
var knownPair = map[int]string{
	1: "2",                 // side 2: the two Latin squares of order 2
	2: "288",               // side 4
	3: "28200960",          // side 6
	4: "29136487207403520", // side 8
}

func TestPairCountKnown(t *testing.T) {
	for c := 1; c <= 4; c++ {
		for _, workers := range []int{1, 3} {
			if got := PairCount(c, workers).String(); got != knownPair[c] {
				t.Errorf("PairCount(%d, %d workers) = %s, want %s", c, workers, got, knownPair[c])
			}
		}
	}
}

// TestStacksLatin checks E(T) where T pairs C copies of the all-zero
// pattern with C of the all-one pattern: each row set of the stack is then
// the same, the stack splits into two Latin squares of order C, and
// E = L(C)² with L = 1, 2, 12, 576 Latin squares.
func TestStacksLatin(t *testing.T) {
	latin := []uint64{1, 1, 2, 12, 576, 161280}
	for c := 1; c <= 5; c++ {
		pats := make([]uint8, 2*c)
		for x := c; x < 2*c; x++ {
			pats[x] = 1<<c - 1
		}
		s := &stackCounter{c: c, memo: map[uint64]uint64{}}
		if got, want := s.stacks(pats), latin[c]*latin[c]; got != want {
			t.Errorf("C=%d: E = %d, want %d", c, got, want)
		}
	}
}

// TestPairMatchesBacktracking compares with the grid counter on the shapes
// backtracking can finish.
func TestPairMatchesBacktracking(t *testing.T) {
	for c := 1; c <= 3; c++ {
		want, err := grid.Grid{Shape: grid.Shape{R: 2, C: c}, Cells: make([]uint8, 4*c*c)}.Count(2)
		if err != nil {
			t.Fatal(err)
		}
		if got := PairCount(c, 2); got.Cmp(want) != 0 {
			t.Errorf("2x%d: pair %v, backtracking %v", c, got, want)
		}
	}
}

func BenchmarkPairCount2x3(b *testing.B) {
	for b.Loop() {
		PairCount(3, 2)
	}
}

func BenchmarkPairCount2x4(b *testing.B) {
	for b.Loop() {
		PairCount(4, 2)
	}
}

// BenchmarkBacktrack2x3 counts the same grids as BenchmarkPairCount2x3 with
// the backtracking counter.
func BenchmarkBacktrack2x3(b *testing.B) {
	g := grid.Grid{Shape: grid.Shape{R: 2, C: 3}, Cells: make([]uint8, 36)}
	for b.Loop() {
		if _, err := g.Count(2); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStacks2x5 counts the stacks E(T) of one pattern multiset of the
// 2x5 shape, the unit of work of a 2x5 count (589,392 multisets).
func BenchmarkStacks2x5(b *testing.B) {
	pats := []uint8{0, 1, 14, 15, 15, 17, 18, 20, 24, 31}
	s := &stackCounter{c: 5, memo: map[uint64]uint64{}}
	for b.Loop() {
		s.stacks(pats)
	}
}
