package pairstacks

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortColumnsSix checks the sorting network on every 0-1 input (which
// suffices for a comparator network) and on random ones.
func TestSortColumnsSix(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for x := range 1 << 6 {
		var a [6]uint16
		for i := range a {
			a[i] = uint16(x >> i & 1)
		}
		want := a
		slices.Sort(want[:])
		sortColumns(a[:])
		if a != want {
			t.Fatalf("sortColumns(%06b) = %v", x, a)
		}
	}
	for range 1000 {
		var a [6]uint16
		for i := range a {
			a[i] = uint16(rng.IntN(4096))
		}
		want := a
		slices.Sort(want[:])
		if sortColumns(a[:]); a != want {
			t.Fatalf("sortColumns = %v, want %v", a, want)
		}
	}
}
