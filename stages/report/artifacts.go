package report

import (
	"sort"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/shared/present"
)

// ArtifactsTable writes artifacts.tex: one row per artifact with its
// stage, size, rows and SHA-256, then one row per stage with its
// fingerprint (every artifact of a stage shares it).
func ArtifactsTable(entries []pipeline.ArtifactEntry) []byte {
	var rows [][]string
	fingerprints := map[string]string{}
	var stages []string
	for _, e := range entries {
		nrows := "--"
		if e.Rows >= 0 {
			nrows = inMath(present.Int64(e.Rows))
		}
		rows = append(rows, []string{`\texttt{` + present.TeXEscape(e.Path) + `}`, present.TeXEscape(e.Stage),
			inMath(present.Int64(e.Size)), nrows, `\texttt{` + e.SHA256 + `}`})
		if _, ok := fingerprints[e.Stage]; !ok {
			stages = append(stages, e.Stage)
		}
		fingerprints[e.Stage] = e.Fingerprint
	}
	sort.Strings(stages)
	out := table("llrrl", []string{"artifact", "stage", "bytes", "rows", "SHA-256"}, rows)
	rows = rows[:0]
	for _, s := range stages {
		rows = append(rows, []string{present.TeXEscape(s), `\texttt{` + fingerprints[s] + `}`})
	}
	out = append(out, "\n\\bigskip\n\n"...)
	return append(out, table("ll", []string{"stage", "fingerprint"}, rows)...)
}
