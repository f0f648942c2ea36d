package reduce_test

import (
	"testing"

	"github.com/sudoku-census/sudoku-census/pipeline/pipelinetest"
	"github.com/sudoku-census/sudoku-census/stages/maths/sudoku"
	"github.com/sudoku-census/sudoku-census/stages/reduce"
)

// checkReduced checks the reduced table: n rows in strictly increasing
// dictionary order, ids 0..n-1, each band valid and reduced, multiplicity
// m each, and that every listed band really is the reduction of m bands.
func checkReduced(t *testing.T, rows []reduce.Row, n, m int, swap bool) {
	t.Helper()
	if len(rows) != n {
		t.Fatalf("%d reduced bands, want %d", len(rows), n)
	}
	count := make(map[sudoku.Key]int, n)
	for b := range sudoku.AllBands() {
		if swap {
			b = b.LexReduce()
		} else {
			b = b.SortColumns()
		}
		count[b.Key()]++
	}
	sum, prev := 0, ""
	for i, r := range rows {
		b, err := r.Band()
		if err != nil {
			t.Fatalf("row %d: %v", i, err)
		}
		if s := r.Row1 + r.Row2 + r.Row3; s <= prev || r.ID != int32(i) {
			t.Fatalf("row %d (id %d) %s out of order", i, r.ID, s)
		} else {
			prev = s
		}
		if swap && !b.IsReduced() || b.SortColumns() != b {
			t.Fatalf("row %d %s is not reduced", i, b)
		}
		if int(r.Multiplicity) != m || count[b.Key()] != m {
			t.Fatalf("row %d %s: multiplicity %d (recount %d), want %d", i, b, r.Multiplicity, count[b.Key()], m)
		}
		sum += int(r.Multiplicity)
	}
	if sum != 2_612_736 {
		t.Errorf("multiplicities sum to %d, want 2,612,736", sum)
	}
}

// TestStage runs bands and reduce with the smoke config (swap_blocks
// true), then reruns reduce in the same root with swap_blocks false.
func TestStage(t *testing.T) {
	o := pipelinetest.Options{Stages: pipelinetest.Closure(reduce.Stage), Set: []string{"reduce.swap_blocks=true"}}
	root := pipelinetest.Run(t, o)
	rows, err := reduce.Table.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	checkReduced(t, rows, 36_288, 72, true)

	o.Root, o.Set = root, []string{"reduce.swap_blocks=false"}
	pipelinetest.Run(t, o)
	rows, err = reduce.Table.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	checkReduced(t, rows, 72_576, 36, false)
}
