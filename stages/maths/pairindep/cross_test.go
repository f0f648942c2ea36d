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
