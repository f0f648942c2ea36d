// Package executor computes the missing units of a pass, the only work of
// a stage that may leave the running process: Local computes them here,
// Units.Workers at a time; Slurm submits them as one Slurm array job whose
// tasks run `census units` (engine.Engine.WorkUnits) on the shared data
// directory. Either writes each finished unit to its file (store.WriteUnit)
// and fills the pass's store.UnitSet; neither publishes anything, and both
// give the same bytes. Config is the configuration subtree "executor",
// which is in no fingerprint.
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
