package report

import (
	"sort"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/presentation/typeset"
)

// ArtifactsTable writes artifacts.tex: one row per artifact with its
// stage, size, rows and SHA-256, then one row per stage with its
// fingerprint (every artifact of a stage shares it).
func ArtifactsTable(entries []pipeline.ArtifactEntry) []byte {
	var rows [][]typeset.Cell
	fingerprints := map[string]string{}
	var stages []string
	for _, e := range entries {
		nrows := typeset.DashCell()
		if e.Rows >= 0 {
			nrows = typeset.MathCell(typeset.Int64(e.Rows))
		}
		rows = append(rows, []typeset.Cell{typeset.CodeCell(e.Path), typeset.TextCell(e.Stage),
			typeset.MathCell(typeset.Int64(e.Size)), nrows, typeset.CodeCell(e.SHA256)})
		if _, ok := fingerprints[e.Stage]; !ok {
			stages = append(stages, e.Stage)
		}
		fingerprints[e.Stage] = e.Fingerprint
	}
	sort.Strings(stages)
	heads := func(h ...string) []typeset.Cell {
		var out []typeset.Cell
		for _, s := range h {
			out = append(out, typeset.TextCell(s))
		}
		return out
	}
	out := typeset.Table{Spec: "llrrl", Head: heads("artifact", "stage", "bytes", "rows", "SHA-256"), Rows: rows}.TeX()
	rows = rows[:0]
	for _, s := range stages {
		rows = append(rows, []typeset.Cell{typeset.TextCell(s), typeset.CodeCell(fingerprints[s])})
	}
	out = append(out, "\n\\bigskip\n\n"...)
	return append(out, typeset.Table{Spec: "ll", Head: heads("stage", "fingerprint"), Rows: rows}.TeX()...)
}
