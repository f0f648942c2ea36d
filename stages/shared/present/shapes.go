package present

import (
	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
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
		r.Shapes = append(r.Shapes, ShapeCount{Shape: grid.Shape{R: int(row.Rows), C: int(row.Cols)}, Grids: n, Method: row.Method})
	}
	return nil
}
