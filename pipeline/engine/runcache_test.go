package engine

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/sudoku-census/sudoku-census/pipeline"

	"github.com/sudoku-census/sudoku-census/pipeline/internal/files"
	"github.com/sudoku-census/sudoku-census/pipeline/store"
)

// countingFixture is the toy pipeline with a counter of Run calls per stage.
func countingFixture(t *testing.T) (*fixture, map[string]*atomic.Int64) {
	f := newFixture(t, "numbers:\n  count: 100\n")
	calls := map[string]*atomic.Int64{}
	for _, s := range f.stages {
		n, run := &atomic.Int64{}, s.Run
		calls[s.Name] = n
		s.Run = func(p *pipeline.Pass) error { n.Add(1); return run(p) }
	}
	return f, calls
}

// restored runs the engine and returns the stages it restored.
func (f *fixture) restored(set ...string) []string {
	f.t.Helper()
	res, err := f.engine(set...).Run(context.Background(), nil, RunOptions{})
	if err != nil {
		f.t.Fatal(err)
	}
	var out []string
	for _, r := range res {
		if r.Restored {
			out = append(out, r.Stage)
		}
	}
	return out
}

func TestRunCacheRestoresWithoutRunning(t *testing.T) {
	f, calls := countingFixture(t)
	f.run(RunOptions{}, nil)
	first := map[string][]byte{}
	for _, p := range []string{"data/numbers.parquet", "data/squares.parquet", "data/total.txt", store.ManifestPath} {
		first[p] = f.read(p)
	}
	// Change a config key, run; change it back: the seed-1 outputs come
	// back from the cache and no stage code runs.
	f.run(RunOptions{}, []string{"squares.offset=5"})
	if st := f.status(); !strings.HasPrefix(st["squares"], "config squares.offset changed") {
		t.Fatalf("status %v", st)
	}
	st, _ := f.engine().Status()
	if !st[1].InCache || !st[2].InCache || st[0].InCache {
		t.Fatalf("in cache: %+v", st)
	}
	before := calls["squares"].Load() + calls["total"].Load() + calls["numbers"].Load()
	if got := f.restored(); !equal(got, []string{"squares", "total"}) {
		t.Fatalf("restored %v, want squares and total", got)
	}
	if after := calls["squares"].Load() + calls["total"].Load() + calls["numbers"].Load(); after != before {
		t.Fatalf("a restore ran stage code %d times", after-before)
	}
	for p, b := range first {
		if !bytes.Equal(b, f.read(p)) {
			t.Errorf("%s differs after the restore", p)
		}
	}
	if s := f.status(); s["squares"] != "fresh" || s["total"] != "fresh" {
		t.Fatalf("status after the restore %v", s)
	}
}

func TestRunCacheDamagedObjectIsRecomputed(t *testing.T) {
	f, calls := countingFixture(t)
	f.run(RunOptions{}, nil)
	good := f.read("data/squares.parquet")
	f.run(RunOptions{}, []string{"squares.offset=5"})
	// Damage the cached object of the offset-0 squares.
	obj := filepath.Join(f.root, store.CacheDir, "objects", sha(good))
	data, err := os.ReadFile(obj)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/2] ^= 1
	os.WriteFile(obj, data, 0o644)
	n := calls["squares"].Load()
	if got := f.restored(); equal(got, []string{"squares", "total"}) {
		t.Fatal("restored squares from a damaged object")
	}
	if calls["squares"].Load() != n+1 {
		t.Fatal("squares did not run after its cache object was found damaged")
	}
	if !bytes.Equal(good, f.read("data/squares.parquet")) {
		t.Fatal("recomputed squares differ")
	}
	// The run stored a good object again.
	if b, _ := os.ReadFile(obj); !bytes.Equal(b, good) {
		t.Fatal("the damaged object was not replaced")
	}
}

func TestRunCacheGC(t *testing.T) {
	f, _ := countingFixture(t)
	f.run(RunOptions{}, nil)
	f.run(RunOptions{}, []string{"squares.offset=5"})
	f.run(RunOptions{}, []string{"squares.offset=6"})
	f.run(RunOptions{}, nil) // back to offset 0: restored
	records := func() int {
		m, _ := filepath.Glob(filepath.Join(f.root, store.CacheDir, "runs", "squares", "*.json"))
		return len(m)
	}
	if records() != 3 {
		t.Fatalf("%d squares records, want 3", records())
	}
	if _, err := f.engine().GC(false, 1); err != nil {
		t.Fatal(err)
	}
	if records() != 2 {
		t.Fatalf("gc --keep-last 1 left %d squares records, want the current and one other", records())
	}
	if _, err := f.engine().GC(false, 0); err != nil {
		t.Fatal(err)
	}
	if records() != 1 {
		t.Fatalf("gc left %d squares records, want the current one", records())
	}
	// Every current artifact is still restorable.
	for _, p := range []string{"data/numbers.parquet", "data/squares.parquet", "data/total.txt"} {
		os.Remove(filepath.Join(f.root, p))
	}
	if got := f.restored(); !equal(got, []string{"numbers", "squares", "total"}) {
		t.Fatalf("after gc restored %v", got)
	}
	if size := store.MeasureCache(f.root); size.Runs != 3 || size.Objects != 3 {
		t.Fatalf("cache after gc: %+v", size)
	}
}

// sha is the hex SHA-256 of data.
func sha(data []byte) string {
	f, _ := os.CreateTemp("", "sha")
	defer os.Remove(f.Name())
	f.Write(data)
	f.Close()
	s, _, _ := files.Hash(f.Name())
	return s
}

func TestSkipSkipsDownstreamAndTheRunSucceeds(t *testing.T) {
	f, calls := countingFixture(t)
	f.stages[1].Run = func(p *pipeline.Pass) error { return pipeline.Skip("a tool is missing") }
	res, err := f.engine().Run(context.Background(), nil, RunOptions{})
	if err != nil {
		t.Fatalf("a skipped stage failed the run: %v", err)
	}
	if len(res) != 3 || !res[0].Ran || !res[1].Skipped || !res[2].Skipped || calls["total"].Load() != 0 {
		t.Fatalf("results %+v, total ran %d times", res, calls["total"].Load())
	}
	if _, err := os.Stat(filepath.Join(f.root, "data/squares.parquet")); err == nil {
		t.Fatal("a skipped stage published its output")
	}
	if s := f.status(); s["numbers"] != "fresh" || s["squares"] != "never run" || !strings.Contains(s["total"], "upstream stage squares is stale") {
		t.Fatalf("status %v", s)
	}
}
