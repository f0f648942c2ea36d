package present

import (
	"fmt"
	"math/big"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/kilfoil"
	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
	"github.com/sudoku-census/sudoku-census/stages/presentation/typeset"
)

// readKilfoil reads the kilfoil stage's heuristic estimates: the exact
// ones, then the sampled ones (six-row bands).
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
	sampled, err := kilfoil.SampledEstimates.Read(p)
	if err != nil {
		return err
	}
	table = kilfoil.SampledEstimates.Name
	for _, row := range sampled {
		h := Heuristic{Shape: grid.Shape{R: int(row.Rows), C: int(row.Cols)}, Log10: row.Log10Estimate, Sampled: true,
			From: typeset.Row(kilfoil.SampledEstimates.Path, "rows", row.Rows, "cols", row.Cols)}
		for _, v := range []struct {
			column string
			text   string
			to     **big.Rat
		}{{"estimate", row.Estimate, &h.Estimate}, {"estimate_low", row.EstimateLow, &h.Low}, {"estimate_high", row.EstimateHigh, &h.High}} {
			q, err := ParseRat(table+"."+v.column, v.text)
			if err != nil {
				return err
			}
			if q.Sign() <= 0 {
				return fmt.Errorf("%s: shape %dx%d: %s %s is not positive", table, row.Rows, row.Cols, v.column, v.text)
			}
			*v.to = q
		}
		if h.Low.Cmp(h.Estimate) > 0 || h.Estimate.Cmp(h.High) > 0 {
			return fmt.Errorf("%s: shape %dx%d: estimate %s is outside its interval [%s, %s]", table, row.Rows, row.Cols, row.Estimate, row.EstimateLow, row.EstimateHigh)
		}
		half := new(big.Rat).Quo(new(big.Rat).Sub(h.High, h.Low), new(big.Rat).Mul(h.Estimate, big.NewRat(2, 1)))
		h.RelHalfWidth, _ = half.Float64()
		r.Heuristics = append(r.Heuristics, h)
	}
	return nil
}
