package classes

import (
	"slices"
	"strings"
	"testing"

	"github.com/sudoku-census/sudoku-census/pipeline/pipelinetest"
	"github.com/sudoku-census/sudoku-census/stages/maths/funnel"
	"github.com/sudoku-census/sudoku-census/stages/maths/sudoku"
	"github.com/sudoku-census/sudoku-census/stages/reduce"
)

// reducedRows returns the rows of reduced.parquet for every band, by the
// reduction with or without the exchange of B2 and B3.
func reducedRows(t testing.TB, swapBlocks bool) []reduce.Row {
	var bs []sudoku.Band
	for b := range sudoku.AllBands() {
		bs = append(bs, b)
	}
	reduced, mult, err := funnel.Reduce(bs, swapBlocks)
	if err != nil {
		t.Fatal(err)
	}
	rows := make([]reduce.Row, len(reduced))
	for i, b := range reduced {
		r := b.Rows()
		rows[i] = reduce.Row{ID: int32(i), Row1: r[0], Row2: r[1], Row3: r[2], Multiplicity: int32(mult[i])}
	}
	return rows
}

// TestStage runs bands, reduce and classes and checks the tables against
// funnel.Compute. That they are byte-identical whatever GOMAXPROCS is, the
// registry's TestByteIdenticalWhateverTheCores checks.
func TestStage(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the bands, reduce and classes stages")
	}
	root := pipelinetest.Run(t, pipelinetest.Options{Stages: pipelinetest.Closure(Stage)})
	rows, err := Table.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	reduced, _, err := Catalogue(reducedRows(t, true))
	if err != nil {
		t.Fatal(err)
	}
	c, err := funnel.Compute(reduced)
	if err != nil {
		t.Fatal(err)
	}
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
	funnelRows, err := Funnel.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("funnel:\n%s", funnelString(funnelRows))
	var counts []int32
	for _, f := range funnelRows {
		counts = append(counts, f.Classes)
		if f.Classes != f.PaperClasses || f.Note != "as in the paper" {
			t.Errorf("funnel level %d: %d classes, paper %d, note %q", f.Level, f.Classes, f.PaperClasses, f.Note)
		}
	}
	if want := []int32{2_612_736, 36_288, 2051, 416, 174, 71, 44}; !slices.Equal(counts, want) {
		t.Errorf("funnel.parquet classes %v, want %v", counts, want)
	}
}

// TestCatalogueRejects checks that a reduced table made with
// reduce.swap_blocks=false, or one with a wrong multiplicity, is refused.
func TestCatalogueRejects(t *testing.T) {
	good := reducedRows(t, true)
	if _, total, err := Catalogue(good); err != nil || total != 2_612_736 {
		t.Fatalf("Catalogue of the true reduction: total %d, %v", total, err)
	}
	_, _, err := Catalogue(reducedRows(t, false))
	if err == nil || !strings.Contains(err.Error(), "swap_blocks=true") {
		t.Errorf("Catalogue of a swap_blocks=false table: error %v, want one naming swap_blocks=true", err)
	}
	good[7].Multiplicity = 71
	if _, _, err := Catalogue(good); err == nil {
		t.Error("Catalogue accepted a multiplicity of 71")
	}
	if _, _, err := Catalogue(good[:100]); err == nil {
		t.Error("Catalogue accepted part of the table")
	}
}
