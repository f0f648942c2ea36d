package engine

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sudoku-census/sudoku-census/pipeline"

	"github.com/sudoku-census/sudoku-census/pipeline/store"
)

// The units toy: numbers -> draws (units) -> drawsum.

type drawRow struct {
	Unit  string `parquet:"unit"`
	Value int64  `parquet:"value"`
}

type drawsConfig struct {
	Units  int `mapstructure:"units" json:"units"`
	Rounds int `mapstructure:"rounds" json:"rounds"`
}

func (c *drawsConfig) Validate() error {
	if c.Units < 0 {
		return pipeline.Invalid("draws.units", c.Units, "an integer ≥ 0")
	}
	return nil
}

var (
	drawsTable = pipeline.NewTable[drawRow]("draws", "one row per unit")
	drawSum    = pipeline.NewFile("drawsum", "data/drawsum.txt", "the sum of the draws")
)

// unitToy is the units toy's stages and what its units did.
type unitToy struct {
	stages []*pipeline.Stage
	draws  *pipeline.Stage
	calls  atomic.Int64 // Compute calls that returned a result
	// hook, when set, runs at the start of every Compute call; an error
	// it returns is the unit's.
	hook func(p *pipeline.Pass, id string) error
}

func newUnitToy() *unitToy {
	toy := &unitToy{}
	base := toyStages()
	numbers := base[0]
	toy.draws = &pipeline.Stage{
		Name: "draws", Doc: "one hash per unit", Version: 1, Requires: []*pipeline.Stage{numbers},
		NewConfig: func() pipeline.Config { return &drawsConfig{Units: 20, Rounds: 10} },
		Outputs:   []pipeline.Output{drawsTable.Output},
		Units: &pipeline.Units{
			List: func(p *pipeline.Pass) ([]string, error) {
				ids := make([]string, pipeline.ConfigOf[drawsConfig](p).Units)
				for i := range ids {
					ids[i] = fmt.Sprintf("u%02d", i)
				}
				return ids, nil
			},
			Compute: func(p *pipeline.Pass, id string) ([]byte, error) {
				if toy.hook != nil {
					if err := toy.hook(p, id); err != nil {
						return nil, err
					}
				}
				in, err := numbersTable.Read(p)
				if err != nil {
					return nil, err
				}
				sum := sha256.Sum256(fmt.Appendf(nil, "%s/%d/%d", id, len(in), in[0].N))
				for range pipeline.ConfigOf[drawsConfig](p).Rounds {
					sum = sha256.Sum256(sum[:])
				}
				toy.calls.Add(1)
				return sum[:8], nil
			},
		},
		Run: func(p *pipeline.Pass) error {
			results, err := p.UnitResults()
			if err != nil {
				return err
			}
			ids := p.UnitIDs()
			rows := make([]drawRow, len(results))
			for i, r := range results {
				rows[i] = drawRow{Unit: ids[i], Value: int64(binary.LittleEndian.Uint64(r))}
			}
			return drawsTable.Write(p, rows)
		},
	}
	sum := &pipeline.Stage{
		Name: "drawsum", Doc: "their sum", Version: 1, Requires: []*pipeline.Stage{toy.draws},
		Outputs: []pipeline.Output{drawSum.Output},
		Run: func(p *pipeline.Pass) error {
			rows, err := drawsTable.Read(p)
			if err != nil {
				return err
			}
			var total uint64
			for _, r := range rows {
				total += uint64(r.Value)
			}
			return drawSum.Write(p, fmt.Appendf(nil, "%d\n", total))
		},
	}
	toy.stages = []*pipeline.Stage{numbers, toy.draws, sum}
	return toy
}

func newUnitFixture(t *testing.T, yaml string) (*fixture, *unitToy) {
	f := newFixture(t, yaml)
	toy := newUnitToy()
	f.stages = toy.stages
	return f, toy
}

// unitFiles lists the unit files of the draws stage's fingerprint dirs.
func unitFiles(t *testing.T, root string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	dirs, _ := os.ReadDir(filepath.Join(root, store.UnitsDir, "draws"))
	for _, d := range dirs {
		entries, _ := os.ReadDir(filepath.Join(root, store.UnitsDir, "draws", d.Name()))
		out[d.Name()] = []string{}
		for _, en := range entries {
			out[d.Name()] = append(out[d.Name()], en.Name())
		}
	}
	return out
}

var unitArtifacts = []string{"data/numbers.parquet", "data/draws.parquet", "data/drawsum.txt", store.ManifestPath}

func TestUnitsRerunReusesFinishedUnits(t *testing.T) {
	f, toy := newUnitFixture(t, "")
	if ran := f.run(RunOptions{}, nil); !equal(ran, []string{"numbers", "draws", "drawsum"}) {
		t.Fatalf("ran %v", ran)
	}
	if n := toy.calls.Load(); n != 20 {
		t.Fatalf("first run computed %d units, want 20", n)
	}
	good := f.read("data/draws.parquet")
	// A lost artifact, and no run cache to restore it from: same
	// fingerprint, every unit reused.
	os.Remove(filepath.Join(f.root, "data/draws.parquet"))
	os.RemoveAll(filepath.Join(f.root, store.CacheDir))
	if ran := f.run(RunOptions{}, nil); !equal(ran, []string{"draws"}) {
		t.Fatalf("ran %v", ran)
	}
	if n := toy.calls.Load(); n != 20 {
		t.Fatalf("rerun computed %d more units, want 0", n-20)
	}
	if !bytes.Equal(good, f.read("data/draws.parquet")) {
		t.Fatal("artifact from reused units differs")
	}
	// A deleted unit and a damaged one are computed again, and only they.
	var fp string
	for k := range unitFiles(t, f.root) {
		fp = k
	}
	dir := filepath.Join(f.root, store.UnitsDir, "draws", fp)
	os.Remove(filepath.Join(dir, "u03"))
	b, _ := os.ReadFile(filepath.Join(dir, "u11"))
	b[0] ^= 1
	os.WriteFile(filepath.Join(dir, "u11"), b, 0o644)
	os.Remove(filepath.Join(f.root, "data/draws.parquet"))
	os.RemoveAll(filepath.Join(f.root, store.CacheDir))
	if s := f.status(); !strings.Contains(s["draws"], "missing") {
		t.Fatalf("status %v", s)
	}
	st, _ := f.engine().Status()
	// The damaged unit is not done: status checks each file as a run does.
	if st[1].Units == nil || st[1].Units.String() != "18/20 units done" {
		t.Fatalf("status units %+v", st[1].Units)
	}
	res, err := f.engine().Run(context.Background(), nil, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if n := toy.calls.Load(); n != 22 {
		t.Fatalf("computed %d units after deleting one and damaging one, want 2", n-20)
	}
	metrics := map[string]any{}
	for _, m := range res[1].Metrics {
		metrics[m.Name] = m.Value
	}
	if metrics["units.total"] != 20 || metrics["units.reused"] != 18 || metrics["units.computed"] != 2 {
		t.Fatalf("metrics %v", metrics)
	}
	if !bytes.Equal(good, f.read("data/draws.parquet")) {
		t.Fatal("artifact differs after recomputing two units")
	}
	// --force recomputes every unit.
	f.run(RunOptions{Force: []string{"draws"}}, nil, "draws")
	if n := toy.calls.Load(); n != 42 {
		t.Fatalf("--force computed %d units, want 20", n-22)
	}
}

func TestUnitsByteIdenticalWhateverTheOrder(t *testing.T) {
	one, _ := newUnitFixture(t, "")
	one.run(RunOptions{}, nil)

	// Reverse order, five workers.
	rev, toy := newUnitFixture(t, "")
	toy.draws.Units.Workers = 5
	rev.run(RunOptions{unitOrder: func(m []int) { slices.Reverse(m) }}, nil)

	// Interrupted by a failing unit, then resumed.
	failed, toy := newUnitFixture(t, "")
	toy.draws.Units.Workers = 1
	toy.hook = func(p *pipeline.Pass, id string) error {
		if id == "u13" {
			return errors.New("disk on fire")
		}
		return nil
	}
	_, err := failed.engine().Run(context.Background(), nil, RunOptions{})
	if err == nil || !strings.Contains(err.Error(), "stage draws failed: unit u13: disk on fire") {
		t.Fatalf("err = %v", err)
	}
	if _, err := os.Stat(filepath.Join(failed.root, "data/draws.parquet")); !os.IsNotExist(err) {
		t.Fatal("a failed stage with units published its artifact")
	}
	st, _ := failed.engine().Status()
	if st[1].Units == nil || st[1].Units.String() != "13/20 units done" {
		t.Fatalf("status after the failure: %+v", st[1])
	}
	toy.hook = nil
	before := toy.calls.Load()
	failed.run(RunOptions{}, nil)
	if n := toy.calls.Load() - before; n != 7 {
		t.Fatalf("resumed run computed %d units, want 7", n)
	}

	// Interrupted by cancelling the context, then resumed.
	cancelled, toy := newUnitFixture(t, "")
	toy.draws.Units.Workers = 2
	ctx, cancel := context.WithCancel(context.Background())
	toy.hook = func(p *pipeline.Pass, id string) error {
		if id == "u09" {
			cancel()
			<-p.Context().Done()
			return p.Context().Err()
		}
		return nil
	}
	if _, err := cancelled.engine().Run(ctx, nil, RunOptions{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled run: %v", err)
	}
	toy.hook = nil
	cancelled.run(RunOptions{}, nil)

	for _, other := range []*fixture{rev, failed, cancelled} {
		for _, path := range unitArtifacts {
			if !bytes.Equal(one.read(path), other.read(path)) {
				t.Errorf("%s differs from the one-go run", path)
			}
		}
	}
}

func TestCancelStopsPromptlyAndKeepsUnits(t *testing.T) {
	f, toy := newUnitFixture(t, "draws:\n  units: 200\n")
	toy.draws.Units.Workers = 2
	var started atomic.Int64
	reached := make(chan struct{})
	toy.hook = func(p *pipeline.Pass, id string) error {
		if started.Add(1) == 10 {
			close(reached)
		}
		select { // each unit takes 20 ms unless cancelled
		case <-time.After(20 * time.Millisecond):
			return nil
		case <-p.Context().Done():
			return p.Context().Err()
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error)
	go func() {
		_, err := f.engine().Run(ctx, nil, RunOptions{})
		errc <- err
	}()
	<-reached
	t0 := time.Now()
	cancel()
	err := <-errc
	if took := time.Since(t0); took > time.Second { // the standard: stops within a second
		t.Errorf("run took %v to stop", took)
	}
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	m, _ := store.ReadManifest(f.root)
	if _, ok := m.Stages["draws"]; ok {
		t.Fatal("a cancelled stage is in the manifest")
	}
	for _, path := range []string{"data/draws.parquet", "data/drawsum.txt"} {
		if _, err := os.Stat(filepath.Join(f.root, path)); !os.IsNotExist(err) {
			t.Errorf("%s exists after a cancelled run", path)
		}
	}
	kept := 0
	for _, files := range unitFiles(t, f.root) {
		kept = len(files)
	}
	if kept < 8 || kept > 20 {
		t.Fatalf("%d units kept after cancelling at the tenth", kept)
	}
	toy.hook = nil
	before := toy.calls.Load()
	f.run(RunOptions{}, nil)
	if n := toy.calls.Load() - before; n != int64(200-kept) {
		t.Fatalf("rerun computed %d units, want %d", n, 200-kept)
	}
}

func TestStaleUnitsRemovedOnPublishAndByGC(t *testing.T) {
	f, toy := newUnitFixture(t, "")
	f.run(RunOptions{}, nil)
	first := unitFiles(t, f.root)
	if len(first) != 1 {
		t.Fatalf("unit dirs %v", first)
	}
	// A partial run of another configuration leaves its units.
	toy.draws.Units.Workers = 1
	toy.hook = func(p *pipeline.Pass, id string) error {
		if id == "u05" {
			return errors.New("stop here")
		}
		return nil
	}
	if _, err := f.engine("draws.rounds=11").Run(context.Background(), nil, RunOptions{}); err == nil {
		t.Fatal("the hook did not fail the run")
	}
	toy.hook = nil
	if dirs := unitFiles(t, f.root); len(dirs) != 2 {
		t.Fatalf("unit dirs after a partial run %v", dirs)
	}
	// gc with the partial run's config keeps both; a leftover temporary
	// file goes.
	ghost := filepath.Join(f.root, store.UnitsDir, "ghost", "abc")
	os.MkdirAll(ghost, 0o755)
	os.WriteFile(filepath.Join(ghost, "x"), []byte("old"), 0o644)
	for fp := range first {
		os.WriteFile(filepath.Join(f.root, store.UnitsDir, "draws", fp, ".u00.tmp-1"), []byte("half"), 0o644)
	}
	removed, err := f.engine("draws.rounds=11").GC(false, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(removed) != 2 || removed[0].Path != "data/units/draws/"+firstKey(first)+"/.*.tmp-*" || removed[1].Path != "data/units/ghost" || removed[1].Files != 1 {
		t.Fatalf("gc removed %+v", removed)
	}
	if dirs := unitFiles(t, f.root); len(dirs) != 2 {
		t.Fatalf("gc removed a current fingerprint: %v", dirs)
	}
	// gc with a third config keeps only the published fingerprint.
	if _, err := f.engine("draws.rounds=12").GC(false, 0); err != nil {
		t.Fatal(err)
	}
	if dirs := unitFiles(t, f.root); len(dirs) != 1 || firstKey(dirs) != firstKey(first) {
		t.Fatalf("after gc with another config: %v, want %v", dirs, first)
	}
	// Publishing another fingerprint removes the old one.
	f.run(RunOptions{}, []string{"draws.rounds=11"})
	dirs := unitFiles(t, f.root)
	if len(dirs) != 1 || firstKey(dirs) == firstKey(first) {
		t.Fatalf("after publishing rounds=11: %v", dirs)
	}
	if len(dirs[firstKey(dirs)]) != 20 {
		t.Fatalf("the published fingerprint keeps %d units, want 20", len(dirs[firstKey(dirs)]))
	}
}

func firstKey(m map[string][]string) string {
	for k := range m {
		return k
	}
	return ""
}

func TestBadUnitsFailTheStage(t *testing.T) {
	cases := []struct {
		name string
		ids  []string
		hook func(p *pipeline.Pass, id string) error
		want string
	}{
		{"escaping id", []string{"u0", "../x"}, nil, `unit 1 has the id "../x"`},
		{"empty id", []string{""}, nil, `unit 0 has the id ""`},
		{"reserved id", []string{"slurm-1_0.err"}, nil, `has the id "slurm-1_0.err"`},
		{"duplicate", []string{"a", "b", "a"}, nil, `unit id "a" is listed twice`},
		{"writes an artifact", []string{"a"}, func(p *pipeline.Pass, id string) error {
			return drawsTable.Write(p, nil)
		}, "unit a writes artifact draws: a unit returns bytes, and only Run writes artifacts"},
		{"asks for results", []string{"a"}, func(p *pipeline.Pass, id string) error {
			_, err := p.UnitResults()
			return err
		}, "unit a asks for unit results"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, toy := newUnitFixture(t, "")
			toy.draws.Units.List = func(*pipeline.Pass) ([]string, error) { return c.ids, nil }
			toy.hook = c.hook
			_, err := f.engine().Run(context.Background(), nil, RunOptions{})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want %q", err, c.want)
			}
		})
	}
}

func TestPanicFailsTheStageWithStackInLog(t *testing.T) {
	for _, where := range []string{"Run", "unit"} {
		t.Run(where, func(t *testing.T) {
			f, toy := newUnitFixture(t, "")
			toy.draws.Units.Workers = 1
			if where == "Run" {
				toy.draws.Run = func(p *pipeline.Pass) error {
					drawsTable.Write(p, nil) // a temporary file to clean up
					var m map[string]int
					m["x"] = 1 // panics
					return nil
				}
			} else {
				toy.hook = func(p *pipeline.Pass, id string) error {
					if id == "u04" {
						panic("unit exploded")
					}
					return nil
				}
			}
			var logs bytes.Buffer
			e, err := New(Options{Root: f.root, Stages: f.stages, ConfigFile: f.config, Log: slog.New(slog.NewTextHandler(&logs, nil))})
			if err != nil {
				t.Fatal(err)
			}
			_, err = e.Run(context.Background(), nil, RunOptions{})
			want := map[string]string{
				"Run":  "stage draws failed: panic in Run: assignment to entry in nil map (stack trace in the log)",
				"unit": "stage draws failed: unit u04: panic in unit u04: unit exploded (stack trace in the log)",
			}[where]
			if err == nil || err.Error() != want {
				t.Fatalf("err = %v, want %q", err, want)
			}
			if !strings.Contains(logs.String(), "level=ERROR msg=panic stage=draws") || !strings.Contains(logs.String(), "goroutine ") ||
				!strings.Contains(logs.String(), "units_test.go:") {
				t.Fatalf("log lacks the stack:\n%s", logs.String())
			}
			m, _ := store.ReadManifest(f.root)
			if _, ok := m.Stages["draws"]; ok {
				t.Fatal("a panicked stage is in the manifest")
			}
			leftovers, _ := filepath.Glob(filepath.Join(f.root, "data/.*.tmp-*"))
			if _, err := os.Stat(filepath.Join(f.root, "data/draws.parquet")); !os.IsNotExist(err) || len(leftovers) > 0 {
				t.Fatalf("a panicked stage left files: %v %v", err, leftovers)
			}
			if where == "unit" {
				if files := unitFiles(t, f.root); len(files[firstKey(files)]) != 4 {
					t.Fatalf("units kept after the panic: %v", files)
				}
			}
		})
	}
}

func TestExecutorConfigErrors(t *testing.T) {
	cases := []struct{ set, want string }{
		{"executor.name=pbs", `config key executor.name: value pbs is not allowed: "local" or "slurm"`},
		{"executor.slurm.cpus_per_task=0", "config key executor.slurm.cpus_per_task: value 0 is not allowed: an integer from 1 to 4096"},
		{"executor.slurm.cpus_per_task=many", "config key executor.slurm.cpus_per_task: value many is not allowed: an integer"},
		{"executor.slurm.time=soon", "config key executor.slurm.time: value soon is not allowed: a Slurm time limit"},
		{"executor.slurm.task_minutes=0", "config key executor.slurm.task_minutes: value 0 is not allowed: a number of minutes above 0"},
		{"executor.slurm.units_per_task=-1", "config key executor.slurm.units_per_task: value -1 is not allowed"},
		{"executor.slurm.max_tasks=0", "config key executor.slurm.max_tasks: value 0 is not allowed"},
		{"executor.slurm.partition=a b", "config key executor.slurm.partition: value a b is not allowed"},
		{`executor.slurm.extra_args=["--array=1-3"]`, `config key executor.slurm.extra_args: value "--array=1-3" is not allowed: an sbatch option the executor does not set itself`},
		{`executor.slurm.extra_args=["-p", "x"]`, `config key executor.slurm.extra_args: value "-p" is not allowed: an sbatch option without a key of its own: use executor.slurm.partition`},
		{`executor.slurm.extra_args=["mem=4G"]`, `config key executor.slurm.extra_args: value "mem=4G" is not allowed: sbatch options`},
		{"executor.slurm.colour=red", "unknown config key executor.slurm.colour"},
	}
	for _, c := range cases {
		f, _ := newUnitFixture(t, "")
		_, err := New(Options{Root: f.root, Stages: f.stages, ConfigFile: f.config, Set: []string{c.set}})
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("--set %s: %v, want one line with %q", c.set, err, c.want)
		}
	}
	f, _ := newUnitFixture(t, "executor:\n  name: slurm\n  slurm:\n    partition: short\n    time: \"1:00:00\"\n    extra_args: [--mem=4G]\n")
	e := f.engine()
	if x := e.executor; x.Name != "slurm" || x.Slurm.Partition != "short" || x.Slurm.Time != "1:00:00" || !equal(x.Slurm.ExtraArgs, []string{"--mem=4G"}) || x.Slurm.CPUsPerTask != 1 {
		t.Fatalf("executor config %+v", x)
	}
	// The executor is in no fingerprint.
	f.run(RunOptions{}, nil, "numbers")
	if st, _ := f.engine("executor.slurm.partition=long").Status(); !st[0].Fresh {
		t.Fatalf("an executor key made a stage stale: %+v", st[0])
	}
}

// fakeSlurm puts scripts named sbatch, squeue and scancel on PATH.
func fakeSlurm(t *testing.T, sbatch string) {
	dir := t.TempDir()
	for name, body := range map[string]string{"sbatch": sbatch, "squeue": "exit 0", "scancel": "exit 0"} {
		if body != "" {
			os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"+body+"\n"), 0o755)
		}
	}
	t.Setenv("PATH", dir)
}

func TestSlurmToolErrors(t *testing.T) {
	cases := []struct{ name, sbatch, want string }{
		{"no sbatch", "", "executor slurm: sbatch is not installed (not found in PATH): install the Slurm client tools (Debian: slurm-client), or run with --executor local"},
		{"refused", `echo "sbatch: error: Batch job submission failed: Invalid account or account/partition combination specified" >&2; exit 1`,
			"executor slurm: sbatch refused the array job of stage draws: sbatch: error: Batch job submission failed: Invalid account or account/partition combination specified"},
		{"no job id", `echo "Submitted batch job"`, `executor slurm: sbatch printed "Submitted batch job", not a job id`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, toy := newUnitFixture(t, "")
			fakeSlurm(t, c.sbatch)
			e, err := New(Options{Root: f.root, Stages: f.stages, ConfigFile: f.config, Set: []string{"executor.name=slurm"},
				UnitCommand: func(stage, fp, plan string) []string { return []string{"census", "units"} }})
			if err != nil {
				t.Fatal(err)
			}
			_, err = e.Run(context.Background(), nil, RunOptions{})
			if err == nil || err.Error() != "stage draws failed: "+c.want {
				t.Fatalf("err = %v\nwant %q", err, c.want)
			}
			if toy.calls.Load() != 0 {
				t.Fatal("units were computed locally")
			}
		})
	}
}

// BenchmarkUnitBookkeeping is the engine's cost per unit, with a Compute
// that returns at once: listing, checking, writing the unit file
// atomically, merging; ns/reused-unit is a rerun's cost of reading and
// checking a finished unit. ns/op is per unit.
func BenchmarkUnitBookkeeping(b *testing.B) {
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			first, rerun := unitBookkeeping(b, b.N, workers)
			b.ReportMetric(float64(first.Nanoseconds())/float64(b.N), "ns/op")
			b.ReportMetric(float64(rerun.Nanoseconds())/float64(b.N), "ns/reused-unit")
		})
	}
}

// unitBookkeeping runs a stage of n units that cost nothing, then reruns
// it reusing them all, and returns the two runs' wall times. It fails tb
// unless the first run computes every unit once and the rerun none.
func unitBookkeeping(tb testing.TB, n, workers int) (first, rerun time.Duration) {
	root := tb.TempDir()
	config := filepath.Join(root, "c.yaml")
	os.WriteFile(config, []byte(fmt.Sprintf("draws:\n  units: %d\n  rounds: 0\n", n)), 0o644)
	toy := newUnitToy()
	toy.draws.Units.Workers = workers
	var computed atomic.Int64
	toy.draws.Units.Compute = func(p *pipeline.Pass, id string) ([]byte, error) {
		computed.Add(1)
		return []byte(id + "........"), nil
	}
	toy.draws.Run = func(p *pipeline.Pass) error {
		results, err := p.UnitResults()
		if err != nil {
			return err
		}
		if len(results) != n {
			return fmt.Errorf("%d unit results, want %d", len(results), n)
		}
		return drawsTable.Write(p, nil)
	}
	e, err := New(Options{Root: root, Stages: toy.stages[:2], ConfigFile: config})
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := e.Run(context.Background(), []string{"numbers"}, RunOptions{}); err != nil {
		tb.Fatal(err)
	}
	if b, ok := tb.(*testing.B); ok {
		b.ResetTimer()
	}
	t0 := time.Now()
	if _, err := e.Run(context.Background(), nil, RunOptions{}); err != nil {
		tb.Fatal(err)
	}
	first = time.Since(t0)
	if got := computed.Swap(0); got != int64(n) {
		tb.Fatalf("first run computed %d units, want %d", got, n)
	}
	os.Remove(filepath.Join(root, "data/draws.parquet"))
	t0 = time.Now()
	if _, err := e.Run(context.Background(), nil, RunOptions{}); err != nil {
		tb.Fatal(err)
	}
	rerun = time.Since(t0)
	if got := computed.Load(); got != 0 {
		tb.Fatalf("rerun computed %d units, want 0", got)
	}
	return first, rerun
}

// TestUnitBookkeepingRuns runs the benchmark's stage once: every unit is
// computed once and a rerun reuses them all. Its cost
// per unit is measured by BenchmarkUnitBookkeeping, not asserted: a time
// limit here fails on a loaded machine, not on slow code.
func TestUnitBookkeepingRuns(t *testing.T) {
	first, rerun := unitBookkeeping(t, 50, 2)
	t.Logf("unit bookkeeping: %v for 50 units computed, %v reused", first, rerun)
}
