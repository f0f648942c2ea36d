package sampling

import (
	"fmt"
	"math"
	"strconv"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/maths/montecarlo"
)

// Numbers that may exceed the float64 range (estimates of 25×25 counts are
// about 4e308) are stored in artifacts as decimal strings in scientific
// notation with 15 significant digits (montecarlo.Decimal), with log10 of
// the estimate as a float64 column for plotting.

// Columns are the columns every Monte Carlo summary row shares; stage rows
// embed them (Parquet flattens embedded structs), after their key columns.
type Columns struct {
	Samples         int64   `parquet:"samples"`
	Estimate        string  `parquet:"estimate"`       // sample mean, decimal
	Log10Estimate   float64 `parquet:"log10_estimate"` // log10 of the estimate
	StdError        string  `parquet:"std_error"`      // standard deviation of the mean, decimal
	CILow           string  `parquet:"ci_low"`         // estimate − 1.96·std_error, cut at 0, decimal
	CIHigh          string  `parquet:"ci_high"`        // estimate + 1.96·std_error, decimal
	RelativeError   float64 `parquet:"relative_error"` // std_error / estimate
	NonzeroFraction float64 `parquet:"nonzero_fraction"`
	Work            int64   `parquet:"work"`        // total cells visited
	RelVar          float64 `parquet:"relvar"`      // sample variance / estimate² (per sample)
	RelVarWork      float64 `parquet:"relvar_work"` // relvar × work per sample
	// The diagnostics of the samples as weights (montecarlo.Diagnostics):
	ESS        float64 `parquet:"ess"`              // effective sample size (Σw)²/Σw²
	MaxShare   float64 `parquet:"max_weight_share"` // largest sample / Σw
	ParetoK    float64 `parquet:"pareto_k"`         // k̂ of the upper tail (NaN: no tail to fit)
	Unreliable bool    `parquet:"unreliable"`       // k̂ > 0.7: the interval is not to be trusted
}

// ColumnsOf returns the summary columns of a run (the diagnostics need its
// tail).
func ColumnsOf(res montecarlo.Result) Columns {
	m := res.Total
	s := m.Stats()
	d := res.Diagnostics()
	return Columns{
		Samples: m.N, Estimate: montecarlo.Decimal(s.Estimate), Log10Estimate: m.Log10Estimate(),
		StdError: montecarlo.Decimal(s.StdError), CILow: montecarlo.Decimal(s.CILow), CIHigh: montecarlo.Decimal(s.CIHigh),
		RelativeError: s.RelativeError, NonzeroFraction: s.NonzeroFraction,
		Work: m.Work, RelVar: s.RelVar, RelVarWork: s.RelVarWork,
		ESS: d.ESS, MaxShare: d.MaxShare, ParetoK: d.ParetoK, Unreliable: d.Unreliable,
	}
}

// RelVarColumns are the 95% bootstrap interval of a run's relative
// variance per sample (montecarlo.BootstrapRelVar over its blocks, seeded
// from the run's identity, so the same bytes on every machine; NaN for a
// run of one block). Summary rows embed them after Columns.
type RelVarColumns struct {
	RelVarLow  float64 `parquet:"relvar_low"`
	RelVarHigh float64 `parquet:"relvar_high"`
}

// RelVarColumnsOf returns the columns of interval iv.
func RelVarColumnsOf(iv montecarlo.RelVarInterval) RelVarColumns {
	return RelVarColumns{RelVarLow: iv.Low, RelVarHigh: iv.High}
}

// CPUColumns are a run's cost in CPU seconds and its efficiency, 1/(relvar
// × CPU seconds per sample) (montecarlo.Efficiency), with the 95% interval
// that the relvar's bootstrap interval gives at the measured CPU time per
// sample: only the relvar is resampled, the CPU time is taken as measured.
// The CPU time depends on the machine, so every one of these columns does:
// a table declares them machine-dependent (CPUColumnNames).
type CPUColumns struct {
	CPUSeconds          float64 `parquet:"cpu_seconds"` // the run's CPU time
	CPUSecondsPerSample float64 `parquet:"cpu_seconds_per_sample"`
	Efficiency          float64 `parquet:"efficiency"`      // per CPU second
	EfficiencyLow       float64 `parquet:"efficiency_low"`  // 1/(relvar_high × CPU s per sample)
	EfficiencyHigh      float64 `parquet:"efficiency_high"` // 1/(relvar_low × CPU s per sample)
}

// CPUColumnNames are the columns of CPUColumns, for
// pipeline.Table.WithMachineColumns.
var CPUColumnNames = []string{"cpu_seconds", "cpu_seconds_per_sample", "efficiency", "efficiency_low", "efficiency_high"}

// CPUColumnsOf returns the cost columns of a run of samples samples that
// took cpuSeconds, with relative variance relvar and its interval iv.
func CPUColumnsOf(cpuSeconds float64, samples int64, relvar float64, iv montecarlo.RelVarInterval) CPUColumns {
	per := math.NaN()
	if samples > 0 && cpuSeconds > 0 {
		per = cpuSeconds / float64(samples)
	}
	lo, hi := montecarlo.EfficiencyInterval(iv, per)
	return CPUColumns{CPUSeconds: cpuSeconds, CPUSecondsPerSample: per, Efficiency: montecarlo.Efficiency(relvar, per), EfficiencyLow: lo, EfficiencyHigh: hi}
}

// TraceRow is one point of a convergence trace: the running statistics of
// one shape and variant after Samples samples.
type TraceRow struct {
	Shape         string  `parquet:"shape"`
	Variant       string  `parquet:"variant"`
	Samples       int64   `parquet:"samples"`
	Estimate      string  `parquet:"estimate"`
	Log10Estimate float64 `parquet:"log10_estimate"`
	StdError      string  `parquet:"std_error"`
	CILow         string  `parquet:"ci_low"`
	CIHigh        string  `parquet:"ci_high"`
	RelativeError float64 `parquet:"relative_error"`
}

// TraceRows returns the trace of one run as rows.
func TraceRows(shape, variant string, trace []montecarlo.Moments) []TraceRow {
	rows := make([]TraceRow, len(trace))
	for i, m := range trace {
		c := ColumnsOf(montecarlo.Result{Total: m})
		rows[i] = TraceRow{
			Shape: shape, Variant: variant, Samples: c.Samples,
			Estimate: c.Estimate, Log10Estimate: c.Log10Estimate, StdError: c.StdError,
			CILow: c.CILow, CIHigh: c.CIHigh, RelativeError: c.RelativeError,
		}
	}
	return rows
}

// Headlines are the numbers of one Monte Carlo run that census diff
// compares: samples, estimate and the 95% interval's relative half-width,
// named "<shape>/<variant> <number>".
func Headlines(shape, variant string, c Columns) []pipeline.Headline {
	key := shape + "/" + variant + " "
	return []pipeline.Headline{
		{Name: key + "samples", Value: strconv.FormatInt(c.Samples, 10)},
		{Name: key + "estimate", Value: c.Estimate},
		{Name: key + "half_width_95", Value: fmt.Sprintf("±%.3g%%", 100*montecarlo.Z95*c.RelativeError)},
	}
}
