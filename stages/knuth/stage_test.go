package knuth_test

import (
	"testing"

	"github.com/sudoku-census/sudoku-census/pipeline/pipelinetest"
	"github.com/sudoku-census/sudoku-census/stages/all"
	"github.com/sudoku-census/sudoku-census/stages/knuth"
)

var smoke = pipelinetest.Options{Stages: all.Stages, Config: "../../configs/smoke.yaml"}

// TestStage runs knuth with the smoke config and checks its tables. That
// they are byte-identical whatever GOMAXPROCS is, all's
// TestByteIdenticalWhateverTheCores checks on this same config.
func TestStage(t *testing.T) {
	o := smoke
	o.Targets = []string{"knuth"}
	root := pipelinetest.Run(t, o)
	rows, err := knuth.Summary.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 4*6 {
		t.Fatalf("%d summary rows, want 24 (4 shapes × 6 variants)", len(rows))
	}
	for _, r := range rows {
		if r.Shape == "2x2" && (r.Estimate == "" || r.Samples != 2000 || r.Work <= 0) {
			t.Errorf("row %+v", r)
		}
		if want := map[bool]int32{true: 10, false: 1}[r.Variant == "se"]; r.Budget != want {
			t.Errorf("%s %s: budget %d, want %d", r.Shape, r.Variant, r.Budget, want)
		}
	}
	trace, err := knuth.Trace.Load(root)
	if err != nil || len(trace) < 24*10 {
		t.Fatalf("%d trace rows, err %v", len(trace), err)
	}
}

func TestConfigErrors(t *testing.T) {
	for set, key := range map[string]string{
		"knuth.block_size=0":                                      "knuth.block_size",
		"knuth.variants=[mrv, dfs]":                               "knuth.variants",
		"knuth.hybrid_order=spiral":                               "knuth.hybrid_order",
		"knuth.samples={3y3: 10}":                                 "knuth.samples.3y3",
		"knuth.samples={2x2: 0}":                                  "knuth.samples.2x2",
		"knuth.samples={2x2: 5, 2x2/dfs: 3}":                      "knuth.samples.2x2/dfs",
		"knuth.hybrid_k={2x2: 17}":                                "knuth.hybrid_k.2x2",
		"knuth.se_order=random":                                   "knuth.se_order",
		"knuth.se_budget={2x2: 0, 2x3: 10, 3x3: 10, 4x4: 10}":     "knuth.se_budget.2x2",
		"knuth.se_budget={2x2: 10, 2x3: 10, 3x3: 10}":             "knuth.se_budget.4x4",
		"knuth.se_budget={2x2: 10, 2x3: 10, 3x3: 10, 4x4: 10001}": "knuth.se_budget.4x4",
	} {
		pipelinetest.Rejects(t, smoke, set, key)
	}
}
