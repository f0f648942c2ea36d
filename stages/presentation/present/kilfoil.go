package present

import (
	"fmt"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/kilfoil"
	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
	"github.com/sudoku-census/sudoku-census/stages/presentation/typeset"
)

// readKilfoil reads the kilfoil stage's exact heuristic estimates.
func readKilfoil(p *pipeline.Pass, r *Results) error {
	rows, err := kilfoil.Estimates.Read(p)
	if err != nil {
		return err
	}
	table := kilfoil.Estimates.Name
	for _, row := range rows {
		h := Heuristic{Shape: grid.Shape{R: int(row.Rows), C: int(row.Cols)}, Log10: row.Log10Estimate,
			From: typeset.Row(kilfoil.Estimates.Path, "rows", row.Rows, "cols", row.Cols)}
		if h.BandCount, err = ParseInt(table+".band_count", row.BandCount); err != nil {
			return err
		}
		if h.StackCount, err = ParseInt(table+".stack_count", row.StackCount); err != nil {
			return err
		}
		q, err := ParseRat(table+".estimate_num/den", row.EstimateNum+"/"+row.EstimateDen)
		if err != nil {
			return err
		}
		if q.Sign() <= 0 {
			return fmt.Errorf("%s: shape %dx%d: estimate %s is not positive", table, row.Rows, row.Cols, q.RatString())
		}
		h.Estimate = q
		r.Heuristics = append(r.Heuristics, h)
	}
	return nil
}
