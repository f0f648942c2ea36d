package results

import (
	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/knuth"
)

func init() { register(knuth.Stage, readKnuth) }

func readKnuth(p *pipeline.Pass, r *Results) error {
	rows, err := knuth.Summary.Read(p)
	if err != nil {
		return err
	}
	for _, row := range rows {
		e, err := estimator("knuth", row.Shape, row.Variant, row.Columns)
		if err != nil {
			return err
		}
		r.Estimators = append(r.Estimators, e)
	}
	trace, err := knuth.Trace.Read(p)
	if err != nil {
		return err
	}
	pts, err := traces("knuth", trace)
	r.Traces = append(r.Traces, pts...)
	return err
}
