package knuth

import (
	"runtime"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/maths/montecarlo"
	"github.com/sudoku-census/sudoku-census/stages/maths/walks"
	"github.com/sudoku-census/sudoku-census/stages/shared/longruns"
	"github.com/sudoku-census/sudoku-census/stages/shared/sampling"
)

// Coverage is data/knuth_coverage.parquet: the coverage study. For every
// shape and variant of knuth.coverage_samples, knuth.coverage_runs
// independent runs of that many samples each, one row per run with its
// estimate and 95% interval. Whether the intervals cover the true count is
// for the reader of the table (the report stage, which knows the counts):
// the estimating stage never reads a known count.
var Coverage = pipeline.NewTable[CoverageRow]("knuth_coverage", "one row per short independent run of the coverage study: estimate and 95% interval")

// CoverageRow is one run of the coverage study.
type CoverageRow struct {
	Shape   string `parquet:"shape"`
	Variant string `parquet:"variant"`
	Run     int32  `parquet:"run"`
	// Long marks a run that is a slice of a long run's blocks
	// (knuth.long_coverage), rather than a short run of its own streams.
	Long bool `parquet:"long"`
	sampling.Columns
}

// coverageStage names the coverage runs' random streams: run i of a shape
// and variant is block i of the spec with the run's samples as block size,
// so the runs are independent of each other and of the main runs.
const coverageStage = "knuth-coverage"

// runCoverage draws the coverage runs (on every core; each run is a pure
// function of its spec and index, so the table does not depend on the
// cores) and writes the table, with the long runs' slices (longSlices)
// after them.
func runCoverage(p *pipeline.Pass, longSlices []CoverageRow) error {
	cfg := pipeline.ConfigOf[Config](p)
	var rows []CoverageRow
	if cfg.CoverageRuns > 0 {
		for _, r := range sampling.Runs(cfg.CoverageSamples, cfg.Variants) {
			n := sampling.Count(cfg.CoverageSamples, r.Shape, r.Variant)
			spec := montecarlo.Spec{Seed: p.Seed, Stage: coverageStage, Shape: r.Shape.String(), Variant: r.Variant,
				BlockSize: int(n), TailSize: montecarlo.ParetoTailSize(n)}
			v := cfg.variant(r.Variant, r.Shape)
			blocks, err := montecarlo.RunBlocks(p.Context(), spec, n*int64(cfg.CoverageRuns), runtime.GOMAXPROCS(0),
				func() (montecarlo.Sampler, error) { return walks.NewSampler(p.Context(), r.Shape, v) }, nil)
			if err != nil {
				return err
			}
			for i, b := range blocks {
				rows = append(rows, CoverageRow{Shape: spec.Shape, Variant: longruns.Label(v), Run: int32(i),
					Columns: sampling.ColumnsOf(montecarlo.Result{Total: b.Moments, Tail: b.Tail})})
			}
		}
	}
	return Coverage.Write(p, append(rows, longSlices...))
}
