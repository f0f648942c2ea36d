package knuth

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/pipeline/engine"
	"github.com/sudoku-census/sudoku-census/pipeline/pipelinetest"
	"github.com/sudoku-census/sudoku-census/pipeline/store"
	"github.com/sudoku-census/sudoku-census/stages/maths/montecarlo"
	"github.com/sudoku-census/sudoku-census/stages/shared/sampling"
)

// long is a knuth configuration with two small long runs (2x3 se: two
// units of 64 blocks of 10 samples; 2x3 mrv: one).
var long = pipelinetest.Options{
	Stages: pipelinetest.Closure(Stage),
	Set: []string{
		"knuth.block_size=10", "knuth.variants=[mrv, se]", "knuth.samples={2x2: 100}",
		"knuth.se_budget={2x2: 5, 2x3: 5}", "knuth.coverage_runs=0",
		"knuth.long={2x3/se: 1280, 2x3/mrv: 640}",
	},
}

// TestLongRun runs the long runs into a bundle, then checks that a fresh
// clone takes them from it with the same bytes, that verify --recompute
// finds every unit equal, that a shorter run reuses the bundle's units,
// that rows of another kernel are refused, and that knuth.max_cpu_hours
// stops a run whose bundle lacks units.
func TestLongRun(t *testing.T) {
	root := pipelinetest.Run(t, long)
	rows, err := LongSummary.Load(root)
	if err != nil || len(rows) != 2 {
		t.Fatalf("%d long rows, %v", len(rows), err)
	}
	if r := rows[0]; r.Shape != "2x3" || r.Variant != "mrv" || r.Samples != 640 || r.Units != 1 || r.Budget != 1 ||
		r.Estimate == "" || !(r.CPUSeconds > 0) || r.Kernel != LongBundle.Kernel {
		t.Errorf("row 0: %+v", r)
	}
	if r := rows[1]; r.Variant != "se" || r.Samples != 1280 || r.Units != 2 || r.Budget != 5 {
		t.Errorf("row 1: %+v", r)
	}
	// The efficiency per CPU second, from the bundle's CPU time, with the
	// interval of the relvar's bootstrap over the run's 64 or 128 blocks.
	for _, r := range rows {
		per := r.CPUSeconds / float64(r.Samples)
		if !(r.RelVarLow <= r.RelVar && r.RelVar <= r.RelVarHigh && r.RelVarLow < r.RelVarHigh) ||
			r.CPUSecondsPerSample != per || r.Efficiency != 1/(r.RelVar*per) ||
			r.EfficiencyLow != 1/(r.RelVarHigh*per) || r.EfficiencyHigh != 1/(r.RelVarLow*per) {
			t.Errorf("%s/%s: relvar %g [%g, %g], CPU s a sample %g (want %g), efficiency %g [%g, %g]", r.Shape, r.Variant,
				r.RelVar, r.RelVarLow, r.RelVarHigh, r.CPUSecondsPerSample, per, r.Efficiency, r.EfficiencyLow, r.EfficiencyHigh)
		}
	}
	// The run report says whether each long run meets its goal (±1%, the
	// default, out of reach of 640 samples), and the CPU time to it.
	var metrics map[string]any
	store.EachRun(root, func(l store.RunLogLine) {
		if l.Stage == Stage.Name && l.Action == "ran" {
			metrics = l.Metrics
		}
	})
	for _, run := range []string{"long/2x3/mrv.", "long/2x3/se."} {
		hw, _ := metrics[run+"half_width_95"].(float64)
		more, _ := metrics[run+"cpu_seconds_to_goal"].(float64)
		cpu, _ := metrics[run+"cpu_seconds"].(float64)
		if metrics[run+"goal_half_width_95"] != 0.01 || metrics[run+"meets_goal"] != (hw <= 0.01) ||
			hw > 0.01 && math.Abs(more-cpu*(hw/0.01)*(hw/0.01)) > 1e-9*more {
			t.Errorf("run report of %s: goal %v, meets %v, half-width %v, CPU %v, CPU to goal %v", run, metrics[run+"goal_half_width_95"],
				metrics[run+"meets_goal"], hw, cpu, more)
		}
	}
	bundle := filepath.Join(root, LongBundle.Path())
	have, err := pipeline.ReadBundle(root, LongBundle, nil)
	if err != nil || len(have) != 3 {
		t.Fatalf("bundle: %d rows, %v", len(have), err)
	}
	for id, r := range have {
		if !strings.HasPrefix(id, "long.2x3.") || !strings.HasSuffix(id, ".s1.n10.0-63") && !strings.HasSuffix(id, ".s1.n10.64-127") || r.Work == "" {
			t.Errorf("bundle row %+v", r)
		}
	}
	bundled, _ := os.ReadFile(bundle)

	// A fresh clone: only the bundle.
	clone := func() string {
		dir := t.TempDir()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, LongBundle.Path())), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, LongBundle.Path()), bundled, 0o644); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	o := long
	o.Root = clone()
	pipelinetest.Run(t, o)
	pipelinetest.SameOutputs(t, root, o.Root, Stage)
	if b, _ := os.ReadFile(filepath.Join(o.Root, LongBundle.Path())); !bytes.Equal(b, bundled) {
		t.Error("the clone's run changed the bundle")
	}
	// Coverage slices of the long runs: mrv's one unit is one slice, equal
	// to its long row; se's two units are two slices after it.
	oc := long
	oc.Root = clone()
	oc.Set = append(oc.Set[:len(oc.Set):len(oc.Set)], "knuth.max_cpu_hours=0", "knuth.long_coverage={2x3/mrv: 640, 2x3/se: 640}")
	pipelinetest.Run(t, oc)
	cov, err := Coverage.Load(oc.Root)
	if err != nil {
		t.Fatal(err)
	}
	var slices []CoverageRow
	for _, c := range cov {
		if c.Long {
			slices = append(slices, c)
		}
	}
	if len(slices) != 3 || slices[0].Variant != "mrv" || slices[0].Run != 0 || slices[0].Columns != rows[0].Columns ||
		slices[1].Variant != "se" || slices[1].Run != 0 || slices[2].Run != 1 || slices[1].Samples != 640 || slices[1].Estimate == slices[2].Estimate {
		t.Errorf("long coverage slices: %+v; want mrv's long row %+v, then two se slices of 640", slices, rows[0].Columns)
	}
	// The two se slices make the se run: the mean of their estimates.
	e1, _ := strconv.ParseFloat(slices[1].Estimate, 64)
	e2, _ := strconv.ParseFloat(slices[2].Estimate, 64)
	if whole, _ := strconv.ParseFloat(rows[1].Estimate, 64); math.Abs((e1+e2)/2-whole) > 1e-9*whole {
		t.Errorf("se slices %v and %v, long run %v: not its halves", e1, e2, whole)
	}

	// With no CPU time allowed (the gate passes: nothing is missing).
	o0 := long
	o0.Root = clone()
	o0.Set = append(o0.Set[:len(o0.Set):len(o0.Set)], "knuth.max_cpu_hours=0")
	pipelinetest.Run(t, o0)
	if again, err := LongSummary.Load(o0.Root); err != nil || fmt.Sprintf("%+v", again) != fmt.Sprintf("%+v", rows) {
		t.Errorf("a clone's long rows: %+v, %v; want %+v", again, err, rows)
	}

	// verify --recompute: every unit, byte for byte.
	eng, err := engine.New(engine.Options{Root: o.Root, Stages: long.Stages, ConfigFile: emptyConfig(t), Set: long.Set})
	if err != nil {
		t.Fatal(err)
	}
	if reps, err := eng.RecomputeBundles(context.Background(), 3, 1, 0, func(string) {}); err != nil || len(reps) != 1 || len(reps[0].Checked) != 3 {
		t.Errorf("recompute: %+v, %v", reps, err)
	}

	// A shorter run takes its unit from the bundle and leaves the others.
	o = long
	o.Root = clone()
	o.Set = []string{o.Set[0], o.Set[1], o.Set[2], o.Set[3], o.Set[4], "knuth.long={2x3/se: 640}", "knuth.max_cpu_hours=0"}
	pipelinetest.Run(t, o)
	if rows, err := LongSummary.Load(o.Root); err != nil || len(rows) != 1 || rows[0].Samples != 640 {
		t.Errorf("shorter run: %+v, %v", rows, err)
	}

	// The bundle lacks units: refused beyond knuth.max_cpu_hours.
	o = long
	o.Set = append(o.Set[:len(o.Set):len(o.Set)], "knuth.long={2x3/se: 1920, 2x3/mrv: 640}", "knuth.max_cpu_hours=0")
	o.Root = clone()
	if err := runErr(t, o); err == nil || !strings.Contains(err.Error(), "knuth.max_cpu_hours") || strings.Contains(err.Error(), "\n") {
		t.Errorf("a long run of hours: %v, want one line naming knuth.max_cpu_hours", err)
	}

	// Rows of another kernel are refused, naming the unit.
	old := *LongBundle
	old.Kernel = "knuth long-run blocks: walks v0"
	o = long
	o.Root = t.TempDir()
	var rs []pipeline.BundleRow
	for id, r := range have {
		rs = append(rs, pipeline.NewBundleRow(&old, id, []byte(r.Result), 0))
	}
	if err := pipeline.AddToBundle(o.Root, &old, rs); err != nil {
		t.Fatal(err)
	}
	if _, err := pipeline.ReadBundle(o.Root, LongBundle, nil); err == nil || !strings.Contains(err.Error(), "was computed by kernel") {
		t.Errorf("reading rows of another kernel: %v", err)
	}
	if err := runErr(t, o); err == nil || !strings.Contains(err.Error(), "long.2x3.") || !strings.Contains(err.Error(), "kernel") ||
		strings.Contains(err.Error(), "\n") {
		t.Errorf("a run with rows of another kernel: %v, want one line naming the unit and the kernel", err)
	}
}

// runErr runs o and returns the engine's error.
func runErr(t *testing.T, o pipelinetest.Options) error {
	t.Helper()
	pipelinetest.CopySources(t, o.Root, o.Stages)
	eng, err := engine.New(engine.Options{Root: o.Root, Stages: o.Stages, ConfigFile: emptyConfig(t), Set: o.Set})
	if err != nil {
		return err
	}
	_, err = eng.Run(context.Background(), nil, engine.RunOptions{})
	return err
}

// emptyConfig is a configuration file of the stages' defaults.
func emptyConfig(t *testing.T) string {
	path := filepath.Join(t.TempDir(), "empty.yaml")
	if err := os.WriteFile(path, []byte("# the stages' defaults\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestLongMachineColumns: every CPU-derived column of knuth_long.parquet
// is declared machine-dependent, by its Parquet name, so that a long unit
// recomputed on another machine (another cpu_seconds in the bundle)
// changes none of the lock's hash of the other columns, while a change of
// the relvar's interval (the same bytes on every machine) does.
func TestLongMachineColumns(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, r LongRow) string {
		path := filepath.Join(dir, name)
		if err := parquet.WriteFile(path, []LongRow{r}); err != nil {
			t.Fatal(err)
		}
		return path
	}
	iv := montecarlo.RelVarInterval{Low: 0.5, High: 0.8}
	row := LongRow{Shape: "4x4", Variant: "stacks", Order: "rowmajor", Units: 160,
		Columns: sampling.Columns{Samples: 2560000, RelVar: 0.6}, RelVarColumns: sampling.RelVarColumnsOf(iv),
		CPUColumns: sampling.CPUColumnsOf(7776, 2560000, 0.6, iv), Kernel: "k"}
	elsewhere := row
	elsewhere.CPUColumns = sampling.CPUColumnsOf(9000, 2560000, 0.6, iv)
	other := row
	other.RelVarHigh = 0.9
	cols := LongSummary.MachineColumns
	hash := func(path string) string {
		sum, _, err := pipeline.HashColumnsExcept(path, cols)
		if err != nil {
			t.Fatal(err)
		}
		return sum
	}
	committed := hash(write("committed.parquet", row))
	if committed != hash(write("elsewhere.parquet", elsewhere)) {
		t.Errorf("machine columns %v: another machine's CPU time changes the hash of the other columns", cols)
	}
	if committed == hash(write("other.parquet", other)) {
		t.Error("the relvar's interval changed and the hash of the other columns did not")
	}
}
