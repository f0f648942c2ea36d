package present

import (
	"fmt"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/knuth"
	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
)

// readKnuth reads the knuth stage's summaries and traces.
func readKnuth(p *pipeline.Pass, r *Results) error {
	method := knuth.Stage.Name
	rows, err := knuth.Summary.Read(p)
	if err != nil {
		return err
	}
	for _, row := range rows {
		e, err := estimator(method, knuth.Summary.Name, row.Shape, row.Variant, row.Columns)
		if err != nil {
			return err
		}
		switch row.Variant {
		case "se", "bandse", "bandselast":
			e.Settings = fmt.Sprintf("B=%d", row.Budget)
		case "lookahead":
			e.Settings = fmt.Sprintf("B=%d, α=%g", row.Budget, row.Alpha)
		case "hybrid":
			e.Settings = fmt.Sprintf("k=%d", row.HybridK)
		}
		r.Estimators = append(r.Estimators, e)
	}
	trace, err := knuth.Trace.Read(p)
	if err != nil {
		return err
	}
	pts, err := traces(method, knuth.Trace.Name, trace)
	if err != nil {
		return err
	}
	r.Traces = append(r.Traces, pts...)
	cov, err := knuth.Coverage.Read(p)
	if err != nil {
		return err
	}
	for _, row := range cov {
		s, err := grid.ParseShape(row.Shape)
		if err != nil {
			return fmt.Errorf("%s: %w", knuth.Coverage.Name, err)
		}
		st, err := statistics(knuth.Coverage.Name, row.Estimate, row.StdError, row.CILow, row.CIHigh)
		if err != nil {
			return err
		}
		r.Coverage = append(r.Coverage, CoverageRun{Method: method, Shape: s, Variant: row.Variant, Samples: row.Samples, CILow: st[2], CIHigh: st[3]})
	}
	return nil
}
