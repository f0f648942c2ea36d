package bandpair

import (
	"context"
	"math/big"
	"testing"

	"github.com/sudoku-census/sudoku-census/stages/maths/sudoku"
)

// TestKeyInvariant checks Key on bands related by the operations it
// ignores, and that it tells apart bands with different counts.
func TestKeyInvariant(t *testing.T) {
	c := sharedCounter()
	b := bandOf(t, "123457689", "456189237", "789236145")
	want := c.Key(b)
	// Permute blocks (B3 B1 B2), permute columns within blocks, relabel.
	moved := b.PermuteColumns([9]int{7, 6, 8, 2, 0, 1, 4, 5, 3})
	if got := c.Key(moved); got != want {
		t.Errorf("key after moving columns: %d, want %d", got, want)
	}
	if got := c.Key(moved.RelabelB1()); got != want {
		t.Errorf("key after relabelling: %d, want %d", got, want)
	}
	if got := c.Key(b.PermuteRows([3]int{2, 0, 1})); got != want {
		t.Errorf("key after permuting rows: %d, want %d", got, want)
	}
	canon := bandOf(t, "123456789", "456789123", "789123456")
	if c.Key(canon) == want {
		t.Errorf("canonical band and %v share key %d but not their counts", b, want)
	}
}

// TestCensus counts every one of the 36,288 lexicographically reduced bands
// (each standing for 72 bands with B1 = 123/456/789) by the band-pair
// method, computing each distinct Key once, and checks the published
// totals: N = 6670903752021072936960 grids, N/(9!·72²) = 3546146300288 =
// 2^7 × 27704267971, and 44 distinct completion counts.
func TestCensus(t *testing.T) {
	var bands []sudoku.Band
	for b := range sudoku.AllBands() {
		if b.IsReduced() {
			bands = append(bands, b)
		}
	}
	if len(bands) != sudoku.ReducedCount {
		t.Fatalf("%d reduced bands, want %d", len(bands), sudoku.ReducedCount)
	}
	counts, err := CountAll(context.Background(), sharedCounter(), bands, 2)
	if err != nil {
		t.Fatal(err)
	}
	classes := make([]Class, len(bands))
	distinct := map[uint64]bool{}
	for i, n := range counts {
		classes[i] = Class{Size: 1, FirstBands: 72, Completions: n.Completions}
		distinct[n.Completions] = true
	}
	census, err := Tally(classes)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := new(big.Int).SetString("6670903752021072936960", 10)
	if census.Grids.Cmp(want) != 0 {
		t.Errorf("grids = %s, want %s", census.Grids, want)
	}
	if census.ReducedCount.Cmp(big.NewInt(3546146300288)) != 0 {
		t.Errorf("reduced count = %s, want 3546146300288", census.ReducedCount)
	}
	factors, err := Factorise(census.ReducedCount)
	if err != nil || factors != "2^7 × 27704267971" {
		t.Errorf("factorisation %q (%v), want 2^7 × 27704267971", factors, err)
	}
	if len(distinct) != 44 {
		t.Errorf("%d distinct completion counts, want 44", len(distinct))
	}
}
