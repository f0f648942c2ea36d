package multisets

import (
	"context"
	"testing"

	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/stacks"
)

// TestFixedEqualsStackMethod checks Fixed against the stack method (package
// stacks, which shares no counting code with it) on every class of 2×1 to
// 2×4 (2×5 too without -short) that exchanges the stacks by an involution,
// and that the others are refused.
func TestFixedEqualsStackMethod(t *testing.T) {
	maxC := 5
	if testing.Short() {
		maxC = 4
	}
	ctx := context.Background()
	for c := 1; c <= maxC; c++ {
		s := symmetry.Shape{R: 2, C: c}
		g, err := symmetry.NewGroup(s, false)
		if err != nil {
			t.Fatal(err)
		}
		var es []symmetry.Element
		var classes []int
		for _, cl := range g.Classes {
			if Applies(c, cl.Rep) {
				es, classes = append(es, cl.Rep), append(classes, cl.Index)
			}
		}
		if len(es) == 0 {
			t.Fatalf("2x%d: no class exchanges the stacks by an involution", c)
		}
		got, err := Fixed(ctx, c, es)
		if err != nil {
			t.Fatal(err)
		}
		nonzero := 0
		for k, e := range es {
			want, err := stacks.Fixed(ctx, s, e)
			if err != nil {
				t.Fatal(err)
			}
			if got[k].Cmp(want) != 0 {
				t.Errorf("2x%d class %d: multisets %v, stack method %v", c, classes[k], got[k], want)
			}
			if want.Sign() > 0 {
				nonzero++
			}
		}
		t.Logf("2x%d: %d classes, %d fixing a grid", c, len(es), nonzero)
		if c >= 2 && nonzero == 0 {
			t.Errorf("2x%d: every class checked fixes no grid: the check tests nothing", c)
		}
		if _, err := Fixed(ctx, c, []symmetry.Element{g.Classes[0].Rep}); err == nil {
			t.Errorf("2x%d: the identity was counted, not refused", c)
		}
	}
}
