package pipeline

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sudoku-census/sudoku-census/pipeline/store"
)

// UnitIDs returns the ids of the stage's units in List order (nil for a
// stage without Units).
func (p *Pass) UnitIDs() []string {
	if p.units == nil {
		return nil
	}
	return append([]string(nil), p.units.IDs...)
}

// UnitResults returns the result of every unit of the stage, in List order.
// The engine has computed (or found) them all before Run; Run merges them.
// The byte slices are the engine's: read them, do not modify them.
func (p *Pass) UnitResults() ([][]byte, error) {
	switch {
	case p.Stage.Units == nil:
		return nil, fmt.Errorf("stage %s asks for unit results but has no Units", p.Stage.Name)
	case p.unit != "":
		return nil, fmt.Errorf("stage %s: unit %s asks for unit results: only Run merges units", p.Stage.Name, p.unit)
	case p.units == nil:
		return nil, fmt.Errorf("stage %s: unit results are not ready", p.Stage.Name)
	}
	for i, r := range p.units.Results {
		if r == nil {
			return nil, fmt.Errorf("stage %s: unit %s has no result", p.Stage.Name, p.units.IDs[i])
		}
	}
	return append([][]byte(nil), p.units.Results...), nil
}

// forUnit is the pass a Compute call gets: the same stage, configuration
// and inputs, with the unit's context and id.
func (p *Pass) forUnit(ctx context.Context, id string) *Pass {
	q := *p
	q.ctx, q.unit, q.Log = ctx, id, p.Log.With("unit", id)
	return &q
}

// listUnits calls the stage's List and checks the ids.
func listUnits(p *Pass) ([]string, error) {
	ids, err := p.Stage.Units.List(p)
	if err != nil {
		return nil, fmt.Errorf("listing units: %w", err)
	}
	if err := store.CheckUnitIDs(p.Stage.Name, ids); err != nil {
		return nil, err
	}
	return ids, nil
}

// prepareUnits brings every unit of the pass's stage into memory: those
// done are read, the missing ones computed by the configured executor.
// With fresh set, the units done are discarded first (census run --force).
func (e *Engine) prepareUnits(ctx context.Context, p *Pass, fresh bool, order func([]int)) error {
	ids, err := listUnits(p)
	if err != nil {
		return err
	}
	u := store.NewUnitSet(store.UnitDir(e.opts.Root, p.Stage.Name, p.fingerprint), p.fingerprint, ids)
	if fresh {
		if err := os.RemoveAll(u.Dir); err != nil {
			return err
		}
	}
	p.units = u
	missing, err := e.fromBundle(p, u, u.Scan(p.Log))
	if err != nil {
		return err
	}
	executor := e.settings.executor.Name
	p.Report("units.total", len(ids))
	p.Report("units.reused", len(ids)-len(missing))
	p.Report("units.computed", len(missing))
	if len(missing) == 0 {
		return nil
	}
	p.Log.Info("computing units", "executor", executor, "missing", len(missing), "total", len(ids))
	if order != nil {
		order(missing)
	}
	prog := p.Progress("units", int64(len(ids)))
	prog.Add(int64(len(ids) - len(missing)))
	defer prog.Done()
	if executor == "slurm" {
		return e.computeSlurm(ctx, p, u, missing, prog)
	}
	return e.computeLocal(ctx, p, u, missing, prog, nil)
}

// computeLocal computes the units of u at the indices missing in this
// process, Units.Workers at a time, writing each to its file as it
// finishes. It stops at the first failure (and returns it) or when ctx is
// cancelled (and returns ctx's error); the units finished by then are kept.
// done, if set, is told of each unit computed.
func (e *Engine) computeLocal(ctx context.Context, p *Pass, u *store.UnitSet, missing []int, prog *Progress, done func(id string, took time.Duration)) error {
	workers := p.Stage.Units.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, len(missing))
	cctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var (
		next   atomic.Int64
		wg     sync.WaitGroup
		doneMu sync.Mutex
	)
	for range workers {
		wg.Go(func() {
			for cctx.Err() == nil {
				k := int(next.Add(1) - 1)
				if k >= len(missing) {
					return
				}
				i := missing[k]
				id := u.IDs[i]
				cpu0 := ProcessCPU()
				result, took, err := e.computeUnit(cctx, p, id)
				if err == nil {
					err = store.WriteUnit(u.Dir, u.Fingerprint, id, result, took)
				}
				if b := p.Stage.Units.Bundle; err == nil && b != nil && b.Holds(id) {
					err = addToBundle(e.opts.Root, b, []BundleRow{newBundleRow(b, id, result, ProcessCPU()-cpu0)})
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
	if err := ctx.Err(); err != nil {
		return err
	}
	return context.Cause(cctx) // nil when every unit finished
}

// computeUnit runs Compute for one unit. A panic becomes the unit's error,
// with the stack written to the log; a result returned after the context
// was cancelled is discarded, since it may be partial.
func (e *Engine) computeUnit(ctx context.Context, p *Pass, id string) (result []byte, took time.Duration, err error) {
	defer func() {
		if r := recover(); r != nil {
			result, err = nil, e.panicked(p.Stage.Name, "unit "+id, r)
		}
	}()
	start := time.Now()
	result, err = p.Stage.Units.Compute(p.forUnit(ctx, id), id)
	took = time.Since(start)
	if err == nil && ctx.Err() != nil {
		err = ctx.Err()
	}
	if err != nil {
		return nil, 0, err
	}
	if result == nil {
		result = []byte{}
	}
	return result, took, nil
}

// panicked logs a panic of a stage's code with its stack and returns the
// error that fails the stage.
func (e *Engine) panicked(stage, where string, r any) error {
	e.log.Error("panic", "stage", stage, "in", where, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
	return fmt.Errorf("panic in %s: %v (stack trace in the log)", where, r)
}

// UnitProgress is how many of a stage's units are done.
type UnitProgress struct {
	Done int
	// Total is the number of units, or -1 when the stage's List failed.
	Total int
}

func (u UnitProgress) String() string {
	if u.Total < 0 {
		return fmt.Sprintf("%d units done", u.Done)
	}
	return fmt.Sprintf("%d/%d units done", u.Done, u.Total)
}

// unitProgress counts the finished units of a stage whose fingerprint is
// known, without reading them.
func (e *Engine) unitProgress(m *store.Manifest, s *Stage, c checked) (prog UnitProgress) {
	p := e.newPass(context.Background(), m, s, c)
	u := store.NewUnitSet(store.UnitDir(e.opts.Root, s.Name, c.fingerprint), c.fingerprint, nil)
	names := u.Present()
	ids, err := func() (ids []string, err error) {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("panic: %v", r)
			}
		}()
		return listUnits(p)
	}()
	if err != nil {
		e.log.Warn("cannot list units", "stage", s.Name, "err", err)
		for name := range names {
			if store.ValidUnitID(name) {
				if _, _, err := store.ReadUnit(u.Dir, c.fingerprint, name); err == nil {
					prog.Done++
				}
			}
		}
		prog.Total = -1
		return prog
	}
	var bundled map[string]BundleRow
	if mine := bundledIDs(s.Units.Bundle, ids); len(mine) > 0 {
		if bundled, err = ReadBundle(e.opts.Root, s.Units.Bundle, mine); err != nil {
			e.log.Warn("cannot read the bundle", "stage", s.Name, "err", err)
		}
	}
	for _, id := range ids {
		if _, ok := bundled[id]; ok {
			prog.Done++
		} else if names[id] {
			if _, _, err := store.ReadUnit(u.Dir, c.fingerprint, id); err == nil {
				prog.Done++
			}
		}
	}
	prog.Total = len(ids)
	return prog
}

// GC removes what no run needs: the units of fingerprints that are neither
// a stage's published one nor the one the current configuration gives, the
// units of stages no longer in the pipeline, temporary unit files, and the
// run cache's records of other fingerprints (but the keepLast most recent
// of each stage) with the objects no kept record names. Every current
// artifact stays restorable. It takes the lock, like a run; with wait it
// waits for a run holding it.
func (e *Engine) GC(wait bool, keepLast int) ([]store.Removed, error) {
	release, err := store.Lock(e.opts.Root, wait)
	if err != nil {
		return nil, err
	}
	defer release()
	m, err := store.ReadManifest(e.opts.Root)
	if err != nil {
		return nil, err
	}
	keep := map[string]map[string]bool{}
	e.survey(m, func(s *Stage, c checked, _ bool, _ *store.Manifest) {
		keep[s.Name] = map[string]bool{}
		if rec, ok := m.Stages[s.Name]; ok {
			keep[s.Name][rec.Fingerprint] = true
		}
		if c.fingerprint != "" {
			keep[s.Name][c.fingerprint] = true
		}
	})
	removed, err := store.GCUnits(e.opts.Root, keep)
	if err != nil {
		return removed, err
	}
	cache, err := store.GCCache(e.opts.Root, keep, keepLast)
	return append(removed, cache...), err
}
