package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/sudoku-census/sudoku-census/pipeline/executor"

	"github.com/sudoku-census/sudoku-census/pipeline/internal/msg"
	"github.com/sudoku-census/sudoku-census/pipeline/store"
)

// WorkUnits computes one Slurm array task's units: what the hidden command
// `census units` runs. It recomputes the stage's fingerprint from the
// manifest and the configuration and refuses to work when it differs from
// fingerprint (another configuration, other inputs, another program).
// task is the array task index; progress lines go to w.
func (e *Engine) WorkUnits(ctx context.Context, w io.Writer, stage, fingerprint, planPath string, task int) error {
	s, err := e.Stage(stage)
	if err != nil {
		return err
	}
	if s.Units == nil {
		return fmt.Errorf("stage %s has no units", stage)
	}
	data, err := os.ReadFile(planPath)
	if err != nil {
		return fmt.Errorf("unit plan: %w", err)
	}
	var plan executor.Plan
	if err := json.Unmarshal(data, &plan); err != nil {
		return fmt.Errorf("unit plan %s is damaged: %s", planPath, msg.OneLine(err.Error()))
	}
	if plan.Stage != stage || plan.Fingerprint != fingerprint {
		return fmt.Errorf("unit plan %s is for stage %s fingerprint %s, not stage %s fingerprint %s",
			planPath, plan.Stage, msg.Short(plan.Fingerprint), stage, msg.Short(fingerprint))
	}
	if task < 0 || task >= len(plan.Tasks) {
		return fmt.Errorf("array task %d: the plan has tasks 0 to %d", task, len(plan.Tasks)-1)
	}
	m, err := store.ReadManifest(e.opts.Root)
	if err != nil {
		return err
	}
	inputs, err := inputsOf(m, s)
	if err != nil {
		return fmt.Errorf("stage %s: %w", stage, err)
	}
	e.hashes = map[string]string{}
	sources, err := e.sourcesOf(s)
	if err != nil {
		return fmt.Errorf("stage %s: %w", stage, err)
	}
	tools := e.toolsOf(s)
	// The plan names the unit key (the fingerprint without the bundle,
	// which the tasks add to as they finish units).
	key := e.fingerprint(s, inputs, sources, tools, nil)
	c := checked{inputs: inputs, sources: sources, tools: tools, fingerprint: key, unitKey: key}
	if key != fingerprint {
		return fmt.Errorf("stage %s: the fingerprint here is %s but the submitting run's is %s: the configuration, the inputs or the program differ (use the same census binary and config, on a data directory every node shares)",
			stage, msg.Short(key), msg.Short(fingerprint))
	}
	ids := plan.Tasks[task]
	if err := store.CheckUnitIDs(stage, ids); err != nil {
		return err
	}
	pc := e.newPass(ctx, m, s, c)
	u := store.NewUnitSet(store.UnitDir(e.opts.Root, stage, fingerprint), fingerprint, ids)
	if plan.Recompute != "" {
		// verify --recompute's scratch directory: one name, inside the unit
		// directory, never the unit directory itself (whose files would
		// answer for the units without computing them).
		if !strings.HasPrefix(plan.Recompute, store.RecomputeDirPrefix) || filepath.Base(plan.Recompute) != plan.Recompute {
			return fmt.Errorf("unit plan %s: recompute directory %q is not %s… inside the unit directory", planPath, plan.Recompute, store.RecomputeDirPrefix)
		}
		u.Dir, u.Recompute = filepath.Join(u.Dir, plan.Recompute), true
	}
	pc.SetUnits(u)
	missing := u.Scan(pc.Pass().Log)
	fmt.Fprintf(w, "census units: stage %s, array task %d: %d units, %d already done, GOMAXPROCS %d\n",
		stage, task, len(ids), len(ids)-len(missing), runtime.GOMAXPROCS(0))
	if len(missing) == 0 {
		return nil
	}
	err = executor.Local(ctx, pc.Pass(), u, missing, nil, e.computer(pc), func(id string, took time.Duration) {
		fmt.Fprintf(w, "unit %s computed in %.3fs\n", id, took.Seconds())
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "census units: array task %d done\n", task)
	return nil
}
