package engine

import (
	"time"

	"github.com/sudoku-census/sudoku-census/pipeline/store"
)

// Planned is what a run would do with one stage.
type Planned struct {
	Stage  string
	Action string // "up to date", "restore" (from the run cache) or "run"
	Reason string // why it is not up to date
	// Expected is the wall time of the stage's last run in the run log
	// (zero when it never ran here).
	Expected time.Duration
}

// DryRun returns what Run(targets, ro) would do, stage by stage, without
// doing any of it: it takes no lock and writes nothing. Stages restored
// from the cache count as up to date for the stages downstream, since the
// run gives them the cached bytes; a stage that would run makes every
// stage downstream of it run too, its new outputs being unknown. A stage
// that would run but stop on its configuration as it lists its units
// (knuth.max_cpu_hours) makes DryRun fail with that refusal.
func (e *Engine) DryRun(targets []string, ro RunOptions) ([]Planned, error) {
	want, forced, err := e.selection(targets, ro.Force)
	if err != nil {
		return nil, err
	}
	m, err := store.ReadManifest(e.opts.Root)
	if err != nil {
		return nil, err
	}
	last := e.lastRunTimes()
	e.hashes = map[string]string{}
	sim := m.Clone()
	stale := map[string]string{}
	var out []Planned
	for _, s := range e.order {
		if !want[s] {
			continue
		}
		c := e.checkForced(sim, s, stale, forced)
		p := Planned{Stage: s.Name, Action: "up to date"}
		switch {
		case c.fresh:
		case !forced[s] && func() bool {
			rec, ok := e.cached(s, c.fingerprint)
			if ok {
				sim.Record(s.Name, rec.Record, rec.Artifacts)
			}
			return ok
		}():
			p.Action, p.Reason = "restore", c.reason
		default:
			p.Action, p.Reason, p.Expected = "run", c.reason, last[s.Name]
			stale[s.Name] = c.reason
			if err := e.unitRefusal(sim, s, c); err != nil {
				return nil, err
			}
		}
		out = append(out, p)
	}
	return out, nil
}

// lastRunTimes reads the run log for the wall time of each stage's last
// run.
func (e *Engine) lastRunTimes() map[string]time.Duration {
	times := map[string]time.Duration{}
	store.EachRun(e.opts.Root, func(r store.RunLogLine) {
		if r.Action == "ran" {
			times[r.Stage] = time.Duration(r.Wall * float64(time.Second))
		}
	})
	return times
}
