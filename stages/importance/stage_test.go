package importance_test

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/all"
	"github.com/sudoku-census/sudoku-census/stages/importance"
)

func runStage(t *testing.T, procs int) string {
	t.Helper()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
	root := t.TempDir()
	eng, err := pipeline.New(pipeline.Options{Root: root, Stages: all.Stages, ConfigFile: "../../configs/smoke.yaml"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := eng.Run(context.Background(), []string{"importance"}, pipeline.RunOptions{}); err != nil {
		t.Fatal(err)
	}
	return root
}

// The artifacts are byte-identical whatever GOMAXPROCS is, and the rows
// carry Ridder's measures.
func TestStageDeterministic(t *testing.T) {
	a, b := runStage(t, 1), runStage(t, 2)
	for _, out := range importance.Stage.Outputs {
		x, err1 := os.ReadFile(filepath.Join(a, out.Path))
		y, err2 := os.ReadFile(filepath.Join(b, out.Path))
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if !bytes.Equal(x, y) {
			t.Errorf("%s differs between GOMAXPROCS=1 and 2", out.Path)
		}
	}
	rows, err := importance.Summary.Load(a)
	if err != nil || len(rows) != 3 {
		t.Fatalf("%d rows, err %v", len(rows), err)
	}
	for _, r := range rows {
		t.Logf("%s: estimate %s ± %s, RE %.3g, RAT %.4f, log10 EFF %.2f", r.Shape, r.Estimate, r.StdError, r.RelativeError, r.RAT, r.Log10EFF)
		if r.RAT <= 1 || r.RAT > 2 || math.IsNaN(r.Log10EFF) || math.Abs(math.Log10(r.EFF)-r.Log10EFF) > 1e-9 {
			t.Errorf("%s: RAT %v, EFF %v, log10 EFF %v", r.Shape, r.RAT, r.EFF, r.Log10EFF)
		}
	}
}

func TestConfigErrors(t *testing.T) {
	for set, key := range map[string]string{
		"importance.block_size=-1":          "importance.block_size",
		"importance.samples={4x4x: 10}":     "importance.samples.4x4x",
		"importance.samples={3x3: 0}":       "importance.samples.3x3",
		"importance.fill_dead_ends=perhaps": "importance.fill_dead_ends",
	} {
		_, err := pipeline.New(pipeline.Options{Root: t.TempDir(), Stages: all.Stages, ConfigFile: "../../configs/smoke.yaml", Set: []string{set}})
		if err == nil || !strings.Contains(err.Error(), key) || strings.Contains(err.Error(), "\n") {
			t.Errorf("--set %s: error %v, want one line naming %s", set, err, key)
		}
	}
}
