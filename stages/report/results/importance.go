package results

import (
	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/importance"
)

func init() { register(importance.Stage, readImportance) }

func readImportance(p *pipeline.Pass, r *Results) error {
	rows, err := importance.Summary.Read(p)
	if err != nil {
		return err
	}
	for _, row := range rows {
		e, err := estimator("importance", row.Shape, row.Variant, row.Columns)
		if err != nil {
			return err
		}
		e.RAT, e.EFF, e.Log10EFF, e.HasRatEff = row.RAT, row.EFF, row.Log10EFF, true
		r.Estimators = append(r.Estimators, e)
	}
	trace, err := importance.Trace.Read(p)
	if err != nil {
		return err
	}
	pts, err := traces("importance", trace)
	r.Traces = append(r.Traces, pts...)
	return err
}
