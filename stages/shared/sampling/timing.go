package sampling

import (
	"sync"
	"time"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/maths/montecarlo"
)

// Timing is the cost of the units of one shape and variant that this
// process computed, for the run report only (never an artifact: it varies
// from run to run). Units found done (an earlier, interrupted run) or
// computed elsewhere (Slurm tasks) are not in it: Samples says how many
// samples it covers.
type Timing struct {
	// Wall is from the start of the first of these units to the end of the
	// last. Units of neighbouring shapes and variants run beside them on
	// the other cores, so the walls of a stage's runs overlap.
	Wall time.Duration
	// CPU is the sum of the units' CPU times, each the CPU time of the
	// thread that computed it (user and system; Linux, elsewhere the unit's
	// wall time): the samplers' work without the garbage collector's
	// background threads.
	CPU time.Duration
	// Samples and Units count what was timed.
	Samples int64
	Units   int
}

// PerCoreRate is samples per CPU second (walks per second per core).
func (tm Timing) PerCoreRate() float64 { return float64(tm.Samples) / tm.CPU.Seconds() }

// runTimings are the timings of one pass's runs so far, by runKey.
type runTimings struct {
	mu     sync.Mutex
	byRun  map[string]*Timing
	bounds map[string][2]time.Time // first start, last end
}

// timings holds the runTimings of the passes whose units this process is
// computing, by passKey, from the first unit computed until Run takes them.
var timings sync.Map

// passKey identifies a pass and the passes of its units (which share its
// stage and configuration).
type passKey struct {
	stage  *pipeline.Stage
	config pipeline.Config
}

func runKey(spec montecarlo.Spec) string { return spec.Shape + "/" + spec.Variant }

// addTiming records a unit of the run key of pass p, computed from start to
// end in cpu, with samples samples.
func addTiming(p *pipeline.Pass, key string, start, end time.Time, cpu time.Duration, samples int64) {
	v, _ := timings.LoadOrStore(passKey{p.Stage, p.Config}, &runTimings{byRun: map[string]*Timing{}, bounds: map[string][2]time.Time{}})
	rt := v.(*runTimings)
	rt.mu.Lock()
	defer rt.mu.Unlock()
	tm := rt.byRun[key]
	if tm == nil {
		tm = &Timing{}
		rt.byRun[key] = tm
		rt.bounds[key] = [2]time.Time{start, end}
	}
	b := rt.bounds[key]
	if start.Before(b[0]) {
		b[0] = start
	}
	if end.After(b[1]) {
		b[1] = end
	}
	rt.bounds[key] = b
	tm.Wall = b[1].Sub(b[0])
	tm.CPU += cpu
	tm.Samples += samples
	tm.Units++
}

// takeTimings returns the timings of pass p's runs, by runKey, and forgets
// them.
func takeTimings(p *pipeline.Pass) map[string]Timing {
	out := map[string]Timing{}
	v, ok := timings.LoadAndDelete(passKey{p.Stage, p.Config})
	if !ok {
		return out
	}
	rt := v.(*runTimings)
	rt.mu.Lock()
	defer rt.mu.Unlock()
	for k, tm := range rt.byRun {
		out[k] = *tm
	}
	return out
}

// forgetTimings forgets the timings of pass p's runs.
func forgetTimings(p *pipeline.Pass) { timings.Delete(passKey{p.Stage, p.Config}) }
