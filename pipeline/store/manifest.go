package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"

	"github.com/sudoku-census/sudoku-census/pipeline/internal/files"
	"github.com/sudoku-census/sudoku-census/pipeline/internal/msg"
)

// ManifestPath is where the manifest lives, relative to the project root.
const ManifestPath = "data/manifest.json"

// BundleMissing stands for the SHA-256 of a stage's bundle that was not on
// disk when it ran, in its fingerprint and manifest record.
const BundleMissing = "missing"

// Manifest is data/manifest.json: every artifact with its hash, and for
// every stage the fingerprint and provenance of its last successful run. It
// is the cache index: freshness is decided against it.
type Manifest struct {
	Tool      string                 `json:"tool"`
	Stages    map[string]StageRecord `json:"stages"`
	Artifacts []ArtifactEntry        `json:"artifacts"`
}

// StageRecord is what the manifest keeps of a stage's last successful run.
type StageRecord struct {
	Version     int               `json:"version"`
	Fingerprint string            `json:"fingerprint"`
	Config      json.RawMessage   `json:"config"`
	Inputs      map[string]string `json:"inputs"`
	Outputs     []string          `json:"outputs"`
	// Sources are the SHA-256 of the stage's hand-written source files
	// (Stage.Sources), by path.
	Sources map[string]string `json:"sources,omitempty"`
	// Tools are the versions of the external programs the stage calls
	// (Stage.Tools), by name.
	Tools map[string]string `json:"tools,omitempty"`
	// Bundles are the SHA-256 of the committed bundles the stage read
	// (Units.Bundles), by path; "missing" for one that was not on disk.
	Bundles map[string]string `json:"bundles,omitempty"`
	// Code is the version control state of the binary that made the
	// outputs, when it was built from a git checkout (absent otherwise).
	// It is kept here, never in an artifact, so that the artifacts' bytes
	// do not depend on the commit.
	Code *CodeVersion `json:"code,omitempty"`
}

// CodeVersion is the commit a binary was built from, as Go records it.
type CodeVersion struct {
	Commit   string `json:"commit"`
	Modified bool   `json:"modified"` // the tree had uncommitted changes
}

// ArtifactEntry is one artifact in the manifest.
type ArtifactEntry struct {
	Name        string `json:"name"`
	Path        string `json:"path"`
	SHA256      string `json:"sha256"`
	Size        int64  `json:"size"`
	Rows        int64  `json:"rows"` // -1 for files that are not tables
	Stage       string `json:"stage"`
	Fingerprint string `json:"fingerprint"`
}

// ReadManifest reads root/data/manifest.json; a missing manifest is empty.
func ReadManifest(root string) (*Manifest, error) {
	m := &Manifest{Tool: ToolVersion, Stages: map[string]StageRecord{}}
	data, err := os.ReadFile(filepath.Join(root, ManifestPath))
	if errors.Is(err, fs.ErrNotExist) {
		return m, nil
	}
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(data, m); err != nil {
		return nil, fmt.Errorf("%s is damaged (%s): delete it and run again", ManifestPath, msg.OneLine(err.Error()))
	}
	// The engine always writes the three fields: a manifest without them
	// ({}, null, an array) is damaged, not empty.
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil || fields == nil {
		why := "not a JSON object"
		if err != nil {
			why = msg.OneLine(err.Error())
		}
		return nil, fmt.Errorf("%s is damaged (%s): delete it and run again", ManifestPath, why)
	}
	for _, f := range []string{"tool", "stages", "artifacts"} {
		if _, ok := fields[f]; !ok {
			return nil, fmt.Errorf("%s is damaged (it has no %q field): delete it and run again", ManifestPath, f)
		}
	}
	if m.Stages == nil {
		m.Stages = map[string]StageRecord{}
	}
	if err := m.check(); err != nil {
		return nil, fmt.Errorf("%s is damaged (%s): delete it and run again", ManifestPath, msg.OneLine(err.Error()))
	}
	return m, nil
}

// check rejects a manifest that no run of the engine writes, so that no
// command trusts (or slices) a hand-edited or truncated field.
func (m *Manifest) check() error {
	names := map[string]bool{}
	for i, a := range m.Artifacts {
		what := fmt.Sprintf("artifact %d (%q)", i+1, a.Name)
		switch {
		case a.Name == "":
			return fmt.Errorf("artifact %d has no name", i+1)
		case names[a.Name]:
			return fmt.Errorf("%s is listed twice", what)
		case !files.IsHexDigest(a.SHA256):
			return fmt.Errorf("%s: sha256 %q is not 64 lowercase hex digits", what, a.SHA256)
		case !files.IsHexDigest(a.Fingerprint):
			return fmt.Errorf("%s: fingerprint %q is not 64 lowercase hex digits", what, a.Fingerprint)
		case !files.SafeRelPath(a.Path):
			return fmt.Errorf("%s: path %q is not a relative path inside the project", what, a.Path)
		case a.Stage == "":
			return fmt.Errorf("%s has no stage", what)
		case a.Size < 0 || a.Rows < -1:
			return fmt.Errorf("%s: size %d or rows %d is negative", what, a.Size, a.Rows)
		}
		names[a.Name] = true
	}
	for name, rec := range m.Stages {
		if !files.IsHexDigest(rec.Fingerprint) {
			return fmt.Errorf("stage %q: fingerprint %q is not 64 lowercase hex digits", name, rec.Fingerprint)
		}
		for in, sum := range rec.Inputs {
			if !files.IsHexDigest(sum) {
				return fmt.Errorf("stage %q: input %q: sha256 %q is not 64 lowercase hex digits", name, in, sum)
			}
		}
	}
	return nil
}

// Artifact returns the entry named name (an artifact name or its path).
func (m *Manifest) Artifact(name string) (ArtifactEntry, bool) {
	for _, a := range m.Artifacts {
		if a.Name == name || a.Path == filepath.ToSlash(filepath.Clean(name)) {
			return a, true
		}
	}
	return ArtifactEntry{}, false
}

// Clone returns a copy that Record can change without changing m.
func (m *Manifest) Clone() *Manifest {
	c := &Manifest{Tool: m.Tool, Stages: make(map[string]StageRecord, len(m.Stages)), Artifacts: slices.Clone(m.Artifacts)}
	for k, v := range m.Stages {
		c.Stages[k] = v
	}
	return c
}

// Record replaces the stage's record and artifacts.
func (m *Manifest) Record(stage string, rec StageRecord, entries []ArtifactEntry) {
	m.Tool = ToolVersion
	m.Stages[stage] = rec
	kept := m.Artifacts[:0]
	for _, a := range m.Artifacts {
		if a.Stage != stage {
			kept = append(kept, a)
		}
	}
	m.Artifacts = append(kept, entries...)
	sort.Slice(m.Artifacts, func(i, j int) bool { return m.Artifacts[i].Path < m.Artifacts[j].Path })
}

// Write saves the manifest atomically.
func (m *Manifest) Write(root string) error {
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return files.WriteAtomic(filepath.Join(root, ManifestPath), append(data, '\n'))
}

// CheckOnDisk hashes the artifact's file and says what is wrong with it,
// "" when its bytes are those the manifest lists: missing, unreadable
// (with the system's error) or other bytes. Every command that reports on
// an artifact (verify, show, cite) asks it, never the manifest alone.
func CheckOnDisk(root string, a ArtifactEntry) string {
	sum, size, err := files.Hash(filepath.Join(root, filepath.FromSlash(a.Path)))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "missing"
	case err != nil:
		return "unreadable: " + msg.OneLine(msg.PathErr(err).Error())
	case sum != a.SHA256 || size != a.Size:
		return fmt.Sprintf("SHA-256 on disk %s, manifest says %s (size %d, manifest %d)", sum, a.SHA256, size, a.Size)
	}
	return ""
}

// CheckArtifact returns an error naming the artifact and what is wrong
// when its file is not the one the manifest lists.
func CheckArtifact(root string, a ArtifactEntry) error {
	if problem := CheckOnDisk(root, a); problem != "" {
		return fmt.Errorf("artifact %s (%s) is not what %s lists: %s; run `census verify`, and rerun its stage (census run --force %s) or restore the file", a.Name, a.Path, ManifestPath, problem, a.Stage)
	}
	return nil
}

// The tool's name and release, written once: ToolVersion joins them, and
// Parquet footers record them as their "created by".
const (
	ToolName    = "sudoku-census"
	ToolRelease = "0.1.0"
)

// ToolVersion is recorded in every artifact's provenance. It is not part of
// any fingerprint: a new tool version alone does not make artifacts stale.
const ToolVersion = ToolName + " " + ToolRelease
