package halves

import (
	"math/rand/v2"
	"testing"
)

// bruteBand counts the bands with column triples cols by ordering the
// columns one by one, each row taking every symbol at most once: a count
// that shares nothing with bandCounter's.
func bruteBand(c int, cols []uint16) uint64 {
	var rows [3]uint16
	var rec func(j int) uint64
	rec = func(j int) uint64 {
		if j == 3*c {
			return 1
		}
		var n uint64
		for _, o := range orderings(cols[j]) {
			if o[0]&rows[0] != 0 || o[1]&rows[1] != 0 || o[2]&rows[2] != 0 {
				continue
			}
			for r := range 3 {
				rows[r] |= o[r]
			}
			n += rec(j + 1)
			for r := range 3 {
				rows[r] &^= o[r]
			}
		}
		return n
	}
	return rec(0)
}

// TestBandCountBrute compares the band count with the brute-force one on
// random column triples (each stack a random partition into triples) for
// C = 2, 3, 4, and checks that some of them have bands.
func TestBandCountBrute(t *testing.T) {
	r := rand.New(rand.NewPCG(48, 3))
	for c := 2; c <= MaxC; c++ {
		h, err := NewCounter(c)
		if err != nil {
			t.Fatal(err)
		}
		nonzero := 0
		for range 200 {
			cols := make([]uint16, 3*c)
			for s := range 3 {
				p := r.Perm(3 * c)
				for j := range c {
					cols[s*c+j] = 1<<p[3*j] | 1<<p[3*j+1] | 1<<p[3*j+2]
				}
			}
			got, want := h.band.count(cols), bruteBand(c, cols)
			if got != want {
				t.Fatalf("C=%d %x: B %d, brute force %d", c, cols, got, want)
			}
			if got != 0 {
				nonzero++
			}
		}
		if nonzero < 20 {
			t.Errorf("C=%d: only %d of 200 random signatures have bands", c, nonzero)
		}
	}
}
