package pipeline

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"time"
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
// stage downstream of it run too, its new outputs being unknown.
func (e *Engine) DryRun(targets []string, ro RunOptions) ([]Planned, error) {
	want := map[*Stage]bool{}
	if len(targets) == 0 {
		for _, s := range e.order {
			want[s] = true
		}
	}
	var mark func(s *Stage)
	mark = func(s *Stage) {
		if !want[s] {
			want[s] = true
			for _, r := range s.Requires {
				mark(r)
			}
		}
	}
	for _, name := range targets {
		s, err := e.Stage(name)
		if err != nil {
			return nil, err
		}
		mark(s)
	}
	forced := map[*Stage]bool{}
	for _, name := range ro.Force {
		s, err := e.Stage(name)
		if err != nil {
			return nil, err
		}
		forced[s] = true
	}
	m, err := ReadManifest(e.opts.Root)
	if err != nil {
		return nil, err
	}
	last := e.lastRunTimes()
	e.hashes = map[string]string{}
	sim := m.clone()
	stale := map[string]string{}
	var out []Planned
	for _, s := range e.order {
		if !want[s] {
			continue
		}
		c := e.check(sim, s, stale)
		for _, r := range s.Requires {
			if forced[r] {
				forced[s] = true
				c.reason = "upstream stage " + r.Name + " was forced"
			}
		}
		if forced[s] && c.fresh {
			c.fresh, c.reason = false, "forced"
		}
		p := Planned{Stage: s.Name, Action: "up to date"}
		switch {
		case c.fresh:
		case !forced[s] && func() bool {
			rec, ok := e.cached(s.Name, c.fingerprint)
			if ok {
				sim.record(s.Name, rec.Record, rec.Artifacts)
			}
			return ok
		}():
			p.Action, p.Reason = "restore", c.reason
		default:
			p.Action, p.Reason, p.Expected = "run", c.reason, last[s.Name]
			stale[s.Name] = c.reason
		}
		out = append(out, p)
	}
	return out, nil
}

// lastRunTimes reads the run log for the wall time of each stage's last
// run; a missing or damaged log gives what it can.
func (e *Engine) lastRunTimes() map[string]time.Duration {
	times := map[string]time.Duration{}
	f, err := os.Open(filepath.Join(e.opts.Root, filepath.FromSlash(RunLogPath)))
	if err != nil {
		return times
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var line struct {
			Stage  string  `json:"stage"`
			Action string  `json:"action"`
			Wall   float64 `json:"wall_seconds"`
		}
		if json.Unmarshal(sc.Bytes(), &line) == nil && line.Action == "ran" {
			times[line.Stage] = time.Duration(line.Wall * float64(time.Second))
		}
	}
	return times
}
