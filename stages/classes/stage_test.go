package classes_test

import (
	"slices"
	"testing"

	"github.com/sudoku-census/sudoku-census/pipeline/pipelinetest"
	"github.com/sudoku-census/sudoku-census/stages/all"
	"github.com/sudoku-census/sudoku-census/stages/classes"
)

// TestStage runs bands, reduce and classes with the smoke config and checks
// the tables against Compute. That they are byte-identical whatever
// GOMAXPROCS is, all's TestByteIdenticalWhateverTheCores checks on this
// same config.
func TestStage(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the bands, reduce and classes stages")
	}
	root := pipelinetest.Run(t, pipelinetest.Options{Stages: all.Stages, Config: "../../configs/smoke.yaml",
		Targets: []string{"classes"}})
	rows, err := classes.Table.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	_, c := classes.Fixture(t)
	if len(rows) != 36_288 {
		t.Fatalf("classes.parquet has %d rows", len(rows))
	}
	level5 := map[int32]int{}
	for i, r := range rows {
		got := [6]int32{r.ID, r.Level1, r.Level2, r.Level3, r.Level4, r.Level5}
		want := [6]int32{int32(i), c.Class[0][i], c.Class[1][i], c.Class[2][i], c.Class[3][i], c.Class[4][i]}
		if got != want {
			t.Fatalf("row %d: %v, want %v", i, got, want)
		}
		level5[r.Level5]++
	}
	if len(level5) != 44 {
		t.Errorf("%d distinct level5 values, want 44", len(level5))
	}
	funnel, err := classes.Funnel.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	var counts []int32
	for _, f := range funnel {
		counts = append(counts, f.Classes)
	}
	if want := []int32{2_612_736, 36_288, 2051, 416, 174, 71, 44}; !slices.Equal(counts, want) {
		t.Errorf("funnel.parquet classes %v, want %v", counts, want)
	}
}
