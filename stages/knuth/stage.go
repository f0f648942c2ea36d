package knuth

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
	"github.com/sudoku-census/sudoku-census/stages/maths/montecarlo"
	"github.com/sudoku-census/sudoku-census/stages/maths/walks"
	"github.com/sudoku-census/sudoku-census/stages/shared/longruns"
	"github.com/sudoku-census/sudoku-census/stages/shared/sampling"
)

// Stage is the knuth stage.
var Stage = &pipeline.Stage{
	Name:      "knuth",
	Doc:       "Knuth random-walk estimates of the number of grids per shape and variant",
	Version:   14,
	NewConfig: func() pipeline.Config { return DefaultConfig() },
	Globals:   []string{"seed"},
	Outputs:   []pipeline.Output{Summary.Output, Trace.Output, Coverage.Output, LongSummary.Output},
	Headlines: headlines,
	// A unit is a run of blocks of one shape and variant (see package
	// sampling), then the long runs' units (longruns.Unit), which the bundle
	// keeps. The coverage runs are drawn in Run.
	Units: &pipeline.Units{
		List: func(p *pipeline.Pass) ([]string, error) {
			ids, err := estimator.List(p)
			if err != nil {
				return nil, err
			}
			long, err := listLong(p)
			return append(ids, long...), err
		},
		Compute: func(p *pipeline.Pass, id string) ([]byte, error) {
			if longruns.IsUnit(id) {
				return longruns.Compute(p.Context(), id)
			}
			return estimator.Compute(p, id)
		},
		Bundle: longruns.Bundle,
	},
	Run: func(p *pipeline.Pass) error {
		results, err := p.UnitResults()
		if err != nil {
			return err
		}
		ids := p.UnitIDs()
		k := slices.IndexFunc(ids, longruns.IsUnit)
		if k < 0 {
			k = len(ids)
		}
		if err := estimator.RunUnits(p, ids[:k], results[:k]); err != nil {
			return err
		}
		longCoverage, err := runLong(p, ids[k:], results[k:])
		if err != nil {
			return err
		}
		return runCoverage(p, longCoverage)
	},
}

// headlines are the default runs' numbers, then the long runs' (named
// "<shape>/<variant> long …").
func headlines(root string) ([]pipeline.Headline, error) {
	out, err := estimator.Headlines(root)
	if err != nil {
		return out, err
	}
	rows, err := LongSummary.Load(root)
	for _, r := range rows {
		out = append(out, sampling.Headlines(r.Shape, r.Variant+" long", r.Columns)...)
	}
	return out, err
}

// Summary is data/knuth.parquet.
var Summary = pipeline.NewTable[SummaryRow]("knuth", "one row per shape and variant: Knuth estimate, error and cost")

// Trace is data/knuth_trace.parquet.
var Trace = pipeline.NewTable[sampling.TraceRow]("knuth_trace", "running estimate per shape and variant at log-spaced sample counts")

// SummaryRow is one estimator run.
type SummaryRow struct {
	Shape   string  `parquet:"shape"`
	Variant string  `parquet:"variant"`
	Order   string  `parquet:"order"`    // cell order of the walk
	HybridK int32   `parquet:"hybrid_k"` // cells the walk fills (N² for plain walks)
	Budget  int32   `parquet:"budget"`   // partial grids kept per level (1 for walks: Knuth's is se with budget 1)
	Alpha   float64 `parquet:"alpha"`    // look-ahead exponent (0 but for lookahead)
	sampling.Columns
	sampling.RelVarColumns
}

// Config is the stage's configuration (keys under "knuth.").
type Config struct {
	// BlockSize is the number of samples per block (the unit of parallel
	// and distributed work; part of the random streams' identity), 1 to
	// montecarlo.MaxBlockSize; no shape and variant may need more than
	// montecarlo.MaxBlocks blocks (sampling.CheckBlocks).
	BlockSize int `mapstructure:"block_size" json:"block_size"`
	// Variants are the estimators run on every shape.
	Variants []string `mapstructure:"variants" json:"variants"`
	// HybridOrder is the cell order of the hybrid's walk.
	HybridOrder string `mapstructure:"hybrid_order" json:"hybrid_order"`
	// Samples maps a shape ("3x3") to its samples per variant; a key
	// "3x3/mrv" overrides it for one variant.
	Samples map[string]int64 `mapstructure:"samples" json:"samples"`
	// By shape: the hybrid walk's cells, stackshybrid's exact columns and draws.
	HybridK     map[string]int `mapstructure:"hybrid_k" json:"hybrid_k"`
	StacksExact map[string]int `mapstructure:"stacks_exact" json:"stacks_exact,omitempty"`
	StacksDraws map[string]int `mapstructure:"stacks_draws" json:"stacks_draws,omitempty"`
	// SEOrder is the search order of stochastic enumeration (mrv or cover).
	SEOrder string `mapstructure:"se_order" json:"se_order"`
	// SEBudget maps a shape to the partial grids se and lookahead keep a level.
	SEBudget map[string]int `mapstructure:"se_budget" json:"se_budget"`
	// LookaheadAlpha is the exponent α of the look-ahead scores
	// (walks.Lookahead): 0 keeps children uniformly (forward checking).
	LookaheadAlpha float64 `mapstructure:"lookahead_alpha" json:"lookahead_alpha"`
	// CoverageRuns is the number of independent short runs per shape and
	// variant of CoverageSamples (knuth_coverage.parquet; 0: none).
	CoverageRuns int `mapstructure:"coverage_runs" json:"coverage_runs"`
	// CoverageSamples maps RxC (or RxC/variant) to a coverage run's samples.
	CoverageSamples map[string]int64 `mapstructure:"coverage_samples" json:"coverage_samples"`
	// Goals maps a shape to the relative 95% half-width whose time the run
	// report projects (sampling.Projection; others sampling.DefaultGoal).
	Goals map[string]float64 `mapstructure:"goals" json:"goals"`
	// Long maps RxC/variant to the samples of a long run of that variant
	// (data/knuth_long.parquet), whose units the committed bundle keeps
	// (longruns.Unit); 0 or a multiple of the unit's samples.
	Long map[string]int64 `mapstructure:"long" json:"long"`
	// MaxCPUHours is the largest projected cost, in CPU-hours, of the long
	// runs' units the bundle lacks: beyond it the stage refuses to start.
	MaxCPUHours float64 `mapstructure:"max_cpu_hours" json:"max_cpu_hours"`
	// LongSeed is the seed of the long runs' streams (the s of their unit
	// ids), apart from the global seed so that a new seed reruns the
	// default runs in seconds without asking for the long runs' CPU-hours.
	LongSeed uint64 `mapstructure:"long_seed" json:"long_seed"`
	// LongCoverage maps a long run's key to the samples of each run of a
	// coverage study cut from its blocks (knuth_coverage.parquet, column
	// long): coverage at a headline run's size, no sample drawn twice.
	LongCoverage map[string]int64 `mapstructure:"long_coverage" json:"long_coverage"`
	// LongBlockSize maps a long run's key to its samples per block, for
	// slices smaller than a unit of knuth.block_size.
	LongBlockSize map[string]int `mapstructure:"long_block_size" json:"long_block_size,omitempty"`
}

// DefaultConfig is the configuration without a config file.
func DefaultConfig() *Config {
	return &Config{
		BlockSize:      1000,
		Variants:       []string{"rowmajor", "random", "mrv", "cover", "hybrid", "se", "lookahead", "bandmrv", "bandse", "bandmrvlast", "bandselast"},
		HybridOrder:    "cover",
		Samples:        map[string]int64{"2x2": 100000, "2x3": 100000, "3x3": 100000, "3x3/se": 10000},
		HybridK:        map[string]int{"2x2": 8, "2x3": 20, "3x3": 60},
		SEOrder:        "mrv",
		SEBudget:       map[string]int{"2x2": 10, "2x3": 10, "3x3": 30},
		LookaheadAlpha: 0.25,
		MaxCPUHours:    1,
		LongSeed:       1,
	}
}

// maxCoverageRuns bounds coverage_runs.
const maxCoverageRuns = 100000

// maxCoverageSamples bounds the samples of one coverage run (a block).
const maxCoverageSamples = 100000000

// Validate checks every key.
func (c *Config) Validate() error {
	if err := sampling.CheckBlocks("knuth", c.BlockSize, c.Samples); err != nil {
		return err
	}
	if len(c.Variants) == 0 {
		return pipeline.Invalid("knuth.variants", c.Variants, "a non-empty list of "+strings.Join(longruns.Names, ", "))
	}
	for i, v := range c.Variants {
		if !slices.Contains(longruns.Names, v) || slices.Contains(c.Variants[:i], v) {
			return pipeline.Invalid("knuth.variants", c.Variants, "distinct names among "+strings.Join(longruns.Names, ", "))
		}
	}
	if _, err := walks.ParseOrder(c.HybridOrder); err != nil {
		return pipeline.Invalid("knuth.hybrid_order", c.HybridOrder, "one of rowmajor, random, mrv, cover")
	}
	if err := sampling.CheckSamples("knuth.samples", c.Samples, longruns.Names); err != nil {
		return err
	}
	if len(sampling.Runs(c.Samples, c.Variants)) == 0 {
		return pipeline.Invalid("knuth.samples", c.Samples, "at least one shape and listed variant with a sample count ≥ 1")
	}
	if c.CoverageRuns < 0 || c.CoverageRuns > maxCoverageRuns {
		return pipeline.Invalid("knuth.coverage_runs", c.CoverageRuns, fmt.Sprintf("an integer in [0, %d]", maxCoverageRuns))
	}
	runs := sampling.Runs(c.Samples, c.Variants)
	if c.CoverageRuns > 0 {
		if err := sampling.CheckSamples("knuth.coverage_samples", c.CoverageSamples, longruns.Names); err != nil {
			return err
		}
		for _, r := range sampling.Runs(c.CoverageSamples, c.Variants) {
			if n := sampling.Count(c.CoverageSamples, r.Shape, r.Variant); n > maxCoverageSamples {
				return pipeline.Invalid("knuth.coverage_samples."+r.Shape.String(), n, fmt.Sprintf("at most %d samples per coverage run", maxCoverageSamples))
			}
			runs = append(runs, r)
		}
	}
	long, err := longruns.CheckConfig(c.Long, c.LongCoverage, c.LongBlockSize, c.StacksDraws, c.BlockSize, c.MaxCPUHours)
	if err != nil {
		return err
	}
	runs = append(runs, long...)
	if err := sampling.CheckShapeKeys("knuth.hybrid_k", c.HybridK); err != nil {
		return err
	}
	if err := sampling.CheckShapeKeys("knuth.se_budget", c.SEBudget); err != nil {
		return err
	}
	if err := sampling.CheckShapeKeys("knuth.goals", c.Goals); err != nil {
		return err
	}
	for _, key := range slices.Sorted(maps.Keys(c.Goals)) {
		if g := c.Goals[key]; !(g > 0 && g < 1) {
			return pipeline.Invalid("knuth.goals."+key, g, "a relative half-width in (0, 1), such as 0.01 for ±1%")
		}
	}
	uses := func(v string) bool {
		return slices.Contains(c.Variants, v) || slices.ContainsFunc(long, func(r sampling.Run) bool { return r.Variant == v })
	}
	return c.params().Check(runs, uses, func(r sampling.Run) (string, int64) {
		if n := sampling.Count(c.Samples, r.Shape, r.Variant); n != 0 {
			return "knuth.samples", n
		}
		return "knuth.coverage_samples", sampling.Count(c.CoverageSamples, r.Shape, r.Variant)
	})
}

// params are the variants' parameters.
func (c *Config) params() longruns.Params {
	return longruns.Params{HybridOrder: c.HybridOrder, SEOrder: c.SEOrder, HybridK: c.HybridK, SEBudget: c.SEBudget, Alpha: c.LookaheadAlpha, StacksExact: c.StacksExact, StacksDraws: c.StacksDraws}
}

// variant returns the named variant on shape s.
func (c *Config) variant(name string, s grid.Shape) walks.Variant { return c.params().Variant(name, s) }

// estimator is the stage's Units and Run: package sampling's, with the
// walks of package walks.
var estimator = &sampling.Estimator[SummaryRow]{
	Plan: func(p *pipeline.Pass) sampling.Plan {
		cfg := pipeline.ConfigOf[Config](p)
		return sampling.Plan{Stage: "knuth", BlockSize: cfg.BlockSize, Samples: cfg.Samples, Variants: cfg.Variants, Goals: cfg.Goals}
	},
	NewSampler: func(p *pipeline.Pass, shape grid.Shape, name string) (montecarlo.Sampler, error) {
		return walks.NewSampler(p.Context(), shape, pipeline.ConfigOf[Config](p).variant(name, shape))
	},
	Row: func(p *pipeline.Pass, shape grid.Shape, name string, res montecarlo.Result, relvar montecarlo.RelVarInterval, _ sampling.Timing) SummaryRow {
		v := pipeline.ConfigOf[Config](p).variant(name, shape)
		return SummaryRow{
			Shape: shape.String(), Variant: longruns.Label(v), Order: v.Order.String(), HybridK: int32(v.HybridK),
			Budget: int32(max(1, v.Budget)), Alpha: v.Alpha,
			Columns: sampling.ColumnsOf(res), RelVarColumns: sampling.RelVarColumnsOf(relvar),
		}
	},
	Summary: Summary,
	Key:     func(r SummaryRow) (string, string, sampling.Columns) { return r.Shape, r.Variant, r.Columns },
	Trace:   Trace,
}
