package inspect

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/sudoku-census/sudoku-census/pipeline"

	"github.com/sudoku-census/sudoku-census/pipeline/internal/files"
	"github.com/sudoku-census/sudoku-census/pipeline/internal/msg"
	"github.com/sudoku-census/sudoku-census/pipeline/store"
)

// RunLock records what a finished run produced, for a reader to check a
// rerun against it (as DVC's dvc.lock does): every artifact with its
// SHA-256 and every stage's fingerprint, sorted, as stable JSON. It holds
// nothing that depends on where or when the run happened.
type RunLock struct {
	Tool      string           `json:"tool"`
	Stages    []LockedStage    `json:"stages"`
	Artifacts []LockedArtifact `json:"artifacts"`
	// Bundles are the committed result bundles the stages read, each
	// with the SHA-256 of its bytes (every row, every column): absent in
	// locks written before bundles entered fingerprints.
	Bundles []LockedBundle `json:"bundles,omitempty"`
}

// LockedBundle is one committed bundle of a RunLock and the stages that
// read it.
type LockedBundle struct {
	Path   string   `json:"path"`
	SHA256 string   `json:"sha256"`
	Size   int64    `json:"size"`
	Stages []string `json:"stages"`
}

// LockedStage is one stage of a RunLock.
type LockedStage struct {
	Stage       string `json:"stage"`
	Version     int    `json:"version"`
	Fingerprint string `json:"fingerprint"`
	// Config is the canonical JSON of the stage's configuration subtree
	// and the globals it reads (what its fingerprint hashes), for census
	// diff; absent in locks written before it was recorded.
	Config json.RawMessage `json:"config,omitempty"`
}

// LockedArtifact is one artifact of a RunLock.
type LockedArtifact struct {
	Path   string `json:"path"`
	Stage  string `json:"stage"`
	SHA256 string `json:"sha256"`
	Size   int64  `json:"size"`
	// MachineColumns are the artifact's columns that depend on the
	// machine (pipeline.Output.MachineColumns), and ColumnsSHA256 the hash
	// of its other columns (pipeline.HashColumnsExcept): a file whose
	// bytes differ from SHA256 but whose other columns hash to
	// ColumnsSHA256 matches, with a note. Absent for other artifacts and
	// in locks written before they were recorded.
	MachineColumns []string `json:"machine_columns,omitempty"`
	ColumnsSHA256  string   `json:"columns_sha256,omitempty"`
}

// Encode returns the lock as indented JSON ending in a newline: the same
// run gives the same bytes.
func (l *RunLock) Encode() []byte {
	data, _ := json.MarshalIndent(l, "", "  ")
	return append(data, '\n')
}

// maxLockBytes bounds a lock file: a few hundred bytes per artifact.
const maxLockBytes = 16 << 20

// ReadLock reads a lock file, with a one-line error when it is not one.
func ReadLock(path string) (*RunLock, error) {
	data, err := files.ReadLimited(path, maxLockBytes)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, msg.PathErr(err))
	}
	var l RunLock
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&l); err != nil {
		return nil, fmt.Errorf("lock %s is not a census lock: %v", path, err)
	}
	return &l, nil
}

// CompareLock compares the artifacts on disk and the stages' recorded
// fingerprints with lock l and returns one line per difference, sorted:
// an artifact missing, extra, or with other bytes; a stage with another
// fingerprint. No difference means the run reproduces the locked one.
func (pr Project) CompareLock(l *RunLock) ([]string, error) {
	diffs, _, err := pr.CompareLockNoting(l)
	return diffs, err
}

// CompareLockNoting is CompareLock that also returns, one line each, the
// artifacts taken for a match although their bytes differ from the lock:
// those that differ in their machine-dependent columns only
// (LockedArtifact.MachineColumns), which the lock does not compare.
func (pr Project) CompareLockNoting(l *RunLock) (diffs, notes []string, err error) {
	m, err := store.ReadManifest(pr.Root)
	if err != nil {
		return nil, nil, err
	}
	seen := map[string]bool{}
	locked := map[string]LockedArtifact{}
	for _, a := range l.Artifacts {
		locked[a.Path] = a
	}
	lockedFingerprints := map[string]string{}
	for _, s := range l.Stages {
		lockedFingerprints[s.Stage] = s.Fingerprint
	}
	manifestEntries := map[string]store.ArtifactEntry{}
	for _, a := range m.Artifacts {
		manifestEntries[a.Path] = a
	}
	for _, a := range l.Artifacts {
		if !files.SafeRelPath(a.Path) {
			return nil, nil, fmt.Errorf("the lock names %q, not a path below the project root", a.Path)
		}
		if seen[a.Path] {
			diffs = append(diffs, fmt.Sprintf("%s: listed twice in the lock", a.Path))
			continue
		}
		seen[a.Path] = true
		file := filepath.Join(pr.Root, filepath.FromSlash(a.Path))
		sum, size, err := files.Hash(file)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			diffs = append(diffs, fmt.Sprintf("%s: missing (the lock has SHA-256 %s)", a.Path, msg.Short(a.SHA256)))
		case err != nil:
			diffs = append(diffs, fmt.Sprintf("%s: unreadable: %s (the lock has SHA-256 %s)", a.Path, msg.OneLine(msg.PathErr(err).Error()), msg.Short(a.SHA256)))
		case sum != a.SHA256 && len(a.MachineColumns) > 0 && a.ColumnsSHA256 != "":
			// The footer's fingerprint, left out of ColumnsSHA256, must be
			// the one the manifest records for the artifact's run (which
			// the lock's stage fingerprint is compared with below).
			machine := strings.Join(a.MachineColumns, "/")
			other, footerFP, err := pipeline.HashColumnsExcept(file, a.MachineColumns)
			entry, inManifest := manifestEntries[a.Path]
			switch {
			case err != nil:
				diffs = append(diffs, fmt.Sprintf("%s: SHA-256 %s, the lock has %s, and its columns cannot be read: %s", a.Path, msg.Short(sum), msg.Short(a.SHA256), msg.OneLine(msg.PathErr(err).Error())))
			case other != a.ColumnsSHA256:
				diffs = append(diffs, fmt.Sprintf("%s: SHA-256 %s, the lock has %s, and not in %s only (machine-dependent, not compared): its other columns differ", a.Path, msg.Short(sum), msg.Short(a.SHA256), machine))
			case !inManifest || footerFP != entry.Fingerprint:
				diffs = append(diffs, fmt.Sprintf("%s: SHA-256 %s, the lock has %s, and the fingerprint its footer records (%s) is not that of the run data/manifest.json records for it", a.Path, msg.Short(sum), msg.Short(a.SHA256), msg.Short(footerFP)))
			default:
				what := machine
				if footerFP != lockedFingerprints[a.Stage] {
					what += " and the fingerprint of its run" // a line of its own below
				}
				notes = append(notes, fmt.Sprintf("%s: differs from the lock in %s only: machine-dependent, not compared (SHA-256 %s, the lock has %s)", a.Path, what, msg.Short(sum), msg.Short(a.SHA256)))
			}
		case sum != a.SHA256:
			diffs = append(diffs, fmt.Sprintf("%s: SHA-256 %s, the lock has %s", a.Path, msg.Short(sum), msg.Short(a.SHA256)))
		case size != a.Size:
			diffs = append(diffs, fmt.Sprintf("%s: %d bytes, the lock says %d", a.Path, size, a.Size))
		}
	}
	lockedBundles := map[string]bool{}
	for _, b := range l.Bundles {
		if !files.SafeRelPath(b.Path) {
			return nil, nil, fmt.Errorf("the lock names bundle %q, not a path below the project root", b.Path)
		}
		if lockedBundles[b.Path] {
			diffs = append(diffs, fmt.Sprintf("bundle %s: listed twice in the lock", b.Path))
			continue
		}
		lockedBundles[b.Path] = true
		sum, size, err := files.Hash(filepath.Join(pr.Root, filepath.FromSlash(b.Path)))
		switch {
		case errors.Is(err, fs.ErrNotExist):
			diffs = append(diffs, fmt.Sprintf("bundle %s: missing (the lock has SHA-256 %s; git checkout -- %s restores the committed one)", b.Path, msg.Short(b.SHA256), b.Path))
		case err != nil:
			diffs = append(diffs, fmt.Sprintf("bundle %s: unreadable: %s (the lock has SHA-256 %s)", b.Path, msg.OneLine(msg.PathErr(err).Error()), msg.Short(b.SHA256)))
		case sum != b.SHA256:
			diffs = append(diffs, fmt.Sprintf("bundle %s: SHA-256 %s, the lock has %s%s", b.Path, msg.Short(sum), msg.Short(b.SHA256), committedDiff(pr.Root, b.Path)))
		case size != b.Size:
			diffs = append(diffs, fmt.Sprintf("bundle %s: %d bytes, the lock says %d", b.Path, size, b.Size))
		}
	}
	for _, path := range pr.bundlePaths() {
		if lockedBundles[path] {
			continue
		}
		if _, err := os.Stat(filepath.Join(pr.Root, filepath.FromSlash(path))); err == nil {
			diffs = append(diffs, fmt.Sprintf("bundle %s: not in the lock", path))
		}
	}
	stagesSeen := map[string]bool{}
	for _, s := range l.Stages {
		if stagesSeen[s.Stage] {
			diffs = append(diffs, fmt.Sprintf("stage %s: listed twice in the lock", s.Stage))
		}
		stagesSeen[s.Stage] = true
	}
	for _, a := range m.Artifacts {
		if _, ok := locked[a.Path]; !ok {
			diffs = append(diffs, fmt.Sprintf("%s: not in the lock", a.Path))
		}
	}
	for _, s := range l.Stages {
		rec, ok := m.Stages[s.Stage]
		switch {
		case !ok:
			diffs = append(diffs, fmt.Sprintf("stage %s: never run here (the lock has fingerprint %s)", s.Stage, msg.Short(s.Fingerprint)))
		case rec.Fingerprint != s.Fingerprint:
			diffs = append(diffs, fmt.Sprintf("stage %s: fingerprint %s, the lock has %s", s.Stage, msg.Short(rec.Fingerprint), msg.Short(s.Fingerprint)))
		}
	}
	slices.Sort(diffs)
	slices.Sort(notes)
	return diffs, notes, nil
}

// bundlePaths returns the slash paths of the bundles the project's stages
// read, sorted, each once.
func (pr Project) bundlePaths() []string {
	var out []string
	for _, s := range pr.Stages {
		if s.Units != nil {
			for _, b := range s.Units.Bundles() {
				out = append(out, filepath.ToSlash(b.Path()))
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// bundleProblem says how the bundle at path differs from the SHA-256
// want a stage's run recorded ("" when it does not).
func bundleProblem(root, path, want string) string {
	sum, _, err := files.Hash(filepath.Join(root, filepath.FromSlash(path)))
	switch {
	case errors.Is(err, fs.ErrNotExist) && want == store.BundleMissing:
		return ""
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Sprintf("missing (the stage read SHA-256 %s; git checkout -- %s restores the committed one)", msg.Short(want), path)
	case err != nil:
		return "unreadable: " + msg.OneLine(msg.PathErr(err).Error())
	case want == store.BundleMissing:
		return fmt.Sprintf("present (SHA-256 %s) but the stage ran without it: rerun it", msg.Short(sum))
	case sum != want:
		return fmt.Sprintf("SHA-256 on disk %s, the stage read %s: its rows were edited or added to since%s", msg.Short(sum), msg.Short(want), committedDiff(root, path))
	}
	return ""
}

// committedDiff names the units of the bundle at path (below root) whose
// rows differ from those of the file git's HEAD holds, as a suffix to a
// message: "; units that differ from git HEAD's file: …". It is empty
// when git has no such file, cannot be asked (no repository, no git) or
// the rows are the same.
func committedDiff(root, path string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var committed bytes.Buffer
	cmd := exec.CommandContext(ctx, "git", "-C", root, "show", "HEAD:./"+path)
	cmd.Stdout = &committed
	if err := cmd.Run(); err != nil || committed.Len() > pipeline.MaxBundleBytes {
		return ""
	}
	current, err := files.ReadLimited(filepath.Join(root, filepath.FromSlash(path)), pipeline.MaxBundleBytes)
	if err != nil {
		return ""
	}
	results, costs, err := pipeline.DiffBundleRows(committed.Bytes(), current)
	if err != nil || len(results)+len(costs) == 0 {
		return ""
	}
	list := func(units []string) string {
		const shown = 5
		s := strings.Join(units[:min(shown, len(units))], ", ")
		if len(units) > shown {
			s += fmt.Sprintf(" and %d more", len(units)-shown)
		}
		return s
	}
	var parts []string
	if len(results) > 0 {
		parts = append(parts, fmt.Sprintf("%s from git HEAD's file: %s", unitsDiffer(len(results)), list(results)))
	}
	if len(costs) > 0 {
		parts = append(parts, fmt.Sprintf("%s from it in cpu_seconds or peak_rss_bytes only (recomputed on another machine?): %s", unitsDiffer(len(costs)), list(costs)))
	}
	return fmt.Sprintf("; %s (git checkout -- %s restores it)", strings.Join(parts, "; "), path)
}

// unitsDiffer is "1 unit differs" or "n units differ".
func unitsDiffer(n int) string {
	if n == 1 {
		return "1 unit differs"
	}
	return fmt.Sprintf("%d units differ", n)
}

// VerifyResult is the check of one manifest artifact against its file.
type VerifyResult struct {
	Artifact store.ArtifactEntry
	OK       bool
	Problem  string
}

// Verify re-hashes every artifact in the manifest.
func (pr Project) Verify() ([]VerifyResult, error) {
	m, err := store.ReadManifest(pr.Root)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(pr.Root, store.ManifestPath)); err != nil {
		return nil, fmt.Errorf("%s: %w: nothing to verify (run `census run` first)", store.ManifestPath, msg.PathErr(err))
	}
	if len(m.Artifacts) == 0 {
		return nil, fmt.Errorf("%s lists no artifact: nothing to verify (run `census run` first)", store.ManifestPath)
	}
	var out []VerifyResult
	for _, a := range m.Artifacts {
		r := VerifyResult{Artifact: a, OK: true}
		if problem := store.CheckOnDisk(pr.Root, a); problem != "" {
			r.OK, r.Problem = false, problem
		}
		out = append(out, r)
	}
	// The bundles each stage read, against the SHA-256 its run recorded:
	// an edited or deleted bundle fails verify, naming the stage.
	var stages []string
	for name := range m.Stages {
		stages = append(stages, name)
	}
	slices.Sort(stages)
	for _, name := range stages {
		rec := m.Stages[name]
		var paths []string
		for path := range rec.Bundles {
			paths = append(paths, path)
		}
		slices.Sort(paths)
		for _, path := range paths {
			r := VerifyResult{Artifact: store.ArtifactEntry{Name: "bundle read by " + name, Path: path, SHA256: rec.Bundles[path], Rows: -1, Stage: name}, OK: true}
			r.Problem = bundleProblem(pr.Root, path, rec.Bundles[path])
			r.OK = r.Problem == ""
			out = append(out, r)
		}
	}
	return out, nil
}
