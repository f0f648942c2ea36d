package report

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/sudoku-census/sudoku-census/pipeline"
	f "github.com/sudoku-census/sudoku-census/stages/report/format"
)

// readManifest reads data/manifest.json as the engine left it before this
// stage ran. The engine gives a stage no project root, so the manifest is
// read the way an input artifact is, through a File beside the first
// input (File.Read resolves paths against the inputs' root).
// TODO(lead): replace by a Pass accessor for the manifest when there is one.
func readManifest(p *pipeline.Pass) (*pipeline.Manifest, error) {
	if len(p.Stage.Requires) == 0 || len(p.Stage.Requires[0].Outputs) == 0 {
		return nil, fmt.Errorf("report: no input to locate the manifest by")
	}
	probe := pipeline.File{Output: pipeline.Output{Name: p.Stage.Requires[0].Outputs[0].Name, Path: pipeline.ManifestPath}}
	data, err := probe.Read(p)
	if err != nil {
		return nil, fmt.Errorf("read manifest: %w", err)
	}
	var m pipeline.Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("read manifest: %w", err)
	}
	return &m, nil
}

// inputEntries returns the manifest entries of the artifacts of the
// stages in required, sorted by path: exactly the artifacts the report's
// fingerprint covers, so artifacts.tex is never stale when the report is
// fresh.
func inputEntries(m *pipeline.Manifest, required []*pipeline.Stage) ([]pipeline.ArtifactEntry, error) {
	var entries []pipeline.ArtifactEntry
	for _, s := range required {
		for _, o := range s.Outputs {
			e, ok := m.Artifact(o.Name)
			if !ok {
				return nil, fmt.Errorf("manifest has no entry for artifact %s of stage %s", o.Name, s.Name)
			}
			entries = append(entries, e)
		}
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Path < entries[j].Path })
	return entries, nil
}

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
			nrows = inMath(f.Int64(e.Rows))
		}
		rows = append(rows, []string{`\texttt{` + f.TeXEscape(e.Path) + `}`, f.TeXEscape(e.Stage),
			inMath(f.Int64(e.Size)), nrows, `\texttt{` + e.SHA256 + `}`})
		if _, ok := fingerprints[e.Stage]; !ok {
			stages = append(stages, e.Stage)
		}
		fingerprints[e.Stage] = e.Fingerprint
	}
	sort.Strings(stages)
	out := table("llrrl", []string{"artifact", "stage", "bytes", "rows", "SHA-256"}, rows)
	rows = rows[:0]
	for _, s := range stages {
		rows = append(rows, []string{f.TeXEscape(s), `\texttt{` + fingerprints[s] + `}`})
	}
	out = append(out, "\n\\bigskip\n\n"...)
	return append(out, table("ll", []string{"stage", "fingerprint"}, rows)...)
}
