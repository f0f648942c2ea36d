package sampling

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/sudoku-census/sudoku-census/pipeline/engine"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/maths/montecarlo"
)

// defaultKnuthSamples is knuth.samples of configs/default.yaml (keep them in
// step).
var defaultKnuthSamples = map[string]int64{"2x2": 20000, "2x3": 20000, "3x3": 100000, "3x3/mrv": 200000,
	"3x3/cover": 30000, "3x3/hybrid": 20000, "3x3/se": 2000, "3x3/lookahead": 1000, "3x3/bandse": 10000,
	"3x3/bandmrvlast": 30000, "3x3/bandselast": 1000, "4x4": 20000, "4x4/mrv": 10000, "4x4/cover": 5000,
	"4x4/hybrid": 1000, "4x4/se": 500, "4x4/lookahead": 100, "4x4/bandmrv": 0, "4x4/bandse": 0, "4x4/bandmrvlast": 0,
	"4x4/bandselast": 0, "2x5/se": 2000, "2x5/bandse": 6000, "2x5/bandselast": 2000, "2x6/se": 1000, "2x6/bandse": 2000,
	"2x6/bandselast": 9000, "3x4/se": 500, "3x4/bandse": 4000, "3x4/bandselast": 100, "3x5/se": 200, "3x5/bandse": 300,
	"4x5/se": 20, "5x5/se": 10}

var knuthVariants = []string{"rowmajor", "random", "mrv", "cover", "hybrid", "se", "lookahead", "bandmrv", "bandse", "bandmrvlast", "bandselast"}

// unitless is the stage as it was before units: Run draws every shape and
// variant with montecarlo.Run on all cores and writes the same tables.
func unitless(plan Plan) *pipeline.Stage {
	return &pipeline.Stage{
		Name: "samplingtest", Version: 1, Globals: []string{"seed"},
		Outputs: []pipeline.Output{testSummary.Output, testTrace.Output},
		Run: func(p *pipeline.Pass) error {
			var rows []testRow
			var points []TraceRow
			for _, shape := range Shapes(plan.Samples) {
				for _, v := range plan.Variants {
					res, err := montecarlo.Run(p.Context(), plan.spec(p, shape, v), Count(plan.Samples, shape, v), runtime.GOMAXPROCS(0),
						func() (montecarlo.Sampler, error) { return newTestSampler(v), nil }, nil)
					if err != nil {
						return err
					}
					rows = append(rows, testRow{Shape: shape.String(), Variant: v, Columns: ColumnsOf(res)})
					points = append(points, TraceRows(shape.String(), v, res.Trace)...)
				}
			}
			if err := testSummary.Write(p, rows); err != nil {
				return err
			}
			return testTrace.Write(p, points)
		},
	}
}

// BenchmarkBookkeeping runs the block structure of the default knuth
// configuration with a sampler that costs nothing (1 every time), once as
// units and once without (as before units): the difference is what the
// units' bookkeeping costs (files, encoding, merging, timing), under half a
// millisecond a unit. It reports the number of units.
func BenchmarkBookkeeping(b *testing.B) {
	for _, units := range []bool{true, false} {
		name := map[bool]string{true: "units", false: "without"}[units]
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				b.StopTimer()
				root := b.TempDir()
				config := filepath.Join(root, "config.yaml")
				if err := os.WriteFile(config, []byte("seed: 1\n"), 0o644); err != nil {
					b.Fatal(err)
				}
				stage := testStageBlocks(defaultKnuthSamples, 1000, knuthVariants...)
				if !units {
					stage = unitless(Plan{Stage: "samplingtest", BlockSize: 1000, Variants: knuthVariants, Samples: defaultKnuthSamples})
				}
				eng, err := engine.New(engine.Options{Root: root, Stages: []*pipeline.Stage{stage}, ConfigFile: config})
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				res, err := eng.Run(context.Background(), nil, engine.RunOptions{})
				if err != nil {
					b.Fatal(err)
				}
				for _, m := range res[0].Metrics {
					if v, ok := m.Value.(int); ok && m.Name == "units.total" {
						b.ReportMetric(float64(v), "units")
					}
				}
			}
		})
	}
}
