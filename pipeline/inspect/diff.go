package inspect

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/sudoku-census/sudoku-census/pipeline/config"

	"github.com/sudoku-census/sudoku-census/pipeline/internal/files"
	"github.com/sudoku-census/sudoku-census/pipeline/internal/msg"
	"github.com/sudoku-census/sudoku-census/pipeline/store"
)

// DataSide names the current data/ (its manifest and files) as a side of
// a diff, where a lock file would be.
const DataSide = "data"

// Diff is what differs between two runs, each a lock or the current
// data/: DVC's params diff and metrics diff in one.
type Diff struct {
	A string `json:"a"`
	B string `json:"b"`
	// Config holds the configuration keys whose values differ, as
	// canonical JSON ("" when a side lacks the key).
	Config []Change `json:"config"`
	// Stages holds the stages whose version or fingerprint differ.
	Stages []StageChange `json:"stages"`
	// Artifacts holds the artifacts whose SHA-256 differ (or that one side
	// lacks).
	Artifacts []ArtifactChange `json:"artifacts"`
	// Metrics holds the headline numbers (Stage.Headlines, read from the
	// artifacts) and the run times (from the run log) that differ; all of
	// them with DiffOptions.All.
	Metrics []Change `json:"metrics"`
	// Notes say what could not be compared, and why.
	Notes []string `json:"notes,omitempty"`
}

// Change is one value, old (side A) → new (side B); "" is absent.
type Change struct {
	Stage string `json:"stage,omitempty"`
	Key   string `json:"key"`
	Old   string `json:"old"`
	New   string `json:"new"`
}

// MarshalJSON writes the diff with each value as the JSON value it is, not
// as text: a config value as its canonical JSON (7, "mrv", [a, b]), a
// number as a number, written exactly as read (no float64 rounding of a
// 22-digit count); a side that lacks the value gives null.
func (d Diff) MarshalJSON() ([]byte, error) {
	type change struct {
		Stage string          `json:"stage,omitempty"`
		Key   string          `json:"key"`
		Old   json.RawMessage `json:"old"`
		New   json.RawMessage `json:"new"`
	}
	typed := func(cs []Change, value func(string) json.RawMessage) []change {
		out := make([]change, 0, len(cs))
		for _, c := range cs {
			out = append(out, change{Stage: c.Stage, Key: c.Key, Old: value(c.Old), New: value(c.New)})
		}
		return out
	}
	configValue := func(s string) json.RawMessage {
		if s == "" || !json.Valid([]byte(s)) {
			return jsonText(s)
		}
		return json.RawMessage(s)
	}
	type plain Diff // without this method
	return json.Marshal(struct {
		plain
		Config  []change `json:"config"`
		Metrics []change `json:"metrics"`
	}{plain(d), typed(d.Config, configValue), typed(d.Metrics, jsonText)})
}

// jsonNumber matches a JSON number.
var jsonNumber = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)

// jsonText is s as a JSON value: null when empty, a number when s is one,
// else a string.
func jsonText(s string) json.RawMessage {
	switch {
	case s == "":
		return json.RawMessage("null")
	case jsonNumber.MatchString(s):
		return json.RawMessage(s)
	}
	out, _ := json.Marshal(s)
	return out
}

// StageChange is a stage whose code version or fingerprint differ.
type StageChange struct {
	Stage          string `json:"stage"`
	OldVersion     int    `json:"old_version"`
	NewVersion     int    `json:"new_version"`
	OldFingerprint string `json:"old_fingerprint"`
	NewFingerprint string `json:"new_fingerprint"`
}

// ArtifactChange is an artifact whose bytes differ; an empty hash is an
// artifact the side lacks.
type ArtifactChange struct {
	Path      string `json:"path"`
	Stage     string `json:"stage"`
	OldSHA256 string `json:"old_sha256"`
	NewSHA256 string `json:"new_sha256"`
	OldSize   int64  `json:"old_size"`
	NewSize   int64  `json:"new_size"`
}

// Differs reports whether the runs differ: in configuration, stages or
// artifacts (the headline numbers follow from the artifacts; run times
// differ between any two runs).
func (d *Diff) Differs() bool {
	return len(d.Config) > 0 || len(d.Stages) > 0 || len(d.Artifacts) > 0
}

// DiffOptions modify a diff.
type DiffOptions struct {
	// All lists every headline number and time, not only those that differ.
	All bool
}

// runSide is one side of a diff: its stages (with their configuration,
// when known) and artifacts.
type runSide struct {
	label     string
	stages    map[string]LockedStage
	artifacts map[string]LockedArtifact
	notes     []string
}

// Diff compares a and b, each a lock file or DataSide. The artifacts'
// numbers are read from whatever copy this project holds of each (the file
// in data/ when its SHA-256 matches, else the run cache's object), so that
// a lock's numbers are available once its artifacts were made or pulled
// here (census pull --lock).
func (pr Project) Diff(a, b string, o DiffOptions) (*Diff, error) {
	sa, err := pr.diffSide(a)
	if err != nil {
		return nil, err
	}
	sb, err := pr.diffSide(b)
	if err != nil {
		return nil, err
	}
	d := &Diff{A: a, B: b, Config: []Change{}, Stages: []StageChange{}, Artifacts: []ArtifactChange{}, Metrics: []Change{}}
	d.Notes = append(append(d.Notes, sa.notes...), sb.notes...)

	configA, notesA := pr.sideConfig(sa)
	configB, notesB := pr.sideConfig(sb)
	d.Notes = append(append(d.Notes, notesA...), notesB...)
	seen := map[string]bool{} // a global key is in the config of every stage that reads it
	for _, stage := range keyUnion(sa.stages, sb.stages) {
		x, okA := configA[stage]
		y, okB := configB[stage]
		if !okA && !okB || okA != okB && (sa.stages[stage].Stage != "" && sb.stages[stage].Stage != "") {
			continue // unknown on a side that ran the stage: noted
		}
		for _, k := range keyUnion(x, y) {
			if x[k] != y[k] && !seen[k] {
				seen[k] = true
				d.Config = append(d.Config, Change{Key: k, Old: x[k], New: y[k]})
			}
		}
	}
	slices.SortFunc(d.Config, func(a, b Change) int { return strings.Compare(a.Key, b.Key) })

	for _, name := range keyUnion(sa.stages, sb.stages) {
		x, y := sa.stages[name], sb.stages[name]
		if x.Version != y.Version || x.Fingerprint != y.Fingerprint {
			d.Stages = append(d.Stages, StageChange{Stage: name, OldVersion: x.Version, NewVersion: y.Version,
				OldFingerprint: x.Fingerprint, NewFingerprint: y.Fingerprint})
		}
	}
	for _, path := range keyUnion(sa.artifacts, sb.artifacts) {
		x, y := sa.artifacts[path], sb.artifacts[path]
		if x.SHA256 != y.SHA256 {
			d.Artifacts = append(d.Artifacts, ArtifactChange{Path: path, Stage: cmp.Or(x.Stage, y.Stage),
				OldSHA256: x.SHA256, NewSHA256: y.SHA256, OldSize: x.Size, NewSize: y.Size})
		}
	}

	headA, notesA, err := pr.sideHeadlines(sa)
	if err != nil {
		return nil, err
	}
	headB, notesB, err := pr.sideHeadlines(sb)
	if err != nil {
		return nil, err
	}
	d.Notes = append(append(d.Notes, notesA...), notesB...)
	timesA, timesB := pr.sideTimes(sa), pr.sideTimes(sb)
	for _, s := range pr.Stages {
		for _, pair := range [][2]map[string]map[string]string{{headA, headB}, {timesA, timesB}} {
			x, okA := pair[0][s.Name]
			y, okB := pair[1][s.Name]
			if !okA || !okB {
				continue // not known on a side: noted (numbers) or not in its run log (times)
			}
			for _, k := range keyUnion(x, y) {
				if o.All || x[k] != y[k] {
					d.Metrics = append(d.Metrics, Change{Stage: s.Name, Key: k, Old: x[k], New: y[k]})
				}
			}
		}
	}
	return d, nil
}

// diffSide reads a lock file, or the current data/ for DataSide: the
// manifest's stages and the SHA-256 of the artifacts on disk.
func (pr Project) diffSide(name string) (*runSide, error) {
	side := &runSide{label: name, stages: map[string]LockedStage{}, artifacts: map[string]LockedArtifact{}}
	if name != DataSide {
		l, err := ReadLock(name)
		if err != nil {
			return nil, err
		}
		for _, s := range l.Stages {
			side.stages[s.Stage] = s
		}
		for _, a := range l.Artifacts {
			if !files.SafeRelPath(a.Path) {
				return nil, fmt.Errorf("lock %s names %q, not a path below the project root", name, a.Path)
			}
			side.artifacts[a.Path] = a
		}
		return side, nil
	}
	m, err := store.ReadManifest(pr.Root)
	if err != nil {
		return nil, err
	}
	for s, rec := range m.Stages {
		side.stages[s] = LockedStage{Stage: s, Version: rec.Version, Fingerprint: rec.Fingerprint, Config: rec.Config}
	}
	for _, a := range m.Artifacts {
		sum, size, err := files.Hash(filepath.Join(pr.Root, filepath.FromSlash(a.Path)))
		if err != nil {
			side.notes = append(side.notes, fmt.Sprintf("%s: %s is in the manifest but missing on disk", name, a.Path))
			continue
		}
		side.artifacts[a.Path] = LockedArtifact{Path: a.Path, Stage: a.Stage, SHA256: sum, Size: size}
	}
	return side, nil
}

// sideConfig returns the configuration of each stage of a side as dotted
// keys and canonical JSON values: each stage's from the lock, or, for a lock that
// predates configuration in locks, from the manifest or the run cache
// record of the same fingerprint. A stage whose configuration is nowhere
// is noted, and its keys left out.
func (pr Project) sideConfig(side *runSide) (map[string]map[string]string, []string) {
	out := map[string]map[string]string{}
	var notes []string
	m, _ := store.ReadManifest(pr.Root)
	for _, name := range slices.Sorted(maps.Keys(side.stages)) {
		s := side.stages[name]
		raw := s.Config
		if len(raw) == 0 && m != nil && m.Stages[name].Fingerprint == s.Fingerprint {
			raw = m.Stages[name].Config
		}
		if len(raw) == 0 {
			if data, err := os.ReadFile(store.CacheRun(pr.Root, name, s.Fingerprint)); err == nil {
				var rec store.CacheRecord
				if json.Unmarshal(data, &rec) == nil && rec.Record.Fingerprint == s.Fingerprint {
					raw = rec.Record.Config
				}
			}
		}
		if len(raw) == 0 {
			notes = append(notes, fmt.Sprintf("%s: the configuration of stage %s (fingerprint %s) is not known here", side.label, name, msg.Short(s.Fingerprint)))
			continue
		}
		out[name] = map[string]string{}
		for k, v := range config.Flatten(raw) {
			if k != "" {
				out[name][k] = v
			}
		}
	}
	return out, notes
}

// sideHeadlines reads each stage's headline numbers from the side's
// artifacts, wherever this project holds a copy with the right SHA-256:
// the copies are linked into a scratch root laid out like the project.
// A stage whose artifacts are not all here is noted.
func (pr Project) sideHeadlines(side *runSide) (map[string]map[string]string, []string, error) {
	scratch, err := os.MkdirTemp("", "census-diff-")
	if err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(scratch)
	out := map[string]map[string]string{}
	var notes []string
	for _, s := range pr.Stages {
		if s.Headlines == nil {
			continue
		}
		if _, ok := side.stages[s.Name]; !ok {
			continue
		}
		var missing []string
		for _, o := range s.Outputs {
			a, ok := side.artifacts[o.Path]
			var src string
			if ok {
				src = pr.copyWithHash(a.Path, a.SHA256)
			}
			if src == "" {
				missing = append(missing, o.Path)
				continue
			}
			dst := filepath.Join(scratch, filepath.FromSlash(o.Path))
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				return nil, nil, err
			}
			abs, err := filepath.Abs(src)
			if err != nil {
				return nil, nil, err
			}
			if err := os.Symlink(abs, dst); err != nil {
				return nil, nil, err
			}
		}
		if len(missing) > 0 {
			notes = append(notes, fmt.Sprintf("%s: the numbers of stage %s are not compared: no copy here of %s (census pull --lock fetches a lock's artifacts)",
				side.label, s.Name, strings.Join(missing, ", ")))
			continue
		}
		heads, err := s.Headlines(scratch)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: stage %s: reading its numbers: %w", side.label, s.Name, err)
		}
		out[s.Name] = map[string]string{}
		for _, h := range heads {
			out[s.Name][h.Name] = h.Value
		}
	}
	return out, notes, nil
}

// copyWithHash returns a file of this project with the given SHA-256: the
// artifact at path, or the run cache's object; "" when there is none.
func (pr Project) copyWithHash(path, sum string) string {
	for _, candidate := range []string{filepath.Join(pr.Root, filepath.FromSlash(path)), store.CacheObject(pr.Root, sum)} {
		if got, _, err := files.Hash(candidate); err == nil && got == sum {
			return candidate
		}
	}
	return ""
}

// sideTimes returns, per stage, the times the run log recorded for the
// last run of the side's fingerprint: the stage's wall and CPU seconds
// and the times it reported (metrics named *_seconds).
func (pr Project) sideTimes(side *runSide) map[string]map[string]string {
	out := map[string]map[string]string{}
	store.EachRun(pr.Root, func(r store.RunLogLine) {
		s, ok := side.stages[r.Stage]
		if !ok || r.Action != "ran" || r.Fingerprint != s.Fingerprint {
			return
		}
		times := map[string]string{"time: wall_seconds": formatSeconds(r.Wall), "time: cpu_seconds": formatSeconds(r.CPU)}
		for k, v := range r.Metrics {
			if f, ok := v.(float64); ok && strings.HasSuffix(k, "_seconds") && !strings.HasSuffix(k, "seconds_to_goal") {
				times["time: "+k] = formatSeconds(f)
			}
		}
		out[r.Stage] = times // the last run wins
	})
	return out
}

func formatSeconds(s float64) string {
	if math.IsNaN(s) || math.IsInf(s, 0) {
		return fmt.Sprint(s)
	}
	return strconv.FormatFloat(s, 'f', 2, 64)
}

// keyUnion returns the keys of a and b, each once, sorted.
func keyUnion[V any](a, b map[string]V) []string {
	keys := slices.Collect(maps.Keys(a))
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}
