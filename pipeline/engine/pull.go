package engine

import (
	"context"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/pipeline/config"

	"github.com/sudoku-census/sudoku-census/pipeline/inspect"
	"github.com/sudoku-census/sudoku-census/pipeline/remote"
	"github.com/sudoku-census/sudoku-census/pipeline/store"
)

// PullOptions modify a pull.
type PullOptions struct {
	Wait bool
	// Lock, when set, fetches the run records and artifacts of that lock
	// into the run cache (for census diff) instead of what the current
	// configuration needs; data/ is left as it is.
	Lock *inspect.RunLock
}

// Pull fetches from the remote what the current configuration needs, stage
// by stage in pipeline order: the run cache record of the stage's
// fingerprint and its objects (each checked against its SHA-256), chosen
// by the configuration's lock (ConfigLock) where it pins the stage and
// otherwise only when the remote's records agree (remote.Pull.Record), or, for
// a stage the remote has no record of, its finished units (each checked by
// its trailer). It then restores every stage it can from the run cache,
// as census run would, and runs none: a stage that stays stale is listed
// in Transfer.Missing for census run to compute.
func (e *Engine) Pull(ctx context.Context, r *remote.Remote, o PullOptions) (remote.Transfer, []StageResult, error) {
	pull, err := r.NewPull(ctx, e.opts.Root, e.log)
	if err != nil {
		return remote.Transfer{}, nil, err
	}
	t := &pull.Transfer
	release, err := store.Lock(e.opts.Root, o.Wait)
	if err != nil {
		return *t, nil, err
	}
	if o.Lock != nil {
		err := pull.Lock(ctx, o.Lock)
		release()
		return *t, nil, err
	}
	l, lockPath, err := e.ConfigLock()
	if err != nil {
		release()
		return *t, nil, err
	}
	if l != nil {
		e.log.Info("pull takes only run records that agree with the lock", "lock", lockPath)
		pull.Pin(l)
	}
	m, err := store.ReadManifest(e.opts.Root)
	if err != nil {
		release()
		return *t, nil, err
	}
	// sim is the manifest as it will be once the stages found are
	// restored: the fingerprints downstream depend on their outputs.
	sim := m.Clone()
	e.hashes = map[string]string{}
	stale := map[string]string{}
	bar := pipeline.NewProgress(e.opts.Progress, "pull: stages", int64(len(e.order)))
	defer bar.Done()
	for _, s := range e.order {
		bar.Add(1)
		c := e.check(sim, s, stale)
		if c.fresh {
			continue
		}
		if c.fingerprint == "" {
			stale[s.Name] = c.reason
			t.Missing = append(t.Missing, s.Name)
			continue
		}
		if _, ok := e.cached(s, c.fingerprint); !ok {
			if err := pull.Record(ctx, s.Name, c.fingerprint); err != nil {
				release()
				return *t, nil, err
			}
		}
		if rec, ok := e.cached(s, c.fingerprint); ok {
			sim.Record(s.Name, rec.Record, rec.Artifacts)
			for _, a := range rec.Artifacts {
				e.hashes[a.Path] = a.SHA256
			}
			continue
		}
		if err := pull.Units(ctx, s.Name, c.unitKey); err != nil {
			release()
			return *t, nil, err
		}
		stale[s.Name] = "not on the remote"
		t.Missing = append(t.Missing, s.Name)
	}
	release()
	results, err := e.Run(ctx, nil, RunOptions{Wait: o.Wait, restoreOnly: true})
	return *t, results, err
}

// DefaultRemote is the config key remote: the remote push and pull use
// when none is named ("" when unset).
func (e *Engine) DefaultRemote() string {
	s, _ := e.settings.Globals[config.RemoteKey].(string)
	return s
}
