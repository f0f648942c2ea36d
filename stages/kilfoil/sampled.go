package kilfoil

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"math/big"
	"runtime"
	"slices"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/maths/decimal"
	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
	"github.com/sudoku-census/sudoku-census/stages/maths/heuristic"
	"github.com/sudoku-census/sudoku-census/stages/maths/montecarlo"
)

// SampledEstimates is data/kilfoil_sampled.parquet: one row per shape of
// kilfoil.sampled, by grid side, then box height.
var SampledEstimates = pipeline.NewTable[SampledRow]("kilfoil_sampled", "one row per box shape whose band or stack count is sampled: the sampled count's interval and Kilfoil's estimate with it")

// SampledRow is one shape whose six-row bands (or stacks) are too many for
// the programme: their completions M are estimated (heuristic.
// CompletionsSampler), the other orientation's counted, and the estimate E
// follows with the interval that M's 95% interval maps to (E grows with M,
// so the map keeps the coverage).
type SampledRow struct {
	Rows int64 `parquet:"rows"` // R, rows of a box
	Cols int64 `parquet:"cols"` // C, columns of a box
	// SampledRows×SampledCols is the band shape whose M is sampled:
	// R×C, C×R or both (6x6).
	SampledRows int64 `parquet:"sampled_rows"`
	SampledCols int64 `parquet:"sampled_cols"`
	// CountedCompletions is the other orientation's M, decimal, exact;
	// empty when both are the sampled one.
	CountedCompletions string `parquet:"counted_completions"`
	Samples            int64  `parquet:"samples"`
	// Completions and its interval, 7 significant digits.
	Completions     string  `parquet:"completions"`
	CompletionsLow  string  `parquet:"completions_low"`
	CompletionsHigh string  `parquet:"completions_high"`
	RelVar          float64 `parquet:"relvar"` // per sample
	ParetoK         float64 `parquet:"pareto_k"`
	// Estimate is E with M's estimate, EstimateLow and EstimateHigh with
	// its interval's ends; 7 significant digits.
	Estimate      string  `parquet:"estimate"`
	EstimateLow   string  `parquet:"estimate_low"`
	EstimateHigh  string  `parquet:"estimate_high"`
	Log10Estimate float64 `parquet:"log10_estimate"`
	Log10Low      float64 `parquet:"log10_low"`
	Log10High     float64 `parquet:"log10_high"`
}

// sampledBlockSize is the samples of one block of M's sampler: part of the
// identity of the random streams.
const sampledBlockSize = 10000

// sampledDigits is the significant digits of the sampled rows' numbers.
const sampledDigits = 7

// sampledShape is a shape of kilfoil.sampled and its samples.
type sampledShape struct {
	shape   grid.Shape
	samples int64
}

// parseSampled reads kilfoil.sampled: shapes with sides 1…heuristic.MaxSide
// and N ≤ heuristic.MaxN one of whose orientations the programme cannot
// count, each with 1,000 to montecarlo.MaxSamples samples; sorted by N,
// then R.
func parseSampled(m map[string]int64) ([]sampledShape, error) {
	allowed := fmt.Sprintf("box shapes RxC with 1 ≤ R, C ≤ %d and R·C ≤ %d whose band or stack completions the programme cannot count (6 rows and at least 4 columns, or the transpose)", heuristic.MaxSide, heuristic.MaxN)
	var out []sampledShape
	for _, text := range slices.Sorted(maps.Keys(m)) {
		s, err := grid.ParseShapeUpTo(text, heuristic.MaxN)
		t := grid.Shape{R: s.C, C: s.R}
		if err != nil || s.R > heuristic.MaxSide || s.C > heuristic.MaxSide || heuristic.Countable(s) && heuristic.Countable(t) {
			return nil, pipeline.Invalid("kilfoil.sampled", text, allowed)
		}
		if n := m[text]; n < 1000 || n > montecarlo.MaxSamples(sampledBlockSize) {
			return nil, pipeline.Invalid("kilfoil.sampled."+text, n, fmt.Sprintf("an integer from 1000 to %d", montecarlo.MaxSamples(sampledBlockSize)))
		}
		out = append(out, sampledShape{s, m[text]})
	}
	slices.SortFunc(out, func(a, b sampledShape) int {
		return cmp.Or(cmp.Compare(a.shape.N(), b.shape.N()), cmp.Compare(a.shape.R, b.shape.R))
	})
	return out, nil
}

// runSampled writes kilfoil_sampled.parquet; completionsOf counts the
// orientations the programme can.
func runSampled(p *pipeline.Pass, shapes []sampledShape, completionsOf func(grid.Shape) (*big.Int, error)) error {
	var total int64
	for _, s := range shapes {
		total += s.samples
	}
	prog := p.Progress("sampled band completions", total)
	rows := make([]SampledRow, 0, len(shapes))
	for _, sh := range shapes {
		s := sh.shape
		t := grid.Shape{R: s.C, C: s.R}
		sampled, counted := s, t
		if heuristic.Countable(s) {
			sampled, counted = t, s
		}
		spec := montecarlo.Spec{Seed: p.Seed, Stage: "kilfoil", Shape: sampled.String(), Variant: "bands",
			BlockSize: sampledBlockSize, TailSize: montecarlo.ParetoTailSize(sh.samples)}
		res, err := montecarlo.Run(p.Context(), spec, sh.samples, runtime.GOMAXPROCS(0),
			func() (montecarlo.Sampler, error) { return heuristic.NewCompletionsSampler(sampled) },
			func(n int) { prog.Add(int64(n)) })
		if err != nil {
			return err
		}
		st := res.Total.Stats()
		row := SampledRow{Rows: int64(s.R), Cols: int64(s.C), SampledRows: int64(sampled.R), SampledCols: int64(sampled.C),
			Samples: sh.samples, RelVar: st.RelVar, ParetoK: res.Diagnostics().ParetoK,
			Completions: floatSci(st.Estimate), CompletionsLow: floatSci(st.CILow), CompletionsHigh: floatSci(st.CIHigh)}
		var countedM *big.Int
		if heuristic.Countable(counted) {
			if countedM, err = completionsOf(counted); err != nil {
				return err
			}
			row.CountedCompletions = countedM.String()
		}
		// E at M's estimate and at its interval's ends; M is rounded to an
		// integer (it is above 10^15 on every shape allowed), so E stays
		// an exact fraction of it.
		estimateAt := func(m *big.Float) (string, float64) {
			mi, _ := m.Int(nil)
			if mi.Sign() <= 0 {
				return "0", math.Inf(-1)
			}
			band, stack := mi, mi
			if countedM != nil && counted == t {
				stack = countedM
			} else if countedM != nil {
				band = countedM
			}
			e := heuristic.FromCompletions(s, band, stack)
			return scientific(e.Value, sampledDigits), decimal.Log10(e.Value)
		}
		row.Estimate, row.Log10Estimate = estimateAt(st.Estimate)
		row.EstimateLow, row.Log10Low = estimateAt(st.CILow)
		row.EstimateHigh, row.Log10High = estimateAt(st.CIHigh)
		p.Log.Info("kilfoil estimate (sampled bands)", "shape", s.String(), "sampled", sampled.String(),
			"estimate", row.Estimate, "low", row.EstimateLow, "high", row.EstimateHigh, "relvar", row.RelVar)
		rows = append(rows, row)
	}
	prog.Done()
	return SampledEstimates.Write(p, rows)
}

// floatSci writes a positive x with sampledDigits significant digits.
func floatSci(x *big.Float) string {
	return x.Text('e', sampledDigits-1)
}
