package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strconv"

	"github.com/sudoku-census/sudoku-census/pipeline/engine"

	"github.com/spf13/cobra"
)

// executorFlags are the flags of `census run` that choose and configure
// the executor; each sets a config key (see executor.Config).
type executorFlags struct {
	name, partition, account, time string
	cpus, unitsPerTask, maxTasks   int
	taskMinutes                    float64
	extra                          []string
}

func (x *executorFlags) register(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&x.name, "executor", "local", "where the units of stages that have them are computed: local or slurm (key executor.name)")
	f.StringVar(&x.partition, "slurm-partition", "", "sbatch --partition (key executor.slurm.partition)")
	f.StringVar(&x.account, "slurm-account", "", "sbatch --account (key executor.slurm.account)")
	f.StringVar(&x.time, "slurm-time", "", "time limit of one array task, e.g. 30 or 1:00:00 (key executor.slurm.time)")
	f.IntVar(&x.cpus, "slurm-cpus-per-task", 1, "sbatch --cpus-per-task; units computed at once per task (key executor.slurm.cpus_per_task)")
	f.IntVar(&x.unitsPerTask, "slurm-units-per-task", 0, "units per array task; 0: from --slurm-task-minutes (key executor.slurm.units_per_task)")
	f.Float64Var(&x.taskMinutes, "slurm-task-minutes", 10, "target minutes per array task, from the mean time of the units done (key executor.slurm.task_minutes)")
	f.IntVar(&x.maxTasks, "slurm-max-tasks", 1000, "most array tasks in one job (key executor.slurm.max_tasks)")
	f.StringArrayVar(&x.extra, "slurm-arg", nil, "extra sbatch option, e.g. --slurm-arg=--mem=4G (repeatable; key executor.slurm.extra_args)")
}

// sets returns the --set overrides of the flags given on the command line.
func (x *executorFlags) sets(cmd *cobra.Command) []string {
	var out []string
	changed := cmd.Flags().Changed
	quote := func(s string) string { return strconv.Quote(s) }
	for _, f := range []struct{ flag, key, value string }{
		{"executor", "executor.name", quote(x.name)},
		{"slurm-partition", "executor.slurm.partition", quote(x.partition)},
		{"slurm-account", "executor.slurm.account", quote(x.account)},
		{"slurm-time", "executor.slurm.time", quote(x.time)},
		{"slurm-cpus-per-task", "executor.slurm.cpus_per_task", strconv.Itoa(x.cpus)},
		{"slurm-units-per-task", "executor.slurm.units_per_task", strconv.Itoa(x.unitsPerTask)},
		{"slurm-task-minutes", "executor.slurm.task_minutes", strconv.FormatFloat(x.taskMinutes, 'g', -1, 64)},
		{"slurm-max-tasks", "executor.slurm.max_tasks", strconv.Itoa(x.maxTasks)},
	} {
		if changed(f.flag) {
			out = append(out, f.key+"="+f.value)
		}
	}
	if changed("slurm-arg") {
		list, _ := json.Marshal(x.extra) // a JSON list is a YAML flow sequence
		out = append(out, "executor.slurm.extra_args="+string(list))
	}
	return out
}

// unitsCommand is the hidden `census units`: what each task of a Slurm
// array job runs to compute its batch of a stage's units into data/units.
func unitsCommand(io IO, g *globalFlags, openEngine func() (*engine.Engine, error)) *cobra.Command {
	var stage, fingerprint, plan string
	var task int
	cmd := &cobra.Command{
		Use:    "units --stage STAGE --fingerprint FP --plan FILE [--task N]",
		Short:  "Compute one Slurm array task's units (what the slurm executor's jobs run)",
		Hidden: true,
		Args:   cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if !cmd.Flags().Changed("task") {
				v, ok := os.LookupEnv("SLURM_ARRAY_TASK_ID")
				n, err := strconv.Atoi(v)
				if !ok || err != nil {
					return usageError{errors.New("units needs --task N or SLURM_ARRAY_TASK_ID (it runs as a task of a Slurm array job)")}
				}
				task = n
			}
			if stage == "" || fingerprint == "" || plan == "" {
				return usageError{errors.New("units needs --stage, --fingerprint and --plan")}
			}
			// Compute as many units at once as Slurm gave this task CPUs.
			if n, err := strconv.Atoi(os.Getenv("SLURM_CPUS_PER_TASK")); err == nil && n > 0 {
				runtime.GOMAXPROCS(n)
			}
			// Only warnings and errors on stderr: the submitting run shows
			// the tail of a failed task's stderr.
			g.quiet = true
			e, err := openEngine()
			if err != nil {
				return err
			}
			if err := e.WorkUnits(cmd.Context(), io.Stdout, stage, fingerprint, plan, task); err != nil {
				return fmt.Errorf("array task %d: %w", task, err)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&stage, "stage", "", "the stage")
	f.StringVar(&fingerprint, "fingerprint", "", "the stage's fingerprint in the submitting run")
	f.StringVar(&plan, "plan", "", "the job's plan file: the units of each array task")
	f.IntVar(&task, "task", 0, "the array task index (default: $SLURM_ARRAY_TASK_ID)")
	return cmd
}
