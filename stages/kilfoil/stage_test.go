package kilfoil_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/pipeline/pipelinetest"
	"github.com/sudoku-census/sudoku-census/stages/kilfoil"
)

// fourShapes runs kilfoil on a config of its own: four shapes, 4×4 among
// them, and 12 significant digits.
var fourShapes = pipelinetest.Options{Stages: []*pipeline.Stage{kilfoil.Stage},
	Set: []string{"kilfoil.shapes=3x3,2x2,2x3,4x4", "kilfoil.digits=12"}}

func TestStageArtifact(t *testing.T) {
	rows, err := kilfoil.Estimates.Load(pipelinetest.Run(t, fourShapes))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 4 {
		t.Fatalf("%d rows, want 4", len(rows))
	}
	nine := rows[0]
	if nine.Rows != 3 || nine.Cols != 3 || nine.BandCount != "948109639680" || nine.StackCount != "948109639680" ||
		nine.BandCompletions != "56" || nine.Estimate != "6657084616885512582463.488" || !nine.EstimateExact ||
		nine.EstimateDen != "125" || nine.EstimateNum != "832135577110689072807936" ||
		math.Abs(nine.Log10Estimate-math.Log10(6657084616885512582463.488)) > 1e-12 {
		t.Errorf("3×3 row %+v", nine)
	}
	if four := rows[1]; four.Rows != 2 || four.Cols != 2 || four.Estimate != "256" || four.BandCount != "96" {
		t.Errorf("2×2 row %+v", four)
	}
	if six := rows[2]; six.Estimate != "26542080" || six.BandCount != "25920" || six.StackCount != "460800" {
		t.Errorf("2×3 row %+v", six)
	}
	sixteen := rows[3]
	if sixteen.EstimateExact || !strings.HasPrefix(sixteen.Estimate, "5.9583") || !strings.HasSuffix(sixteen.Estimate, "e+98") ||
		len(sixteen.Estimate) != len("5.95838301762e+98") {
		t.Errorf("4×4 row estimate %q (exact %v), want 12 significant digits of 5.9584e+98", sixteen.Estimate, sixteen.EstimateExact)
	}
}

// TestStageReproducible: the artifact is byte-identical whatever the number
// of processors the band counter uses. The config is not the smoke one, so
// all's TestByteIdenticalWhateverTheCores does not cover it.
func TestStageReproducible(t *testing.T) {
	one, two := fourShapes, fourShapes
	one.Procs, two.Procs = 1, 2
	pipelinetest.SameOutputs(t, pipelinetest.Run(t, one), pipelinetest.Run(t, two), kilfoil.Stage)
}

func TestBadConfig(t *testing.T) {
	for _, tc := range []struct{ set, key, value string }{
		{"kilfoil.shapes=3x3,7x2", "kilfoil.shapes", "7x2"},
		{"kilfoil.shapes=3x3,6x5", "kilfoil.shapes", "6x5"},
		{"kilfoil.shapes=3x3,3by3", "kilfoil.shapes", "3by3"},
		{"kilfoil.shapes=2x3,2x3", "kilfoil.shapes", "2x3"},
		{"kilfoil.digits=0", "kilfoil.digits", "0"},
	} {
		err := pipelinetest.Rejects(t, fourShapes, tc.set, tc.key)
		var ce *pipeline.ConfigError
		if !errors.As(err, &ce) || ce.Key != tc.key || !strings.Contains(err.Error(), tc.value) {
			t.Errorf("--set %s: error %v, want a config error on %s naming %s", tc.set, err, tc.key, tc.value)
		}
	}
}
