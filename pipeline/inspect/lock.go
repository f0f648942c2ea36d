package inspect

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

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
	m, err := store.ReadManifest(pr.Root)
	if err != nil {
		return nil, err
	}
	var diffs []string
	seen := map[string]bool{}
	locked := map[string]LockedArtifact{}
	for _, a := range l.Artifacts {
		locked[a.Path] = a
	}
	for _, a := range l.Artifacts {
		if !files.SafeRelPath(a.Path) {
			return nil, fmt.Errorf("the lock names %q, not a path below the project root", a.Path)
		}
		if seen[a.Path] {
			diffs = append(diffs, fmt.Sprintf("%s: listed twice in the lock", a.Path))
			continue
		}
		seen[a.Path] = true
		sum, size, err := files.Hash(filepath.Join(pr.Root, filepath.FromSlash(a.Path)))
		switch {
		case errors.Is(err, fs.ErrNotExist):
			diffs = append(diffs, fmt.Sprintf("%s: missing (the lock has SHA-256 %s)", a.Path, msg.Short(a.SHA256)))
		case err != nil:
			diffs = append(diffs, fmt.Sprintf("%s: unreadable: %s (the lock has SHA-256 %s)", a.Path, msg.OneLine(msg.PathErr(err).Error()), msg.Short(a.SHA256)))
		case sum != a.SHA256:
			diffs = append(diffs, fmt.Sprintf("%s: SHA-256 %s, the lock has %s", a.Path, msg.Short(sum), msg.Short(a.SHA256)))
		case size != a.Size:
			diffs = append(diffs, fmt.Sprintf("%s: %d bytes, the lock says %d", a.Path, size, a.Size))
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
	return diffs, nil
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
	return out, nil
}
