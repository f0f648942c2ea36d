package stackjoin

import (
	"context"
	"testing"

	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/search"
)

// TestPartitionRank checks that partitionRank numbers the ordered
// partitions of the symbols 0, 1, … in the order computeFirstRows lists
// them, and that the first-row orbit sizes add up to their number.
func TestPartitionRank(t *testing.T) {
	for _, s := range []symmetry.Shape{{R: 2, C: 2}, {R: 3, C: 2}, {R: 2, C: 3}, {R: 3, C: 3}, {R: 4, C: 2}, {R: 3, C: 4}, {R: 5, C: 2}} {
		g, err := symmetry.NewGroup(s, false)
		if err != nil {
			t.Fatal(err)
		}
		e := g.Classes[0].Rep
		p := newProblem(s, e)
		var st Stats
		w := newWalker(context.Background(), p, search.SigmaTypes(s, e)[0], 0, &st)
		r, i := p.r, 0
		cur := make([]uint16, r)
		var rec func(k int, used uint16)
		rec = func(k int, used uint16) {
			if k == r {
				if got := w.partitionRank(cur); got != i {
					t.Fatalf("%v: partition %v has rank %d, listed %d", s, cur, got, i)
				}
				i++
				return
			}
			for _, a := range w.subs {
				if a&used == 0 {
					cur[k] = a
					rec(k+1, used|a)
				}
			}
		}
		rec(0, 0)
		_, sizes := w.computeFirstRows()
		sum := 0
		for _, z := range sizes {
			sum += z
		}
		if sum != i {
			t.Errorf("%v: first-row orbits hold %d partitions, not %d", s, sum, i)
		}
	}
}
