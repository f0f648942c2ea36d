// Package inspect reads what runs left in a project and tells a reader,
// never running a stage: Verify hashes every artifact of the manifest
// again; a lock file records a finished run, and CompareLock checks data/
// against one; Diff compares two runs (locks or the current data/) in
// configuration, stages, artifacts and headline numbers; Show, Cite and
// Dag describe an artifact, cite it in BibTeX and draw the stage graph.
// Everything it reports on an artifact comes from the file on disk, hashed
// again, never from the manifest alone.
//
// # Locks
//
// A lock (RunLock, written by `census lock`) records a finished run: every
// artifact's SHA-256 and size, every stage's Version, fingerprint and
// configuration (the canonical JSON its fingerprint hashes), and every
// committed bundle a stage read (path, SHA-256, size, the stages), sorted,
// as stable JSON. configs/default.lock.json is the lock of the paper's run
// (`make all` with configs/default.yaml) and configs/smoke.lock.json that of
// the smoke run; both are committed, like DVC's dvc.lock. To check a rerun
// of the paper against the published one:
//
//	make all                                        # or: bin/census run
//	bin/census verify --lock configs/default.lock.json
//
// Every artifact and figure must have the same SHA-256 and size, every stage
// the same fingerprint and every bundle the same bytes; each difference is
// one line, and for a bundle in a git checkout it names the units whose rows
// differ from HEAD's file. An artifact whose table declares columns
// machine-dependent (pipeline.Output.MachineColumns: shapes_units.parquet's
// cpu_seconds and peak_rss_bytes) and which differs in those alone is no
// difference: the lock also holds a hash of its other columns and footer
// (less the run's fingerprint, which must be the manifest's), and a NOTE
// line says it "differs from the lock in … only: machine-dependent, not
// compared". CI checks the smoke lock from a fresh clone (TestSmokeLock in
// package stages too).
//
// # Comparing runs
//
// Diff (`census diff A [B]`, like dvc params diff and dvc metrics diff
// together) compares two runs, each a lock file or data (DataSide, the
// current data/, the default for B). It reports, as tables or as one JSON
// object (config, stages, artifacts, metrics, notes; a config value as its
// JSON, a number written exactly, an absent one as null): the
// configuration keys whose values differ, the stages whose Version or
// fingerprint differ, the artifacts whose SHA-256 differ, and old → new
// for the headline numbers read from the artifacts (each stage's
// Headlines: the exact counts, Kilfoil's estimates, every Monte Carlo run's
// samples, estimate and relative 95% half-width) and the run times
// data/runs.jsonl recorded for each side's fingerprint; DiffOptions.All
// lists the numbers that agree too. A lock's numbers come from whatever copy
// the project holds of its artifacts, checked by SHA-256: the file in data/,
// the run cache's object, or what `census pull REMOTE --lock FILE` fetched.
// What cannot be compared is said in a note, never guessed. Diff.Differs
// (census diff --exit-code) is true when the runs differ in configuration,
// stages or artifacts; times always differ.
package inspect

import "github.com/sudoku-census/sudoku-census/pipeline"

// Project is what inspect reads: a project root and its pipeline's
// stages, in dependency order (engine.Engine.Stages).
type Project struct {
	Root   string
	Stages []*pipeline.Stage
}
