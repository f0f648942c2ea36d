package kilfoil_test

import (
	"errors"
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/pipeline/pipelinetest"
	"github.com/sudoku-census/sudoku-census/stages/kilfoil"
	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
	"github.com/sudoku-census/sudoku-census/stages/maths/heuristic"
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
		{"kilfoil.sampled={5x5: 20000}", "kilfoil.sampled", "5x5"},
		{"kilfoil.sampled={7x6: 20000}", "kilfoil.sampled", "7x6"},
		{"kilfoil.sampled={6x6: 10}", "kilfoil.sampled.6x6", "10"},
		{"kilfoil.sampled={6x6: 2000.5}", "kilfoil.sampled.6x6", "2000.5"},
		{"kilfoil.sampled={6x6: 1e30}", "kilfoil.sampled.6x6", "1e30"},
		{"kilfoil.sampled={6x6: .nan}", "kilfoil.sampled.6x6", ".nan"},
		{"kilfoil.sampled={6x6: abc}", "kilfoil.sampled.6x6", "abc"},
		{"kilfoil.sampled=[6x6]", "kilfoil.sampled", "[6x6]"},
	} {
		err := pipelinetest.Rejects(t, fourShapes, tc.set, tc.key)
		var ce *pipeline.ConfigError
		if !errors.As(err, &ce) || ce.Key != tc.key || !strings.Contains(err.Error(), tc.value) {
			t.Errorf("--set %s: error %v, want a config error on %s naming %s", tc.set, err, tc.key, tc.value)
		}
	}
}

// sampledShapes adds two shapes of kilfoil.sampled: 4×6, whose stacks
// (bands of 6×4) are sampled and whose bands are counted, and 6×6.
var sampledShapes = pipelinetest.Options{Stages: []*pipeline.Stage{kilfoil.Stage},
	Set: []string{"kilfoil.shapes=2x2", "kilfoil.sampled={6x6: 20000, 4x6: 20000}"}}

func TestSampledArtifact(t *testing.T) {
	root := pipelinetest.Run(t, sampledShapes)
	rows, err := kilfoil.SampledEstimates.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 {
		t.Fatalf("%d rows, want 2", len(rows))
	}
	want, err := heuristic.BandCompletions(grid.Shape{R: 4, C: 6})
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range rows {
		if !(r.Log10Low < r.Log10Estimate && r.Log10Estimate < r.Log10High) || r.Samples != 20000 || r.SampledRows != 6 ||
			r.RelVar <= 0 || r.RelVar > 1 {
			t.Errorf("row %d: %+v", i, r)
		}
	}
	if r := rows[0]; r.Rows != 4 || r.Cols != 6 || r.SampledCols != 4 || r.CountedCompletions != want.String() {
		t.Errorf("4×6 row %+v, want the counted M(4,6) = %s", r, want)
	}
	// E(6,6) ∝ M(6,6)^12: the estimate's interval is M's, twelve times as
	// wide in log10.
	six := rows[1]
	if six.Rows != 6 || six.Cols != 6 || six.CountedCompletions != "" {
		t.Errorf("6×6 row %+v", six)
	}
	mLow, _ := new(big.Float).SetString(six.CompletionsLow)
	mHigh, _ := new(big.Float).SetString(six.CompletionsHigh)
	lo, _ := mLow.Float64()
	hi, _ := mHigh.Float64()
	if got, wantWidth := six.Log10High-six.Log10Low, 12*(math.Log10(hi)-math.Log10(lo)); math.Abs(got-wantWidth) > 1e-4 {
		t.Errorf("6×6 log10 interval width %g, want 12 × M's = %g", got, wantWidth)
	}
	pipelinetest.SameOutputs(t, root, pipelinetest.Run(t, pipelinetest.Options{Stages: sampledShapes.Stages, Set: sampledShapes.Set, Procs: 1}), kilfoil.Stage)
}
