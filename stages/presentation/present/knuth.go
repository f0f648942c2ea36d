package present

import (
	"fmt"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/knuth"
	"github.com/sudoku-census/sudoku-census/stages/maths/montecarlo"
	"github.com/sudoku-census/sudoku-census/stages/presentation/typeset"
	"github.com/sudoku-census/sudoku-census/stages/shared/sampling"
)

// readKnuth reads the knuth stage's summaries (the default runs', then the
// long runs' of data/knuth_long.parquet, marked Long), traces and coverage
// runs.
func readKnuth(p *pipeline.Pass, r *Results) error {
	method := knuth.Stage.Name
	rows, err := knuth.Summary.Read(p)
	if err != nil {
		return err
	}
	for _, row := range rows {
		e, err := estimator(method, knuth.Summary.Output, row.Shape, row.Variant, row.Columns, row.RelVarColumns)
		if err != nil {
			return err
		}
		e.Settings = settings(row.Variant, row.Budget, row.Alpha, row.HybridK)
		r.Estimators = append(r.Estimators, e)
	}
	long, err := knuth.LongSummary.Read(p)
	if err != nil {
		return err
	}
	for _, row := range long {
		e, err := estimator(method, knuth.LongSummary.Output, row.Shape, row.Variant, row.Columns, row.RelVarColumns)
		if err != nil {
			return err
		}
		e.Settings = settings(row.Variant, row.Budget, row.Alpha, row.HybridK)
		e.Long = &LongRun{Units: row.Units, CPUSeconds: row.CPUSeconds, Bundle: knuth.LongBundle.Path(),
			Efficiency: row.Efficiency, EfficiencyLow: row.EfficiencyLow, EfficiencyHigh: row.EfficiencyHigh}
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
		s, err := sampling.ParseShapeKey(row.Shape)
		if err != nil {
			return fmt.Errorf("%s: %w", knuth.Coverage.Name, err)
		}
		st, err := statistics(knuth.Coverage.Name, row.Estimate, row.StdError, row.CILow, row.CIHigh)
		if err != nil {
			return err
		}
		r.Coverage = append(r.Coverage, CoverageRun{Method: method, Shape: s, Variant: row.Variant, Samples: row.Samples, CILow: st[2], CIHigh: st[3],
			Long: row.Long, Gated: row.Unreliable || row.ParetoK >= montecarlo.HeadlineK, RelativeError: row.RelativeError,
			From: typeset.Row(knuth.Coverage.Path, "shape", row.Shape, "variant", row.Variant, "samples", row.Samples, "long", row.Long)})
	}
	return nil
}

// settings names the parameters of a knuth variant, as "B=30" ("" for
// none).
func settings(variant string, budget int32, alpha float64, hybridK int32) string {
	switch variant {
	case "se", "bandse", "bandselast":
		return fmt.Sprintf("B=%d", budget)
	case "lookahead":
		return fmt.Sprintf("B=%d, α=%g", budget, alpha)
	case "hybrid":
		return fmt.Sprintf("h=%d", hybridK)
	}
	return ""
}
