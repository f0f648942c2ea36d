package present

import (
	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
	"github.com/sudoku-census/sudoku-census/stages/presentation/typeset"
	"github.com/sudoku-census/sudoku-census/stages/shapes"
)

// readShapes reads the shapes stage's exact counts.
func readShapes(p *pipeline.Pass, r *Results) error {
	rows, err := shapes.Table.Read(p)
	if err != nil {
		return err
	}
	for _, row := range rows {
		n, err := ParseInt(shapes.Table.Name+".grids", row.Grids)
		if err != nil {
			return err
		}
		r.Shapes = append(r.Shapes, ShapeCount{Shape: grid.Shape{R: int(row.Rows), C: int(row.Cols)}, Grids: n, Method: row.Method,
			From: typeset.Row(shapes.Table.Path, "rows", row.Rows, "cols", row.Cols)})
	}
	units, err := shapes.UnitsTable.Read(p)
	if err != nil {
		return err
	}
	for _, u := range units {
		r.Units2x6 = append(r.Units2x6, UnitCost{Unit: u.Unit, CPUSeconds: u.CPUSeconds, PeakRSSBytes: u.PeakRSSBytes, Kernel: u.Kernel,
			From: typeset.Row(shapes.UnitsTable.Path, "unit", u.Unit)})
	}
	return nil
}

// UnitCost is what one committed 2×6 unit cost.
type UnitCost struct {
	Unit         string
	Kernel       string
	CPUSeconds   float64
	PeakRSSBytes int64
	From         typeset.Source // its row of data/shapes_units.parquet
}
