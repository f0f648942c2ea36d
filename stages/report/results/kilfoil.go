package results

import (
	"fmt"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/grid"
	"github.com/sudoku-census/sudoku-census/stages/kilfoil"
)

func init() { register(kilfoil.Stage, readKilfoil) }

func readKilfoil(p *pipeline.Pass, r *Results) error {
	rows, err := kilfoil.Estimates.Read(p)
	if err != nil {
		return err
	}
	for _, row := range rows {
		h := Heuristic{Shape: grid.Shape{R: int(row.Rows), C: int(row.Cols)}, Log10: row.Log10Estimate}
		if h.BandCount, err = ParseInt("kilfoil.band_count", row.BandCount); err != nil {
			return err
		}
		if h.StackCount, err = ParseInt("kilfoil.stack_count", row.StackCount); err != nil {
			return err
		}
		q, err := ParseRat("kilfoil.estimate_num/den", row.EstimateNum+"/"+row.EstimateDen)
		if err != nil {
			return err
		}
		if q.Sign() <= 0 {
			return fmt.Errorf("kilfoil: shape %dx%d: estimate %s is not positive", row.Rows, row.Cols, q.RatString())
		}
		h.Estimate = q
		r.Heuristics = append(r.Heuristics, h)
	}
	return nil
}
