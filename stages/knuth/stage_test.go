package knuth_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/all"
	"github.com/sudoku-census/sudoku-census/stages/knuth"
)

// runStage runs stage with the smoke config under GOMAXPROCS procs and
// returns the project root.
func runStage(t *testing.T, stage string, procs int, set ...string) string {
	t.Helper()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
	root := t.TempDir()
	eng, err := pipeline.New(pipeline.Options{Root: root, Stages: all.Stages, ConfigFile: "../../configs/smoke.yaml", Set: set})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := eng.Run(context.Background(), []string{stage}, pipeline.RunOptions{}); err != nil {
		t.Fatal(err)
	}
	return root
}

// The artifacts are byte-identical whatever GOMAXPROCS is.
func TestStageDeterministic(t *testing.T) {
	a, b := runStage(t, "knuth", 1), runStage(t, "knuth", 2)
	for _, out := range knuth.Stage.Outputs {
		x, err1 := os.ReadFile(filepath.Join(a, out.Path))
		y, err2 := os.ReadFile(filepath.Join(b, out.Path))
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if !bytes.Equal(x, y) {
			t.Errorf("%s differs between GOMAXPROCS=1 and 2", out.Path)
		}
	}
	rows, err := knuth.Summary.Load(a)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 4*5 {
		t.Fatalf("%d summary rows, want 20 (4 shapes × 5 variants)", len(rows))
	}
	for _, r := range rows {
		if r.Shape == "2x2" && (r.Estimate == "" || r.Samples != 2000 || r.Work <= 0) {
			t.Errorf("row %+v", r)
		}
	}
	trace, err := knuth.Trace.Load(a)
	if err != nil || len(trace) < 20*10 {
		t.Fatalf("%d trace rows, err %v", len(trace), err)
	}
}

func TestConfigErrors(t *testing.T) {
	for set, key := range map[string]string{
		"knuth.block_size=0":                 "knuth.block_size",
		"knuth.variants=[mrv, dfs]":          "knuth.variants",
		"knuth.hybrid_order=spiral":          "knuth.hybrid_order",
		"knuth.samples={3y3: 10}":            "knuth.samples.3y3",
		"knuth.samples={2x2: 0}":             "knuth.samples.2x2",
		"knuth.samples={2x2: 5, 2x2/dfs: 3}": "knuth.samples.2x2/dfs",
		"knuth.hybrid_k={2x2: 17}":           "knuth.hybrid_k.2x2",
	} {
		_, err := pipeline.New(pipeline.Options{Root: t.TempDir(), Stages: all.Stages, ConfigFile: "../../configs/smoke.yaml", Set: []string{set}})
		if err == nil || !strings.Contains(err.Error(), key) || strings.Contains(err.Error(), "\n") {
			t.Errorf("--set %s: error %v, want one line naming %s", set, err, key)
		}
	}
}
