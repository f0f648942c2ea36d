package executor

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/pipeline/store"
)

// Local computes the units of u at the indices missing in this
// process, Units.Workers at a time, writing each to its file as it
// finishes. The units the stage's bundles hold come last, one at a time
// (a bundled unit uses every core itself), so that the CPU time the bundle
// records for each is its own. It stops at the first failure (and returns
// it) or when ctx is cancelled (and returns ctx's error); the units
// finished by then are kept. done, if set, is told of each unit computed.
// A unit of a bundle enters it as it finishes, unless u is a recomputation
// (u.Recompute), which verify compares with the bundle instead.
func Local(ctx context.Context, p *pipeline.Pass, u *store.UnitSet, missing []int, prog *pipeline.Progress, compute ComputeFunc, done func(id string, took time.Duration)) error {
	workers := p.Stage.Units.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var free, bundled []int
	for _, i := range missing {
		if p.Stage.Units.BundleOf(u.IDs[i]) != nil {
			bundled = append(bundled, i)
		} else {
			free = append(free, i)
		}
	}
	cctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var doneMu sync.Mutex
	pool := func(list []int, workers int) {
		var (
			next atomic.Int64
			wg   sync.WaitGroup
		)
		for range min(workers, len(list)) {
			wg.Go(func() {
				for cctx.Err() == nil {
					k := int(next.Add(1) - 1)
					if k >= len(list) {
						return
					}
					i := list[k]
					id := u.IDs[i]
					cpu0 := pipeline.ProcessCPU()
					result, took, err := compute(cctx, id)
					if err == nil {
						err = store.WriteUnit(u.Dir, u.Fingerprint, id, result, took)
					}
					if b := p.Stage.Units.BundleOf(id); err == nil && b != nil && !u.Recompute {
						err = pipeline.AddToBundle(p.Root(), b, []pipeline.BundleRow{pipeline.NewBundleRow(b, id, result, pipeline.ProcessCPU()-cpu0)})
					}
					if err != nil {
						cancel(fmt.Errorf("unit %s: %w", id, err))
						return
					}
					u.Results[i], u.Took[i] = result, took
					if prog != nil {
						prog.Add(1)
					}
					if done != nil {
						doneMu.Lock()
						done(id, took)
						doneMu.Unlock()
					}
				}
			})
		}
		wg.Wait()
	}
	pool(free, workers)
	pool(bundled, 1)
	if err := ctx.Err(); err != nil {
		return err
	}
	return context.Cause(cctx) // nil when every unit finished
}

// ComputeFunc computes one unit of a pass, with the time it took; the
// engine's recovers a panic of the stage's code as the unit's error.
type ComputeFunc func(ctx context.Context, id string) ([]byte, time.Duration, error)
