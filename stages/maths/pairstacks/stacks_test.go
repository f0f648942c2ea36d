package pairstacks

import (
	"math/bits"
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

// symbolOrderByPopcounts is symbolOrder as first written (each subset's
// cost recounted from the rows, every symbol tried as the last): the
// reference for the incremental one.
func symbolOrderByPopcounts(c, k int, symbolsOf []uint16) []int {
	n := k
	var binom [MaxC + 1]uint64
	for d := range c + 1 {
		binom[d] = binomial(c, d)
	}
	size := 1 << n
	best := make([]uint64, size)
	from := make([]int8, size)
	for S := 1; S < size; S++ {
		cost := uint64(1)
		for _, row := range symbolsOf {
			d := bits.OnesCount16(row & uint16(S))
			cost = satMul(cost, binom[d])
		}
		b := ^uint64(0)
		for x := range n {
			if S>>x&1 == 1 && best[S&^(1<<x)] < b {
				b, from[S] = best[S&^(1<<x)], int8(x)
			}
		}
		best[S] = satAdd(b, cost)
	}
	order := make([]int, n)
	for S, j := size-1, n-1; S != 0; j-- {
		x := int(from[S])
		order[j] = x
		S &^= 1 << x
	}
	return order
}

// TestSymbolOrderIncremental: symbolOrder gives the reference's order
// (ties included) on random pattern lists of every c and length, whole
// stacks and halves alike; the kernel's split, and so every unit of the
// 2x6 bundle, depends on it.
func TestSymbolOrderIncremental(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 6))
	for c := 1; c <= MaxC; c++ {
		for k := 1; k <= 2*c; k++ {
			for range 300 {
				// k of the 2c patterns of a stack (each bit set in c
				// of them), as Split and BuildHalf see them.
				full := make([]uint8, 2*c)
				for i := range c {
					for _, x := range rng.Perm(2 * c)[:c] {
						full[x] |= 1 << i
					}
				}
				patterns := full[:k]
				slices.Sort(patterns)
				var s StackCounter
				symbolsOf := s.load(c, patterns)
				got := symbolOrder(c, k, symbolsOf[:2*c])
				want := symbolOrderByPopcounts(c, k, symbolsOf[:2*c])
				if !slices.Equal(got, want) {
					t.Fatalf("c=%d patterns %v: order %v, the reference %v", c, patterns, got, want)
				}
			}
		}
	}
}
