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

	"github.com/sudoku-census/sudoku-census/pipeline/internal/files"
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

// forgedPush is issue 50's probe 4: project f runs honestly and writes its
// lock beside the configuration (config.lock.json, as
// configs/default.lock.json is beside configs/default.yaml); then, as an
// attacker with write access to their own copy, it replaces
// data/total.txt by other bytes and its manifest entry to match, keeps no
// honest run record, and pushes to a fresh file:// remote. It returns the
// honest total, the forged one, the lock and the remote's URL.
func forgedPush(t *testing.T) (f *fixture, honest, forged []byte, lockPath, url string) {
	t.Helper()
	ctx := context.Background()
	f = newFixture(t, "numbers:\n  count: 10\n")
	f.run(RunOptions{}, nil)
	lockPath = filepath.Join(filepath.Dir(f.config), "config.lock.json")
	if err := f.engine().WriteLock(lockPath); err != nil {
		t.Fatal(err)
	}
	honest = f.read("data/total.txt")
	forged = []byte("386\n")
	if err := os.WriteFile(filepath.Join(f.root, "data/total.txt"), forged, 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := store.ReadManifest(f.root)
	if err != nil {
		t.Fatal(err)
	}
	for i, a := range m.Artifacts {
		if a.Path == "data/total.txt" {
			m.Artifacts[i].SHA256, m.Artifacts[i].Size, _ = files.Hash(filepath.Join(f.root, a.Path))
		}
	}
	if err := m.Write(f.root); err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(filepath.Join(f.root, store.CacheDir))
	url = "file://" + t.TempDir()
	if _, err := open(t, url).Push(ctx, f.root, f.engine().Log(), false); err != nil {
		t.Fatal(err)
	}
	return f, honest, forged, lockPath, url
}

// TestPullRefusesARecordTheLockDoesNotName: an honest clone with the lock
// beside its configuration pulls from the poisoned remote: the forged
// record of total is refused on one line naming the stage, its fingerprint
// and the artifact, nothing of it reaches the clone, and the clone then
// computes the honest total, which matches the lock.
func TestPullRefusesARecordTheLockDoesNotName(t *testing.T) {
	ctx := context.Background()
	f, honest, _, lockPath, url := forgedPush(t)
	g := f.clone()
	got, results, err := g.engine().Pull(ctx, open(t, url), PullOptions{})
	if err != nil {
		t.Fatal(err)
	}
	l, _ := inspect.ReadLock(lockPath)
	var totalFP string
	for _, s := range l.Stages {
		if s.Stage == "total" {
			totalFP = s.Fingerprint
		}
	}
	if len(got.Refused) != 1 {
		t.Fatalf("pull refused %q, want the forged total record", got.Refused)
	}
	line := got.Refused[0]
	for _, want := range []string{"stage total", totalFP[:12], "data/total.txt", "refused"} {
		if !strings.Contains(line, want) || strings.Contains(line, "\n") {
			t.Errorf("refusal %q: want one line with %q", line, want)
		}
	}
	for _, res := range results {
		if res.Stage == "total" && res.Restored {
			t.Error("the forged total was restored")
		}
	}
	if !slices.Contains(got.Missing, "total") {
		t.Errorf("missing %v, want total listed for census run", got.Missing)
	}
	if _, err := os.Stat(filepath.Join(g.root, "data/total.txt")); err == nil {
		t.Error("data/total.txt was written from the forged record")
	}
	if _, err := os.Stat(store.CacheRun(g.root, "total", totalFP)); err == nil {
		t.Error("the forged record reached the clone's run cache")
	}
	g.run(RunOptions{}, nil)
	if !bytes.Equal(g.read("data/total.txt"), honest) {
		t.Errorf("the clone's total is %q, want %q", g.read("data/total.txt"), honest)
	}
	if diffs, err := g.engine().Project().CompareLock(l); err != nil || len(diffs) != 0 {
		t.Errorf("the clone against the lock: %v, %v", diffs, err)
	}
}

// TestHonestPushAfterAForgedOne: the record of an honest run under the
// fingerprint of a forged one is sent beside it (records are named by their
// content), and a clone with the lock then restores the honest total and
// refuses the forged one.
func TestHonestPushAfterAForgedOne(t *testing.T) {
	ctx := context.Background()
	f, honest, _, lockPath, url := forgedPush(t)
	h := f.clone()
	h.run(RunOptions{}, nil)
	sent, err := open(t, url).Push(ctx, h.root, h.engine().Log(), false)
	if err != nil || sent.Runs != 1 || sent.Objects != 1 {
		t.Fatalf("honest push after a forged one: %+v, %v; want the total record and its object sent", sent, err)
	}
	g := f.clone()
	got, results, err := g.engine().Pull(ctx, open(t, url), PullOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Refused) != 1 || !strings.Contains(got.Refused[0], "stage total") {
		t.Errorf("refused %q, want the forged total record", got.Refused)
	}
	for _, res := range results {
		if !res.Restored {
			t.Errorf("stage %s: %+v, want restored", res.Stage, res)
		}
	}
	if !bytes.Equal(g.read("data/total.txt"), honest) {
		t.Errorf("pulled total %q, want %q", g.read("data/total.txt"), honest)
	}
	l, _ := inspect.ReadLock(lockPath)
	if diffs, err := g.engine().Project().CompareLock(l); err != nil || len(diffs) != 0 {
		t.Errorf("after the pull: %v, %v", diffs, err)
	}
}

// TestPullWithoutALockRefusesRecordsThatDisagree: with both records of
// total on the remote and no lock beside the configuration, a pull takes
// neither: one line naming the stage, the fingerprint and both keys.
func TestPullWithoutALockRefusesRecordsThatDisagree(t *testing.T) {
	ctx := context.Background()
	f, _, _, lockPath, url := forgedPush(t)
	h := f.clone()
	h.run(RunOptions{}, nil)
	if _, err := open(t, url).Push(ctx, h.root, h.engine().Log(), false); err != nil {
		t.Fatal(err)
	}
	l, _ := inspect.ReadLock(lockPath)
	os.Remove(lockPath)
	dir := strings.TrimPrefix(url, "file://")
	var fp string
	for _, s := range l.Stages {
		if s.Stage == "total" {
			fp = s.Fingerprint
		}
	}
	keys, _ := filepath.Glob(filepath.Join(dir, "runs", "total", fp, "*.json"))
	if len(keys) != 2 {
		t.Fatalf("the remote holds %v, want two records of total", keys)
	}
	g := f.clone()
	_, _, err := g.engine().Pull(ctx, open(t, url), PullOptions{})
	if err == nil || strings.Contains(err.Error(), "\n") {
		t.Fatalf("pull of disagreeing records without a lock: %v, want one line", err)
	}
	for _, want := range []string{"stage total", fp[:12], "disagree"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	for _, key := range keys {
		rel, _ := filepath.Rel(dir, key)
		if !strings.Contains(err.Error(), filepath.ToSlash(rel)) {
			t.Errorf("error %q does not name %s", err, rel)
		}
	}
	if _, err := os.Stat(store.CacheRun(g.root, "total", fp)); err == nil {
		t.Error("a pull that refused the records wrote one")
	}
	// pull --lock chooses by that lock instead.
	got, _, err := g.engine().Pull(ctx, open(t, url), PullOptions{Lock: l})
	if err != nil || len(got.Refused) != 1 {
		t.Errorf("pull --lock: %+v, %v; want the forged record refused", got, err)
	}
}

// TestPullReadsRecordsItsKeyVouchesFor: a record whose bytes are not those
// its key names is passed over, and a record of the first layout,
// runs/<stage>/<fingerprint>.json, is still read.
func TestPullReadsRecordsItsKeyVouchesFor(t *testing.T) {
	ctx := context.Background()
	f, dir, r := pushed(t)
	records, _ := filepath.Glob(filepath.Join(dir, "runs", "*", "*", "*.json"))
	if len(records) != 3 {
		t.Fatalf("records %v, want 3", records)
	}
	for _, rec := range records {
		switch stage := filepath.Base(filepath.Dir(filepath.Dir(rec))); stage {
		case "numbers": // the first layout
			if err := os.Rename(rec, filepath.Dir(rec)+".json"); err != nil {
				t.Fatal(err)
			}
		case "total": // bytes its key does not name
			data, _ := os.ReadFile(rec)
			os.WriteFile(rec, append(data, ' '), 0o644)
		}
	}
	g := f.clone()
	got, results, err := g.engine().Pull(ctx, r, PullOptions{})
	if err != nil {
		t.Fatal(err)
	}
	restored := map[string]bool{}
	for _, res := range results {
		restored[res.Stage] = res.Restored
	}
	if !restored["numbers"] || !restored["squares"] || restored["total"] || !equal(got.Missing, []string{"total"}) {
		t.Errorf("restored %v, missing %v; want numbers (first layout) and squares, not total", restored, got.Missing)
	}
}
