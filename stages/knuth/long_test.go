package knuth

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/pipeline/engine"
	"github.com/sudoku-census/sudoku-census/pipeline/pipelinetest"
	"github.com/sudoku-census/sudoku-census/pipeline/store"
	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
)

func mustShape(t *testing.T, s string) grid.Shape {
	t.Helper()
	shape, err := grid.ParseShape(s)
	if err != nil {
		t.Fatal(err)
	}
	return shape
}

// longUnits are units of every variant, with the parameters the stage
// gives them.
func longUnits(t *testing.T) []LongUnit {
	cfg := &Config{HybridOrder: "cover", SEOrder: "cover", LookaheadAlpha: 1e-05,
		HybridK: map[string]int{"3x3": 60, "2x3": 0}, SEBudget: map[string]int{"3x3": 30, "2x3": 10000, "4x4": 100}}
	var out []LongUnit
	for i, name := range variantNames {
		for _, s := range []string{"2x3", "3x3"} {
			shape := mustShape(t, s)
			out = append(out, LongUnit{Shape: shape, Variant: cfg.variant(name, shape), Seed: uint64(i) * 0x9e3779b97f4a7c15,
				BlockSize: 1 + i*1000, First: 64 * i, Last: 64*i + 63})
		}
	}
	cfg.LookaheadAlpha = 0.25
	out = append(out, LongUnit{Shape: mustShape(t, "4x4"), Variant: cfg.variant("lookahead", mustShape(t, "4x4")),
		Seed: math.MaxUint64, BlockSize: 1 << 30, First: (1<<24 - 16), Last: 1<<24 - 1})
	return out
}

// TestLongUnitIDs checks that a long unit's id reads back as the unit, and
// that every other string is refused in one line.
func TestLongUnitIDs(t *testing.T) {
	for _, u := range longUnits(t) {
		got, err := ParseLongUnit(u.ID())
		if err != nil || !reflect.DeepEqual(got, u) {
			t.Errorf("ParseLongUnit(%q) = %+v, %v; want %+v", u.ID(), got, err, u)
		}
		if !LongBundle.Holds(u.ID()) {
			t.Errorf("the bundle does not hold %s", u.ID())
		}
	}
	if id := (LongUnit{Shape: mustShape(t, "4x4"), Variant: DefaultConfig().variant("lookahead", mustShape(t, "4x4")),
		Seed: 1, BlockSize: 1000, First: 32, Last: 47}).ID(); id != "long.4x4.lookahead.mrv.k256.b0.a0p25.s1.n1000.32-47" {
		t.Errorf("id %s", id) // DefaultConfig has no 4x4 budget: 0
	}
	good := "long.4x4.se.mrv.k256.b100.a0.s1.n1000.32-47"
	if _, err := ParseLongUnit(good); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{
		"", "long", "3x3.mrv.0-624", good + ".", "." + good, strings.Replace(good, "long", "LONG", 1),
		strings.Replace(good, "4x4", "04x4", 1), strings.Replace(good, "4x4", "4X4", 1), strings.Replace(good, "4x4", "7x7", 1),
		strings.Replace(good, ".se.", ".dfs.", 1), strings.Replace(good, ".mrv.", ".spiral.", 1),
		strings.Replace(good, ".mrv.", ".rowmajor.", 1), // se orders mrv or cover only
		strings.Replace(good, "k256", "k255", 1),        // se fills every cell
		strings.Replace(good, "k256", "k0256", 1), strings.Replace(good, "k256", "k+256", 1), strings.Replace(good, "k256", "256", 1),
		strings.Replace(good, "b100", "b0", 1), strings.Replace(good, "b100", "b10001", 1), strings.Replace(good, "b100", "b-1", 1),
		strings.Replace(good, "a0", "a0p25", 1), // alpha is lookahead's
		strings.Replace(good, "a0", "a-0", 1), strings.Replace(good, "a0", "aNaN", 1), strings.Replace(good, "a0", "a0p0", 1),
		strings.Replace(good, "s1", "s01", 1), strings.Replace(good, "s1", "s18446744073709551616", 1),
		strings.Replace(good, "n1000", "n0", 1), strings.Replace(good, "n1000", "n1073741825", 1),
		strings.Replace(good, "32-47", "32-46", 1), strings.Replace(good, "32-47", "33-48", 1), strings.Replace(good, "32-47", "47-32", 1),
		strings.Replace(good, "32-47", "32", 1), strings.Replace(good, "32-47", "032-47", 1),
		strings.Replace(good, "32-47", "16777216-16777231", 1),
		strings.Replace(good, "32-47", "18446744073709551600-15", 1),
		"long.4x4.bandselast.mrv.k256.b100.a0.s1.n1000.32-47", // box height 4: no last band
		"long.6x2.bandmrv.mrv.k144.b0.a0.s1.n1000.0-15",       // box height 6: no first band
		"long.3x3.mrv.mrv.k81.b100.a0.s1.n1000.0-63",          // a walk has no budget
		good + "\nlong.4x4.se.mrv.k256.b100.a0.s1.n1000.48-63", good + "\x00", strings.Repeat("long.", 30),
		"long.4x4.se.mrv.k256.b100.a0.s1.n1000.32-47.", "long.4x4.se.mrv.k256.b100.a0.s1.n1000.32-4７",
	} {
		u, err := ParseLongUnit(id)
		if err == nil {
			t.Errorf("ParseLongUnit(%q) = %+v, want an error", id, u)
			continue
		}
		if msg := err.Error(); strings.Contains(msg, "\n") || len(msg) > 400 || !strings.Contains(msg, "want long.<shape>") {
			t.Errorf("ParseLongUnit(%q): error %q is not one line giving the form", id, msg)
		}
		if LongBundle.Holds(id) {
			t.Errorf("the bundle holds %q", id)
		}
	}
}

// TestLongUnitIsPure checks that a long unit's result is a function of its
// id alone: the same bytes computed twice and on one core or two, and
// decodable as its blocks.
func TestLongUnitIsPure(t *testing.T) {
	for _, id := range []string{
		"long.2x3.se.mrv.k36.b10.a0.s7.n20.64-127",
		"long.3x3.bandse.mrv.k81.b5.a0.s1.n3.0-63",
		"long.2x3.lookahead.mrv.k36.b4.a0p25.s1.n10.0-63",
		"long.2x3.hybrid.cover.k18.b0.a0.s2.n10.128-191",
	} {
		u, err := ParseLongUnit(id)
		if err != nil {
			t.Fatal(err)
		}
		var results [][]byte
		for _, procs := range []int{1, 2, 2} {
			prev := runtime.GOMAXPROCS(procs)
			r, err := computeLong(context.Background(), id)
			runtime.GOMAXPROCS(prev)
			if err != nil {
				t.Fatal(err)
			}
			results = append(results, r)
		}
		for i, r := range results[1:] {
			if !bytes.Equal(r, results[0]) {
				t.Errorf("%s: computation %d differs from the first (GOMAXPROCS 1)", id, i+1)
			}
		}
		blocks, err := u.decode(results[0])
		if err != nil || len(blocks) != 64 {
			t.Fatalf("%s: %d blocks, %v", id, len(blocks), err)
		}
		if bad := append([]byte("x"), results[0]...); func() bool { _, err := u.decode(bad); return err == nil }() {
			t.Errorf("%s: a damaged result decodes", id)
		}
	}
}

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

// TestLongGoal checks the run report's verdict on a long run's goal: met
// at or below the goal, else the CPU time the run would need, c·(h/g)².
func TestLongGoal(t *testing.T) {
	for _, c := range []struct {
		h, g, cpu float64
		met       bool
		more      float64
	}{
		{0.0009, 0.001, 3600, true, 0},
		{0.001, 0.001, 3600, true, 0},
		{0.002, 0.001, 3600, false, 14400},
		{0.075, 0.05, 1000, false, 2250},
		{math.Inf(1), 0.01, 10, false, math.Inf(1)},
		{math.NaN(), 0.01, 10, false, math.Inf(1)},
	} {
		met, more := longGoal(c.h, c.g, c.cpu)
		same := math.IsInf(c.more, 1) && math.IsInf(more, 1) || math.Abs(more-c.more) <= 1e-9*c.more
		if met != c.met || !same {
			t.Errorf("longGoal(%g, %g, %g) = %v, %g; want %v, %g", c.h, c.g, c.cpu, met, more, c.met, c.more)
		}
	}
}
