package sampling

import (
	"fmt"
	"math"
	"runtime"
	"time"

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
	// Goals maps a shape to the relative half-width of the 95% interval
	// the run report projects the time for (see Projection); shapes
	// without a key get DefaultGoal.
	Goals map[string]float64
}

// DefaultGoal is the goal of a shape without a key in Plan.Goals: ±1%.
const DefaultGoal = 0.01

// goal returns the goal of shape s.
func (plan Plan) goal(s grid.Shape) float64 { return Goal(plan.Goals, s) }

// Goal returns the goal of shape s in goals (shape RxC → relative 95%
// half-width), DefaultGoal when s has no key.
func Goal(goals map[string]float64, s grid.Shape) float64 {
	if g, ok := goals[s.String()]; ok {
		return g
	}
	return DefaultGoal
}

// Projection is the time in seconds a run would need, on this machine with
// every core on it, to reach a relative 95% half-width h: from a run of N
// samples that took CPU seconds over its timed samples and reached the
// relative half-width w (1.96 × relative error), the half-width falls as
// 1/√samples, so it is CPU·(N/timed)/cores · (w/h)². CPU time divided by
// the cores, not wall time: the runs of one stage overlap in wall time.
func Projection(tm Timing, samples int64, w, h float64, cores int) (seconds float64) {
	if tm.Samples == 0 || h <= 0 || cores < 1 {
		return 0
	}
	full := tm.CPU.Seconds() * float64(samples) / float64(tm.Samples) / float64(cores)
	return full * (w / h) * (w / h)
}

// spec returns the identity of the random streams of one shape and variant
// in pass p.
func (plan Plan) spec(p *pipeline.Pass, shape grid.Shape, variant string) montecarlo.Spec {
	return montecarlo.Spec{Seed: p.Seed, Stage: plan.Stage, Shape: shape.String(), Variant: variant, BlockSize: plan.BlockSize,
		TailSize: montecarlo.ParetoTailSize(Count(plan.Samples, shape, variant))}
}

// Estimator is a Monte Carlo stage as this package runs it: the stage's
// Units (Estimator.Units) draw the samples, block by block, and its Run
// (Estimator.Run) merges them into a summary row per shape and variant and
// a convergence trace.
type Estimator[R any] struct {
	// Plan returns what the stage runs, from the pass's configuration.
	Plan func(p *pipeline.Pass) Plan
	// NewSampler returns a sampler of variant on shape s. Every unit makes
	// its own.
	NewSampler func(p *pipeline.Pass, s grid.Shape, variant string) (montecarlo.Sampler, error)
	// Row returns the summary row of one shape and variant from the merged
	// result, the bootstrap interval of its relative variance
	// (montecarlo.BootstrapRelVar over its blocks) and the timing of its
	// units computed by this process.
	Row func(p *pipeline.Pass, s grid.Shape, variant string, res montecarlo.Result, relvar montecarlo.RelVarInterval, tm Timing) R
	// Summary and Trace are the stage's two tables.
	Summary pipeline.Table[R]
	Trace   pipeline.Table[TraceRow]
	// Key returns a summary row's shape, variant and statistics; if set,
	// the variant's trace rows take the variant it names (Row may name a
	// variant whose parameters make it another estimator otherwise).
	Key func(R) (shape, variant string, c Columns)
}

// Headlines are the numbers of the summary table below root that census
// diff compares (see the package's Headlines): the stage's
// Stage.Headlines.
func (e *Estimator[R]) Headlines(root string) ([]pipeline.Headline, error) {
	rows, err := e.Summary.Load(root)
	var out []pipeline.Headline
	for _, r := range rows {
		out = append(out, Headlines(e.Key(r))...)
	}
	return out, err
}

// Units returns the stage's units: see unit.
func (e *Estimator[R]) Units() *pipeline.Units {
	return &pipeline.Units{List: e.List, Compute: e.Compute}
}

// Run merges the units of pass p: for each shape and variant in turn it
// merges the blocks in block order (montecarlo.MergeBlocks, exactly as
// montecarlo.Run does), reports the timings of the units this process
// computed, and collects the summary row and the trace. At the end it
// writes both tables.
func (e *Estimator[R]) Run(p *pipeline.Pass) error {
	results, err := p.UnitResults()
	if err != nil {
		return err
	}
	return e.RunUnits(p, p.UnitIDs(), results)
}

// RunUnits is Run on the units ids with their results: for a stage that
// lists units of its own beside the estimator's (List's, in List's order).
func (e *Estimator[R]) RunUnits(p *pipeline.Pass, ids []string, results [][]byte) error {
	plan := e.Plan(p)
	units := plan.units()
	if len(ids) != len(units) || len(results) != len(units) {
		return fmt.Errorf("%d units listed, %d results, the plan has %d", len(ids), len(results), len(units))
	}
	timings := takeTimings(p)
	var rows []R
	var points []TraceRow
	for k := 0; k < len(units); {
		shape, variant := units[k].shape, units[k].variant
		spec := plan.spec(p, shape, variant)
		var blocks []montecarlo.Block
		for ; k < len(units) && units[k].shape == shape && units[k].variant == variant; k++ {
			u := units[k]
			if ids[k] != u.id() {
				return fmt.Errorf("unit %d is %s, the plan's is %s", k, ids[k], u.id())
			}
			bs, err := u.decode(results[k])
			if err != nil {
				return fmt.Errorf("unit %s: %w", ids[k], err)
			}
			blocks = append(blocks, bs...)
		}
		res := montecarlo.MergeBlocks(blocks)
		iv := montecarlo.BootstrapRelVar(spec, montecarlo.BlockMoments(blocks), montecarlo.BootstrapResamples)
		tm := timings[runKey(spec)]
		report(p, spec, res, iv, tm, plan.goal(shape))
		row, label := e.Row(p, shape, variant, res, iv, tm), variant
		if e.Key != nil {
			_, label, _ = e.Key(row)
		}
		rows, points = append(rows, row), append(points, TraceRows(spec.Shape, label, res.Trace)...)
	}
	if err := e.Summary.Write(p, rows); err != nil {
		return err
	}
	return e.Trace.Write(p, points)
}

// report puts the timing of one shape and variant in the run report under
// "<shape>/<variant>.", when this process computed any of its units, with
// the projected time to the goal half-width (Projection) and the
// efficiency per CPU second with its interval (CPUColumnsOf, from the
// timed units' CPU time per sample), and logs the run.
func report(p *pipeline.Pass, spec montecarlo.Spec, res montecarlo.Result, iv montecarlo.RelVarInterval, tm Timing, goal float64) {
	st := res.Total.Stats()
	if tm.Samples == 0 {
		p.Log.Info("monte carlo run", "shape", spec.Shape, "variant", spec.Variant, "samples", res.Total.N,
			"timed", "no: every unit was computed before or elsewhere",
			"estimate", montecarlo.Decimal(st.Estimate), "relative_error", st.RelativeError)
		return
	}
	key := spec.Shape + "/" + spec.Variant + "."
	p.Report(key+"wall_seconds", tm.Wall.Seconds())
	p.Report(key+"cpu_seconds", tm.CPU.Seconds())
	p.Report(key+"walks_per_second_per_core", tm.PerCoreRate())
	if tm.Samples != res.Total.N {
		p.Report(key+"timed_samples", tm.Samples)
	}
	// The run log is JSON, which has no NaN or infinity (a run of one
	// block has no interval, a zero-variance run an infinite efficiency):
	// those are left out.
	cpu := CPUColumnsOf(tm.CPU.Seconds(), tm.Samples, st.RelVar, iv)
	for _, m := range []struct {
		name  string
		value float64
	}{{"cpu_seconds_per_sample", cpu.CPUSecondsPerSample}, {"efficiency", cpu.Efficiency},
		{"efficiency_low", cpu.EfficiencyLow}, {"efficiency_high", cpu.EfficiencyHigh}} {
		if !math.IsNaN(m.value) && !math.IsInf(m.value, 0) {
			p.Report(key+m.name, m.value)
		}
	}
	halfWidth := montecarlo.Z95 * st.RelativeError
	p.Report(key+"goal_half_width_95", goal)
	toGoal := "never: no sample found a grid"
	if !math.IsInf(halfWidth, 0) && !math.IsNaN(halfWidth) {
		seconds := Projection(tm, res.Total.N, halfWidth, goal, runtime.GOMAXPROCS(0))
		p.Report(key+"half_width_95", halfWidth)
		p.Report(key+"seconds_to_goal", seconds)
		toGoal = fmt.Sprintf("%.3g s", seconds)
	}
	p.Log.Info("monte carlo run", "shape", spec.Shape, "variant", spec.Variant, "samples", res.Total.N,
		"timed_samples", tm.Samples, "units", tm.Units, "wall", tm.Wall.Round(time.Millisecond), "cpu", tm.CPU.Round(time.Millisecond),
		"estimate", montecarlo.Decimal(st.Estimate), "half_width_95", fmt.Sprintf("±%.3g%%", 100*halfWidth),
		"time_to_goal", fmt.Sprintf("±%.3g%%: %s", 100*goal, toGoal))
}
