package sampling

import (
	"runtime"
	"time"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/maths/montecarlo"
)

// Timing is the cost of one run, for the run report only (never an
// artifact: it varies from run to run).
type Timing struct {
	Wall, CPU time.Duration
	Workers   int
}

// Execute runs spec for samples samples in a stage pass on GOMAXPROCS
// goroutines, with a progress bar, and reports wall time, CPU time and walks
// per second per core under "<shape>/<variant>.".
func Execute(p *pipeline.Pass, spec montecarlo.Spec, samples int64, newSampler func() (montecarlo.Sampler, error)) (montecarlo.Result, Timing, error) {
	workers := runtime.GOMAXPROCS(0)
	prog := p.Progress(spec.Shape+" "+spec.Variant, samples)
	cpu0, wall0 := pipeline.ProcessCPU(), time.Now()
	res, err := montecarlo.Run(p.Context(), spec, samples, workers, newSampler, func(n int) { prog.Add(int64(n)) })
	prog.Done()
	tm := Timing{Wall: time.Since(wall0), CPU: pipeline.ProcessCPU() - cpu0, Workers: workers}
	if err != nil {
		return montecarlo.Result{}, tm, err
	}
	key := spec.Shape + "/" + spec.Variant + "."
	p.Report(key+"wall_seconds", tm.Wall.Seconds())
	p.Report(key+"cpu_seconds", tm.CPU.Seconds())
	p.Report(key+"walks_per_second_per_core", float64(samples)/tm.CPU.Seconds())
	p.Log.Info("monte carlo run", "shape", spec.Shape, "variant", spec.Variant,
		"samples", samples, "wall", tm.Wall.Round(time.Millisecond), "workers", workers,
		"estimate", montecarlo.Decimal(res.Total.Stats().Estimate), "relative_error", res.Total.Stats().RelativeError)
	return res, tm, nil
}
