// Package inspect reads what runs left in a project and tells a reader,
// never running a stage: Verify hashes every artifact of the manifest
// again; a lock file records a finished run, and CompareLock checks data/
// against one; Diff compares two runs (locks or the current data/) in
// configuration, stages, artifacts and headline numbers; Show, Cite and
// Dag describe an artifact, cite it in BibTeX and draw the stage graph.
// Everything it reports on an artifact comes from the file on disk, hashed
// again, never from the manifest alone.
package inspect

import "github.com/sudoku-census/sudoku-census/pipeline"

// Project is what inspect reads: a project root and its pipeline's
// stages, in dependency order (engine.Engine.Stages).
type Project struct {
	Root   string
	Stages []*pipeline.Stage
}
