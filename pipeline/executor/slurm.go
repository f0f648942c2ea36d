package executor

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/pipeline/internal/files"
	"github.com/sudoku-census/sudoku-census/pipeline/internal/msg"
	"github.com/sudoku-census/sudoku-census/pipeline/store"
)

// The slurm executor. For a stage with missing units it writes a plan
// (which units each array task computes) and a batch script beside the
// units, submits one array job with sbatch, polls squeue until the job has
// left the queue, then reads the units the tasks wrote. Each task runs the
// engine's UnitCommand (`census units`), which recomputes the stage's
// fingerprint, refuses to work on any other, and computes its units into
// the shared data directory. The submitting run holds data/.lock
// throughout; the tasks do not take it.

// slurmPoll is how often the submitting run asks squeue about its job.
const slurmPoll = 250 * time.Millisecond

// Plan is the plan file of one array job: what `census units` reads.
type Plan struct {
	Stage       string     `json:"stage"`
	Fingerprint string     `json:"fingerprint"`
	Tasks       [][]string `json:"tasks"` // unit ids, by array task index
	// Recompute, when set, is the scratch directory of verify --recompute
	// (store.RecomputeDirPrefix…) inside the stage's unit directory: the
	// tasks compute their units there and leave the bundles alone.
	Recompute string `json:"recompute,omitempty"`
}

// Slurm is the slurm executor of one project.
type Slurm struct {
	Config SlurmConfig
	// Root is the project root; the units are below it, in a data directory
	// every node shares.
	Root string
	// UnitCommand returns the command line that computes the units of an
	// array task (see engine.Options.UnitCommand).
	UnitCommand func(stage, fingerprint, plan string) []string
}

// slurmError is a failure of the Slurm tools themselves.
func slurmError(format string, args ...any) error {
	return fmt.Errorf("executor slurm: "+format, args...)
}

// lookSlurm finds a Slurm client program.
func lookSlurm(name string) (string, error) {
	path, err := exec.LookPath(name)
	if err != nil {
		return "", slurmError("%s is not installed (not found in PATH): install the Slurm client tools (Debian: slurm-client), or run with --executor local", name)
	}
	return path, nil
}

// unitsPerTask decides how many units one array task computes: the
// configured number, or as many as fill task_minutes at the mean time of
// the units done so far (one when none is done), so that there are at most
// max_tasks tasks.
func unitsPerTask(cfg SlurmConfig, parallel int, mean time.Duration, missing int) int {
	// A task never takes more than the missing units: so per ≤ missing
	// (≤ MaxUnits) and no sum below overflows, whatever the config says.
	most := max(missing, 1)
	per := min(cfg.UnitsPerTask, most)
	if per == 0 {
		per = 1
		if mean > 0 {
			// Clamped as a float: a huge task_minutes must not convert
			// to a wrapped int.
			fill := cfg.TaskMinutes * float64(time.Minute) * float64(parallel) / float64(mean)
			per = int(min(max(fill, 1), float64(most)))
		}
	}
	if (missing+per-1)/per > cfg.MaxTasks {
		per = (missing + cfg.MaxTasks - 1) / cfg.MaxTasks
	}
	return per
}

// splitTasks cuts ids into ⌈len/per⌉ runs of nearly equal length, in order.
func splitTasks(ids []string, per int) [][]string {
	n := (len(ids) + per - 1) / per
	tasks := make([][]string, n)
	for t := range tasks {
		tasks[t] = ids[t*len(ids)/n : (t+1)*len(ids)/n]
	}
	return tasks
}

func shellQuote(args []string) string {
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return strings.Join(quoted, " ")
}

// rel is path relative to the project root, for messages.
func (sl *Slurm) rel(path string) string {
	if r, err := filepath.Rel(sl.Root, path); err == nil && filepath.IsLocal(r) {
		return filepath.ToSlash(r)
	}
	return path
}

// Compute computes the missing units of u as one Slurm array job.
func (sl *Slurm) Compute(ctx context.Context, p *pipeline.Pass, u *store.UnitSet, missing []int, prog *pipeline.Progress) error {
	cfg := sl.Config
	if sl.UnitCommand == nil {
		return slurmError("this program cannot start unit workers (Options.UnitCommand is not set)")
	}
	sbatch, err := lookSlurm("sbatch")
	if err != nil {
		return err
	}
	squeue, err := lookSlurm("squeue")
	if err != nil {
		return err
	}
	root, err := filepath.Abs(sl.Root)
	if err != nil {
		return err
	}
	// Tasks start in root (--chdir) on any node: name every file absolutely.
	dir := store.UnitDir(root, p.Stage.Name, u.Fingerprint)
	var recompute string
	if u.Recompute {
		recompute = filepath.Base(u.Dir)
		dir = filepath.Join(dir, recompute)
	}
	ids := make([]string, len(missing))
	for k, i := range missing {
		ids[k] = u.IDs[i]
	}
	parallel := cfg.CPUsPerTask
	if w := p.Stage.Units.Workers; w > 0 {
		parallel = min(parallel, w)
	}
	plan := Plan{Stage: p.Stage.Name, Fingerprint: u.Fingerprint, Recompute: recompute,
		Tasks: splitTasks(ids, unitsPerTask(cfg, parallel, u.MeanTook(), len(ids)))}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	stamp := time.Now().UTC().Format("20060102-150405.000000")
	planPath := filepath.Join(dir, "slurm-plan-"+stamp+".json")
	planJSON, _ := json.Marshal(plan)
	if err := files.WriteAtomic(planPath, planJSON); err != nil {
		return err
	}
	script := fmt.Sprintf("#!/bin/sh\n# census: stage %s, %d units in %d array tasks; plan %s\nexec %s\n",
		p.Stage.Name, len(ids), len(plan.Tasks), filepath.Base(planPath),
		shellQuote(sl.UnitCommand(p.Stage.Name, u.Fingerprint, planPath)))
	scriptPath := filepath.Join(dir, "slurm-"+stamp+".sh")
	if err := os.WriteFile(scriptPath, []byte(script), 0o755); err != nil {
		return err
	}
	args := []string{
		"--parsable",
		fmt.Sprintf("--array=0-%d", len(plan.Tasks)-1),
		"--job-name=census-" + p.Stage.Name,
		"--output=" + filepath.Join(dir, "slurm-%A_%a.out"),
		"--error=" + filepath.Join(dir, "slurm-%A_%a.err"),
		"--chdir=" + root,
		fmt.Sprintf("--cpus-per-task=%d", cfg.CPUsPerTask),
	}
	for _, opt := range [][2]string{{"--partition", cfg.Partition}, {"--account", cfg.Account}, {"--time", cfg.Time}} {
		if opt[1] != "" {
			args = append(args, opt[0]+"="+opt[1])
		}
	}
	args = append(append(args, cfg.ExtraArgs...), scriptPath)
	// Not tied to ctx: a submission cut short could leave a job we do not
	// know the id of. sbatch answers at once; ctx is checked after it.
	cmd := exec.Command(sbatch, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		why := msg.OneLine(stderr.String())
		if why == "" {
			why = err.Error()
		}
		return slurmError("sbatch refused the array job of stage %s: %s", p.Stage.Name, why)
	}
	job, _, _ := strings.Cut(strings.TrimSpace(string(out)), ";")
	if _, err := strconv.ParseUint(job, 10, 64); err != nil {
		return slurmError("sbatch printed %q, not a job id", msg.OneLine(string(out)))
	}
	p.Log.Info("submitted slurm array job", "job", job, "units", len(ids), "tasks", len(plan.Tasks), "logs", sl.rel(u.Dir))
	p.Report("units.slurm_job", job)
	p.Report("units.slurm_tasks", len(plan.Tasks))
	if err := waitSlurm(ctx, p.Log, squeue, job, u, ids, prog); err != nil {
		return err
	}
	still := u.Scan(p.Log)
	// Files written on other nodes can show up late on a network
	// filesystem: give them a while when no task has reported an error.
	for deadline := time.Now().Add(30 * time.Second); len(still) > 0 && time.Now().Before(deadline); {
		if sl.anyTaskErrors(u.Dir, job, len(plan.Tasks)) {
			break
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(500 * time.Millisecond):
		}
		still = u.Scan(p.Log)
	}
	if len(still) > 0 {
		return sl.slurmFailure(job, u, plan, still)
	}
	p.Log.Info("slurm array job done", "job", job, "units", len(ids))
	return nil
}

// waitSlurm polls squeue until the job has left the queue, drawing
// progress from the unit files that appear. When ctx is cancelled it
// cancels the job (scancel) and returns ctx's error.
func waitSlurm(ctx context.Context, log *slog.Logger, squeue, job string, u *store.UnitSet, ids []string, prog *pipeline.Progress) error {
	tick := time.NewTicker(slurmPoll)
	defer tick.Stop()
	counted, failures := 0, 0
	var lastErr error
	for {
		select {
		case <-ctx.Done():
			scancel(log, job)
			return ctx.Err()
		case <-tick.C:
		}
		queued, err := squeueHas(squeue, job)
		if ctx.Err() != nil {
			continue
		}
		if err != nil {
			// slurmctld may be busy or restarting: retry for a while.
			if failures++; failures*int(slurmPoll) >= int(time.Minute) {
				scancel(log, job)
				return slurmError("squeue has failed for a minute while waiting for job %s: %v", job, err)
			}
			lastErr = err
			continue
		}
		if failures > 0 {
			log.Info("squeue answers again", "job", job, "after", lastErr)
		}
		failures = 0
		if prog.Shown() {
			names := u.Present()
			n := 0
			for _, id := range ids {
				if names[id] {
					n++
				}
			}
			prog.Add(int64(n - counted))
			counted = n
		}
		if !queued {
			return nil
		}
	}
}

// squeueHas reports whether any task of the array job is still queued or
// running.
func squeueHas(squeue, job string) (bool, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, squeue, "-h", "-j", job, "-o", "%i %T")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		// A job that finished long ago (MinJobAge) is unknown to squeue.
		if strings.Contains(stderr.String(), "Invalid job id") {
			return false, nil
		}
		return false, fmt.Errorf("%v: %s", err, msg.OneLine(stderr.String()))
	}
	return strings.TrimSpace(string(out)) != "", nil
}

// scancel cancels the job, logging (not returning) a failure.
func scancel(log *slog.Logger, job string) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "scancel", job).CombinedOutput()
	if err != nil {
		log.Warn("scancel failed: cancel the job by hand", "job", job, "err", err, "output", msg.OneLine(string(out)))
		return
	}
	log.Info("cancelled slurm job", "job", job)
}

// taskLog is the path of an array task's stdout or stderr ("out", "err").
func taskLog(dir, job string, task int, stream string) string {
	return filepath.Join(dir, fmt.Sprintf("slurm-%s_%d.%s", job, task, stream))
}

// anyTaskErrors reports whether any task of the job wrote to its stderr.
func (sl *Slurm) anyTaskErrors(dir, job string, tasks int) bool {
	for t := range tasks {
		if info, err := os.Stat(taskLog(dir, job, t, "err")); err == nil && info.Size() > 0 {
			return true
		}
	}
	return false
}

// tail returns the last non-empty lines of a file, at most about max bytes,
// joined with " | ".
func tail(path string, lines, max int) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	if info, err := f.Stat(); err == nil && info.Size() > int64(4*max) {
		f.Seek(info.Size()-int64(4*max), io.SeekStart)
	}
	b, _ := io.ReadAll(f)
	var kept []string
	for _, line := range slices.Backward(strings.Split(string(b), "\n")) {
		if line = strings.TrimSpace(line); line != "" && len(kept) < lines {
			kept = append(kept, line)
		}
	}
	slices.Reverse(kept)
	s := strings.Join(kept, " | ")
	if len(s) > max {
		s = "…" + s[len(s)-max:]
	}
	return s
}

// taskState asks scontrol for an array task's state and exit code, while
// Slurm still remembers the job; "" when it does not.
func taskState(job string, task int) string {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "scontrol", "-o", "show", "job", job).Output()
	if err != nil {
		return ""
	}
	want := fmt.Sprintf("ArrayTaskId=%d ", task)
	for _, line := range strings.Split(string(out), "\n") {
		if !strings.Contains(line+" ", want) {
			continue
		}
		var state, code string
		for _, field := range strings.Fields(line) {
			if v, ok := strings.CutPrefix(field, "JobState="); ok {
				state = v
			}
			if v, ok := strings.CutPrefix(field, "ExitCode="); ok {
				code = v
			}
		}
		if state != "" {
			return fmt.Sprintf("%s, exit code %s", state, code)
		}
	}
	return ""
}

// slurmFailure is the error of an array job that left units missing: the
// first failed task, the tail of its stderr and where the logs are.
func (sl *Slurm) slurmFailure(job string, u *store.UnitSet, plan Plan, still []int) error {
	taskOf := map[string]int{}
	for t, ids := range plan.Tasks {
		for _, id := range ids {
			taskOf[id] = t
		}
	}
	perTask := map[int]int{}
	var failed []int
	for _, i := range still {
		t, ok := taskOf[u.IDs[i]]
		if !ok {
			continue
		}
		if perTask[t] == 0 {
			failed = append(failed, t)
		}
		perTask[t]++
	}
	slices.Sort(failed)
	if len(failed) == 0 {
		return slurmError("job %s finished but %d units are missing", job, len(still))
	}
	first := failed[0]
	msg := fmt.Sprintf("slurm job %s: array task %d failed", job, first)
	if state := taskState(job, first); state != "" {
		msg += " (" + state + ")"
	}
	msg += fmt.Sprintf(", %d of its %d units missing", perTask[first], len(plan.Tasks[first]))
	errLog := taskLog(u.Dir, job, first, "err")
	if t := tail(errLog, 3, 600); t != "" {
		msg += "; stderr: " + t
	} else {
		msg += "; its stderr is empty"
	}
	msg += " [" + sl.rel(errLog) + "]"
	if more := len(failed) - 1; more > 0 {
		var list []string
		for _, t := range failed[1:min(len(failed), 11)] {
			list = append(list, strconv.Itoa(t))
		}
		if more > 10 {
			list = append(list, "…")
		}
		msg += fmt.Sprintf("; %d more tasks failed (%s)", more, strings.Join(list, ", "))
	}
	done := len(u.IDs) - len(still)
	msg += fmt.Sprintf("; %d of %d units are done and kept: run again to submit the %d missing", done, len(u.IDs), len(still))
	return errors.New(msg)
}
