package engine

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"runtime/debug"
	"time"

	"github.com/sudoku-census/sudoku-census/pipeline/executor"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/pipeline/store"
)

// listUnits calls the stage's List and checks the ids.
func listUnits(p *pipeline.Pass) ([]string, error) {
	ids, err := p.Stage.Units.List(p)
	if err != nil {
		return nil, fmt.Errorf("listing units: %w", err)
	}
	if err := store.CheckUnitIDs(p.Stage.Name, ids); err != nil {
		return nil, err
	}
	return ids, nil
}

// unitRefusal is the refusal of the configuration that listing the units
// of stage s would stop its run on (knuth.max_cpu_hours when the committed
// bundle lacks units that cost more), for status and the dry run to say
// what the run would. Other errors of the listing (an input not yet made)
// are the run's to report: nil.
func (e *Engine) unitRefusal(m *store.Manifest, s *pipeline.Stage, c checked) error {
	if s.Units == nil {
		return nil
	}
	_, err := func() (ids []string, err error) {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("panic: %v", r)
			}
		}()
		return listUnits(e.newPass(context.Background(), m, s, c).Pass())
	}()
	var ce *pipeline.ConfigError
	if errors.As(err, &ce) {
		return fmt.Errorf("stage %s would stop: %w", s.Name, err)
	}
	return nil
}

// prepareUnits brings every unit of the pass's stage into memory: those
// done are read, the missing ones computed by the configured executor.
// With fresh set, the units done are discarded first (census run --force).
func (e *Engine) prepareUnits(ctx context.Context, pc *pipeline.PassControl, fingerprint string, fresh bool, order func([]int)) error {
	p := pc.Pass()
	ids, err := listUnits(p)
	if err != nil {
		return err
	}
	u := store.NewUnitSet(store.UnitDir(e.opts.Root, p.Stage.Name, fingerprint), fingerprint, ids)
	if fresh {
		if err := os.RemoveAll(u.Dir); err != nil {
			return err
		}
	}
	pc.SetUnits(u)
	missing, err := e.fromBundle(p, u, u.Scan(p.Log))
	if err != nil {
		return err
	}
	name := e.executor.Name
	p.Report("units.total", len(ids))
	p.Report("units.reused", len(ids)-len(missing))
	p.Report("units.computed", len(missing))
	if len(missing) == 0 {
		return nil
	}
	p.Log.Info("computing units", "executor", name, "missing", len(missing), "total", len(ids))
	if order != nil {
		order(missing)
	}
	prog := p.Progress("units", int64(len(ids)))
	prog.Add(int64(len(ids) - len(missing)))
	defer prog.Done()
	if name == "slurm" {
		slurm := executor.Slurm{Config: e.executor.Slurm, Root: e.opts.Root, UnitCommand: e.opts.UnitCommand}
		return slurm.Compute(ctx, p, u, missing, prog)
	}
	return executor.Local(ctx, p, u, missing, prog, e.computer(pc), nil)
}

// computeUnit runs Compute for one unit. A panic becomes the unit's error,
// with the stack written to the log; a result returned after the context
// was cancelled is discarded, since it may be partial.
func (e *Engine) computeUnit(ctx context.Context, pc *pipeline.PassControl, id string) (result []byte, took time.Duration, err error) {
	p := pc.Pass()
	defer func() {
		if r := recover(); r != nil {
			result, err = nil, e.panicked(p.Stage.Name, "unit "+id, r)
		}
	}()
	start := time.Now()
	result, err = p.Stage.Units.Compute(pc.ForUnit(ctx, id), id)
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

// computer is computeUnit for the units of one pass, as the executors take it.
func (e *Engine) computer(pc *pipeline.PassControl) executor.ComputeFunc {
	return func(ctx context.Context, id string) ([]byte, time.Duration, error) { return e.computeUnit(ctx, pc, id) }
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
func (e *Engine) unitProgress(m *store.Manifest, s *pipeline.Stage, c checked) (prog UnitProgress) {
	p := e.newPass(context.Background(), m, s, c).Pass()
	u := store.NewUnitSet(store.UnitDir(e.opts.Root, s.Name, c.unitKey), c.unitKey, nil)
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
				if _, _, err := store.ReadUnit(u.Dir, c.unitKey, name); err == nil {
					prog.Done++
				}
			}
		}
		prog.Total = -1
		return prog
	}
	bundled := map[string]pipeline.BundleRow{}
	for _, b := range s.Units.Bundles() {
		if mine := pipeline.BundledIDs(b, ids); len(mine) > 0 {
			rows, err := pipeline.ReadBundle(e.opts.Root, b, mine)
			if err != nil {
				e.log.Warn("cannot read the bundle", "stage", s.Name, "bundle", b.Path(), "err", err)
			}
			maps.Copy(bundled, rows)
		}
	}
	for _, id := range ids {
		if _, ok := bundled[id]; ok {
			prog.Done++
		} else if names[id] {
			if _, _, err := store.ReadUnit(u.Dir, c.unitKey, id); err == nil {
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
	e.survey(m, func(s *pipeline.Stage, c checked, _ bool, _ *store.Manifest) {
		keep[s.Name] = map[string]bool{}
		if rec, ok := m.Stages[s.Name]; ok {
			keep[s.Name][rec.Fingerprint] = true
		}
		if c.fingerprint != "" {
			keep[s.Name][c.fingerprint] = true
			keep[s.Name][c.unitKey] = true
		}
	})
	removed, err := store.GCUnits(e.opts.Root, keep)
	if err != nil {
		return removed, err
	}
	cache, err := store.GCCache(e.opts.Root, keep, keepLast)
	return append(removed, cache...), err
}
