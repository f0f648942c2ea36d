package importance

import (
	"fmt"
	"math"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
	"github.com/sudoku-census/sudoku-census/stages/maths/montecarlo"
	"github.com/sudoku-census/sudoku-census/stages/maths/ridder"
	"github.com/sudoku-census/sudoku-census/stages/shared/sampling"
)

// Stage is the importance stage.
var Stage = &pipeline.Stage{
	Name:      "importance",
	Doc:       "Ridder's importance-sampling estimates of the number of grids per shape",
	Version:   5,
	NewConfig: func() pipeline.Config { return DefaultConfig() },
	Globals:   []string{"seed"},
	Outputs:   []pipeline.Output{Summary.Output, Trace.Output},
	Headlines: estimator.Headlines,
	// A unit is a run of blocks of one shape (see package sampling).
	Units: estimator.Units(),
	Run:   estimator.Run,
}

// Summary is data/importance.parquet.
var Summary = pipeline.NewTable[SummaryRow]("importance", "one row per shape: importance-sampling estimate, RE, RAT, EFF")

// Trace is data/importance_trace.parquet.
var Trace = pipeline.NewTable[sampling.TraceRow]("importance_trace", "running estimate per shape at log-spaced sample counts")

// variant is the name of the one estimator, in rows and random streams.
const variant = "ridder"

// SummaryRow is one shape's run.
type SummaryRow struct {
	Shape           string  `parquet:"shape"`
	Variant         string  `parquet:"variant"`
	Log10Population float64 `parquet:"log10_population"` // log10 |Ω| = n·log10 n!
	sampling.Columns
	sampling.RelVarColumns
	Log10Probability float64 `parquet:"log10_probability"` // log10 of the estimate of u(A) = |A|/|Ω|
	RAT              float64 `parquet:"rat"`               // log E[γ²] / log E[γ]; NaN if no sample hit A
	EFF              float64 `parquet:"eff"`               // 1/(σ²_γ · work per sample); +Inf beyond float64
	Log10EFF         float64 `parquet:"log10_eff"`
	// The work as Ridder counts it, the uniform completion of dead ends
	// included, and EFF with that cost (see ridder.WorkWithCompletion).
	WorkWithCompletion     int64   `parquet:"work_with_completion"`
	Log10EFFWithCompletion float64 `parquet:"log10_eff_with_completion"`
}

// Config is the stage's configuration (keys under "importance.").
type Config struct {
	// BlockSize is the number of samples per block, 1 to
	// montecarlo.MaxBlockSize; no shape may need more than
	// montecarlo.MaxBlocks blocks (sampling.CheckBlocks).
	BlockSize int `mapstructure:"block_size" json:"block_size"`
	// FillDeadEnds completes X uniformly after a dead end, as the paper
	// does; false skips it (same estimates and work, less time, other streams).
	FillDeadEnds bool `mapstructure:"fill_dead_ends" json:"fill_dead_ends"`
	// Samples maps each shape to run ("3x3") to its number of samples.
	Samples map[string]int64 `mapstructure:"samples" json:"samples"`
}

// DefaultConfig is the configuration without a config file.
func DefaultConfig() *Config {
	return &Config{BlockSize: 1000, FillDeadEnds: true, Samples: map[string]int64{"2x2": 100000, "2x3": 100000, "3x3": 100000}}
}

// Validate checks every key.
func (c *Config) Validate() error {
	if err := sampling.CheckBlocks("importance", c.BlockSize, c.Samples); err != nil {
		return err
	}
	if err := sampling.CheckSamples("importance.samples", c.Samples, nil); err != nil {
		return err
	}
	// Shape keys go to sampling.MaxSide for the knuth stage's stack
	// estimators; Ridder's sampler is not for sides beyond the text form.
	for _, s := range sampling.Shapes(c.Samples) {
		if s.N() > grid.MaxTextN {
			return pipeline.Invalid("importance.samples."+s.String(), c.Samples[s.String()], fmt.Sprintf(
				"shapes with R·C ≤ %d: box %d×%d (N = %d) runs only with the knuth stage's stack estimators", grid.MaxTextN, s.R, s.C, s.N()))
		}
	}
	return nil
}

// estimator is the stage's Units and Run: package sampling's, with the
// sampler of package ridder.
var estimator = &sampling.Estimator[SummaryRow]{
	Plan: func(p *pipeline.Pass) sampling.Plan {
		cfg := pipeline.ConfigOf[Config](p)
		return sampling.Plan{Stage: "importance", BlockSize: cfg.BlockSize, Samples: cfg.Samples, Variants: []string{variant}}
	},
	NewSampler: func(p *pipeline.Pass, shape grid.Shape, _ string) (montecarlo.Sampler, error) {
		return ridder.NewSampler(shape, pipeline.ConfigOf[Config](p).FillDeadEnds)
	},
	Row: func(p *pipeline.Pass, shape grid.Shape, _ string, res montecarlo.Result, relvar montecarlo.RelVarInterval, tm sampling.Timing) SummaryRow {
		ms := ridder.MeasuresOf(res.Total, shape)
		m := res.Total
		withCompletion := ridder.WorkWithCompletion(shape, m.N, m.Nonzero, m.Work, pipeline.ConfigOf[Config](p).FillDeadEnds)
		if tm.Samples > 0 {
			// Ridder's EFF with CPU seconds per sample as cost, from the
			// units this process computed: run report only (package
			// sampling reports the CPU seconds per sample and the
			// efficiency 1/(relvar × CPU seconds per sample) beside it).
			cpuPerSample := tm.CPU.Seconds() / float64(tm.Samples)
			logEffCPU := ms.Log10EFF + math.Log10(res.Total.Stats().WorkPerSample) - math.Log10(cpuPerSample)
			if !math.IsNaN(logEffCPU) && !math.IsInf(logEffCPU, 0) {
				p.Report(shape.String()+"/"+variant+".log10_eff_cpu", logEffCPU)
			}
		}
		return SummaryRow{
			Shape: shape.String(), Variant: variant, Log10Population: ms.Log10Population,
			Columns: sampling.ColumnsOf(res), RelVarColumns: sampling.RelVarColumnsOf(relvar),
			Log10Probability: ms.Log10Probability, RAT: ms.RAT,
			EFF: math.Pow(10, ms.Log10EFF), Log10EFF: ms.Log10EFF,
			WorkWithCompletion:     withCompletion,
			Log10EFFWithCompletion: ms.Log10EFFWith(float64(withCompletion) / float64(m.N)),
		}
	},
	Summary: Summary,
	Key:     func(r SummaryRow) (string, string, sampling.Columns) { return r.Shape, r.Variant, r.Columns },
	Trace:   Trace,
}
