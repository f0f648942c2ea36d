package sampling

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
	"github.com/sudoku-census/sudoku-census/stages/maths/montecarlo"
	"github.com/sudoku-census/sudoku-census/stages/maths/parallel"
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
		{map[string]int64{"3x3/mrv": 10}, "knuth.samples.3x3/mrv"},
		{map[string]int64{"3y3": 10}, "knuth.samples.3y3"},
		{map[string]int64{"6x7": 10}, "knuth.samples.6x7"},
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
	samples := map[string]int64{"3x3": 7, "2x3": 5, "3x3/mrv": 9, "2x2": 3}
	if got, want := Shapes(samples), shapes(t, "2x2", "2x3", "3x3"); !reflect.DeepEqual(got, want) {
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

type testRow struct {
	Shape   string `parquet:"shape"`
	Variant string `parquet:"variant"`
	Columns
}

var (
	testSummary = pipeline.NewTable[testRow]("sampling_test", "test summary")
	testTrace   = pipeline.NewTable[TraceRow]("sampling_test_trace", "test trace")
)

// testStage runs Run with samplers of constant.
func testStage(variants ...string) *pipeline.Stage {
	return &pipeline.Stage{
		Name: "samplingtest", Version: 1, Globals: []string{"seed"},
		Outputs: []pipeline.Output{testSummary.Output, testTrace.Output},
		Run: func(p *pipeline.Pass) error {
			plan := Plan{Stage: "samplingtest", BlockSize: 10, Variants: variants,
				Samples: map[string]int64{"3x3": 30, "2x2": 20, "2x2/b": 25}}
			return Run(p, plan, testSummary, testTrace,
				func(_ grid.Shape, v string) (montecarlo.Sampler, error) { return &constant{variant: v}, nil },
				func(s grid.Shape, v string, res montecarlo.Result, _ Timing) testRow {
					return testRow{Shape: s.String(), Variant: v, Columns: ColumnsOf(res.Total)}
				})
		},
	}
}

func runTestStage(t *testing.T, variants ...string) (string, error) {
	root := t.TempDir()
	config := filepath.Join(root, "config.yaml")
	if err := os.WriteFile(config, []byte("seed: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	eng, err := pipeline.New(pipeline.Options{Root: root, Stages: []*pipeline.Stage{testStage(variants...)}, ConfigFile: config})
	if err != nil {
		t.Fatal(err)
	}
	_, err = eng.Run(context.Background(), nil, pipeline.RunOptions{})
	return root, err
}

// Run runs every shape (smallest first) with every variant (in order),
// with the per-variant sample counts, and writes both tables.
func TestRunLoop(t *testing.T) {
	root, err := runTestStage(t, "b", "a")
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
}

// A panicking sampler fails the stage with an error holding the panic and
// the stack of the worker; the process goes on and nothing is published.
func TestRunPanicFailsStage(t *testing.T) {
	root, err := runTestStage(t, "a", "boom")
	var pe *parallel.PanicError
	if !errors.As(err, &pe) || !strings.Contains(err.Error(), "samplingtest 2x2 boom: panic: sampler bug") || !strings.Contains(string(pe.StackTrace()), "(*constant).Sample") {
		t.Fatalf("error %v, want the panic with its stack", err)
	}
	if _, err := os.Stat(filepath.Join(root, testSummary.Path)); !os.IsNotExist(err) {
		t.Errorf("summary published after a failed run: %v", err)
	}
}
