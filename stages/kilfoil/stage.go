package kilfoil

import (
	"context"
	"fmt"
	"math/big"
	"time"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/maths/decimal"
	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
	"github.com/sudoku-census/sudoku-census/stages/maths/heuristic"
	"github.com/sudoku-census/sudoku-census/stages/maths/parallel"
)

// Stage computes Kilfoil's estimate for every configured box shape.
var Stage = &pipeline.Stage{
	Name:      "kilfoil",
	Doc:       "Kilfoil's heuristic estimate b(R,C)^C·b(C,R)^R/(N!)^N from exact band counts, as an exact fraction",
	Version:   3,
	NewConfig: func() pipeline.Config { return &Config{Shapes: DefaultShapes, Digits: 40, Sampled: map[string]int64{}} },
	Globals:   []string{"seed"},
	Outputs:   []pipeline.Output{Estimates.Output, SampledEstimates.Output},
	Headlines: headlines,
	Run:       run,
}

// DefaultShapes are the shapes of configs/default.yaml: every shape with
// sides up to 5 and N from 4 to 25 except the Latin-square ones, and the
// 12×12 shapes 2x6 and 6x2.
var DefaultShapes = []string{"2x2", "2x3", "3x2", "2x4", "4x2", "3x3", "2x5", "5x2", "3x4", "4x3", "2x6", "6x2", "4x4", "3x5", "5x3", "4x5", "5x4", "5x5"}

// Estimates is data/kilfoil.parquet: one row per configured shape, in the
// order of kilfoil.shapes.
var Estimates = pipeline.NewTable[Row]("kilfoil", "one row per box shape: exact band and stack counts and Kilfoil's estimate")

// Row is one shape's estimate. Exact integers and the fraction are decimal
// strings, since they outgrow every fixed-width integer type.
type Row struct {
	Rows int64 `parquet:"rows"` // R, rows of a box
	Cols int64 `parquet:"cols"` // C, columns of a box
	// BandCount is b(R,C), StackCount is b(C,R).
	BandCount  string `parquet:"band_count"`
	StackCount string `parquet:"stack_count"`
	// BandCompletions is M(R,C), StackCompletions is M(C,R).
	BandCompletions  string `parquet:"band_completions"`
	StackCompletions string `parquet:"stack_completions"`
	// EstimateNum/EstimateDen is the estimate in lowest terms.
	EstimateNum string `parquet:"estimate_num"`
	EstimateDen string `parquet:"estimate_den"`
	// Estimate is the exact decimal expansion when EstimateExact, otherwise
	// kilfoil.digits significant digits in scientific notation, rounded to
	// nearest.
	Estimate      string  `parquet:"estimate"`
	EstimateExact bool    `parquet:"estimate_exact"`
	Log10Estimate float64 `parquet:"log10_estimate"`
}

// Config is the kilfoil subtree.
type Config struct {
	// Shapes are the box shapes "RxC" to estimate.
	Shapes []string `mapstructure:"shapes" json:"shapes"`
	// Digits is the number of significant digits of an estimate whose
	// decimal expansion does not terminate.
	Digits int `mapstructure:"digits" json:"digits"`
	// Sampled maps the shapes "RxC" whose band or stack completions the
	// programme cannot count (heuristic.Countable) to the samples of
	// their estimate (kilfoil_sampled.parquet).
	Sampled map[string]int64 `mapstructure:"sampled" json:"sampled"`
}

// MaxDigits bounds kilfoil.digits.
const MaxDigits = 1000

// Validate checks every shape and the digit count.
func (c *Config) Validate() error {
	if len(c.Shapes) == 0 {
		return pipeline.Invalid("kilfoil.shapes", "[]", "a non-empty list of box shapes RxC")
	}
	if _, err := parseShapes(c.Shapes); err != nil {
		return err
	}
	if c.Digits < 1 || c.Digits > MaxDigits {
		return pipeline.Invalid("kilfoil.digits", c.Digits, fmt.Sprintf("an integer from 1 to %d", MaxDigits))
	}
	_, err := parseSampled(c.Sampled)
	return err
}

// MaxSide is the largest grid side R·C of kilfoil.shapes, whose band
// counts are exact. The band counter goes to 36, but a shape needs the
// bands of both R×C and C×R, and beyond 25 one of them has 6 rows: M(6,5)
// ran past 5 CPU-minutes and 3 GB without finishing, and meeting halfway
// (package heuristic) still needs every state of its third level, 2.3·10^8
// of them, while M(5,6) takes 19 CPU-seconds; so 30×30 and 36×36 are in
// kilfoil.sampled, their six-row bands' M estimated.
const MaxSide = 25

// parseShapes reads the configured shapes, each of sides 1..heuristic.MaxSide
// and grid side R·C at most MaxSide, and listed once.
func parseShapes(texts []string) ([]grid.Shape, error) {
	allowed := fmt.Sprintf("box shapes RxC with 1 ≤ R, C ≤ %d and R·C ≤ %d, each listed once", heuristic.MaxSide, MaxSide)
	var shapes []grid.Shape
	seen := map[grid.Shape]bool{}
	for _, text := range texts {
		s, err := grid.ParseShape(text)
		if err != nil || s.R > heuristic.MaxSide || s.C > heuristic.MaxSide || s.N() > MaxSide || seen[s] {
			return nil, pipeline.Invalid("kilfoil.shapes", text, allowed)
		}
		seen[s] = true
		shapes = append(shapes, s)
	}
	return shapes, nil
}

func run(p *pipeline.Pass) error {
	cfg := pipeline.ConfigOf[Config](p)
	shapes, err := parseShapes(cfg.Shapes)
	if err != nil {
		return err
	}
	// M(R,C) is shared by shape R×C's bands and shape C×R's stacks.
	completions := map[grid.Shape]*big.Int{}
	completionsOf := func(s grid.Shape) (*big.Int, error) {
		if m, ok := completions[s]; ok {
			return m, nil
		}
		start := time.Now()
		// The programme takes no context and M(5,6) takes 12–20 s: count
		// aside, so that Ctrl-C stops the stage at once (the process then
		// exits, the count with it).
		type result struct {
			m   *big.Int
			err error
		}
		done := make(chan result, 1)
		go func() {
			var r result
			defer func() { done <- r }()
			defer parallel.Recover(&r.err) // a panic becomes the stage's error
			r.m, r.err = heuristic.BandCompletions(s)
		}()
		var m *big.Int
		select {
		case <-p.Context().Done():
			return nil, context.Cause(p.Context())
		case r := <-done:
			if r.err != nil {
				return nil, r.err
			}
			m = r.m
		}
		p.Report("band_seconds_"+s.String(), time.Since(start).Seconds())
		completions[s] = m
		return m, nil
	}
	prog := p.Progress("shapes", int64(len(shapes)))
	rows := make([]Row, 0, len(shapes))
	for _, s := range shapes {
		if err := p.Context().Err(); err != nil {
			return err
		}
		bandM, err := completionsOf(s)
		if err != nil {
			return err
		}
		stackM, err := completionsOf(grid.Shape{R: s.C, C: s.R})
		if err != nil {
			return err
		}
		e := heuristic.FromCompletions(s, bandM, stackM)
		row := rowOf(e, cfg.Digits)
		p.Log.Info("kilfoil estimate", "shape", s.String(), "estimate", scientific(e.Value, 6))
		rows = append(rows, row)
		prog.Add(1)
	}
	prog.Done()
	if err := Estimates.Write(p, rows); err != nil {
		return err
	}
	sampled, err := parseSampled(cfg.Sampled)
	if err != nil {
		return err
	}
	return runSampled(p, sampled, completionsOf)
}

// rowOf returns the artifact row of the estimate, with digits significant
// digits when the decimal expansion does not terminate.
func rowOf(e *heuristic.Estimate, digits int) Row {
	row := Row{
		Rows: int64(e.Shape.R), Cols: int64(e.Shape.C),
		BandCount: e.Bands.String(), StackCount: e.Stacks.String(),
		BandCompletions: e.BandCompletions.String(), StackCompletions: e.StackCompletions.String(),
		EstimateNum: e.Value.Num().String(), EstimateDen: e.Value.Denom().String(),
		EstimateExact: decimal.Terminates(e.Value),
		Log10Estimate: decimal.Log10(e.Value),
	}
	if row.EstimateExact {
		row.Estimate = decimal.ExactDecimal(e.Value)
	} else {
		row.Estimate = scientific(e.Value, digits)
	}
	return row
}

// scientific writes a positive q as d.ddd…e±XX with sig significant digits,
// rounded exactly (decimal.Sci).
func scientific(q *big.Rat, sig int) string {
	mantissa, exp := decimal.Sci(q, sig)
	return fmt.Sprintf("%se%+03d", mantissa, exp)
}

// headlines are each shape's heuristic estimate, for census diff.
func headlines(root string) ([]pipeline.Headline, error) {
	rows, err := Estimates.Load(root)
	var out []pipeline.Headline
	for _, r := range rows {
		out = append(out, pipeline.Headline{Name: fmt.Sprintf("%dx%d estimate", r.Rows, r.Cols), Value: r.Estimate})
	}
	return out, err
}
