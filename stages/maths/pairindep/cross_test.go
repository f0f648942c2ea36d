package pairindep

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/sudoku-census/sudoku-census/stages/maths/pair"
)

// TestAgreesWithPair compares E(T) from this package and from package pair
// on every multiset for c ≤ 4 and on random ones for c = 5.
func TestAgreesWithPair(t *testing.T) {
	ctx := context.Background()
	check := func(c int, pats []uint8) {
		a, err := Stacks(ctx, c, pats)
		if err != nil {
			t.Fatal(err)
		}
		b, err := pair.Stacks(ctx, c, pats)
		if err != nil {
			t.Fatal(err)
		}
		if a != b {
			t.Errorf("c=%d %v: pairindep E = %d, pair E = %d", c, pats, a, b)
		}
	}
	for c := 1; c <= 4; c++ {
		err := walkMultisets(c, func(counts []int) error {
			check(c, patternsOf(counts))
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	rng := rand.New(rand.NewPCG(11, 12))
	for range 40 {
		check(5, randomPatterns(rng, 5))
	}
}

// TestOrbitRepsAgree checks E on every orbit representative pair lists for
// c = 5 (the values its 2×5 count rests on).
func TestOrbitRepsAgree(t *testing.T) {
	if testing.Short() {
		t.Skip("355 stack counts by each package")
	}
	ctx := context.Background()
	orbits, err := pair.Orbits(ctx, 5)
	if err != nil {
		t.Fatal(err)
	}
	es, err := pair.StackCounts(ctx, orbits, 2)
	if err != nil {
		t.Fatal(err)
	}
	for j, o := range orbits {
		got, err := Stacks(ctx, 5, o.Rep)
		if err != nil {
			t.Fatal(err)
		}
		if got != es[j] {
			t.Errorf("orbit %s: pairindep E = %d, pair E = %d", o, got, es[j])
		}
	}
}

// TestAgrees2x6 checks E on some 2×6 orbit representatives: the first (six
// patterns 0 and six all-ones, E = L(6)²) and four drawn at random by pair's
// TestProject2x6 among those whose count takes under half a second there (a
// 2×6 count has no independent check of its own; these show the two stack
// counters agree at c = 6, where pair's states use all 60 bits of its key).
func TestAgrees2x6(t *testing.T) {
	if testing.Short() {
		t.Skip("seconds per stack count")
	}
	ctx := context.Background()
	for _, s := range []string{"6:0000000000003f3f3f3f3f3f", "6:000001030c1c2f31363a3f3f", "6:000001060b132d363b3c3d3e",
		"6:000001060b0d30373b3d3e3e", "6:000000030d152a363b3c3f3f"} {
		o, err := pair.ParseOrbit(s)
		if err != nil {
			t.Fatal(err)
		}
		want, err := pair.Stacks(ctx, 6, o.Rep)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Stacks(ctx, 6, o.Rep)
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("orbit %s: pairindep E = %d, pair E = %d", o, got, want)
		}
	}
}
