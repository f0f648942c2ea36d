package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/sudoku-census/sudoku-census/pipeline/internal/files"
	"github.com/sudoku-census/sudoku-census/pipeline/internal/msg"
)

// The run cache keeps every published output in a content-addressed store,
// with, per stage, the fingerprints they were made under, so that a stage
// whose configuration comes back to one it ran with before is restored
// instead of run again (DVC's run cache). Objects are files named by their
// SHA-256 under data/cache/objects; a run record, data/cache/runs/<stage>/
// <fingerprint>.json, holds the stage's manifest record and artifact
// entries. An object is hashed again before every restore: a damaged one is
// removed and the stage runs.
const CacheDir = "data/cache"

// CacheRecord is what the cache keeps of one run of a stage.
type CacheRecord struct {
	Stage     string          `json:"stage"`
	Record    StageRecord     `json:"record"`
	Artifacts []ArtifactEntry `json:"artifacts"`
}

// CacheObject is the path of the run cache object with SHA-256 sum.
func CacheObject(root, sum string) string {
	return filepath.Join(root, filepath.FromSlash(CacheDir), "objects", sum)
}

// CacheRun is the path of the run cache record of stage under fingerprint.
func CacheRun(root, stage, fingerprint string) string {
	return filepath.Join(root, filepath.FromSlash(CacheDir), "runs", stage, fingerprint+".json")
}

// CacheStore keeps the outputs a stage just published under its
// fingerprint. Objects are copies, not links, so that an artifact damaged
// in place leaves the cache intact. A failure only costs the cache entry.
func CacheStore(root string, log *slog.Logger, stage string, rec StageRecord, entries []ArtifactEntry) {
	for _, a := range entries {
		obj := CacheObject(root, a.SHA256)
		if _, err := os.Stat(obj); err == nil {
			continue
		}
		if err := files.Copy(filepath.Join(root, filepath.FromSlash(a.Path)), obj); err != nil {
			log.Warn("cannot keep an artifact in the run cache", "stage", stage, "artifact", a.Path, "err", err)
			return
		}
	}
	data, _ := json.MarshalIndent(CacheRecord{Stage: stage, Record: rec, Artifacts: entries}, "", "  ")
	if err := files.WriteAtomic(CacheRun(root, stage, rec.Fingerprint), append(data, '\n')); err != nil {
		log.Warn("cannot write a run cache record", "stage", stage, "err", err)
	}
}

// Cached returns the cache record of stage under fingerprint when it and
// every object it names exist (they are hashed at restore). A record is
// trusted only when it names exactly the stage's outputs, at their paths,
// with well-formed digests: a damaged one is passed over.
// outputs maps the name of each of the stage's outputs to its path.
func Cached(root, stage string, outputs map[string]string, fingerprint string) (*CacheRecord, bool) {
	if fingerprint == "" {
		return nil, false
	}
	data, err := os.ReadFile(CacheRun(root, stage, fingerprint))
	if err != nil {
		return nil, false
	}
	var rec CacheRecord
	if json.Unmarshal(data, &rec) != nil || rec.Stage != stage || rec.Record.Fingerprint != fingerprint ||
		len(rec.Artifacts) != len(outputs) {
		return nil, false
	}
	for _, sum := range rec.Record.Inputs {
		if !files.IsHexDigest(sum) {
			return nil, false
		}
	}
	outputs = maps.Clone(outputs) // each taken once
	for _, a := range rec.Artifacts {
		path, ok := outputs[a.Name]
		delete(outputs, a.Name)
		if !ok || a.Path != path || a.Stage != stage || a.Fingerprint != fingerprint || !files.IsHexDigest(a.SHA256) {
			return nil, false
		}
		if _, err := os.Stat(CacheObject(root, a.SHA256)); err != nil {
			return nil, false
		}
	}
	return &rec, true
}

// Restore puts the cached outputs of rec in place, after hashing every
// object; it changes nothing when one is damaged (that object is removed).
// Every output is copied beside its place first and renamed only when all
// copies succeeded, so a failure leaves the old outputs as they were.
func Restore(root string, rec *CacheRecord) error {
	for _, a := range rec.Artifacts {
		obj := CacheObject(root, a.SHA256)
		sum, _, err := files.Hash(obj)
		if err != nil {
			return err
		}
		if sum != a.SHA256 {
			os.Remove(obj)
			return fmt.Errorf("run cache object for %s is damaged (SHA-256 %s, want %s): removed", a.Path, msg.Short(sum), msg.Short(a.SHA256))
		}
	}
	temps := make([]string, len(rec.Artifacts))
	defer func() {
		for _, tmp := range temps {
			if tmp != "" {
				os.Remove(tmp)
			}
		}
	}()
	for i, a := range rec.Artifacts {
		dst := filepath.Join(root, filepath.FromSlash(a.Path))
		tmp := filepath.Join(filepath.Dir(dst), "."+filepath.Base(dst)+".tmp-restore")
		if err := files.Copy(CacheObject(root, a.SHA256), tmp); err != nil {
			return err
		}
		temps[i] = tmp
	}
	for i, a := range rec.Artifacts {
		if err := os.Rename(temps[i], filepath.Join(root, filepath.FromSlash(a.Path))); err != nil {
			return err
		}
		temps[i] = ""
	}
	return nil
}

// CacheSize is the run cache's size on disk.
type CacheSize struct {
	Runs, Objects int
	Bytes         int64
}

func (c CacheSize) String() string {
	return fmt.Sprintf("run cache: %d runs, %d objects, %.1f MB", c.Runs, c.Objects, float64(c.Bytes)/1e6)
}

// MeasureCache measures the run cache.
func MeasureCache(root string) CacheSize {
	var c CacheSize
	base := filepath.Join(root, filepath.FromSlash(CacheDir))
	filepath.WalkDir(base, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(base, path)
		switch {
		case strings.HasPrefix(rel, "objects"+string(filepath.Separator)):
			c.Objects++
			if info, err := d.Info(); err == nil {
				c.Bytes += info.Size()
			}
		case strings.HasSuffix(rel, ".json"):
			c.Runs++
		}
		return nil
	})
	return c
}

// GCCache removes the run records no current fingerprint needs (keep lists
// the needed fingerprints per stage), except the keepLast most recent
// others of each stage, then every object no remaining record names.
func GCCache(root string, keep map[string]map[string]bool, keepLast int) ([]Removed, error) {
	base := filepath.Join(root, filepath.FromSlash(CacheDir))
	runsDir := filepath.Join(base, "runs")
	stages, err := os.ReadDir(runsDir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	var removed []Removed
	needed := map[string]bool{}
	for _, st := range stages {
		entries, _ := os.ReadDir(filepath.Join(runsDir, st.Name()))
		type run struct {
			name string
			mod  time.Time
		}
		var others []run
		for _, en := range entries {
			fp := strings.TrimSuffix(en.Name(), ".json")
			info, err := en.Info()
			if err != nil {
				continue
			}
			if keep[st.Name()][fp] {
				continue
			}
			others = append(others, run{en.Name(), info.ModTime()})
		}
		sort.Slice(others, func(i, j int) bool { return others[i].mod.After(others[j].mod) })
		for i, r := range others {
			if i < keepLast {
				continue
			}
			path := filepath.Join(runsDir, st.Name(), r.name)
			info, _ := os.Stat(path)
			if err := os.Remove(path); err != nil {
				return removed, err
			}
			removed = append(removed, Removed{Path: filepath.ToSlash(filepath.Join(CacheDir, "runs", st.Name(), r.name)), Files: 1, Bytes: info.Size()})
		}
		entries, _ = os.ReadDir(filepath.Join(runsDir, st.Name()))
		for _, en := range entries {
			data, err := os.ReadFile(filepath.Join(runsDir, st.Name(), en.Name()))
			if err != nil {
				continue
			}
			var rec CacheRecord
			if json.Unmarshal(data, &rec) == nil {
				for _, a := range rec.Artifacts {
					needed[a.SHA256] = true
				}
			}
		}
	}
	objects, _ := os.ReadDir(filepath.Join(base, "objects"))
	for _, en := range objects {
		if needed[en.Name()] {
			continue
		}
		path := filepath.Join(base, "objects", en.Name())
		info, err := os.Stat(path)
		if err != nil {
			continue
		}
		if err := os.Remove(path); err != nil {
			return removed, err
		}
		removed = append(removed, Removed{Path: filepath.ToSlash(filepath.Join(CacheDir, "objects", en.Name())), Files: 1, Bytes: info.Size()})
	}
	return removed, nil
}
