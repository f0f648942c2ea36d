package present

import (
	"fmt"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/knuth"
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
		case "se", "bandse":
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
	r.Traces = append(r.Traces, pts...)
	return err
}
