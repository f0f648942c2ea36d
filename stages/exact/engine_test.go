package exact_test

import (
	"testing"

	"github.com/sudoku-census/sudoku-census/pipeline/pipelinetest"
	"github.com/sudoku-census/sudoku-census/stages/exact"
)

// smoke runs the pipeline up to exact with the smoke configuration's
// cross-check of two classes.
var smoke = pipelinetest.Options{Stages: pipelinetest.Closure(exact.Stage), Set: []string{"exact.crosscheck=2"}}

// TestStage runs the pipeline up to exact with the smoke config (two
// classes cross-checked) and checks the published figures.
func TestStage(t *testing.T) {
	root := pipelinetest.Run(t, smoke)
	rows, err := exact.Completions.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 44 {
		t.Fatalf("%d classes, want 44", len(rows))
	}
	size, checked := 0, 0
	for i, r := range rows {
		size += int(r.Size)
		if r.FirstBands != 72*int64(r.Size) {
			t.Errorf("class %d: first_bands %d, want 72·%d", r.Class, r.FirstBands, r.Size)
		}
		if r.Crosschecked {
			checked++
			if i >= 2 {
				t.Errorf("class %d cross-checked; the smoke config checks the first two", r.Class)
			}
		}
	}
	if size != 36288 || checked != 2 {
		t.Errorf("sizes sum to %d (want 36288), %d cross-checked (want 2)", size, checked)
	}
	if rows[0].Class != 0 || rows[0].Representative != "123456789456789123789123456" ||
		rows[0].Completions != "7802998272" {
		t.Errorf("first class %+v, want class 0, the canonical band, 72·108374976 completions", rows[0])
	}
	total, err := exact.Total.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	want := exact.TotalRow{
		Grids:               "6670903752021072936960",
		CanonicalGrids:      "18383222420692992",
		ReducedCount:        "3546146300288",
		ReducedCountFactors: "2^7 × 27704267971",
		Classes:             44,
		CrosscheckedClasses: 2,
	}
	if len(total) != 1 || total[0] != want {
		t.Errorf("total %+v, want %+v", total, want)
	}
}

// TestStageReproducible reruns exact, without cross-checks (a config all's
// TestByteIdenticalWhateverTheCores does not run), on one CPU over a copy
// of a run on the default number and compares the bytes.
func TestStageReproducible(t *testing.T) {
	o := smoke
	o.Set = []string{"exact.crosscheck=none"}
	first := pipelinetest.Run(t, o)
	o.Root, o.Force, o.Procs = pipelinetest.Copy(t, first), []string{"exact"}, 1
	pipelinetest.SameOutputs(t, first, pipelinetest.Run(t, o), exact.Stage)
}

func TestStageBadConfig(t *testing.T) {
	for _, v := range []string{"exact.crosscheck=some", "exact.crosscheck=0", "exact.crosscheck=3,3"} {
		pipelinetest.Rejects(t, smoke, v, "exact.crosscheck")
	}
}
