package sampling

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sudoku-census/sudoku-census/pipeline/engine"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/pipeline/store"
	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
	"github.com/sudoku-census/sudoku-census/stages/maths/montecarlo"
)

func shapes(t *testing.T, keys ...string) []grid.Shape {
	var out []grid.Shape
	for _, k := range keys {
		s, err := grid.ParseShape(k)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

// Shapes sort by grid side, then by box height, and ShapeLess agrees.
func TestCompareShapes(t *testing.T) {
	got := shapes(t, "3x3", "4x2", "2x4", "5x5", "1x2", "3x2", "2x3", "2x2", "2x1", "4x4")
	slices.SortFunc(got, CompareShapes)
	want := shapes(t, "1x2", "2x1", "2x2", "2x3", "3x2", "2x4", "4x2", "3x3", "4x4", "5x5")
	if !reflect.DeepEqual(got, want) {
		t.Errorf("sorted %v, want %v", got, want)
	}
	for i, a := range want {
		for j, b := range want {
			if ShapeLess(a, b) != (i < j) {
				t.Errorf("ShapeLess(%v, %v) = %v", a, b, ShapeLess(a, b))
			}
		}
	}
}

// One shape has one key: anything grid.ParseShape reads that is not what
// grid.Shape.String writes is rejected, in one line naming the key, its
// value and the allowed form.
func TestCheckSamplesCanonicalKeys(t *testing.T) {
	variants := []string{"mrv", "se"}
	for _, c := range []struct {
		samples map[string]int64
		bad     string // the key the error names; "" when accepted
	}{
		{map[string]int64{"2x2": 5, "3x3": 7, "3x3/mrv": 9}, ""},
		{map[string]int64{"3x3": 10, "03x3": 10}, "knuth.samples.03x3"},
		{map[string]int64{"3x03": 10}, "knuth.samples.3x03"},
		{map[string]int64{"3X3": 10}, "knuth.samples.3X3"},
		{map[string]int64{" 3x3": 10}, "knuth.samples. 3x3"},
		{map[string]int64{"+3x3": 10}, "knuth.samples.+3x3"},
		{map[string]int64{"3x3": 10, "03x3/mrv": 10}, "knuth.samples.03x3/mrv"},
		{map[string]int64{"3x3": 10, "3x3/dfs": 10}, "knuth.samples.3x3/dfs"},
		{map[string]int64{"3x3/mrv": 10}, ""}, // mrv alone on 3×3
		{map[string]int64{"3x3/mrv": -1}, "knuth.samples.3x3/mrv"},
		{map[string]int64{"3x3": 5, "3x3/mrv": 0}, ""}, // every variant but mrv
		{map[string]int64{"3y3": 10}, "knuth.samples.3y3"},
		{map[string]int64{"6x7": 10}, "knuth.samples.6x7"},
		{map[string]int64{"6x6": 10, "6x6/se": 0, "1x36/mrv": 1}, ""}, // up to MaxSide: which variants run there is the stage's rule
		{map[string]int64{"1x37/mrv": 10}, "knuth.samples.1x37/mrv"},
		{map[string]int64{"2x2": 0}, "knuth.samples.2x2"},
		{map[string]int64{}, "knuth.samples"},
	} {
		err := CheckSamples("knuth.samples", c.samples, variants)
		if c.bad == "" {
			if err != nil {
				t.Errorf("%v: %v", c.samples, err)
			}
			continue
		}
		var ce *pipeline.ConfigError
		if !errors.As(err, &ce) || ce.Key != c.bad || strings.Contains(err.Error(), "\n") {
			t.Errorf("%v: error %v, want a one-line config error naming %s", c.samples, err, c.bad)
			continue
		}
		if v := c.samples[strings.TrimPrefix(c.bad, "knuth.samples.")]; c.bad != "knuth.samples" && ce.Value != v {
			t.Errorf("%v: error names value %v, want %v", c.samples, ce.Value, v)
		}
		if strings.Contains(c.bad, "x") && c.samples[strings.TrimPrefix(c.bad, "knuth.samples.")] > 0 && !strings.Contains(ce.Allowed, "RxC") {
			t.Errorf("%v: error %q does not say the allowed form", c.samples, err)
		}
	}
	// Without variants, per-variant keys are refused.
	if err := CheckSamples("importance.samples", map[string]int64{"3x3": 1, "3x3/ridder": 2}, nil); err == nil || !strings.Contains(err.Error(), "importance.samples.3x3/ridder") {
		t.Errorf("per-variant key without variants: %v", err)
	}
	if err := CheckShapeKeys("knuth.hybrid_k", map[string]int{"3x3": 60, "03x3": 60}); err == nil || !strings.Contains(err.Error(), "knuth.hybrid_k.03x3") {
		t.Errorf("non-canonical hybrid_k key: %v", err)
	}
}

func TestShapesAndCount(t *testing.T) {
	samples := map[string]int64{"3x3": 7, "2x3": 5, "3x3/mrv": 9, "2x2": 3, "6x6/se": 1}
	if got, want := Shapes(samples), append(shapes(t, "2x2", "2x3", "3x3"), grid.Shape{R: 6, C: 6}); !reflect.DeepEqual(got, want) {
		t.Errorf("Shapes = %v, want %v", got, want)
	}
	s := shapes(t, "3x3")[0]
	if Count(samples, s, "mrv") != 9 || Count(samples, s, "se") != 7 {
		t.Errorf("Count: mrv %d, se %d; want 9, 7", Count(samples, s, "mrv"), Count(samples, s, "se"))
	}
}

// constant draws 1 or, for variant "boom", panics at its fifth sample.
type constant struct {
	variant string
	n       int
}

func (c *constant) Sample(*rand.ChaCha8) (montecarlo.Value, int64, error) {
	if c.n++; c.variant == "boom" && c.n == 5 {
		panic("sampler bug")
	}
	return montecarlo.One, 1, nil
}

// spread draws exponential samples of every scale (zeros too, and
// exponents over hundreds of binary orders), so that blocks rescale their
// moments and the merge order shows in the last bits.
type spread struct{}

func (spread) Sample(src *rand.ChaCha8) (montecarlo.Value, int64, error) {
	u := float64(src.Uint64()>>11) / (1 << 53)
	if u < 0.2 {
		return montecarlo.Value{}, 1, nil
	}
	return montecarlo.Value{Frac: -math.Log(u), Exp: int(src.Uint64() % 600)}, 1 + int64(src.Uint64()%7), nil
}

func newTestSampler(variant string) montecarlo.Sampler {
	if variant == "spread" {
		return spread{}
	}
	return &constant{variant: variant}
}

type testRow struct {
	Shape   string `parquet:"shape"`
	Variant string `parquet:"variant"`
	Columns
	RelVarColumns
}

var (
	testSummary = pipeline.NewTable[testRow]("sampling_test", "test summary")
	testTrace   = pipeline.NewTable[TraceRow]("sampling_test_trace", "test trace")
)

// testStage is an Estimator stage with the samplers of newTestSampler,
// block size 10 and the given samples.
func testStage(samples map[string]int64, variants ...string) *pipeline.Stage {
	return testStageBlocks(samples, 10, variants...)
}

// testStageBlocks is testStage with another block size.
func testStageBlocks(samples map[string]int64, blockSize int, variants ...string) *pipeline.Stage {
	e := &Estimator[testRow]{
		Plan: func(*pipeline.Pass) Plan {
			return Plan{Stage: "samplingtest", BlockSize: blockSize, Variants: variants, Samples: samples}
		},
		NewSampler: func(_ *pipeline.Pass, _ grid.Shape, v string) (montecarlo.Sampler, error) {
			return newTestSampler(v), nil
		},
		Row: func(_ *pipeline.Pass, s grid.Shape, v string, res montecarlo.Result, relvar montecarlo.RelVarInterval, _ Timing) testRow {
			return testRow{Shape: s.String(), Variant: v, Columns: ColumnsOf(res), RelVarColumns: RelVarColumnsOf(relvar)}
		},
		Summary: testSummary, Trace: testTrace,
	}
	return &pipeline.Stage{
		Name: "samplingtest", Version: 1, Globals: []string{"seed"},
		Outputs: []pipeline.Output{testSummary.Output, testTrace.Output},
		Units:   e.Units(), Run: e.Run,
	}
}

var smallSamples = map[string]int64{"3x3": 30, "2x2": 20, "2x2/b": 25}

// runStage runs stage in root (a fresh one if empty) and returns the root,
// the stage's metrics by name and the error.
func runStage(t *testing.T, root string, stage *pipeline.Stage) (string, map[string]any, error) {
	t.Helper()
	if root == "" {
		root = t.TempDir()
	}
	config := filepath.Join(root, "config.yaml")
	if err := os.WriteFile(config, []byte("seed: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	eng, err := engine.New(engine.Options{Root: root, Stages: []*pipeline.Stage{stage}, ConfigFile: config})
	if err != nil {
		t.Fatal(err)
	}
	res, err := eng.Run(context.Background(), nil, engine.RunOptions{})
	metrics := map[string]any{}
	for _, r := range res {
		for _, m := range r.Metrics {
			metrics[m.Name] = m.Value
		}
	}
	return root, metrics, err
}

// Run runs every shape (smallest first) with every variant (in order),
// with the per-variant sample counts, and writes both tables.
func TestRunLoop(t *testing.T) {
	root, metrics, err := runStage(t, "", testStage(smallSamples, "b", "a"))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := testSummary.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rows {
		got = append(got, fmt.Sprintf("%s/%s %d %s", r.Shape, r.Variant, r.Samples, r.Estimate))
	}
	want := []string{"2x2/b 25 1.00000000000000e+00", "2x2/a 20 1.00000000000000e+00", "3x3/b 30 1.00000000000000e+00", "3x3/a 30 1.00000000000000e+00"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("rows %v, want %v", got, want)
	}
	trace, err := testTrace.Load(root)
	if err != nil || len(trace) == 0 || trace[len(trace)-1].Shape != "3x3" || trace[len(trace)-1].Samples != 30 {
		t.Errorf("trace %v, err %v", trace, err)
	}
	// 3 + 2 + 3 + 3 blocks of 10, one unit each.
	if metrics["units.total"] != 11 || metrics["units.computed"] != 11 {
		t.Errorf("units: %v total, %v computed; want 11 and 11", metrics["units.total"], metrics["units.computed"])
	}
	for _, run := range []string{"2x2/b", "2x2/a", "3x3/b", "3x3/a"} {
		for _, m := range []string{"wall_seconds", "cpu_seconds", "walks_per_second_per_core"} {
			if v, ok := metrics[run+"."+m].(float64); !ok || v < 0 || math.IsNaN(v) {
				t.Errorf("metric %s.%s = %v", run, m, metrics[run+"."+m])
			}
		}
		if _, ok := metrics[run+".timed_samples"]; ok {
			t.Errorf("%s: timed_samples reported though every unit was timed", run)
		}
	}
}

// The units cut each shape and variant's blocks into at most UnitsPerRun
// contiguous runs of equal length (the last one shorter), in order, and
// the ids say which.
func TestUnitsCutBlocks(t *testing.T) {
	plan := Plan{Stage: "x", BlockSize: 1000, Variants: []string{"mrv", "se"},
		Samples: map[string]int64{"3x3": 1000, "3x3/mrv": 20_000_000, "2x2": 98_500, "4x4": 1}}
	units := plan.units()
	type run struct{ shape, variant string }
	blocks := map[run][]int{}
	var order []run
	for _, u := range units {
		r := run{u.shape.String(), u.variant}
		if len(blocks[r]) == 0 {
			order = append(order, r)
		}
		for b := u.first; b <= u.last; b++ {
			blocks[r] = append(blocks[r], b)
		}
		if got, err := plan.unitOf(u.id()); err != nil || got != u {
			t.Errorf("unitOf(%s) = %+v, %v", u.id(), got, err)
		}
	}
	want := []run{{"2x2", "mrv"}, {"2x2", "se"}, {"3x3", "mrv"}, {"3x3", "se"}, {"4x4", "mrv"}, {"4x4", "se"}}
	if !reflect.DeepEqual(order, want) {
		t.Errorf("runs in order %v, want %v", order, want)
	}
	for r, bs := range blocks {
		n := Count(plan.Samples, grid.Shape{R: int(r.shape[0] - '0'), C: int(r.shape[2] - '0')}, r.variant)
		for i, b := range bs {
			if b != i {
				t.Fatalf("%v: blocks %v are not 0, 1, 2, …", r, bs)
			}
		}
		if want := int((n + 999) / 1000); len(bs) != want {
			t.Errorf("%v: %d blocks, want %d", r, len(bs), want)
		}
	}
	counts := map[run]int{}
	var mrv []string
	for _, u := range units {
		counts[run{u.shape.String(), u.variant}]++
		if u.shape.String() == "3x3" && u.variant == "mrv" && len(mrv) < 2 {
			mrv = append(mrv, u.id())
		}
	}
	if c := counts[run{"3x3", "mrv"}]; c != UnitsPerRun || counts[run{"2x2", "se"}] != 25 || counts[run{"4x4", "se"}] != 1 {
		t.Errorf("units per run %v", counts)
	}
	if want := []string{"3x3.mrv.0-624", "3x3.mrv.625-1249"}; !reflect.DeepEqual(mrv, want) {
		t.Errorf("first 3x3 mrv units %v, want %v", mrv, want)
	}
	last := units[len(units)-1]
	if last.samplesOf() != 1 || last.blockLen(0) != 1 {
		t.Errorf("4x4 se unit: %d samples", last.samplesOf())
	}
	for _, u := range units {
		if u.shape.String() == "2x2" && u.variant == "mrv" && u.last == 98 && (u.first != 96 || u.blockLen(98) != 500 || u.samplesOf() != 2500) {
			t.Errorf("last 2x2 unit %s: %d samples, last block %d", u.id(), u.samplesOf(), u.blockLen(98))
		}
	}
	for _, id := range []string{"3x3.mrv.0-623", "3x3.mrv.1-625", "3x3.dfs.0-624", "5x5.mrv.0-0", "03x3.mrv.0-624", "3x3.mrv", "3x3.mrv.0-624.x"} {
		if _, err := plan.unitOf(id); err == nil {
			t.Errorf("unitOf(%q) accepted", id)
		}
	}
}

// The tables made from units are those of montecarlo.Run, bit for bit,
// on samples that rescale and round: the units' blocks are merged in
// block order.
func TestUnitsMergeAsRun(t *testing.T) {
	samples := map[string]int64{"2x2": 1234, "3x3": 95}
	root, _, err := runStage(t, "", testStage(samples, "spread"))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := testSummary.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	trace, err := testTrace.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	var wantRows []testRow
	var wantTrace []TraceRow
	for _, shape := range Shapes(samples) {
		spec := montecarlo.Spec{Seed: 1, Stage: "samplingtest", Shape: shape.String(), Variant: "spread", BlockSize: 10, TailSize: montecarlo.ParetoTailSize(samples[shape.String()])}
		blocks, err := montecarlo.RunBlocks(context.Background(), spec, samples[shape.String()], 3, func() (montecarlo.Sampler, error) { return spread{}, nil }, nil)
		if err != nil {
			t.Fatal(err)
		}
		res := montecarlo.MergeBlocks(blocks)
		iv := montecarlo.BootstrapRelVar(spec, montecarlo.BlockMoments(blocks), montecarlo.BootstrapResamples)
		if rv := res.Total.Stats().RelVar; !(iv.Low <= rv && rv <= iv.High) {
			t.Errorf("%s: relvar %g outside its bootstrap interval %+v", shape, rv, iv)
		}
		wantRows = append(wantRows, testRow{Shape: shape.String(), Variant: "spread", Columns: ColumnsOf(res), RelVarColumns: RelVarColumnsOf(iv)})
		wantTrace = append(wantTrace, TraceRows(shape.String(), "spread", res.Trace)...)
	}
	if !reflect.DeepEqual(rows, wantRows) {
		t.Errorf("summary from units\n%+v\nmontecarlo.Run\n%+v", rows, wantRows)
	}
	if !reflect.DeepEqual(trace, wantTrace) {
		t.Errorf("trace from units differs from montecarlo.Run's")
	}
}

// A rerun after losing the tables and some units computes the missing
// units only, reports the timing of those, and writes the same bytes.
func TestUnitsResume(t *testing.T) {
	stage := testStage(map[string]int64{"2x2": 300, "3x3": 205}, "spread")
	root, _, err := runStage(t, "", stage)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]byte{}
	for _, path := range []string{testSummary.Path, testTrace.Path} {
		if want[path], err = os.ReadFile(filepath.Join(root, path)); err != nil {
			t.Fatal(err)
		}
		os.Remove(filepath.Join(root, path))
	}
	// No run cache either: it would restore the tables without running.
	os.RemoveAll(filepath.Join(root, store.CacheDir))
	// 2x2: 30 blocks in 30 units; 3x3: 21 blocks in 21 units. Remove 3.
	files, _ := filepath.Glob(filepath.Join(root, store.UnitsDir, "samplingtest", "*", "*"))
	var removed []string
	for _, f := range files {
		if name := filepath.Base(f); name == "2x2.spread.0-0" || name == "3x3.spread.7-7" || name == "3x3.spread.20-20" {
			os.Remove(f)
			removed = append(removed, name)
		}
	}
	if len(files) != 51 || len(removed) != 3 {
		t.Fatalf("%d unit files, removed %v", len(files), removed)
	}
	_, metrics, err := runStage(t, root, stage)
	if err != nil {
		t.Fatal(err)
	}
	if metrics["units.reused"] != 48 || metrics["units.computed"] != 3 {
		t.Errorf("rerun: %v reused, %v computed; want 48 and 3", metrics["units.reused"], metrics["units.computed"])
	}
	if metrics["2x2/spread.timed_samples"] != int64(10) || metrics["3x3/spread.timed_samples"] != int64(15) {
		t.Errorf("timed samples: 2x2 %v, 3x3 %v; want 10 and 15", metrics["2x2/spread.timed_samples"], metrics["3x3/spread.timed_samples"])
	}
	for path, b := range want {
		if got, err := os.ReadFile(filepath.Join(root, path)); err != nil || !bytes.Equal(got, b) {
			t.Errorf("%s differs after the resumed run (%v)", path, err)
		}
	}
}

// A unit result that is not the unit's (another format, a block short or
// too long, a block of another length, block 0 without its prefix trace,
// bytes after the end) is refused.
func TestUnitDecodeChecks(t *testing.T) {
	// 96 blocks, the last of 5 samples: 32 units of 3 blocks.
	plan := Plan{Stage: "x", BlockSize: 10, Variants: []string{"v"}, Samples: map[string]int64{"2x2": 955}}
	units := plan.units()
	first, last := units[0], units[len(units)-1]
	if len(units) != 32 || first.id() != "2x2.v.0-2" || last.id() != "2x2.v.93-95" {
		t.Fatalf("units %s … %s (%d)", first.id(), last.id(), len(units))
	}
	block := func(b int) montecarlo.Block {
		blk, err := montecarlo.RunBlock(context.Background(), plan.spec(&pipeline.Pass{}, first.shape, "v"), b, first.blockLen(b), spread{})
		if err != nil {
			t.Fatal(err)
		}
		return blk
	}
	encode := func(format byte, blocks ...montecarlo.Block) []byte {
		out := []byte{format}
		for _, b := range blocks {
			out = montecarlo.AppendBlock(out, b)
		}
		return out
	}
	b0, b1, b2, b93, b94, b95 := block(0), block(1), block(2), block(93), block(94), block(95)
	if len(b0.Prefix) == 0 || b95.Moments.N != 5 {
		t.Fatalf("block 0 has %d trace points, block 95 %d samples", len(b0.Prefix), b95.Moments.N)
	}
	for _, c := range []struct {
		u      unit
		blocks []montecarlo.Block
	}{{first, []montecarlo.Block{b0, b1, b2}}, {last, []montecarlo.Block{b93, b94, b95}}} {
		got, err := c.u.decode(encode(unitFormat, c.blocks...))
		if err != nil || !reflect.DeepEqual(got, c.blocks) {
			t.Fatalf("%s: decode: %v", c.u.id(), err)
		}
	}
	good := encode(unitFormat, b93, b94, b95)
	noPrefix := b0
	noPrefix.Prefix = nil
	for name, c := range map[string]struct {
		u      unit
		result []byte
	}{
		"empty":           {last, nil},
		"other format":    {last, encode(unitFormat+1, b93, b94, b95)},
		"a block short":   {last, encode(unitFormat, b93, b94)},
		"a block more":    {last, encode(unitFormat, b93, b94, b95, b95)},
		"last block full": {last, encode(unitFormat, b93, b94, b94)},
		"bytes after":     {last, append(slices.Clip(good), 0)},
		"cut":             {last, good[:len(good)-1]},
		"no prefix":       {first, encode(unitFormat, noPrefix, b1, b2)},
		"a prefix too":    {last, encode(unitFormat, b0, b94, b95)},
	} {
		if _, err := c.u.decode(c.result); err == nil {
			t.Errorf("%s: decoded", name)
		}
	}
}

// A panicking sampler fails the stage with an error naming the unit and
// the panic; the process goes on and nothing is published.
func TestRunPanicFailsStage(t *testing.T) {
	root, _, err := runStage(t, "", testStage(smallSamples, "a", "boom"))
	if err == nil || !strings.Contains(err.Error(), "panic in unit 2x2.boom.") || !strings.Contains(err.Error(), "sampler bug") {
		t.Fatalf("error %v, want the panic of a 2x2.boom unit", err)
	}
	if _, err := os.Stat(filepath.Join(root, testSummary.Path)); !os.IsNotExist(err) {
		t.Errorf("summary published after a failed run: %v", err)
	}
}

// A RxC/variant key alone runs that variant only; beside RxC it overrides
// the count of one variant, and 0 leaves the variant out. Runs lists shapes in table order, variants in
// the configured order.
func TestRuns(t *testing.T) {
	samples := map[string]int64{"5x5/se": 7, "3x3": 10, "3x3/mrv": 20, "2x5/mrv": 3, "2x5/se": 4, "3x3/cover": 0}
	var got []string
	for _, r := range Runs(samples, []string{"se", "mrv", "cover"}) {
		got = append(got, fmt.Sprintf("%s/%s:%d", r.Shape, r.Variant, Count(samples, r.Shape, r.Variant)))
	}
	want := []string{"3x3/se:10", "3x3/mrv:20", "2x5/se:4", "2x5/mrv:3", "5x5/se:7"}
	if !slices.Equal(got, want) {
		t.Errorf("Runs = %v, want %v", got, want)
	}
}

// The projection scales the CPU time to all samples, divides by the cores
// and by the squared ratio of half-widths: 10 CPU-s for half of 1,000
// samples at ±2% make 20 CPU-s for all, 10 s on 2 cores, and ±1% takes 4×
// as long.
func TestProjection(t *testing.T) {
	tm := Timing{CPU: 10 * time.Second, Samples: 500}
	if got := Projection(tm, 1000, 0.02, 0.01, 2); math.Abs(got-40) > 1e-9 {
		t.Errorf("projection %g s, want 40", got)
	}
	if got := Projection(Timing{}, 1000, 0.02, 0.01, 2); got != 0 {
		t.Errorf("untimed run: %g, want 0", got)
	}
}
