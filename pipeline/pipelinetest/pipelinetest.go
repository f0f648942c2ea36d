// Package pipelinetest runs the pipeline engine from tests: a stage's test
// runs its targets in a temporary project root and compares artifacts
// between roots. It is for _test.go files only.
package pipelinetest

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/sudoku-census/sudoku-census/pipeline/engine"

	"github.com/sudoku-census/sudoku-census/pipeline"
)

// Options says what Run runs and where.
type Options struct {
	// Stages is the pipeline the engine knows, usually Closure of the stages
	// under test. The engine rejects config keys of any other stage, so a
	// test that runs a few stages sets their keys with Set rather than
	// reading configs/smoke.yaml, which names every stage.
	Stages []*pipeline.Stage
	// Config is the YAML configuration file, relative to the test's
	// directory, such as "../../configs/smoke.yaml", or empty for the
	// stages' defaults; Set holds key=value overrides applied after it.
	Config string
	Set    []string
	// Targets are the stages to bring up to date (none: all of them);
	// Force reruns these stages even if fresh.
	Targets []string
	Force   []string
	// Procs is GOMAXPROCS during the run; 0 leaves it as it is.
	Procs int
	// Root is the project root to run in; empty means a fresh temporary
	// directory.
	Root string
}

// Run brings the targets of o up to date, failing t on any error of
// configuration or of a stage, and returns the project root.
func Run(t testing.TB, o Options) string {
	t.Helper()
	if o.Root == "" {
		o.Root = t.TempDir()
	}
	CopySources(t, o.Root, o.Stages)
	eng, err := engine.New(engine.Options{Root: o.Root, Stages: o.Stages, ConfigFile: configFile(t, o), Set: o.Set})
	if err != nil {
		t.Fatal(err)
	}
	if o.Procs > 0 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(o.Procs))
	}
	if _, err := eng.Run(context.Background(), o.Targets, engine.RunOptions{Force: o.Force}); err != nil {
		t.Fatal(err)
	}
	return o.Root
}

// configFile returns o.Config, or an empty configuration file when it is
// empty (the engine always reads one).
func configFile(t testing.TB, o Options) string {
	if o.Config != "" {
		return o.Config
	}
	path := filepath.Join(t.TempDir(), "empty.yaml")
	if err := os.WriteFile(path, []byte("# the stages' defaults\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// Rejects fails t unless the engine refuses the configuration of o with the
// override set added (--set set) with a one-line error naming key, and
// returns that error. Nothing runs and nothing is written.
func Rejects(t testing.TB, o Options, set, key string) error {
	t.Helper()
	_, err := engine.New(engine.Options{Root: o.Root, Stages: o.Stages, ConfigFile: configFile(t, o),
		Set: append(slices.Clip(o.Set), set)})
	if err == nil || !strings.Contains(err.Error(), key) || strings.Contains(err.Error(), "\n") {
		t.Errorf("--set %s: error %v, want one line naming %s", set, err, key)
	}
	return err
}

// Copy copies the project root to a fresh temporary directory and returns
// the copy: a test reruns a stage there and compares the two roots.
func Copy(t testing.TB, root string) string {
	t.Helper()
	dst := t.TempDir()
	if err := os.CopyFS(dst, os.DirFS(root)); err != nil {
		t.Fatal(err)
	}
	return dst
}

// SameOutputs fails t for every output of the stages whose bytes under
// root a differ from those under root b.
func SameOutputs(t testing.TB, a, b string, stages ...*pipeline.Stage) {
	t.Helper()
	var paths []string
	for _, s := range stages {
		for _, o := range s.Outputs {
			paths = append(paths, o.Path)
		}
	}
	SameFiles(t, a, b, paths...)
}

// SameFiles fails t for every path, relative to the roots, whose bytes
// under root a differ from those under root b.
func SameFiles(t testing.TB, a, b string, paths ...string) {
	t.Helper()
	for _, path := range paths {
		x, errA := os.ReadFile(filepath.Join(a, path))
		y, errB := os.ReadFile(filepath.Join(b, path))
		if errA != nil || errB != nil {
			t.Errorf("%s: %v, %v", path, errA, errB)
			continue
		}
		if !bytes.Equal(x, y) {
			t.Errorf("%s differs between roots %s and %s", path, a, b)
		}
	}
}

// Closure returns stages and every stage they require, transitively, each
// once: the pipeline a stage's test runs, so that the test builds only the
// stages it needs. The engine orders them.
func Closure(stages ...*pipeline.Stage) []*pipeline.Stage {
	var out []*pipeline.Stage
	seen := map[*pipeline.Stage]bool{}
	var add func(s *pipeline.Stage)
	add = func(s *pipeline.Stage) {
		if seen[s] {
			return
		}
		seen[s] = true
		for _, r := range s.Requires {
			add(r)
		}
		out = append(out, s)
	}
	for _, s := range stages {
		add(s)
	}
	return out
}

// CopySources copies the hand-written source files of the stages
// (Stage.Sources, the paper's text) from the module's root into root, so
// that a test's fresh project root can run them.
func CopySources(t testing.TB, root string, stages []*pipeline.Stage) {
	t.Helper()
	module, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(module, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(module)
		if parent == module {
			t.Fatal("pipelinetest: no go.mod above the working directory")
		}
		module = parent
	}
	for _, s := range stages {
		for _, src := range s.Sources {
			data, err := os.ReadFile(filepath.Join(module, filepath.FromSlash(src)))
			if err != nil {
				t.Fatal(err)
			}
			dst := filepath.Join(root, filepath.FromSlash(src))
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(dst, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}
