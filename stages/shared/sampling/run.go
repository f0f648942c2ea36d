package sampling

import (
	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
	"github.com/sudoku-census/sudoku-census/stages/maths/montecarlo"
)

// Plan is what a Monte Carlo stage runs: every shape of Samples, in the
// order of Shapes, with every variant of Variants, in their order.
type Plan struct {
	// Stage is the stage's name in the random streams (montecarlo.Spec),
	// which with the pass's seed, the shape, the variant and BlockSize
	// identify the samples.
	Stage     string
	BlockSize int
	// Samples maps shapes (and shape/variant) to sample counts, as
	// CheckSamples accepts them; see Count.
	Samples  map[string]int64
	Variants []string
}

// Run runs plan in pass p: for each shape and variant in turn it draws
// Count(plan.Samples, shape, variant) samples with Execute, from samplers
// newSampler makes (one per worker), and collects row(shape, variant,
// result, timing) and the run's trace. At the end it writes the rows to
// summary and the traces to trace. The first error stops it.
func Run[R any](p *pipeline.Pass, plan Plan, summary pipeline.Table[R], trace pipeline.Table[TraceRow],
	newSampler func(s grid.Shape, variant string) (montecarlo.Sampler, error),
	row func(s grid.Shape, variant string, res montecarlo.Result, tm Timing) R) error {
	var rows []R
	var points []TraceRow
	for _, shape := range Shapes(plan.Samples) {
		for _, variant := range plan.Variants {
			spec := montecarlo.Spec{Seed: p.Seed, Stage: plan.Stage, Shape: shape.String(), Variant: variant, BlockSize: plan.BlockSize}
			res, tm, err := Execute(p, spec, Count(plan.Samples, shape, variant), func() (montecarlo.Sampler, error) {
				return newSampler(shape, variant)
			})
			if err != nil {
				return err
			}
			rows = append(rows, row(shape, variant, res, tm))
			points = append(points, TraceRows(shape.String(), variant, res.Trace)...)
		}
	}
	if err := summary.Write(p, rows); err != nil {
		return err
	}
	return trace.Write(p, points)
}
