package engine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/pipeline/inspect"
	"github.com/sudoku-census/sudoku-census/pipeline/internal/files"
	"github.com/sudoku-census/sudoku-census/pipeline/store"
)

// The run lock is held by the process, not by the file's existence:
// deleting data/.lock (or replacing it) while a run holds it does not let
// a second run in.
func TestLockSurvivesDeletingItsFile(t *testing.T) {
	for _, damage := range []string{"delete", "replace"} {
		t.Run(damage, func(t *testing.T) {
			f := newFixture(t, "")
			release, err := store.Lock(f.root, false)
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(f.root, store.LockPath)
			os.Remove(path)
			if damage == "replace" {
				os.WriteFile(path, []byte("12345\n"), 0o644)
			}
			if _, err := f.engine().Run(context.Background(), nil, RunOptions{}); err == nil || !strings.Contains(err.Error(), "is held by another census run") {
				t.Fatalf("second run after the lock file was %sd: %v", damage, err)
			}
			if _, err := f.engine().GC(false, 0); err == nil {
				t.Fatalf("gc after the lock file was %sd: no error", damage)
			}
			release()
			if ran := f.run(RunOptions{}, nil); len(ran) != 3 {
				t.Fatalf("after release ran %v", ran)
			}
			if _, err := os.Stat(path); err != nil {
				t.Errorf("lock file after a run: %v", err)
			}
		})
	}
}

// costRow is a row of the toy costs table: a count and what it cost the
// machine that computed it.
type costRow struct {
	Unit       string  `parquet:"unit"`
	Count      int64   `parquet:"count"`
	CPUSeconds float64 `parquet:"cpu_seconds"`
}

// costsTable declares cpu_seconds machine-dependent, as
// shapes_units.parquet declares its cpu_seconds and peak_rss_bytes.
var costsTable = pipeline.NewTable[costRow]("costs", "one row per unit: its count and CPU time").WithMachineColumns("cpu_seconds")

// TestVerifyLockLeavesMachineColumnsOut is issue 50's probe 8: a stage
// recomputed on another machine writes the same counts with other CPU
// times. verify --lock takes its table for a match, with a note saying
// the machine-dependent column was not compared; a change in the count
// column is still a difference.
func TestVerifyLockLeavesMachineColumnsOut(t *testing.T) {
	cpu, count := 1.5, int64(7)
	costs := &pipeline.Stage{
		Name: "costs", Doc: "counts and their CPU times", Version: 1,
		Outputs: []pipeline.Output{costsTable.Output},
		Run: func(p *pipeline.Pass) error {
			return costsTable.Write(p, []costRow{{"a", count, cpu}, {"b", 2 * count, 2 * cpu}})
		},
	}
	f := newFixture(t, "")
	f.stages = []*pipeline.Stage{costs}
	f.run(RunOptions{}, nil)
	lockPath := f.writeLock("run.lock.json")
	l, err := inspect.ReadLock(lockPath)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Artifacts) != 1 || !equal(l.Artifacts[0].MachineColumns, []string{"cpu_seconds"}) || !files.IsHexDigest(l.Artifacts[0].ColumnsSHA256) {
		t.Fatalf("lock artifacts %+v, want data/costs.parquet with cpu_seconds machine-dependent and a hash of the rest", l.Artifacts)
	}
	locked := l.Artifacts[0].SHA256

	// Another machine: the same counts, other CPU times.
	cpu = 2.25
	f.run(RunOptions{Force: []string{"costs"}}, nil)
	if sum, _, _ := files.Hash(filepath.Join(f.root, "data/costs.parquet")); sum == locked {
		t.Fatal("the recomputed table has the locked bytes: the test changes nothing")
	}
	diffs, notes, err := f.engine().Project().CompareLockNoting(l)
	if err != nil || len(diffs) != 0 {
		t.Fatalf("cost-only difference: diffs %q, %v; want none", diffs, err)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "data/costs.parquet: differs from the lock in cpu_seconds only: machine-dependent, not compared") {
		t.Errorf("notes %q, want one saying cpu_seconds was not compared", notes)
	}

	// The fingerprint the table's footer records, which the hash of its
	// other columns leaves out, must be its run's.
	m, err := store.ReadManifest(f.root)
	if err != nil {
		t.Fatal(err)
	}
	forged := m.Clone()
	for i := range forged.Artifacts {
		forged.Artifacts[i].Fingerprint = strings.Repeat("0", 64)
	}
	if err := forged.Write(f.root); err != nil {
		t.Fatal(err)
	}
	if diffs, _ := f.engine().Project().CompareLock(l); len(diffs) != 1 || !strings.Contains(diffs[0], "the fingerprint its footer records") {
		t.Errorf("footer fingerprint not the manifest's: diffs %q, want one", diffs)
	}
	if err := m.Write(f.root); err != nil {
		t.Fatal(err)
	}

	// A count changed too: a difference, whatever the CPU times.
	count = 8
	f.run(RunOptions{Force: []string{"costs"}}, nil)
	diffs, notes, err = f.engine().Project().CompareLockNoting(l)
	if err != nil || len(diffs) != 1 || len(notes) != 0 ||
		!strings.Contains(diffs[0], "data/costs.parquet: SHA-256") || !strings.Contains(diffs[0], "its other columns differ") {
		t.Fatalf("count changed: diffs %q, notes %q, %v; want one difference naming the table", diffs, notes, err)
	}
	// A lock without the hash of the other columns (written before it was
	// recorded) compares the bytes alone.
	count = 7
	f.run(RunOptions{Force: []string{"costs"}}, nil)
	l.Artifacts[0].ColumnsSHA256 = ""
	if diffs, _ := f.engine().Project().CompareLock(l); len(diffs) != 1 {
		t.Errorf("an old lock: diffs %q, want the bytes' difference", diffs)
	}
}
