package exact

import (
	"math/big"
	"testing"

	"github.com/sudoku-census/sudoku-census/stages/sudoku"
)

// TestKeyInvariant checks Key on bands related by the operations it
// ignores, and that it tells apart bands with different counts.
func TestKeyInvariant(t *testing.T) {
	b := bandOf(t, "123457689", "456189237", "789236145")
	want := Key(b)
	// Permute blocks (B3 B1 B2), permute columns within blocks, relabel.
	moved := b.PermuteColumns([9]int{7, 6, 8, 2, 0, 1, 4, 5, 3})
	if got := Key(moved); got != want {
		t.Errorf("key after moving columns: %d, want %d", got, want)
	}
	if got := Key(moved.RelabelB1()); got != want {
		t.Errorf("key after relabelling: %d, want %d", got, want)
	}
	if got := Key(b.PermuteRows([3]int{2, 0, 1})); got != want {
		t.Errorf("key after permuting rows: %d, want %d", got, want)
	}
	canon := bandOf(t, "123456789", "456789123", "789123456")
	if Key(canon) == want {
		t.Errorf("canonical band and %v share key %d but not their counts", b, want)
	}
}

// TestCensus counts every one of the 36,288 lexicographically reduced bands
// (each standing for 72 bands with B1 = 123/456/789) by the band-pair
// method, computing each distinct Key once, and checks the published
// totals: N = 6670903752021072936960 grids, N/(9!·72²) = 3546146300288 =
// 2^7 × 27704267971, and 44 distinct completion counts.
func TestCensus(t *testing.T) {
	c := sharedCounter()
	memo := map[int]uint64{}
	var classes []Class
	reduced := 0
	for b := range sudoku.AllBands() {
		if !b.IsReduced() {
			continue
		}
		reduced++
		k := Key(b)
		n, ok := memo[k]
		if !ok {
			var err error
			if n, _, err = c.Completions(b); err != nil {
				t.Fatal(err)
			}
			memo[k] = n
		}
		classes = append(classes, Class{Size: 1, FirstBands: 72, Completions: n})
	}
	if reduced != sudoku.ReducedCount {
		t.Fatalf("%d reduced bands, want %d", reduced, sudoku.ReducedCount)
	}
	census, err := Count(classes)
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
	distinct := map[uint64]bool{}
	for _, n := range memo {
		distinct[n] = true
	}
	if len(memo) != 44 || len(distinct) != 44 {
		t.Errorf("%d keys with %d distinct counts, want 44 and 44", len(memo), len(distinct))
	}
}
