package shapes_test

import (
	"path/filepath"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/shapes"
)

// TestUnitsTableMachineColumns: the columns shapes_units.parquet declares
// machine-dependent are its CPU and memory columns, by their Parquet
// names, so that a lock's hash of its other columns is the same for a
// unit recomputed on another machine (issue 50, probe 8) and differs when
// a unit's sum does.
func TestUnitsTableMachineColumns(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, rows []shapes.UnitRow) string {
		path := filepath.Join(dir, name)
		if err := parquet.WriteFile(path, rows); err != nil {
			t.Fatal(err)
		}
		return path
	}
	row := shapes.UnitRow{Unit: "pair6-k1-00001", Work: "0-31", Sum: "123456789", Kernel: "pair v1", CPUSeconds: 12.5, PeakRSSBytes: 1 << 30, SHA256: "ab"}
	committed := write("committed.parquet", []shapes.UnitRow{row})
	elsewhere := row
	elsewhere.CPUSeconds, elsewhere.PeakRSSBytes = 19.25, 3<<29
	recomputed := write("recomputed.parquet", []shapes.UnitRow{elsewhere})
	wrong := row
	wrong.Sum = "123456790"
	edited := write("edited.parquet", []shapes.UnitRow{wrong})

	cols := shapes.UnitsTable.MachineColumns
	hash := func(path string) string {
		sum, _, err := pipeline.HashColumnsExcept(path, cols)
		if err != nil {
			t.Fatal(err)
		}
		return sum
	}
	if hash(committed) != hash(recomputed) {
		t.Errorf("machine columns %v: a recomputed unit's CPU time and memory change the hash of the other columns", cols)
	}
	if hash(committed) == hash(edited) {
		t.Error("a unit's sum changed and the hash of the other columns did not")
	}
	if none, _, _ := pipeline.HashColumnsExcept(committed, nil); none == hash(committed) {
		t.Error("leaving out the machine columns changed nothing")
	}
}
