package engine

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/pipeline/inspect"
	"github.com/sudoku-census/sudoku-census/pipeline/remote"

	"github.com/sudoku-census/sudoku-census/pipeline/internal/s3test"
	"github.com/sudoku-census/sudoku-census/pipeline/store"
)

// remotes returns a fresh remote of each kind: a file:// directory and a
// prefix on an S3-compatible server started for the test.
func remotes(t *testing.T) map[string]func(t *testing.T) string {
	return map[string]func(t *testing.T) string{
		"file": func(t *testing.T) string { return "file://" + t.TempDir() },
		"s3":   func(t *testing.T) string { return s3test.Start(t, "census").URL("team/cache") },
	}
}

func open(t *testing.T, url string) *remote.Remote {
	t.Helper()
	r, err := remote.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// clone is a second project root with the fixture's configuration and no
// data/: another machine.
func (f *fixture) clone() *fixture {
	g := &fixture{t: f.t, root: f.t.TempDir(), config: f.config, stages: f.stages}
	return g
}

func TestPushPullRoundTrip(t *testing.T) {
	for kind, newRemote := range remotes(t) {
		t.Run(kind, func(t *testing.T) {
			ctx := context.Background()
			f := newFixture(t, "numbers:\n  count: 10\n")
			f.run(RunOptions{}, nil)
			lockPath := f.writeLock("run.lock.json")
			url := newRemote(t)
			r := open(t, url)
			first, err := r.Push(ctx, f.root, f.engine().Log(), false)
			if err != nil {
				t.Fatal(err)
			}
			if first.Objects != 3 || first.Runs != 3 || first.Bytes == 0 {
				t.Fatalf("first push: %+v, want 3 objects and 3 run records", first)
			}
			second, err := r.Push(ctx, f.root, f.engine().Log(), false)
			if err != nil || second.Files() != 0 || second.Bytes != 0 || second.Present != 6 {
				t.Fatalf("second push: %+v, %v; want nothing sent", second, err)
			}

			// Another machine pulls: every stage is restored, none runs,
			// and the run matches the lock.
			g := f.clone()
			got, results, err := g.engine().Pull(ctx, open(t, url), PullOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if got.Objects != 3 || got.Runs != 3 || len(got.Missing) != 0 {
				t.Fatalf("pull: %+v", got)
			}
			for _, res := range results {
				if !res.Restored {
					t.Errorf("stage %s: %+v, want restored", res.Stage, res)
				}
			}
			l, _ := inspect.ReadLock(lockPath)
			if diffs, err := g.engine().Project().CompareLock(l); err != nil || len(diffs) != 0 {
				t.Fatalf("after the pull: %v, %v", diffs, err)
			}
			if st := g.status(); st["total"] != "fresh" {
				t.Fatalf("status after the pull: %v", st)
			}
			if kind == "s3" {
				// Every key went below the remote's prefix.
				whole := open(t, strings.Replace(url, "/team/cache?", "/?", 1))
				keys, err := whole.Keys(ctx)
				if err != nil || len(keys) != 6 {
					t.Fatalf("the bucket holds %v, %v; want 6 keys", keys, err)
				}
				for k := range keys {
					if !strings.HasPrefix(k, "team/cache/") {
						t.Errorf("key %s is not below the prefix team/cache/", k)
					}
				}
			}
			// A second pull fetches nothing.
			again, _, err := g.engine().Pull(ctx, open(t, url), PullOptions{})
			if err != nil || again.Files() != 0 {
				t.Fatalf("second pull: %+v, %v", again, err)
			}
		})
	}
}

// pushed runs the toy pipeline and pushes it to a fresh file:// remote in
// dir.
func pushed(t *testing.T) (f *fixture, dir string, r *remote.Remote) {
	f = newFixture(t, "")
	f.run(RunOptions{}, nil)
	dir = t.TempDir()
	r = open(t, "file://"+dir)
	if _, err := r.Push(context.Background(), f.root, f.engine().Log(), false); err != nil {
		t.Fatal(err)
	}
	return f, dir, r
}

// TestPullChecksEveryFile damages the remote's copy of an artifact: the
// pull refuses it, and nothing of that stage or after it is taken for
// done.
func TestPullChecksEveryFile(t *testing.T) {
	ctx := context.Background()
	f, dir, r := pushed(t)
	m, _ := store.ReadManifest(f.root)
	squares, _ := m.Artifact("squares")
	obj := filepath.Join(dir, "objects", squares.SHA256)
	data, _ := os.ReadFile(obj)
	data[len(data)/2] ^= 1
	os.WriteFile(obj, data, 0o644)

	g := f.clone()
	_, _, err := g.engine().Pull(ctx, r, PullOptions{})
	if err == nil || !strings.Contains(err.Error(), "damaged") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("pull of a damaged object: %v", err)
	}
	if _, err := os.Stat(store.CacheObject(g.root, squares.SHA256)); err == nil {
		t.Error("the damaged object reached the run cache")
	}
	if _, err := os.Stat(store.CacheRun(g.root, "squares", m.Stages["squares"].Fingerprint)); err == nil {
		t.Error("the record of the damaged object's stage was written")
	}
	st := g.status()
	if st["squares"] == "fresh" || st["total"] == "fresh" {
		t.Errorf("after a refused pull: %v", st)
	}
}

// TestInterruptedPushIsNotTakenForComplete: a push stopped after the
// objects, before the records (which go last), leaves a remote from which
// a pull restores nothing; a torn object is never used.
func TestInterruptedPushIsNotTakenForComplete(t *testing.T) {
	ctx := context.Background()
	f, dir, r := pushed(t)
	os.RemoveAll(filepath.Join(dir, "runs"))
	g := f.clone()
	got, results, err := g.engine().Pull(ctx, r, PullOptions{})
	if err != nil || got.Files() != 0 || len(got.Missing) != 3 {
		t.Fatalf("pull without records: %+v, %v", got, err)
	}
	for _, res := range results {
		if res.Restored || res.Ran {
			t.Errorf("stage %s: %+v, want skipped", res.Stage, res)
		}
	}
	if _, err := os.Stat(filepath.Join(g.root, store.ManifestPath)); err == nil {
		if m, _ := store.ReadManifest(g.root); len(m.Artifacts) > 0 {
			t.Errorf("a pull without records published %v", m.Artifacts)
		}
	}
	// A cancelled push sends nothing that a pull would take.
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	dir2 := t.TempDir()
	if _, err := open(t, "file://"+dir2).Push(cancelled, f.root, f.engine().Log(), false); err == nil {
		t.Error("a cancelled push succeeded")
	}
	if runs, _ := filepath.Glob(filepath.Join(dir2, "runs", "*", "*")); len(runs) > 0 {
		t.Errorf("a cancelled push wrote records %v", runs)
	}
}

func TestBadRemotes(t *testing.T) {
	for _, url := range []string{"", "/tmp/x", "file://relative/x", "file:///tmp/x?y=1", "http://example.org/x", "s3://", "s3://b/p?prefix=q", "gs://b"} {
		_, err := remote.Open(context.Background(), url)
		if err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "remote") {
			t.Errorf("%q: err = %v, want one line naming the remote", url, err)
		}
	}
}

// TestPullLockFetchesItsArtifacts: pull --lock brings a lock's records and
// artifacts into the run cache, leaves data/ alone, and census diff then
// reads the lock's numbers.
func TestPullLockFetchesItsArtifacts(t *testing.T) {
	ctx := context.Background()
	f := diffFixture(t)
	f.run(RunOptions{}, nil)
	lockPath := f.writeLock("run.lock.json")
	dir := t.TempDir()
	r := open(t, "file://"+dir)
	if _, err := r.Push(ctx, f.root, f.engine().Log(), false); err != nil {
		t.Fatal(err)
	}
	g := f.clone()
	g.stages = f.stages
	l, _ := inspect.ReadLock(lockPath)
	got, results, err := g.engine().Pull(ctx, r, PullOptions{Lock: l})
	if err != nil || got.Objects != 3 || got.Runs != 3 || len(results) != 0 {
		t.Fatalf("pull --lock: %+v, %v, %v", got, results, err)
	}
	if _, err := os.Stat(filepath.Join(g.root, store.ManifestPath)); err == nil {
		t.Error("pull --lock wrote a manifest")
	}
	d, err := g.engine().Project().Diff(lockPath, lockPath, inspect.DiffOptions{All: true})
	if err != nil || len(d.Notes) != 0 || !slices.Contains(d.Metrics, inspect.Change{Stage: "total", Key: "sum", Old: "385", New: "385"}) {
		t.Fatalf("diff after pull --lock: %+v, %v", d, err)
	}
}

// TestPullRefusesAFIFO replaces every file of a file:// remote by a FIFO
// with no writer (issue 50, probe 7): pull ends at once with an error
// saying which key is not a regular file, instead of waiting forever.
func TestPullRefusesAFIFO(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, "numbers:\n  count: 10\n")
	f.run(RunOptions{}, nil)
	dir := t.TempDir()
	if _, err := open(t, "file://"+dir).Push(ctx, f.root, f.engine().Log(), false); err != nil {
		t.Fatal(err)
	}
	n := 0
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			os.Remove(path)
			if syscall.Mkfifo(path, 0o644) != nil {
				t.Skip("no FIFOs here")
			}
			n++
		}
		return nil
	})
	if n == 0 {
		t.Fatal("the push wrote no file")
	}
	done := make(chan error, 1)
	go func() {
		_, _, err := f.clone().engine().Pull(ctx, open(t, "file://"+dir), PullOptions{})
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "not a regular file") || strings.Contains(err.Error(), "\n") {
			t.Errorf("pull from a remote of FIFOs: %v, want one line saying \"not a regular file\"", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("pull still running after 20 s: blocked on a FIFO")
	}
}

// TestForgedBundleDoesNotPoisonARemote is issue 50's probe 4: a machine
// whose bundle holds a forged row (re-hashed) runs and pushes; an honest
// clone, with the committed bundle, pulls from the same remote. The forged
// run's record is under another fingerprint (the bundle's bytes are in
// it), so the clone restores none of it, computes the honest result, and
// its own push adds its record beside the forged one.
func TestForgedBundleDoesNotPoisonARemote(t *testing.T) {
	ctx := context.Background()
	f, _, b := bundledToy(t)
	f.run(RunOptions{}, nil)
	honestSum := f.read("data/drawsum.txt")
	honestBundle := f.read(b.Path())
	g := f.clone()
	if err := os.MkdirAll(filepath.Join(g.root, filepath.Dir(b.Path())), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(g.root, b.Path()), honestBundle, 0o644); err != nil {
		t.Fatal(err)
	}

	rows, _ := pipeline.ReadBundle(f.root, b, nil)
	editRow(t, f.root, b, rows, "u05", func(r *pipeline.BundleRow) { r.Result = rows["u06"].Result })
	// The forger's machine keeps nothing of the honest run.
	os.RemoveAll(filepath.Join(f.root, store.UnitsDir))
	os.RemoveAll(filepath.Join(f.root, store.CacheDir))
	f.run(RunOptions{}, nil)
	if bytes.Equal(honestSum, f.read("data/drawsum.txt")) {
		t.Fatal("the forged row did not change the result")
	}
	url := "file://" + t.TempDir()
	if _, err := open(t, url).Push(ctx, f.root, f.engine().Log(), false); err != nil {
		t.Fatal(err)
	}

	_, results, err := g.engine().Pull(ctx, open(t, url), PullOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, res := range results {
		if res.Stage != "numbers" && res.Restored {
			t.Errorf("the honest clone restored stage %s from the forged run", res.Stage)
		}
	}
	g.run(RunOptions{}, nil)
	if !bytes.Equal(honestSum, g.read("data/drawsum.txt")) {
		t.Error("the honest clone's result is not the honest one")
	}
	sent, err := open(t, url).Push(ctx, g.root, g.engine().Log(), false)
	if err != nil || sent.Runs != 2 {
		t.Errorf("the honest clone's push: %+v, %v; want its draws and drawsum records sent", sent, err)
	}
}

// TestPushShowsProgress: a push given a terminal draws its progress there
// and clears it; without one it draws nothing.
func TestPushShowsProgress(t *testing.T) {
	f := newFixture(t, "")
	f.run(RunOptions{}, nil)
	for _, terminal := range []bool{true, false} {
		r := open(t, "file://"+t.TempDir())
		var bar strings.Builder
		if terminal {
			r.Progress = &bar
		}
		if _, err := r.Push(context.Background(), f.root, f.engine().Log(), false); err != nil {
			t.Fatal(err)
		}
		if drawn := strings.Contains(bar.String(), "push: files ["); drawn != terminal {
			t.Errorf("terminal %v: progress %q", terminal, bar.String())
		}
	}
}
