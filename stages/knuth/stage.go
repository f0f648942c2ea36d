// Package knuth is the stage that estimates the number of Sudoku grids of
// each box shape with Knuth's random-walk estimator (Knuth 1975, applied to
// Sudoku in the blog post of reference 001): fill cells one by one, each
// with a symbol drawn uniformly from those its row, column and box still
// allow; the sample is the product of the numbers of choices, or 0 when a
// cell has none. Variants differ in the order of the walk (rowmajor, random,
// mrv, cover: see Order); the hybrid stops the walk after hybrid_k
// placements and counts the completions exactly with grid.Counter; se
// (stochastic enumeration, see Enumerator) carries up to se_budget partial
// grids down the tree at once.
package knuth

import (
	"fmt"
	"slices"
	"strings"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/grid"
	"github.com/sudoku-census/sudoku-census/stages/montecarlo"
)

// Stage is the knuth stage.
var Stage = &pipeline.Stage{
	Name:      "knuth",
	Doc:       "Knuth random-walk estimates of the number of grids per shape and variant",
	Version:   2,
	NewConfig: func() pipeline.Config { return DefaultConfig() },
	Globals:   []string{"seed"},
	Outputs:   []pipeline.Output{Summary.Output, Trace.Output},
	Run:       run,
}

// Summary is data/knuth.parquet.
var Summary = pipeline.NewTable[SummaryRow]("knuth", "one row per shape and variant: Knuth estimate, error and cost")

// Trace is data/knuth_trace.parquet.
var Trace = pipeline.NewTable[montecarlo.TraceRow]("knuth_trace", "running estimate per shape and variant at log-spaced sample counts")

// SummaryRow is one estimator run.
type SummaryRow struct {
	Shape   string `parquet:"shape"`
	Variant string `parquet:"variant"`
	Order   string `parquet:"order"`    // cell order of the walk
	HybridK int32  `parquet:"hybrid_k"` // cells the walk fills (N² for plain walks)
	Budget  int32  `parquet:"budget"`   // partial grids kept per level (1 for walks: Knuth's is se with budget 1)
	montecarlo.Columns
}

// Config is the stage's configuration (keys under "knuth.").
type Config struct {
	// BlockSize is the number of samples per block (the unit of parallel
	// and distributed work; part of the random streams' identity).
	BlockSize int `mapstructure:"block_size" json:"block_size"`
	// Variants are the estimators run on every shape.
	Variants []string `mapstructure:"variants" json:"variants"`
	// HybridOrder is the cell order of the hybrid's walk.
	HybridOrder string `mapstructure:"hybrid_order" json:"hybrid_order"`
	// Samples maps a shape ("3x3") to its number of samples per variant;
	// a key "3x3/mrv" overrides it for one variant. The shapes run are the
	// keys without "/".
	Samples map[string]int64 `mapstructure:"samples" json:"samples"`
	// HybridK maps a shape to the number of cells the hybrid walk fills.
	HybridK map[string]int `mapstructure:"hybrid_k" json:"hybrid_k"`
	// SEOrder is the search order of stochastic enumeration (mrv or cover).
	SEOrder string `mapstructure:"se_order" json:"se_order"`
	// SEBudget maps a shape to the number of partial grids se keeps per level.
	SEBudget map[string]int `mapstructure:"se_budget" json:"se_budget"`
}

// DefaultConfig is the configuration without a config file.
func DefaultConfig() *Config {
	return &Config{
		BlockSize:   1000,
		Variants:    []string{"rowmajor", "random", "mrv", "cover", "hybrid", "se"},
		HybridOrder: "cover",
		Samples:     map[string]int64{"2x2": 100000, "2x3": 100000, "3x3": 100000, "3x3/se": 10000},
		HybridK:     map[string]int{"2x2": 8, "2x3": 20, "3x3": 60},
		SEOrder:     "mrv",
		SEBudget:    map[string]int{"2x2": 10, "2x3": 10, "3x3": 30},
	}
}

var variantNames = []string{"rowmajor", "random", "mrv", "cover", "hybrid", "se"}

// maxBudget bounds se_budget: each kept partial grid holds a few KiB of
// bookkeeping per worker.
const maxBudget = 10000

// Validate checks every key.
func (c *Config) Validate() error {
	if c.BlockSize < 1 {
		return pipeline.Invalid("knuth.block_size", c.BlockSize, "an integer ≥ 1")
	}
	if len(c.Variants) == 0 {
		return pipeline.Invalid("knuth.variants", c.Variants, "a non-empty list of "+strings.Join(variantNames, ", "))
	}
	for i, v := range c.Variants {
		if !slices.Contains(variantNames, v) || slices.Contains(c.Variants[:i], v) {
			return pipeline.Invalid("knuth.variants", c.Variants, "distinct names among "+strings.Join(variantNames, ", "))
		}
	}
	if _, err := ParseOrder(c.HybridOrder); err != nil {
		return pipeline.Invalid("knuth.hybrid_order", c.HybridOrder, "one of rowmajor, random, mrv, cover")
	}
	if len(c.Samples) == 0 {
		return pipeline.Invalid("knuth.samples", c.Samples, "a map from shape RxC (or RxC/variant) to a sample count ≥ 1")
	}
	for key, n := range c.Samples {
		shape, variant, per := strings.Cut(key, "/")
		if _, err := grid.ParseShape(shape); err != nil || strings.TrimSpace(shape) != shape {
			return pipeline.Invalid("knuth.samples."+key, n, "keys are box shapes RxC with R·C ≤ 36, optionally /variant")
		}
		if per {
			if _, ok := c.Samples[shape]; !ok || !slices.Contains(c.Variants, variant) {
				return pipeline.Invalid("knuth.samples."+key, n, "a RxC/variant key needs the shape key RxC and a variant listed in knuth.variants")
			}
		}
		if n < 1 {
			return pipeline.Invalid("knuth.samples."+key, n, "an integer ≥ 1")
		}
	}
	if slices.Contains(c.Variants, "hybrid") {
		for _, s := range c.shapes() {
			k, ok := c.HybridK[s.String()]
			if !ok || k < 0 || k > s.N()*s.N() {
				return pipeline.Invalid("knuth.hybrid_k."+s.String(), k, fmt.Sprintf("an integer in [0, %d] for every shape in knuth.samples", s.N()*s.N()))
			}
		}
	}
	if slices.Contains(c.Variants, "se") {
		if o, err := ParseOrder(c.SEOrder); err != nil || (o != MRV && o != Cover) {
			return pipeline.Invalid("knuth.se_order", c.SEOrder, "mrv or cover")
		}
		for _, s := range c.shapes() {
			b, ok := c.SEBudget[s.String()]
			if !ok || b < 1 || b > maxBudget {
				return pipeline.Invalid("knuth.se_budget."+s.String(), b, fmt.Sprintf("an integer in [1, %d] for every shape in knuth.samples", maxBudget))
			}
		}
	}
	return nil
}

// shapes returns the shapes of the samples keys, smallest grid first.
func (c *Config) shapes() []grid.Shape {
	var out []grid.Shape
	for key := range c.Samples {
		if !strings.Contains(key, "/") {
			s, _ := grid.ParseShape(key)
			out = append(out, s)
		}
	}
	slices.SortFunc(out, func(a, b grid.Shape) int {
		if a.N() != b.N() {
			return a.N() - b.N()
		}
		return a.R - b.R
	})
	return out
}

// variant returns the named variant on shape s.
func (c *Config) variant(name string, s grid.Shape) Variant {
	cells := s.N() * s.N()
	if name == "se" {
		o, _ := ParseOrder(c.SEOrder)
		return Variant{Name: name, Order: o, HybridK: cells, Budget: c.SEBudget[s.String()]}
	}
	if name == "hybrid" {
		o, _ := ParseOrder(c.HybridOrder)
		return Variant{Name: name, Order: o, HybridK: c.HybridK[s.String()], Hybrid: true}
	}
	o, _ := ParseOrder(name)
	return Variant{Name: name, Order: o, HybridK: cells}
}

// samples is the number of samples of variant name on shape s.
func (c *Config) samples(name string, s grid.Shape) int64 {
	if n, ok := c.Samples[s.String()+"/"+name]; ok {
		return n
	}
	return c.Samples[s.String()]
}

func run(p *pipeline.Pass) error {
	cfg := pipeline.ConfigOf[Config](p)
	var summary []SummaryRow
	var trace []montecarlo.TraceRow
	for _, shape := range cfg.shapes() {
		for _, name := range cfg.Variants {
			v := cfg.variant(name, shape)
			spec := montecarlo.Spec{Seed: p.Seed, Stage: "knuth", Shape: shape.String(), Variant: name, BlockSize: cfg.BlockSize}
			if _, err := NewSampler(shape, v); err != nil {
				return err
			}
			res, _, err := montecarlo.Execute(p, spec, cfg.samples(name, shape), func() montecarlo.Sampler {
				s, _ := NewSampler(shape, v)
				return s
			})
			if err != nil {
				return err
			}
			summary = append(summary, SummaryRow{
				Shape: shape.String(), Variant: name, Order: v.Order.String(), HybridK: int32(v.HybridK),
				Budget:  int32(max(1, v.Budget)),
				Columns: montecarlo.ColumnsOf(res.Total),
			})
			trace = append(trace, montecarlo.TraceRows(shape.String(), name, res.Trace)...)
		}
	}
	if err := Summary.Write(p, summary); err != nil {
		return err
	}
	return Trace.Write(p, trace)
}
