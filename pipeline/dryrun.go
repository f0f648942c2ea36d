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
	want, forced, err := e.selection(targets, ro.Force)
	if err != nil {
		return nil, err
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
		c := e.checkForced(sim, s, stale, forced)
		p := Planned{Stage: s.Name, Action: "up to date"}
		switch {
		case c.fresh:
		case !forced[s] && func() bool {
			rec, ok := e.cached(s, c.fingerprint)
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
// run.
func (e *Engine) lastRunTimes() map[string]time.Duration {
	times := map[string]time.Duration{}
	e.eachRun(func(r runLogLine) {
		if r.Action == "ran" {
			times[r.Stage] = time.Duration(r.Wall * float64(time.Second))
		}
	})
	return times
}

// runLogLine is what the engine reads back of a line of the run log.
type runLogLine struct {
	Time        string         `json:"time"`
	Stage       string         `json:"stage"`
	Action      string         `json:"action"`
	Fingerprint string         `json:"fingerprint"`
	Wall        float64        `json:"wall_seconds"`
	CPU         float64        `json:"cpu_seconds"`
	Metrics     map[string]any `json:"metrics"`
}

// eachRun calls f with every line of the run log, oldest first; a missing
// log has none, and damaged lines are passed over.
func (e *Engine) eachRun(f func(runLogLine)) {
	file, err := os.Open(filepath.Join(e.opts.Root, filepath.FromSlash(RunLogPath)))
	if err != nil {
		return
	}
	defer file.Close()
	sc := bufio.NewScanner(file)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var line runLogLine
		if json.Unmarshal(sc.Bytes(), &line) == nil {
			f(line)
		}
	}
}
