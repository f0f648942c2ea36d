package present

import (
	"fmt"
	"math/big"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/presentation/typeset"
	"github.com/sudoku-census/sudoku-census/stages/shared/sampling"
)

// statistics parses the four decimal columns estimate, std_error, ci_low
// and ci_high of table.
func statistics(table, estimate, stdErr, ciLow, ciHigh string) (out [4]*big.Float, err error) {
	for i, col := range [4][2]string{{"estimate", estimate}, {"std_error", stdErr}, {"ci_low", ciLow}, {"ci_high", ciHigh}} {
		if out[i], err = ParseFloat(table+"."+col[0], col[1]); err != nil {
			return out, err
		}
	}
	return out, nil
}

// estimator converts the summary columns the Monte Carlo stages share: a
// row of the artifact table, written by the stage named method.
func estimator(method string, table pipeline.Output, shape, variant string, c sampling.Columns, rv sampling.RelVarColumns) (Estimator, error) {
	s, err := sampling.ParseShapeKey(shape)
	if err != nil {
		return Estimator{}, fmt.Errorf("%s: %w", table.Name, err)
	}
	st, err := statistics(table.Name, c.Estimate, c.StdError, c.CILow, c.CIHigh)
	if err != nil {
		return Estimator{}, err
	}
	return Estimator{Method: method, Shape: s, Variant: variant, Samples: c.Samples,
		Estimate: st[0], StdError: st[1], CILow: st[2], CIHigh: st[3],
		Log10Estimate: c.Log10Estimate, RelativeError: c.RelativeError, NonzeroFraction: c.NonzeroFraction,
		Work: c.Work, RelVar: c.RelVar, RelVarWork: c.RelVarWork, RelVarLow: rv.RelVarLow, RelVarHigh: rv.RelVarHigh,
		ESS: c.ESS, MaxShare: c.MaxShare, ParetoK: c.ParetoK, Unreliable: c.Unreliable,
		From: typeset.Row(table.Path, "shape", shape, "variant", variant)}, nil
}

// traces converts the rows of table, the trace the stage named method
// wrote.
func traces(method, table string, rows []sampling.TraceRow) ([]TracePoint, error) {
	pts := make([]TracePoint, 0, len(rows))
	for _, row := range rows {
		s, err := sampling.ParseShapeKey(row.Shape)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", table, err)
		}
		st, err := statistics(table, row.Estimate, row.StdError, row.CILow, row.CIHigh)
		if err != nil {
			return nil, err
		}
		pts = append(pts, TracePoint{Method: method, Shape: s, Variant: row.Variant, Samples: row.Samples,
			Estimate: st[0], StdError: st[1], CILow: st[2], CIHigh: st[3], RelativeError: row.RelativeError})
	}
	return pts, nil
}
