package reduce

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/bands"
	"github.com/sudoku-census/sudoku-census/stages/sudoku"
)

// runStages runs bands and reduce in root with the given reduce config.
func runStages(t *testing.T, root, reduceConfig string) {
	t.Helper()
	config := filepath.Join(root, "config.yaml")
	if err := os.WriteFile(config, []byte("seed: 1\nreduce:\n"+reduceConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	eng, err := pipeline.New(pipeline.Options{Root: root, Stages: []*pipeline.Stage{bands.Stage, Stage}, ConfigFile: config})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := eng.Run(context.Background(), []string{"reduce"}, pipeline.RunOptions{}); err != nil {
		t.Fatal(err)
	}
}

// checkReduced checks the reduced table: n rows in strictly increasing
// dictionary order, ids 0..n-1, each band valid and reduced, multiplicity
// m each, and that every listed band really is the reduction of m bands.
func checkReduced(t *testing.T, rows []Row, n, m int, swap bool) {
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

func TestStage(t *testing.T) {
	root := t.TempDir()
	runStages(t, root, "  swap_blocks: true\n")
	rows, err := Table.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	checkReduced(t, rows, 36_288, 72, true)

	runStages(t, root, "  swap_blocks: false\n")
	rows, err = Table.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	checkReduced(t, rows, 72_576, 36, false)
}

func TestReduceIndependentOfWorkers(t *testing.T) {
	var bs []sudoku.Band
	for b := range sudoku.AllBands() {
		bs = append(bs, b)
	}
	r2, m2 := Reduce(bs, true)
	procs := runtime.GOMAXPROCS(1)
	r1, m1 := Reduce(bs, true)
	runtime.GOMAXPROCS(procs)
	if !slices.Equal(r1, r2) || !slices.Equal(m1, m2) {
		t.Errorf("Reduce differs between GOMAXPROCS=1 and %d", procs)
	}
	// Half the bands: the counts are those of the bands given, not of the
	// whole catalogue.
	half := bs[:len(bs)/2]
	_, mh := Reduce(half, true)
	total := 0
	for _, m := range mh {
		total += m
	}
	if total != len(half) {
		t.Errorf("half the bands: multiplicities sum to %d, want %d", total, len(half))
	}
}

func TestParseBandsRejects(t *testing.T) {
	good := bands.RowOf(sudoku.Band{{1, 2, 3, 4, 5, 8, 6, 7, 9}, {4, 5, 6, 1, 7, 9, 2, 3, 8}, {7, 8, 9, 2, 3, 6, 1, 4, 5}})
	notCanonical := bands.Row{Row1: "213458679", Row2: "546179238", Row3: "879236145"}
	if _, err := ParseBands([]bands.Row{good}); err != nil {
		t.Fatal(err)
	}
	if _, err := ParseBands([]bands.Row{good, notCanonical}); err == nil {
		t.Error("a band whose B1 is not canonical was accepted")
	}
}

func BenchmarkReduce(b *testing.B) {
	var bs []sudoku.Band
	for x := range sudoku.AllBands() {
		bs = append(bs, x)
	}
	for b.Loop() {
		Reduce(bs, true)
	}
}
