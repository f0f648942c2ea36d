// Package executor computes the missing units of a pass, the only work of
// a stage that may leave the running process: Local computes them here,
// Units.Workers at a time; Slurm submits them as one Slurm array job whose
// tasks run `census units` (engine.Engine.WorkUnits) on the shared data
// directory. Either writes each finished unit to its file (store.WriteUnit)
// and fills the pass's store.UnitSet; neither publishes anything, and both
// give the same bytes. Config is the configuration subtree "executor",
// which is in no fingerprint.
//
// # Running on Slurm
//
//	bin/census run --executor slurm --slurm-partition short --slurm-time 1:00:00 --slurm-cpus-per-task 4
//
// For each stale stage with units, in pipeline order, the missing units go
// to one sbatch --array job named census-<stage>. Every array task runs the
// hidden census units on its batch: the same census binary with the same
// --root, --config and --set (as absolute paths), which recomputes the
// stage's fingerprint, refuses to work if it differs from the submitting
// run's, and writes its units into data/units/<stage>/<fingerprint>/,
// computing as many at once as SLURM_CPUS_PER_TASK. Everything else runs on
// the submitting machine, which polls squeue and holds data/.lock
// throughout.
//
// Requirements: the project root, the census binary and the config file at
// the same paths on every node, and the data directory on a filesystem
// every node sees (unit files that show up late are waited for up to 30 s);
// the Slurm client tools (sbatch, squeue, scancel, scontrol) on the
// submitting machine's PATH.
//
// The keys, set like any other; the flags of census run (and of census
// verify --recompute) set them and win:
//
//   - executor.name (--executor; default local): local (this process) or
//     slurm.
//   - executor.slurm.partition (--slurm-partition; default "", the
//     cluster's default): sbatch --partition.
//   - executor.slurm.account (--slurm-account; default ""): sbatch --account.
//   - executor.slurm.time (--slurm-time; default "", the partition's
//     default): time limit of one array task in a Slurm format (30 minutes,
//     1:30:00, 2-00:00:00, UNLIMITED).
//   - executor.slurm.cpus_per_task (--slurm-cpus-per-task; default 1):
//     1-4096, sbatch --cpus-per-task; units a task computes at once (for
//     shapes and symmetry, whose units use every core, one at a time on that
//     many cores).
//   - executor.slurm.units_per_task (--slurm-units-per-task; default 0):
//     units per array task, or 0 to derive it from task_minutes.
//   - executor.slurm.task_minutes (--slurm-task-minutes; default 10):
//     minutes one task should take, from the mean compute time of the
//     stage's units already done; one unit per task when none is done.
//   - executor.slurm.max_tasks (--slurm-max-tasks; default 1000):
//     1-1,000,000 tasks at most per array job (keep it within the cluster's
//     MaxArraySize); more units are spread over that many tasks.
//   - executor.slurm.extra_args (--slurm-arg, repeatable; default []):
//     further sbatch options such as --mem=4G; options the executor sets
//     itself or that have a key are refused.
//
// Beside the units, data/units/<stage>/<fingerprint>/ holds
// slurm-plan-<time>.json (the units of each array task), slurm-<time>.sh
// (the batch script) and each task's slurm-<job>_<task>.out and .err. When a
// task fails, the stage fails with one line naming the job, the first
// failed task (state and exit code), how many units are missing, the last
// lines of its stderr and the path of its .err file; nothing is published,
// and the same command again submits only the missing units. If squeue
// fails for a minute, the job is cancelled and the stage fails. Ctrl-C
// cancels the job with scancel and keeps the units finished so far (after a
// kill -9 of the submitting run, scancel the job census-<stage> by hand).
//
// To try it on one machine, .ci/slurm-start (as root) installs Debian's
// munge, slurmctld, slurmd and slurm-client if they are missing, writes a
// one-node configuration (node localhost, partition debug) and starts the
// daemons; .ci/slurm-stop stops them:
//
//	sudo bash .ci/slurm-start
//	make build
//	bin/census run --executor slurm --config configs/smoke.yaml
//	sudo bash .ci/slurm-stop
//
// The Slurm tests (pipeline/cli's slurm_test.go: a Slurm run gives a local
// run's bytes, a failed task then a rerun submits only the missing units,
// Ctrl-C cancels the job; TestSlurmSmokeMatchesLocal in package stages: the
// smoke pipeline on Slurm against a local run) need a running Slurm;
// without one they skip, unless SUDOKU_CENSUS_REQUIRE_SLURM=1 (set by CI)
// makes them fail.
package executor

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/sudoku-census/sudoku-census/pipeline"
)

// Key is the configuration subtree of the executor.
const Key = "executor"

// Config is the configuration subtree "executor": where the units of
// stages that have them are computed. It is not part of any fingerprint:
// every executor gives the same bytes.
type Config struct {
	// Name is "local" (this process, the default) or "slurm" (one Slurm
	// array job per stage; `census run --executor slurm`).
	Name  string      `mapstructure:"name" json:"name"`
	Slurm SlurmConfig `mapstructure:"slurm" json:"slurm"`
}

// SlurmConfig is the subtree "executor.slurm". Empty strings leave the
// choice to the cluster's defaults.
type SlurmConfig struct {
	// Partition is sbatch --partition.
	Partition string `mapstructure:"partition" json:"partition"`
	// Account is sbatch --account.
	Account string `mapstructure:"account" json:"account"`
	// Time is sbatch --time, the limit of one array task, in a Slurm time
	// format: "30" (minutes), "1:30:00", "2-00:00:00".
	Time string `mapstructure:"time" json:"time"`
	// CPUsPerTask is sbatch --cpus-per-task; a task computes that many
	// units at once (fewer if the stage's Units.Workers says so).
	CPUsPerTask int `mapstructure:"cpus_per_task" json:"cpus_per_task"`
	// UnitsPerTask is how many units one array task computes; 0 derives it
	// from TaskMinutes.
	UnitsPerTask int `mapstructure:"units_per_task" json:"units_per_task"`
	// TaskMinutes is the wall time one array task should take, used with
	// the mean time of the units already done; with none done, one unit
	// per task.
	TaskMinutes float64 `mapstructure:"task_minutes" json:"task_minutes"`
	// MaxTasks caps the tasks of one array job (Slurm's MaxArraySize is
	// 1001 by default); units are then spread over that many.
	MaxTasks int `mapstructure:"max_tasks" json:"max_tasks"`
	// ExtraArgs are passed to sbatch as they are, for example
	// ["--mem=4G", "--qos=short"].
	ExtraArgs []string `mapstructure:"extra_args" json:"extra_args"`
}

// Default is the executor configuration when no key is set: local.
func Default() *Config {
	return &Config{Name: "local", Slurm: SlurmConfig{CPUsPerTask: 1, TaskMinutes: 10, MaxTasks: 1000, ExtraArgs: []string{}}}
}

// slurmTime is the formats sbatch --time accepts.
var slurmTime = regexp.MustCompile(`^(\d+|\d+:\d{1,2}|\d+:\d{1,2}:\d{1,2}|\d+-\d+|\d+-\d+:\d{1,2}|\d+-\d+:\d{1,2}:\d{1,2}|UNLIMITED|INFINITE)$`)

// sbatchOwned are the sbatch options the executor sets itself, and what to
// use instead.
var sbatchOwned = map[string]string{
	"--array": "", "-a": "", "--output": "", "-o": "", "--error": "", "-e": "", "--parsable": "",
	"--chdir": "", "-D": "", "--wrap": "", "--wait": "", "-W": "", "--job-name": "", "-J": "",
	"--partition": "executor.slurm.partition", "-p": "executor.slurm.partition",
	"--account": "executor.slurm.account", "-A": "executor.slurm.account",
	"--time": "executor.slurm.time", "-t": "executor.slurm.time",
	"--cpus-per-task": "executor.slurm.cpus_per_task", "-c": "executor.slurm.cpus_per_task",
}

// Validate checks every executor key.
func (c *Config) Validate() error {
	if c.Name != "local" && c.Name != "slurm" {
		return pipeline.Invalid("executor.name", c.Name, `"local" or "slurm"`)
	}
	s := &c.Slurm
	for _, kv := range []struct{ key, value string }{
		{"executor.slurm.partition", s.Partition}, {"executor.slurm.account", s.Account},
	} {
		if strings.ContainsFunc(kv.value, func(r rune) bool { return r <= ' ' || r == '\'' || r == '"' }) {
			return pipeline.Invalid(kv.key, kv.value, "a Slurm name without spaces or quotes, or empty for the cluster's default")
		}
	}
	if s.Time != "" && !slurmTime.MatchString(s.Time) {
		return pipeline.Invalid("executor.slurm.time", s.Time, `a Slurm time limit such as "30" (minutes), "1:30:00" or "2-00:00:00", or empty for the partition's default`)
	}
	if s.CPUsPerTask < 1 || s.CPUsPerTask > 4096 {
		return pipeline.Invalid("executor.slurm.cpus_per_task", s.CPUsPerTask, "an integer from 1 to 4096")
	}
	if s.UnitsPerTask < 0 {
		return pipeline.Invalid("executor.slurm.units_per_task", s.UnitsPerTask, "an integer ≥ 1, or 0 to derive it from executor.slurm.task_minutes")
	}
	if !(s.TaskMinutes > 0 && s.TaskMinutes <= 1e6) {
		return pipeline.Invalid("executor.slurm.task_minutes", s.TaskMinutes, "a number of minutes above 0")
	}
	if s.MaxTasks < 1 || s.MaxTasks > 1_000_000 {
		return pipeline.Invalid("executor.slurm.max_tasks", s.MaxTasks, "an integer from 1 to 1000000 (at most the cluster's MaxArraySize)")
	}
	for _, arg := range s.ExtraArgs {
		name, _, _ := strings.Cut(arg, "=")
		if !strings.HasPrefix(arg, "-") || strings.ContainsAny(arg, "\n\r") {
			return pipeline.Invalid("executor.slurm.extra_args", fmt.Sprintf("%q", arg), `sbatch options, each one list item starting with "-", such as "--mem=4G"`)
		}
		if key, owned := sbatchOwned[name]; owned {
			allowed := "an sbatch option the executor does not set itself (it sets --array, --output, --error, --chdir, --job-name and --parsable)"
			if key != "" {
				allowed = "an sbatch option without a key of its own: use " + key
			}
			return pipeline.Invalid("executor.slurm.extra_args", fmt.Sprintf("%q", arg), allowed)
		}
	}
	return nil
}
