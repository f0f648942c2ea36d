package engine

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/sudoku-census/sudoku-census/pipeline"

	"github.com/sudoku-census/sudoku-census/pipeline/store"
)

// bundledToy is the units toy with its draws kept in a bundle.
func bundledToy(t *testing.T) (*fixture, *unitToy, *pipeline.Bundle) {
	f, toy := newUnitFixture(t, "")
	b := &pipeline.Bundle{Name: "draws", Kernel: "toy v1", Holds: func(id string) bool { return strings.HasPrefix(id, "u") },
		Work: func(id string) string { return "draw " + id }}
	toy.draws.Units.Bundle = b
	return f, toy, b
}

// freshClone removes everything a clone of the repository would lack:
// artifacts, manifest, units and run cache; the bundle stays.
func freshClone(t *testing.T, root string) {
	for _, p := range []string{"data/numbers.parquet", "data/draws.parquet", "data/drawsum.txt", store.ManifestPath, store.UnitsDir, store.CacheDir} {
		if err := os.RemoveAll(filepath.Join(root, p)); err != nil {
			t.Fatal(err)
		}
	}
}

// TestBundle checks that every finished unit goes into the bundle, that a
// fresh clone takes them from it (computing none) with the same bytes,
// that only a missing unit is computed, and that a damaged bundle fails
// the run naming the unit.
func TestBundle(t *testing.T) {
	f, toy, b := bundledToy(t)
	f.run(RunOptions{}, nil)
	good, goodSum := f.read("data/draws.parquet"), f.read("data/drawsum.txt")
	rows, err := pipeline.ReadBundle(f.root, b, nil)
	if err != nil || len(rows) != 20 {
		t.Fatalf("bundle after the first run: %d rows, %v", len(rows), err)
	}
	if r := rows["u07"]; r.Work != "draw u07" || r.Kernel != "toy v1" || r.PeakRSSBytes <= 0 || r.CPUSeconds < 0 {
		t.Errorf("row %+v", r)
	}

	for _, p := range []string{"data/draws.parquet", store.UnitsDir, store.CacheDir} {
		os.RemoveAll(filepath.Join(f.root, p))
	}
	if st, _ := f.engine().Status(); st[1].Units == nil || st[1].Units.String() != "20/20 units done" {
		t.Errorf("status with the units in the bundle only: %+v", st[1].Units)
	}
	freshClone(t, f.root)
	calls := toy.calls.Load()
	f.run(RunOptions{}, nil)
	if n := toy.calls.Load() - calls; n != 0 {
		t.Errorf("a clone with the whole bundle computed %d units", n)
	}
	if !bytes.Equal(good, f.read("data/draws.parquet")) {
		t.Error("the artifact from the bundle differs")
	}

	// A unit missing from the bundle is computed, and added back.
	list := make([]pipeline.BundleRow, 0, len(rows))
	for _, r := range rows {
		if r.Unit != "u13" {
			list = append(list, r)
		}
	}
	if err := writeBundle(f.root, b, list); err != nil {
		t.Fatal(err)
	}
	freshClone(t, f.root)
	calls = toy.calls.Load()
	f.run(RunOptions{}, nil)
	if n := toy.calls.Load() - calls; n != 1 {
		t.Errorf("a clone missing one bundled unit computed %d units", n)
	}
	if rows, _ := pipeline.ReadBundle(f.root, b, nil); len(rows) != 20 {
		t.Errorf("the bundle has %d units after the missing one was computed", len(rows))
	}

	damaged := func(r pipeline.BundleRow) pipeline.BundleRow { r.Result = "x" + r.Result; return r }
	rehashed := func(r pipeline.BundleRow) pipeline.BundleRow {
		r.SHA256 = bundleSum(r.Kernel, r.Unit, r.Result)
		return r
	}
	for _, tc := range []struct {
		name, want string
		edit       func([]pipeline.BundleRow) []pipeline.BundleRow
	}{
		{"edited result", `unit "u00": its bytes do not match`, func(rs []pipeline.BundleRow) []pipeline.BundleRow { rs[0] = damaged(rs[0]); return rs }},
		{"duplicated unit", `unit "u01" appears twice`, func(rs []pipeline.BundleRow) []pipeline.BundleRow { return append(rs, rs[1]) }},
		{"foreign unit", `unit "zz" is not a unit of this bundle`, func(rs []pipeline.BundleRow) []pipeline.BundleRow {
			rs[2].Unit = "zz"
			rs[2] = rehashed(rs[2])
			return rs
		}},
		{"other kernel", `unit "u03" was computed by kernel "toy v0"`, func(rs []pipeline.BundleRow) []pipeline.BundleRow {
			rs[3].Kernel = "toy v0"
			rs[3] = rehashed(rs[3])
			return rs
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			all, _ := pipeline.ReadBundle(f.root, b, nil)
			var rs []pipeline.BundleRow
			for _, id := range []string{"u00", "u01", "u02", "u03", "u04"} {
				rs = append(rs, all[id])
			}
			if err := writeBundle(f.root, b, tc.edit(rs)); err != nil {
				t.Fatal(err)
			}
			freshClone(t, f.root)
			_, err := f.engine().Run(context.Background(), nil, RunOptions{})
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("run with a bundle with a %s: %v, want one line containing %q", tc.name, err, tc.want)
			}
			writeBundle(f.root, b, listOf(all))
		})
	}

	// A row the bundle holds but the configuration does not list (a longer
	// run than the one asked for) is checked and left unused.
	all, _ := pipeline.ReadBundle(f.root, b, nil)
	extra := all["u02"]
	extra.Unit = "u99"
	if err := writeBundle(f.root, b, append(listOf(all), rehashed(extra))); err != nil {
		t.Fatal(err)
	}
	// The bundle's bytes are an input of the stage: the fingerprint in
	// the table's footer changes, its rows (and so the sum) do not.
	freshClone(t, f.root)
	f.run(RunOptions{}, nil)
	if !bytes.Equal(goodSum, f.read("data/drawsum.txt")) {
		t.Error("a bundle with a unit the configuration does not list gives another result")
	}
}

// editRow rewrites the bundle of rows with row id changed by edit and
// rehashed, as a forger would.
func editRow(t *testing.T, root string, b *pipeline.Bundle, rows map[string]pipeline.BundleRow, id string, edit func(*pipeline.BundleRow)) {
	t.Helper()
	r := rows[id]
	edit(&r)
	r.SHA256 = bundleSum(r.Kernel, r.Unit, r.Result)
	rows[id] = r
	if err := writeBundle(root, b, listOf(rows)); err != nil {
		t.Fatal(err)
	}
}

func listOf(rows map[string]pipeline.BundleRow) []pipeline.BundleRow {
	var out []pipeline.BundleRow
	for _, r := range rows {
		out = append(out, r)
	}
	return out
}

// TestBundleKernelOf checks a bundle whose units two kernels compute: each
// row records its own unit's kernel, a clone takes them all, and a row
// under the other kernel's name fails the run naming the unit.
func TestBundleKernelOf(t *testing.T) {
	f, toy, b := bundledToy(t)
	b.KernelOf = func(id string) string {
		if id < "u10" {
			return "toy small v1"
		}
		return "toy large v1"
	}
	f.run(RunOptions{}, nil)
	rows, err := pipeline.ReadBundle(f.root, b, nil)
	if err != nil || len(rows) != 20 {
		t.Fatalf("bundle: %d rows, %v", len(rows), err)
	}
	if rows["u03"].Kernel != "toy small v1" || rows["u13"].Kernel != "toy large v1" {
		t.Errorf("kernels %q and %q", rows["u03"].Kernel, rows["u13"].Kernel)
	}
	freshClone(t, f.root)
	calls := toy.calls.Load()
	f.run(RunOptions{}, nil)
	if n := toy.calls.Load() - calls; n != 0 {
		t.Errorf("a clone with the whole bundle computed %d units", n)
	}
	editRow(t, f.root, b, rows, "u13", func(r *pipeline.BundleRow) { r.Kernel = "toy small v1" })
	freshClone(t, f.root)
	if _, err := f.engine().Run(context.Background(), nil, RunOptions{}); err == nil || !strings.Contains(err.Error(), `unit "u13" was computed by kernel "toy small v1", not "toy large v1"`) {
		t.Errorf("a row of the other kernel: %v", err)
	}
}

// TestBundleUnused checks that a configuration listing none of the
// bundle's units runs as if there were no bundle, even a damaged one.
func TestBundleUnused(t *testing.T) {
	f, toy, b := bundledToy(t)
	b.Holds = func(id string) bool { return strings.HasPrefix(id, "v") }
	if err := writeBundle(f.root, b, []pipeline.BundleRow{{Unit: "v1", Result: "x", Kernel: "toy v1", SHA256: "bad"}}); err != nil {
		t.Fatal(err)
	}
	f.run(RunOptions{}, nil)
	if n := toy.calls.Load(); n != 20 {
		t.Errorf("computed %d units, want 20", n)
	}
}

// TestRecomputeBundles checks that verify --recompute passes on a good
// bundle and names the unit whose result was edited with its hash.
func TestRecomputeBundles(t *testing.T) {
	f, _, b := bundledToy(t)
	f.run(RunOptions{}, nil)
	var lines []string
	reps, err := f.engine().RecomputeBundles(context.Background(), 20, 1, 0, func(s string) { lines = append(lines, s) })
	if err != nil || len(reps) != 1 || len(reps[0].Checked) != 20 || reps[0].Units != 20 || reps[0].Listed != 20 || reps[0].Total != 20 {
		t.Fatalf("recompute of a good bundle: %+v, %v", reps, err)
	}
	rows, _ := pipeline.ReadBundle(f.root, b, nil)
	editRow(t, f.root, b, rows, "u05", func(r *pipeline.BundleRow) { r.Result = "forged" })
	_, err = f.engine().RecomputeBundles(context.Background(), 20, 1, 0, func(string) {})
	if err == nil || !strings.Contains(err.Error(), "unit u05: recomputed") {
		t.Errorf("recompute of a forged unit: %v", err)
	}
}

// writeBundle replaces the bundle's file by rows as they are, damaged or
// not: the engine's writer, pipeline.AddToBundle, refuses a damaged file.
func writeBundle(root string, b *pipeline.Bundle, rows []pipeline.BundleRow) error {
	path := filepath.Join(root, b.Path())
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return parquet.WriteFile(path, rows)
}

// bundleSum is a row's hash as pipeline.Bundle documents it, written
// again from the documentation: SHA-256(domain ‖ str(kernel) ‖ str(unit)
// ‖ str(result)), str being the length as 8 bytes little-endian, then the
// bytes.
func bundleSum(kernel, unit, result string) string {
	h := sha256.New()
	for _, s := range []string{"sudoku-census/bundle/v1", kernel, unit, result} {
		h.Write(binary.LittleEndian.AppendUint64(nil, uint64(len(s))))
		h.Write([]byte(s))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// TestRecomputeBundlesCost checks that with a bound, the draw is among the
// units whose Cost is within it (not their recorded time), that a forged
// unit among them still fails, and that an error of Cost stops the check.
func TestRecomputeBundlesCost(t *testing.T) {
	f, _, b := bundledToy(t)
	f.run(RunOptions{}, nil)
	// Units u00 … u04 are cheap, the rest dear; every recorded time is
	// within the bound.
	b.Cost = func(_ *pipeline.Pass, id string) (time.Duration, error) {
		if id < "u05" {
			return time.Second, nil
		}
		return time.Hour, nil
	}
	reps, err := f.engine().RecomputeBundles(context.Background(), 20, 1, time.Minute, func(string) {})
	if err != nil || len(reps) != 1 || reps[0].Eligible != 5 || len(reps[0].Checked) != 5 {
		t.Fatalf("recompute with a cost bound: %+v, %v", reps, err)
	}
	for _, id := range reps[0].Checked {
		if id >= "u05" {
			t.Errorf("unit %s drawn, its cost is above the bound", id)
		}
	}
	rows, _ := pipeline.ReadBundle(f.root, b, nil)
	r := rows["u03"]
	r.Result = "forged"
	r.SHA256 = bundleSum(r.Kernel, r.Unit, r.Result)
	rows["u03"] = r
	if err := writeBundle(f.root, b, listOf(rows)); err != nil {
		t.Fatal(err)
	}
	_, err = f.engine().RecomputeBundles(context.Background(), 20, 1, time.Minute, func(string) {})
	if err == nil || !strings.Contains(err.Error(), "unit u03: recomputed") {
		t.Errorf("recompute of a forged cheap unit: %v", err)
	}
	b.Cost = func(*pipeline.Pass, string) (time.Duration, error) { return 0, errors.New("no plan") }
	_, err = f.engine().RecomputeBundles(context.Background(), 20, 1, time.Minute, func(string) {})
	if err == nil || !strings.Contains(err.Error(), "cost: no plan") {
		t.Errorf("recompute with a failing Cost: %v", err)
	}
}

// TestBundleIsAnInput checks issue 50's probes 1, 2 and 5: a bundle is an
// input of the stage that reads it. A forged row re-hashed as the recipe
// says (a unit's result copied over another's), an edit of a column
// outside the row hash (cpu_seconds), or a deleted bundle makes the stage
// stale with a reason naming the bundle, fails census verify and the
// lock's comparison, and no lock is written over it; a rerun after
// restoring the committed bytes is fresh again.
func TestBundleIsAnInput(t *testing.T) {
	f, _, b := bundledToy(t)
	f.run(RunOptions{}, nil)
	if st := f.status(); st["draws"] != "fresh" {
		t.Fatalf("after the run that filled the bundle: %v", st)
	}
	e := f.engine()
	l, err := e.Lock()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.ToSlash(b.Path())
	if len(l.Bundles) != 1 || l.Bundles[0].Path != path || !equal(l.Bundles[0].Stages, []string{"draws"}) {
		t.Fatalf("the lock's bundles: %+v", l.Bundles)
	}
	good := f.read(path)
	rows, err := pipeline.ReadBundle(f.root, b, nil)
	if err != nil {
		t.Fatal(err)
	}
	forgeries := []struct {
		name string
		edit func()
	}{
		{"a result copied over another's, re-hashed", func() {
			editRow(t, f.root, b, rows, "u05", func(r *pipeline.BundleRow) { r.Result = rows["u06"].Result })
		}},
		{"cpu_seconds edited", func() {
			editRow(t, f.root, b, rows, "u05", func(r *pipeline.BundleRow) { r.CPUSeconds = 1.5 })
		}},
		{"work and peak_rss_bytes edited", func() {
			editRow(t, f.root, b, rows, "u05", func(r *pipeline.BundleRow) { r.Work, r.PeakRSSBytes = "nothing", 1 })
		}},
		{"deleted", func() { os.Remove(filepath.Join(f.root, path)) }},
	}
	for _, fg := range forgeries {
		t.Run(fg.name, func(t *testing.T) {
			rows, _ = pipeline.ReadBundle(f.root, b, nil)
			fg.edit()
			defer os.WriteFile(filepath.Join(f.root, path), good, 0o644)
			if reason := f.status()["draws"]; !strings.Contains(reason, "bundle "+path) {
				t.Errorf("status: draws is %q, want stale naming the bundle", reason)
			}
			res, err := f.engine().Project().Verify()
			if err != nil {
				t.Fatal(err)
			}
			var problems []string
			for _, r := range res {
				if !r.OK {
					problems = append(problems, r.Artifact.Path+": "+r.Problem)
				}
			}
			if len(problems) != 1 || !strings.HasPrefix(problems[0], path+": ") {
				t.Errorf("verify: %q, want the bundle", problems)
			}
			diffs, err := f.engine().Project().CompareLock(l)
			if err != nil {
				t.Fatal(err)
			}
			if len(diffs) != 1 || !strings.HasPrefix(diffs[0], "bundle "+path+": ") {
				t.Errorf("verify --lock: %q, want the bundle", diffs)
			}
			if _, err := f.engine().Lock(); err == nil || !strings.Contains(err.Error(), "stage draws is stale") {
				t.Errorf("a lock over the edited bundle: %v", err)
			}
		})
	}
	if st := f.status(); st["draws"] != "fresh" {
		t.Errorf("the committed bytes back: %v", st)
	}
	if diffs, _ := f.engine().Project().CompareLock(l); len(diffs) != 0 {
		t.Errorf("the committed bytes back: verify --lock %q", diffs)
	}
	// A lock without the bundle (written before bundles were locked)
	// does not match a project that reads one.
	l.Bundles = nil
	if diffs, _ := f.engine().Project().CompareLock(l); len(diffs) != 1 || diffs[0] != "bundle "+path+": not in the lock" {
		t.Errorf("a lock without the bundle: %q", diffs)
	}
}

// TestRecomputeDrawsTheCostliest checks issue 50's probe 3: the draw
// always holds the costliest units and one per cost stratum of the rest,
// whatever the seed; all recomputes every unit; a bound no unit meets,
// or no bundle at all, is an error rather than a check of nothing.
func TestRecomputeDrawsTheCostliest(t *testing.T) {
	f, _, b := bundledToy(t)
	f.run(RunOptions{}, nil)
	// u00 costs 1 s … u19 20 s.
	b.Cost = func(_ *pipeline.Pass, id string) (time.Duration, error) {
		var n int
		_, err := fmt.Sscanf(id, "u%d", &n)
		return time.Duration(n+1) * time.Second, err
	}
	for seed := range uint64(20) {
		reps, err := f.engine().RecomputeBundles(context.Background(), 4, seed, 0, func(string) {})
		if err != nil || len(reps) != 1 {
			t.Fatalf("seed %d: %+v, %v", seed, reps, err)
		}
		got := reps[0].Checked
		// The two costliest, then one of u09…u17 and one of u00…u08
		// (the rest, u17 … u00, in two strata of 9).
		if len(got) != 4 || got[0] != "u19" || got[1] != "u18" || got[2] < "u09" || got[2] > "u17" || got[3] > "u08" || reps[0].Heaviest != 2 {
			t.Errorf("seed %d: drew %v (heaviest %d)", seed, got, reps[0].Heaviest)
		}
	}
	reps, err := f.engine().RecomputeBundles(context.Background(), RecomputeAll, 1, 0, func(string) {})
	if err != nil || len(reps[0].Checked) != 20 {
		t.Errorf("recompute all: %+v, %v", reps, err)
	}
	reps, err = f.engine().RecomputeBundles(context.Background(), 3, 1, 10*time.Second, func(string) {})
	if err != nil || reps[0].Eligible != 10 || reps[0].Checked[0] != "u09" {
		t.Errorf("recompute 3 within 10 s: %+v, %v", reps, err)
	}
	_, err = f.engine().RecomputeBundles(context.Background(), 3, 1, time.Nanosecond, func(string) {})
	if err == nil || !strings.Contains(err.Error(), "nothing would be checked") {
		t.Errorf("recompute within 1ns: %v, want an error", err)
	}
	os.Remove(filepath.Join(f.root, b.Path()))
	_, err = f.engine().RecomputeBundles(context.Background(), 3, 1, 0, func(string) {})
	if err == nil || !strings.Contains(err.Error(), "no committed bundle to recompute") {
		t.Errorf("recompute without a bundle: %v, want an error", err)
	}
}

// TestVerifyNamesTheUnitsEditedSinceTheCommit checks that, in a git
// repository, verify and verify --lock name the units whose rows differ
// from the committed bundle (issue 50: a bundle's content is anchored in
// the repository's history).
func TestVerifyNamesTheUnitsEditedSinceTheCommit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("needs git")
	}
	f, _, b := bundledToy(t)
	f.run(RunOptions{}, nil)
	l, err := f.engine().Lock()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.ToSlash(b.Path())
	for _, args := range [][]string{
		{"init", "-q"},
		{"add", path},
		{"-c", "user.name=test", "-c", "user.email=test@example.org", "commit", "-q", "-m", "bundle"},
	} {
		if out, err := exec.Command("git", append([]string{"-C", f.root}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	rows, _ := pipeline.ReadBundle(f.root, b, nil)
	editRow(t, f.root, b, rows, "u05", func(r *pipeline.BundleRow) { r.CPUSeconds = 1.5 })
	editRow(t, f.root, b, rows, "u11", func(r *pipeline.BundleRow) { r.Result = rows["u12"].Result })
	const want = "1 unit differs from git HEAD's file: u11; 1 unit differs from it in cpu_seconds or peak_rss_bytes only (recomputed on another machine?): u05"
	res, err := f.engine().Project().Verify()
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, r := range res {
		found = found || (!r.OK && strings.Contains(r.Problem, want))
	}
	if !found {
		t.Errorf("verify: %+v, want a problem saying %q", res, want)
	}
	diffs, _ := f.engine().Project().CompareLock(l)
	if len(diffs) != 1 || !strings.Contains(diffs[0], want) {
		t.Errorf("verify --lock: %q, want %q", diffs, want)
	}
}
