package present

import (
	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/importance"
)

// readImportance reads the importance stage's summaries, with Ridder's RAT
// and EFF, and its traces.
func readImportance(p *pipeline.Pass, r *Results) error {
	method := importance.Stage.Name
	rows, err := importance.Summary.Read(p)
	if err != nil {
		return err
	}
	for _, row := range rows {
		e, err := estimator(method, importance.Summary.Output, row.Shape, row.Variant, row.Columns, row.RelVarColumns)
		if err != nil {
			return err
		}
		e.RAT, e.EFF, e.Log10EFF, e.HasRatEff = row.RAT, row.EFF, row.Log10EFF, true
		e.WorkWithCompletion, e.Log10EFFWithCompletion = row.WorkWithCompletion, row.Log10EFFWithCompletion
		r.Estimators = append(r.Estimators, e)
	}
	trace, err := importance.Trace.Read(p)
	if err != nil {
		return err
	}
	pts, err := traces(method, importance.Trace.Name, trace)
	r.Traces = append(r.Traces, pts...)
	return err
}
