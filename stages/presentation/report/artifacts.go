package report

import (
	"sort"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/presentation/present"
)

// ArtifactsTable writes artifacts.tex: one row per artifact with its
// stage, size, rows and SHA-256, then one row per stage with its
// fingerprint (every artifact of a stage shares it).
func ArtifactsTable(entries []pipeline.ArtifactEntry) []byte {
	var rows [][]present.Cell
	fingerprints := map[string]string{}
	var stages []string
	for _, e := range entries {
		nrows := present.DashCell()
		if e.Rows >= 0 {
			nrows = present.MathCell(present.Int64(e.Rows))
		}
		rows = append(rows, []present.Cell{present.CodeCell(e.Path), present.TextCell(e.Stage),
			present.MathCell(present.Int64(e.Size)), nrows, present.CodeCell(e.SHA256)})
		if _, ok := fingerprints[e.Stage]; !ok {
			stages = append(stages, e.Stage)
		}
		fingerprints[e.Stage] = e.Fingerprint
	}
	sort.Strings(stages)
	heads := func(h ...string) []present.Cell {
		var out []present.Cell
		for _, s := range h {
			out = append(out, present.TextCell(s))
		}
		return out
	}
	out := present.Table{Spec: "llrrl", Head: heads("artifact", "stage", "bytes", "rows", "SHA-256"), Rows: rows}.TeX()
	rows = rows[:0]
	for _, s := range stages {
		rows = append(rows, []present.Cell{present.TextCell(s), present.CodeCell(fingerprints[s])})
	}
	out = append(out, "\n\\bigskip\n\n"...)
	return append(out, present.Table{Spec: "ll", Head: heads("stage", "fingerprint"), Rows: rows}.TeX()...)
}
