package engine

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/pipeline/inspect"
	"github.com/sudoku-census/sudoku-census/pipeline/internal/files"
	"github.com/sudoku-census/sudoku-census/pipeline/store"
)

// Lock returns the lock of the current run. Every stage must be fresh:
// a lock describes a finished run, never a partial one.
func (e *Engine) Lock() (*inspect.RunLock, error) {
	st, err := e.Status()
	if err != nil {
		return nil, err
	}
	for _, s := range st {
		if !s.Fresh {
			return nil, fmt.Errorf("stage %s is stale (%s): run census run first, a lock records a finished run", s.Stage, s.Reason)
		}
	}
	m, err := store.ReadManifest(e.opts.Root)
	if err != nil {
		return nil, err
	}
	l := &inspect.RunLock{Tool: pipeline.ToolVersion}
	for _, s := range e.order {
		rec := m.Stages[s.Name]
		l.Stages = append(l.Stages, inspect.LockedStage{Stage: s.Name, Version: rec.Version, Fingerprint: rec.Fingerprint, Config: rec.Config})
	}
	for _, a := range m.Artifacts {
		la := inspect.LockedArtifact{Path: a.Path, Stage: a.Stage, SHA256: a.SHA256, Size: a.Size}
		if s, ok := e.byName[a.Stage]; ok {
			for _, o := range s.Outputs {
				if filepath.ToSlash(o.Path) == a.Path && len(o.MachineColumns) > 0 {
					sum, _, err := pipeline.HashColumnsExcept(filepath.Join(e.opts.Root, filepath.FromSlash(a.Path)), o.MachineColumns)
					if err != nil {
						return nil, fmt.Errorf("artifact %s: %w", a.Path, err)
					}
					la.MachineColumns, la.ColumnsSHA256 = slices.Clone(o.MachineColumns), sum
				}
			}
		}
		l.Artifacts = append(l.Artifacts, la)
	}
	readers := map[string][]string{} // bundle path -> stages
	for _, s := range e.order {
		for path, sum := range m.Stages[s.Name].Bundles {
			if sum != BundleMissing {
				readers[path] = append(readers[path], s.Name)
			}
		}
	}
	for path, stages := range readers {
		sum, size, err := files.Hash(filepath.Join(e.opts.Root, filepath.FromSlash(path)))
		if err != nil {
			return nil, fmt.Errorf("bundle %s: %w", path, err)
		}
		for _, name := range stages {
			if m.Stages[name].Bundles[path] != sum {
				return nil, fmt.Errorf("bundle %s changed since stage %s read it: run census run first", path, name)
			}
		}
		slices.Sort(stages)
		l.Bundles = append(l.Bundles, inspect.LockedBundle{Path: path, SHA256: sum, Size: size, Stages: stages})
	}
	slices.SortFunc(l.Bundles, func(a, b inspect.LockedBundle) int { return strings.Compare(a.Path, b.Path) })
	slices.SortFunc(l.Stages, func(a, b inspect.LockedStage) int { return strings.Compare(a.Stage, b.Stage) })
	slices.SortFunc(l.Artifacts, func(a, b inspect.LockedArtifact) int { return strings.Compare(a.Path, b.Path) })
	return l, nil
}

// WriteLock writes the lock of the current run to path, atomically.
func (e *Engine) WriteLock(path string) error {
	l, err := e.Lock()
	if err != nil {
		return err
	}
	return files.WriteAtomic(path, l.Encode())
}

// ConfigLock reads the lock that belongs to the configuration file: the
// file beside it with the extension .yaml (or .yml) replaced by
// .lock.json, as configs/default.lock.json is the lock of
// configs/default.yaml. It returns nil and "" when there is no such file.
func (e *Engine) ConfigLock() (*inspect.RunLock, string, error) {
	if e.opts.ConfigFile == "" {
		return nil, "", nil
	}
	base := strings.TrimSuffix(strings.TrimSuffix(e.opts.ConfigFile, ".yaml"), ".yml")
	path := base + ".lock.json"
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return nil, "", nil
	}
	l, err := inspect.ReadLock(path)
	if err != nil {
		return nil, "", err
	}
	return l, path, nil
}
