package importance_test

import (
	"math"
	"testing"

	"github.com/sudoku-census/sudoku-census/pipeline/pipelinetest"
	"github.com/sudoku-census/sudoku-census/stages/importance"
)

// smoke runs the importance stage alone with the importance part of
// configs/smoke.yaml (its other keys are the defaults).
var smoke = pipelinetest.Options{
	Stages: pipelinetest.Closure(importance.Stage),
	Set:    []string{"importance.samples={2x2: 2000, 2x3: 2000, 3x3: 5000}"},
}

// TestStage runs importance with the smoke configuration and checks the
// rows carry Ridder's measures. That the artifacts are byte-identical
// whatever GOMAXPROCS is, package stages' TestByteIdenticalWhateverTheCores
// checks on configs/smoke.yaml.
func TestStage(t *testing.T) {
	root := pipelinetest.Run(t, smoke)
	rows, err := importance.Summary.Load(root)
	if err != nil || len(rows) != 3 {
		t.Fatalf("%d rows, err %v", len(rows), err)
	}
	for i, r := range rows {
		t.Logf("%s: estimate %s ± %s, RE %.3g, RAT %.4f, log10 EFF %.2f", r.Shape, r.Estimate, r.StdError, r.RelativeError, r.RAT, r.Log10EFF)
		if want := []string{"2x2", "2x3", "3x3"}[i]; r.Shape != want || r.Variant != "ridder" {
			t.Errorf("row %d: %s %s, want %s ridder", i, r.Shape, r.Variant, want)
		}
		if r.RAT <= 1 || r.RAT > 2 || math.IsNaN(r.Log10EFF) || math.Abs(math.Log10(r.EFF)-r.Log10EFF) > 1e-9 {
			t.Errorf("%s: RAT %v, EFF %v, log10 EFF %v", r.Shape, r.RAT, r.EFF, r.Log10EFF)
		}
	}
	if trace, err := importance.Trace.Load(root); err != nil || len(trace) < 3*10 {
		t.Fatalf("%d trace rows, err %v", len(trace), err)
	}
}

func TestConfigErrors(t *testing.T) {
	for set, key := range map[string]string{
		"importance.block_size=-1":              "importance.block_size",
		"importance.samples={4x4x: 10}":         "importance.samples.4x4x",
		"importance.samples={3x3: 0}":           "importance.samples.3x3",
		"importance.samples={3x3: 10, 6x6: 10}": "importance.samples.6x6",
		"importance.samples={3x3: 10, 6x7: 10}": "importance.samples.6x7",
		"importance.fill_dead_ends=perhaps":     "importance.fill_dead_ends",
		// Shape keys are canonical: 03x3 beside 3x3 would run 3×3 twice.
		"importance.samples={3x3: 10, 03x3: 10}":       "importance.samples.03x3",
		"importance.samples={3x3: 10, 3x3/ridder: 10}": "importance.samples.3x3/ridder",
	} {
		pipelinetest.Rejects(t, smoke, set, key)
	}
}
