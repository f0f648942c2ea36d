package triplestacks

import (
	"math/bits"
	"math/rand/v2"
	"testing"
)

// bruteStacks counts the stacks with the given row sets row by row, keeping
// for each column the symbols it holds (a map from the sorted columns to
// counts, so it reaches c = 4).
func bruteStacks(c int, bands [][3]uint16) uint64 {
	n := 3 * c
	type state [MaxC]uint16
	cur := map[state]uint64{{}: 1}
	for r := range n {
		set := bands[r/3][r%3]
		var syms []int
		for m := set; m != 0; m &= m - 1 {
			syms = append(syms, bits.TrailingZeros16(m))
		}
		next := map[state]uint64{}
		for st, v := range cur {
			var rec func(j int, used uint16, s state)
			rec = func(j int, used uint16, s state) {
				if j == c {
					next[s] += v
					return
				}
				for _, x := range syms {
					if used>>x&1 == 0 && s[j]>>x&1 == 0 {
						t := s
						t[j] |= 1 << x
						rec(j+1, used|1<<x, t)
					}
				}
			}
			rec(0, 0, st)
		}
		cur = next
	}
	var e uint64
	for _, v := range cur {
		e += v
	}
	return e
}

// randomBands returns c random partitions.
func randomBands(rng *rand.Rand, c int) [][3]uint16 {
	s := ShapeFor(c)
	out := make([][3]uint16, c)
	for i := range out {
		out[i] = s.parts[rng.IntN(len(s.parts))]
	}
	return out
}

func TestStackCount(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var sc StackCounter
	for c := MinC; c <= MaxC; c++ {
		trials := 30
		if c == 4 {
			trials = 1 // about 10 s
			if testing.Short() {
				trials = 0
			}
		}
		for range trials {
			b := randomBands(rng, c)
			got, want := sc.Count(c, b), bruteStacks(c, b)
			if got != want {
				t.Fatalf("c=%d %v: E = %d, brute force %d", c, b, got, want)
			}
		}
	}
	// All bands equal: each of the three symbol classes forms a c×c Latin
	// square (bands × columns), so E = L(c)^3.
	for c, l := range map[int]uint64{2: 2, 3: 12, 4: 576} {
		s := ShapeFor(c)
		b := make([][3]uint16, c)
		for i := range b {
			b[i] = s.parts[0]
		}
		if got := sc.Count(c, b); got != l*l*l {
			t.Errorf("c=%d identical bands: E = %d, want %d", c, got, l*l*l)
		}
	}
}

func BenchmarkStackCount4(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	var sc StackCounter
	bands := make([][][3]uint16, 64)
	for i := range bands {
		bands[i] = randomBands(rng, 4)
	}
	b.ResetTimer()
	for i := range b.N {
		sc.Count(4, bands[i%64])
	}
}

// TestNormalise checks, for random configurations, that the normaliser maps
// bands 0 and 1 to the frame of their base and keeps the stack count (for
// c = 4 the count is that of the tables' key).
func TestNormalise(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	var sc StackCounter
	for c := MinC; c <= MaxC; c++ {
		s := ShapeFor(c)
		for range 40 {
			b := randomBands(rng, c)
			var r Relabel
			base := s.Normalise(&b[0], &b[1], &r)
			id, q := s.Frame(base)
			img := make([][3]uint16, c)
			for i := range b {
				for v := range 3 {
					img[i][v] = r.Mask(b[i][v])
				}
			}
			if s.Index(img[0][0], img[0][1]) != s.Index(id[0], id[1]) || s.Index(img[1][0], img[1][1]) != s.Index(q[0], q[1]) {
				t.Fatalf("c=%d: %v normalises to %v, not to the frame of base %d", c, b, img, base)
			}
			if e, f := sc.Count(c, b), sc.Count(c, img); e != f {
				t.Fatalf("c=%d: E %d before relabelling, %d after", c, e, f)
			}
		}
	}
}
