package stacks

import (
	"context"
	"slices"
	"testing"

	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/search"
)

// TestFixedByOrbits checks the orbit sum against the stack method on every
// class of 2×2 to 2×4 (2×5 too without -short) that exchanges the stacks
// with ρ² = id and κ₁κ₀ = id.
func TestFixedByOrbits(t *testing.T) {
	maxC := 5
	if testing.Short() {
		maxC = 4
	}
	defer func(old int) { minOrbitC = old }(minOrbitC)
	ctx := context.Background()
	for c := 2; c <= maxC; c++ {
		s := symmetry.Shape{R: 2, C: c}
		g, err := symmetry.NewGroup(s, false)
		if err != nil {
			t.Fatal(err)
		}
		checked, nonzero, free := 0, 0, 0
		for i, cl := range g.Classes {
			if !InvolutiveExchange(s, cl.Rep) {
				continue
			}
			got, err := FixedByOrbits(ctx, s, cl.Rep, 2)
			if err != nil {
				t.Fatal(err)
			}
			minOrbitC = 100
			want, err := Fixed(ctx, s, cl.Rep)
			if err != nil {
				t.Fatal(err)
			}
			if got.Cmp(want) != 0 {
				t.Errorf("%v class %d (%s): %v by pattern orbits, %v by the stack method", s, i, cl.Desc, got, want)
			}
			// Fixed itself, taking the orbit sum where ĥ fixes a pattern.
			minOrbitC = 1
			routed, err := Fixed(ctx, s, cl.Rep)
			if err != nil {
				t.Fatal(err)
			}
			if routed.Cmp(want) != 0 {
				t.Errorf("%v class %d (%s): Fixed gives %v with the orbit sum enabled, %v without", s, i, cl.Desc, routed, want)
			}
			if fixesAPattern(c, cl.Rep) {
				free++
			}
			checked++
			if want.Sign() != 0 {
				nonzero++
			}
		}
		grids, err := OrbitGrids(ctx, c, 2)
		if err != nil {
			t.Fatal(err)
		}
		if want := []string{2: "288", 3: "28200960", 4: "29136487207403520", 5: "1903816047972624930994913280000"}[c]; grids.String() != want {
			t.Errorf("2x%d: the orbits' stack counts give %v grids, want %s", c, grids, want)
		}
		t.Logf("%v: %d involutive exchanges checked, %d fixing grids, %d with a pattern fixed by ĥ", s, checked, nonzero, free)
		if nonzero < 2 || free < 1 {
			t.Errorf("%v: only %d involutive exchanges fixing grids checked, %d with a pattern fixed by ĥ", s, nonzero, free)
		}
	}
}

// TestInvolutiveExchanges2x6 lists the 2×6 classes with a relabelling type
// that Fixed gives to the orbit sum: the 12 plain exchanges and the 4 whose
// ĥ fixes a pattern, which the stack method cannot list.
func TestInvolutiveExchanges2x6(t *testing.T) {
	s := symmetry.Shape{R: 2, C: 6}
	g, err := symmetry.NewGroup(s, false)
	if err != nil {
		t.Fatal(err)
	}
	var got, free []int
	for i, cl := range g.Classes {
		if len(search.SigmaTypes(s, cl.Rep)) == 0 {
			continue
		}
		if ByOrbits(s, cl.Rep) {
			got = append(got, i)
			if fixesAPattern(s.C, cl.Rep) {
				free = append(free, i)
			}
		}
	}
	want := []int{10, 21, 32, 43, 54, 65, 76, 87, 98, 109, 120, 131, 142, 153, 164, 175}
	if !slices.Equal(got, want) {
		t.Errorf("2x6 classes with a relabelling type that Fixed counts by pattern orbits: %v, want %v", got, want)
	}
	if want := []int{142, 153, 164, 175}; !slices.Equal(free, want) {
		t.Errorf("2x6 involutive exchanges whose ĥ fixes a pattern: %v, want %v", free, want)
	}
}
