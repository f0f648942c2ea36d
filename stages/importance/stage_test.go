package importance_test

import (
	"math"
	"testing"

	"github.com/sudoku-census/sudoku-census/pipeline/pipelinetest"
	"github.com/sudoku-census/sudoku-census/stages/all"
	"github.com/sudoku-census/sudoku-census/stages/importance"
)

var smoke = pipelinetest.Options{Stages: all.Stages, Config: "../../configs/smoke.yaml"}

// TestStage runs importance with the smoke config and checks the rows
// carry Ridder's measures. That the artifacts are byte-identical whatever
// GOMAXPROCS is, all's TestByteIdenticalWhateverTheCores checks on this
// same config.
func TestStage(t *testing.T) {
	o := smoke
	o.Targets = []string{"importance"}
	rows, err := importance.Summary.Load(pipelinetest.Run(t, o))
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
		pipelinetest.Rejects(t, smoke, set, key)
	}
}
