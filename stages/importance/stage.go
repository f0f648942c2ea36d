// Package importance is the stage that estimates the number of Sudoku grids
// by Ridder's importance sampling (reference 002): the population Ω of
// n-permutation grids, |Ω| = (n!)^n, the change of measure q of Sampler and
// the estimator |Ω|·1{X∈A}·L(X), with Ridder's performance measures.
//
// With γ = 1{X∈A}·L(X), the one-sample estimator of u(A) = |A|/|Ω|:
//
//	RE  = std error / estimate (of the n-sample mean, as for every stage);
//	RAT = log E[γ²] / log E[γ], estimated by the sample mean of γ² and γ:
//	      1 for crude Monte Carlo (γ² = γ), at most 2, and near 2 for an
//	      efficient (logarithmically optimal) estimator;
//	EFF = 1 / (Var[γ̄_n] · cost(γ̄_n)) = 1 / (σ²_γ · cost per sample), which
//	      does not depend on n. The artifact uses the deterministic work
//	      (cells visited per sample) as cost; the run report also gives
//	      eff_cpu with CPU seconds per sample, which varies between runs.
package importance

import (
	"math"
	"slices"
	"strings"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/grid"
	"github.com/sudoku-census/sudoku-census/stages/montecarlo"
)

// Stage is the importance stage.
var Stage = &pipeline.Stage{
	Name:      "importance",
	Doc:       "Ridder's importance-sampling estimates of the number of grids per shape",
	Version:   1,
	NewConfig: func() pipeline.Config { return DefaultConfig() },
	Globals:   []string{"seed"},
	Outputs:   []pipeline.Output{Summary.Output, Trace.Output},
	Run:       run,
}

// Summary is data/importance.parquet.
var Summary = pipeline.NewTable[SummaryRow]("importance", "one row per shape: importance-sampling estimate, RE, RAT, EFF")

// Trace is data/importance_trace.parquet.
var Trace = pipeline.NewTable[montecarlo.TraceRow]("importance_trace", "running estimate per shape at log-spaced sample counts")

// variant is the name of the one estimator, in rows and random streams.
const variant = "ridder"

// SummaryRow is one shape's run.
type SummaryRow struct {
	Shape           string  `parquet:"shape"`
	Variant         string  `parquet:"variant"`
	Log10Population float64 `parquet:"log10_population"` // log10 |Ω| = n·log10 n!
	montecarlo.Columns
	Log10Probability float64 `parquet:"log10_probability"` // log10 of the estimate of u(A) = |A|/|Ω|
	RAT              float64 `parquet:"rat"`               // log E[γ²] / log E[γ]; NaN if no sample hit A
	EFF              float64 `parquet:"eff"`               // 1/(σ²_γ · work per sample); +Inf beyond float64
	Log10EFF         float64 `parquet:"log10_eff"`
}

// Config is the stage's configuration (keys under "importance.").
type Config struct {
	// BlockSize is the number of samples per block.
	BlockSize int `mapstructure:"block_size" json:"block_size"`
	// FillDeadEnds completes X uniformly after a dead end, as the paper
	// does; false skips it (same estimates, less work, other streams).
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
	if c.BlockSize < 1 {
		return pipeline.Invalid("importance.block_size", c.BlockSize, "an integer ≥ 1")
	}
	if len(c.Samples) == 0 {
		return pipeline.Invalid("importance.samples", c.Samples, "a map from box shape RxC to a sample count ≥ 1")
	}
	for key, n := range c.Samples {
		if _, err := grid.ParseShape(key); err != nil || strings.TrimSpace(key) != key {
			return pipeline.Invalid("importance.samples."+key, n, "keys are box shapes RxC with R·C ≤ 36")
		}
		if n < 1 {
			return pipeline.Invalid("importance.samples."+key, n, "an integer ≥ 1")
		}
	}
	return nil
}

// shapes returns the configured shapes, smallest grid first.
func (c *Config) shapes() []grid.Shape {
	var out []grid.Shape
	for key := range c.Samples {
		s, _ := grid.ParseShape(key)
		out = append(out, s)
	}
	slices.SortFunc(out, func(a, b grid.Shape) int {
		if a.N() != b.N() {
			return a.N() - b.N()
		}
		return a.R - b.R
	})
	return out
}

// Measures are Ridder's performance measures of a run.
type Measures struct {
	Log10Population, Log10Probability float64
	RAT                               float64
	Log10EFF                          float64 // with the deterministic work as cost
}

// MeasuresOf computes the measures of moments m of the count estimator
// Y = |Ω|·γ on shape s; γ's moments are Y's divided by |Ω| and |Ω|².
func MeasuresOf(m montecarlo.Moments, s grid.Shape) Measures {
	lp := montecarlo.ValueOfInt(Population(s)).Log10()
	st := m.Stats()
	logMean := m.Log10Estimate() - lp
	logMeanSq := m.Log10MeanSquare() - 2*lp
	// σ²_γ = relvar · E[γ]²
	logVar := math.Log10(st.RelVar) + 2*logMean
	return Measures{
		Log10Population:  lp,
		Log10Probability: logMean,
		RAT:              logMeanSq / logMean,
		Log10EFF:         -(logVar + math.Log10(st.WorkPerSample)),
	}
}

func run(p *pipeline.Pass) error {
	cfg := pipeline.ConfigOf[Config](p)
	var summary []SummaryRow
	var trace []montecarlo.TraceRow
	for _, shape := range cfg.shapes() {
		if _, err := NewSampler(shape, cfg.FillDeadEnds); err != nil {
			return err
		}
		spec := montecarlo.Spec{Seed: p.Seed, Stage: "importance", Shape: shape.String(), Variant: variant, BlockSize: cfg.BlockSize}
		samples := cfg.Samples[shape.String()]
		res, tm, err := montecarlo.Execute(p, spec, samples, func() montecarlo.Sampler {
			s, _ := NewSampler(shape, cfg.FillDeadEnds)
			return s
		})
		if err != nil {
			return err
		}
		ms := MeasuresOf(res.Total, shape)
		// EFF with CPU seconds per sample as cost: run report only.
		cpuPerSample := tm.CPU.Seconds() / float64(samples)
		logEffCPU := ms.Log10EFF + math.Log10(res.Total.Stats().WorkPerSample) - math.Log10(cpuPerSample)
		p.Report(shape.String()+"/"+variant+".log10_eff_cpu", logEffCPU)
		p.Report(shape.String()+"/"+variant+".cpu_seconds_per_sample", cpuPerSample)
		summary = append(summary, SummaryRow{
			Shape: shape.String(), Variant: variant, Log10Population: ms.Log10Population,
			Columns:          montecarlo.ColumnsOf(res.Total),
			Log10Probability: ms.Log10Probability, RAT: ms.RAT,
			EFF: math.Pow(10, ms.Log10EFF), Log10EFF: ms.Log10EFF,
		})
		trace = append(trace, montecarlo.TraceRows(shape.String(), variant, res.Trace)...)
	}
	if err := Summary.Write(p, summary); err != nil {
		return err
	}
	return Trace.Write(p, trace)
}
