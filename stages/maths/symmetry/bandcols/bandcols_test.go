package bandcols

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/stacks"
)

// TestMatchesStacks compares Fixed with package stacks' count (the first
// count; the two share only the group code) on every involutive stack
// exchange of 2×2 to 2×4 and on those of 2×5 that exchange no bands (with
// BANDCOLS_2X5_ALL=1 all of 2×5's too: classes 27, 41 and 55 take about 2
// minutes each, 62 and 83 longer, their band pairs enumerated together).
func TestMatchesStacks(t *testing.T) {
	all := os.Getenv("BANDCOLS_2X5_ALL") == "1"
	for c := 2; c <= 5; c++ {
		s := symmetry.Shape{R: 2, C: c}
		g, err := symmetry.NewGroup(s, false)
		if err != nil {
			t.Fatal(err)
		}
		for _, cl := range g.Classes {
			if !Applies(s, cl.Rep) {
				continue
			}
			if x, _ := newExchange(s, cl.Rep); c == 5 && !all && len(x.groups()) < c {
				continue
			}
			t0 := time.Now()
			got, err := Fixed(context.Background(), s, cl.Rep)
			if err != nil {
				t.Fatalf("%v class %d: %v", s, cl.Index, err)
			}
			took := time.Since(t0)
			want, err := stacks.Fixed(context.Background(), s, cl.Rep)
			if err != nil {
				t.Fatalf("%v class %d: stacks: %v", s, cl.Index, err)
			}
			if got.Cmp(want) != 0 {
				t.Errorf("%v class %d [%s]: bandcols %v, stacks %v", s, cl.Index, cl.Desc, got, want)
			} else {
				t.Logf("%v class %d [%s]: F %v equal (%v)", s, cl.Index, cl.Desc, got, took)
			}
		}
	}
}

// TestPairsTogetherMatchStacks checks the enumeration of a pair's two bands
// together, which a half with two pairs needs for its second (2×6 class
// 175), on the band-pair classes of 2×2 to 2×4, where the two layers of a
// first pair would otherwise always be taken.
func TestPairsTogetherMatchStacks(t *testing.T) {
	pairsInLayers = false
	defer func() { pairsInLayers = true }()
	seen := 0
	for c := 2; c <= 4; c++ {
		s := symmetry.Shape{R: 2, C: c}
		g, err := symmetry.NewGroup(s, false)
		if err != nil {
			t.Fatal(err)
		}
		for _, cl := range g.Classes {
			x, err := newExchange(s, cl.Rep)
			if err != nil || len(x.groups()) == c {
				continue // not an exchange, or single bands only
			}
			seen++
			got, err := Fixed(context.Background(), s, cl.Rep)
			if err != nil {
				t.Fatal(err)
			}
			want, err := stacks.Fixed(context.Background(), s, cl.Rep)
			if err != nil {
				t.Fatal(err)
			}
			if got.Cmp(want) != 0 {
				t.Errorf("%v class %d [%s], pairs together: bandcols %v, stacks %v", s, cl.Index, cl.Desc, got, want)
			}
		}
	}
	if seen != 7 {
		t.Errorf("%d classes with band pairs, want 7 (2×2: 1, 2×3: 2, 2×4: 4)", seen)
	}
}
