package present

import (
	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/classes"
	"github.com/sudoku-census/sudoku-census/stages/presentation/typeset"
)

// readClasses reads the classes stage's funnel table.
func readClasses(p *pipeline.Pass, r *Results) error {
	rows, err := classes.Funnel.Read(p)
	if err != nil {
		return err
	}
	for _, row := range rows {
		r.Funnel = append(r.Funnel, FunnelLevel{Level: int(row.Level), Name: row.Name, Operations: row.Operations,
			Classes: int64(row.Classes), PaperClasses: int64(row.PaperClasses), Note: row.Note,
			From: typeset.Row(classes.Funnel.Path, "level", row.Level)})
	}
	return nil
}
