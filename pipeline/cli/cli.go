package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/sudoku-census/sudoku-census/pipeline/engine"
	"github.com/sudoku-census/sudoku-census/pipeline/inspect"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"golang.org/x/term"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/pipeline/store"
)

// IO is where the command reads and writes; tests pass buffers.
type IO struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// Terminal says whether Stderr is a terminal, where progress is drawn.
	Terminal bool
	// Width is the number of columns of the terminal Stdout is, where
	// long table cells are cut to fit; 0 when Stdout is no terminal: lines
	// are written whole.
	Width int
}

// exitError carries an exit code without a message of its own.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit %d", e.code) }

// Main runs the command line with args (without the program name) and
// returns the exit code: 0 success, 1 a failed run or check, 2 bad usage or
// input, 128+n when stopped by signal n (130 Ctrl-C, 143 SIGTERM).
//
// The first Ctrl-C or SIGTERM cancels the command's context: a run stops
// its stage and publishes nothing (finished units are kept), `census count`
// stops counting. Main returns when the command has stopped, or after
// stopGrace, or at a second signal, whichever comes first, having printed
// one line; the process is then expected to exit (main does).
func Main(stages []*pipeline.Stage, args []string, io IO) int {
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	done := make(chan int, 1)
	go func() { done <- execute(ctx, stages, args, io) }()
	var sig os.Signal
	select {
	case code := <-done:
		return code
	case sig = <-sigs:
	}
	cancel(interrupted{sig})
	timer := time.NewTimer(stopGrace)
	defer timer.Stop()
	select {
	case <-done:
	case <-sigs:
	case <-timer.C:
	}
	// Never leave a stage half-published: wait (briefly) for a publish in
	// progress to end, and keep any other from starting.
	stopped := make(chan struct{})
	go func() { engine.StopPublishing(); close(stopped) }()
	select {
	case <-stopped:
	case <-time.After(10 * time.Second):
	}
	name, number := "SIGTERM", 15
	if sig == os.Interrupt {
		name, number = "SIGINT (Ctrl-C)", 2
	}
	fmt.Fprintf(io.Stderr, "census: interrupted by %s: stopped; nothing partial was published\n", name)
	return 128 + number
}

// stopGrace is how long Main waits for an interrupted command to stop by
// itself before it returns anyway.
const stopGrace = 700 * time.Millisecond

// interrupted is the cause of a context cancelled by a signal.
type interrupted struct{ sig os.Signal }

func (i interrupted) Error() string { return "interrupted by " + i.sig.String() }

// execute runs the command line; an error of a command interrupted by a
// signal is left for Main to report.
func execute(ctx context.Context, stages []*pipeline.Stage, args []string, io IO) int {
	root := newRoot(stages, io)
	started := markStarts(root)
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	var exit exitError
	var intr interrupted
	switch {
	case err == nil:
		return 0
	case errors.As(context.Cause(ctx), &intr):
		return 1
	case errors.As(err, &exit):
		return exit.code
	default:
		writeError(io.Stderr, err)
		var usage usageError
		if errors.As(err, &usage) || !*started {
			return 2
		}
		return 1
	}
}

// writeError writes err as one line after "census: ", except cobra's
// suggestions for a mistyped command, which stay on lines of their own:
//
//	census: unknown command "rn" for "census"
//	Did you mean this?
//		run
func writeError(w io.Writer, err error) {
	text := err.Error()
	head, suggestions, found := strings.Cut(text, "\n\nDid you mean this?\n")
	fmt.Fprintf(w, "census: %s\n", strings.Join(strings.Fields(head), " "))
	if found {
		fmt.Fprintln(w, "Did you mean this?")
		for _, s := range strings.Fields(suggestions) {
			fmt.Fprintf(w, "\t%s\n", s)
		}
	}
}

// markStarts wraps the RunE of every command so that *started says
// whether one began: an error before that (an unknown command or flag, a
// flag's value that does not parse, arguments a command does not take) is
// bad usage, exit 2, whichever command it is.
func markStarts(root *cobra.Command) *bool {
	started := new(bool)
	var wrap func(c *cobra.Command)
	wrap = func(c *cobra.Command) {
		if run := c.RunE; run != nil {
			c.RunE = func(cmd *cobra.Command, args []string) error {
				*started = true
				return run(cmd, args)
			}
		}
		for _, sub := range c.Commands() {
			wrap(sub)
		}
	}
	wrap(root)
	return started
}

// badFlagValue matches pflag's message for a flag value that does not parse.
var badFlagValue = regexp.MustCompile(`^invalid argument "(.*)" for "(?:-\w, )?--([\w-]+)" flag`)

// flagError rewords pflag's message for a flag value that does not parse
// as the project's one line: the flag, the value as typed, what is allowed.
func flagError(cmd *cobra.Command, err error) error {
	m := badFlagValue.FindStringSubmatch(err.Error())
	if m == nil {
		return err
	}
	f := cmd.Flags().Lookup(m[2])
	if f == nil {
		return err
	}
	allowed := map[string]string{
		"int":      fmt.Sprintf("an integer from %d to %d", math.MinInt, math.MaxInt),
		"int64":    fmt.Sprintf("an integer from %d to %d", int64(math.MinInt64), int64(math.MaxInt64)),
		"uint64":   fmt.Sprintf("an integer from 0 to %d", uint64(math.MaxUint64)),
		"float64":  "a finite number",
		"duration": "a duration such as 30s, 10m or 2h (at most 2562047h)",
		"bool":     "true or false",
	}[f.Value.Type()]
	if allowed == "" {
		return err
	}
	return fmt.Errorf("--%s %q: want %s", f.Name, m[1], allowed)
}

// parseJobs reads --jobs: an integer from 1 up, exactly as typed.
func parseJobs(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		return 0, fmt.Errorf("--jobs %q: want an integer ≥ 1, the cores this run computes on (this machine has %d)", s, runtime.NumCPU())
	}
	return n, nil
}

// configIsUsage marks a refusal of a config value as bad usage (exit 2).
func configIsUsage(err error) error {
	var ce *pipeline.ConfigError
	if errors.As(err, &ce) {
		return usageError{err}
	}
	return err
}

// usageError marks errors in what the user typed or supplied.
type usageError struct{ error }

func (u usageError) Unwrap() error { return u.error }

// StdIO is the process's own standard streams.
func StdIO() IO {
	io := IO{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr,
		Terminal: term.IsTerminal(int(os.Stderr.Fd())) && os.Getenv("CI") == ""}
	if w, _, err := term.GetSize(int(os.Stdout.Fd())); err == nil && w > 0 {
		io.Width = w
	}
	return io
}

// defaultConfig is the configuration file, under the project root, that
// census reads without --config.
const defaultConfig = "configs/default.yaml"

// version is what census --version prints: the release, and the commit
// the binary was built from when Go stamped one.
func version() string {
	v := store.ToolRelease
	if c := engine.BuildCode(); c != nil {
		v += " (git commit " + c.Commit
		if c.Modified {
			v += " with uncommitted changes"
		}
		v += ")"
	}
	return v
}

type globalFlags struct {
	root, config string
	set          []string
	quiet        bool
}

// unitCommand is the command line a Slurm array task runs to compute its
// units: this program, with the same root, config file and overrides.
func (g *globalFlags) unitCommand(stage, fingerprint, plan string) []string {
	exe, err := os.Executable()
	if err != nil {
		exe = os.Args[0]
	}
	root, _ := filepath.Abs(g.root)
	config, _ := filepath.Abs(g.config)
	argv := []string{exe, "--root", root, "--config", config}
	for _, s := range g.set {
		argv = append(argv, "--set", s)
	}
	return append(argv, "units", "--stage", stage, "--fingerprint", fingerprint, "--plan", plan)
}

func newRoot(stages []*pipeline.Stage, io IO) *cobra.Command {
	g := &globalFlags{}
	root := &cobra.Command{
		Use:           "census",
		Short:         "Count Sudoku grids exactly and by simulation, reproducibly",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetOut(io.Stdout)
	root.SetErr(io.Stderr)
	root.SetIn(io.Stdin)
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error { return usageError{flagError(cmd, err)} })
	pf := root.PersistentFlags()
	pf.StringVar(&g.root, "root", ".", "project root holding data/, figures/ and paper/")
	pf.StringVar(&g.config, "config", defaultConfig, "configuration file (YAML); by default "+defaultConfig+" under --root")
	pf.StringArrayVar(&g.set, "set", nil, "override a config key: --set key=value (repeatable)")
	pf.BoolVarP(&g.quiet, "quiet", "q", false, "log warnings and errors only")

	root.Version = version()
	root.SetVersionTemplate("census {{.Version}}\n")

	openEngine := func() (*engine.Engine, error) {
		if !pf.Changed("config") {
			// The default file is the project's: under --root, not under
			// the directory census runs in.
			g.config = filepath.Join(g.root, defaultConfig)
		}
		level := slog.LevelInfo
		if g.quiet {
			level = slog.LevelWarn
		}
		logger := slog.New(slog.NewTextHandler(io.Stderr, &slog.HandlerOptions{
			Level: level,
			ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
				if len(groups) == 0 && a.Key == slog.TimeKey {
					return slog.Attr{}
				}
				return a
			},
		}))
		opts := engine.Options{Root: g.root, Stages: stages, ConfigFile: g.config, Set: g.set, Log: logger,
			UnitCommand: g.unitCommand}
		if io.Terminal {
			opts.Progress = io.Stderr
		}
		e, err := engine.New(opts)
		if err != nil {
			return nil, usageError{err}
		}
		return e, nil
	}

	var force, wait, dryRun, planJSON bool
	var jobsFlag string
	var ex executorFlags
	run := &cobra.Command{
		Use:   "run [STAGE...]",
		Short: "Bring stages up to date (default: all), running stale upstream stages first",
		Long: `Bring stages up to date (default: all), running stale upstream stages first.

The units of stages that have them are computed by this process (--executor local, the
default) or as one Slurm array job per stage (--executor slurm); every other part of a
stage runs here. The --slurm-* flags set the executor.slurm.* config keys. Ctrl-C stops
the run: nothing partial is published, finished units are kept for the next run.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if planJSON && !dryRun {
				return usageError{errors.New("--json writes the plan of a dry run: census run -n --json")}
			}
			if cmd.Flags().Changed("jobs") {
				jobs, err := parseJobs(jobsFlag)
				if err != nil {
					return usageError{err}
				}
				// Every parallel part of a run (the local executor's
				// workers, the stages' own pools) sizes itself by GOMAXPROCS.
				runtime.GOMAXPROCS(jobs)
			}
			g.set = append(g.set, ex.sets(cmd)...)
			e, err := openEngine()
			if err != nil {
				return err
			}
			for _, name := range args {
				if _, err := e.Stage(name); err != nil {
					return usageError{err}
				}
			}
			if force && len(args) == 0 {
				return usageError{errors.New("--force needs the stages to rerun, for example: census run --force reduce")}
			}
			ro := engine.RunOptions{Wait: wait}
			if force {
				ro.Force = args
			}
			if dryRun {
				plan, err := e.DryRun(args, ro)
				if err != nil {
					return configIsUsage(err)
				}
				if planJSON {
					return writePlanJSON(io.Stdout, plan)
				}
				writePlan(io.Stdout, plan, io.Width)
				return nil
			}
			results, err := e.Run(cmd.Context(), args, ro)
			writeTimings(io.Stdout, results)
			return configIsUsage(err)
		},
	}
	run.Flags().BoolVar(&force, "force", false, "rerun the named stages even if fresh (and what depends on them)")
	run.Flags().BoolVar(&wait, "wait", false, "wait for another run holding data/ instead of failing")
	run.Flags().BoolVarP(&dryRun, "dry-run", "n", false, "print what each stage would do (run, restore from the run cache, or nothing: up to date), and why; change nothing")
	run.Flags().StringVarP(&jobsFlag, "jobs", "j", "", fmt.Sprintf("cores this run computes on, an integer ≥ 1 (default: all %d)", runtime.NumCPU()))
	run.Flags().BoolVar(&planJSON, "json", false, "with -n: write the plan as JSON, each reason whole")
	ex.register(run)

	status := &cobra.Command{
		Use:   "status [STAGE...]",
		Short: "One line per stage (default: all): fresh, or stale and why; exit 1 unless all fresh",
		RunE: func(cmd *cobra.Command, args []string) error {
			e, err := openEngine()
			if err != nil {
				return err
			}
			want := map[string]bool{}
			for _, name := range args {
				if _, err := e.Stage(name); err != nil {
					return usageError{err}
				}
				want[name] = true
			}
			st, err := e.Status()
			if err != nil {
				return configIsUsage(err)
			}
			tw := tabwriter.NewWriter(io.Stdout, 0, 4, 2, ' ', 0)
			allFresh := true
			for _, s := range st {
				if len(want) > 0 && !want[s.Stage] {
					continue
				}
				switch {
				case s.Fresh:
					fmt.Fprintf(tw, "%s\tfresh\n", s.Stage)
				case s.InCache:
					allFresh = false
					fmt.Fprintf(tw, "%s\tstale (in cache): %s\n", s.Stage, s.Reason)
				case s.Units != nil:
					allFresh = false
					fmt.Fprintf(tw, "%s\tstale: %s; %s\n", s.Stage, s.Reason, s.Units)
				default:
					allFresh = false
					fmt.Fprintf(tw, "%s\tstale: %s\n", s.Stage, s.Reason)
				}
			}
			tw.Flush()
			if len(want) == 0 {
				if size := store.MeasureCache(e.Root()); size.Runs > 0 {
					fmt.Fprintln(io.Stdout, size)
				}
			}
			if !allFresh {
				return exitError{1}
			}
			return nil
		},
	}

	var dot bool
	dag := &cobra.Command{
		Use:   "dag",
		Short: "Show the stage graph (text, or Graphviz with --dot)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			e, err := openEngine()
			if err != nil {
				return err
			}
			e.Project().Dag(io.Stdout, dot)
			return nil
		},
	}
	dag.Flags().BoolVar(&dot, "dot", false, "write Graphviz dot")

	var rows int
	show := &cobra.Command{
		Use:   "show ARTIFACT",
		Short: "Show an artifact: schema, row count, provenance and the first rows",
		Args:  exactArgs(1, "show needs one artifact name or path, for example: census show reduced"),
		RunE: func(cmd *cobra.Command, args []string) error {
			e, err := openEngine()
			if err != nil {
				return err
			}
			if rows < 0 {
				return usageError{fmt.Errorf("--rows %d: want the number of rows to print, an integer ≥ 0", rows)}
			}
			if err := e.Project().Show(io.Stdout, args[0], rows); err != nil {
				return unknownIsUsage(err)
			}
			return nil
		},
	}
	show.Flags().IntVar(&rows, "rows", 10, "how many rows to print")

	var lockFile string
	var recompute string
	var recomputeSeed uint64
	var recomputeMaxCPU time.Duration
	var recomputeBundles []string
	var recomputeEx executorFlags
	verify := &cobra.Command{
		Use:   "verify [ARTIFACT...]",
		Short: "Re-hash artifacts (default: all) against data/manifest.json, against a lock with --lock, or recompute bundled units with --recompute K; exit 1 on any mismatch",
		Long: `Re-hash the named artifacts (names or paths; default: all, and then the committed bundle
each stage read, against the SHA-256 its run recorded) against data/manifest.json; exit 1 on
any mismatch (missing, unreadable, or both SHA-256), and when the manifest is missing, lists
nothing or is damaged.

--lock FILE compares every artifact on disk, every stage's fingerprint and every committed
bundle with a lock (go doc ./pipeline/inspect), one line per difference; exit 1 on any.

--recompute K recomputes K units of every committed bundle (of those named by --bundle) and
compares them byte for byte: the ⌈K/2⌉ costliest units whose recomputation takes at most
--max-unit-cpu (the bundle's projected cost of the unit, else the CPU time its row records),
and one from each of K-⌈K/2⌉ cost strata of the rest, drawn by --seed (printed); all
recomputes every unit. It fails when it would check nothing (no bundle on disk, no unit within
--max-unit-cpu). With --executor slurm the units are computed by one Slurm array job per
bundle, in a scratch directory removed afterwards.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if !cmd.Flags().Changed("recompute") {
				var given []string
				cmd.Flags().Visit(func(f *pflag.Flag) { given = append(given, f.Name) })
				for _, f := range given {
					if f == "seed" || f == "max-unit-cpu" || f == "bundle" || f == "executor" || strings.HasPrefix(f, "slurm-") {
						return usageError{fmt.Errorf("--%s applies to --recompute only: add --recompute K (or all), or leave --%s out", f, f)}
					}
				}
			}
			g.set = append(g.set, recomputeEx.sets(cmd)...)
			e, err := openEngine()
			if err != nil {
				return err
			}
			if cmd.Flags().Changed("recompute") {
				if len(args) > 0 || lockFile != "" {
					return usageError{errors.New("verify --recompute recomputes units of the committed bundles: name no artifacts and no --lock")}
				}
				k := engine.RecomputeAll
				if recompute != "all" {
					n, err := strconv.ParseInt(recompute, 10, 32)
					if err != nil || n < 1 {
						return usageError{fmt.Errorf("--recompute %q: want the number of units to recompute per bundle, an integer from 1 to 2147483647, or all", recompute)}
					}
					k = int(n)
				}
				if recomputeMaxCPU < 0 {
					return usageError{fmt.Errorf("--max-unit-cpu %s: want a duration ≥ 0 such as 30s (0: every unit)", recomputeMaxCPU)}
				}
				var bundleNames []string
				for _, s := range e.Stages() {
					if s.Units != nil {
						for _, b := range s.Units.Bundles() {
							bundleNames = append(bundleNames, b.Name)
						}
					}
				}
				for _, n := range recomputeBundles {
					if !slices.Contains(bundleNames, n) {
						return usageError{fmt.Errorf("--bundle %q: no stage has that bundle (bundles: %s)", n, strings.Join(bundleNames, ", "))}
					}
				}
				if !cmd.Flags().Changed("seed") {
					recomputeSeed = uint64(time.Now().UnixNano())
				}
				fmt.Fprintf(io.Stdout, "recomputing %s units of every bundle (the costliest half, the rest drawn by cost strata), seed %d (repeat with --seed %d)\n", recompute, recomputeSeed, recomputeSeed)
				reports, err := e.RecomputeBundlesOf(cmd.Context(), recomputeBundles, k, recomputeSeed, recomputeMaxCPU, func(line string) { fmt.Fprintln(io.Stdout, line) })
				for _, r := range reports {
					for _, what := range r.Rechecks {
						fmt.Fprintf(io.Stdout, "second computation: %s\n", what)
					}
					fmt.Fprintf(io.Stdout, "%s: %d units recomputed, each equal byte for byte: the %d costliest and %d drawn by cost strata (the bundle holds %d units, %d of the %d the configuration lists; %d within --max-unit-cpu)\n",
						r.Bundle, len(r.Checked), r.Heaviest, len(r.Checked)-r.Heaviest, r.Units, r.Listed, r.Total, r.Eligible)
				}
				return err
			}
			if lockFile != "" {
				if len(args) > 0 {
					return usageError{errors.New("verify --lock compares every artifact with the lock: name no artifacts")}
				}
				l, err := inspect.ReadLock(lockFile)
				if err != nil {
					return usageError{err}
				}
				diffs, notes, err := e.Project().CompareLockNoting(l)
				if err != nil {
					return err
				}
				for _, n := range notes {
					fmt.Fprintf(io.Stdout, "NOTE     %s\n", n)
				}
				for _, d := range diffs {
					fmt.Fprintf(io.Stdout, "DIFFERS  %s\n", d)
				}
				if len(diffs) > 0 {
					fmt.Fprintf(io.Stderr, "census: %d differences from %s\n", len(diffs), lockFile)
					return exitError{1}
				}
				fmt.Fprintf(io.Stdout, "%d artifacts and %d stages match %s\n", len(l.Artifacts), len(l.Stages), lockFile)
				return nil
			}
			res, err := e.Project().Verify()
			if err != nil {
				return err
			}
			if len(args) > 0 {
				m, err := store.ReadManifest(e.Root())
				if err != nil {
					return err
				}
				want := map[string]bool{}
				for _, name := range args {
					a, ok := m.Artifact(name)
					if !ok {
						return usageError{fmt.Errorf("unknown artifact %q: see `census status` and `census show`", name)}
					}
					want[a.Path] = true
				}
				res = slices.DeleteFunc(res, func(r inspect.VerifyResult) bool { return !want[r.Artifact.Path] })
			}
			bad := 0
			for _, r := range res {
				if r.OK {
					fmt.Fprintf(io.Stdout, "ok        %s\n", r.Artifact.Path)
				} else {
					bad++
					fmt.Fprintf(io.Stdout, "MISMATCH  %s: %s\n", r.Artifact.Path, r.Problem)
				}
			}
			if bad > 0 {
				fmt.Fprintf(io.Stderr, "census: %d of %d artifacts do not match the manifest\n", bad, len(res))
				return exitError{1}
			}
			fmt.Fprintf(io.Stdout, "%d artifacts match the manifest\n", len(res))
			return nil
		},
	}
	verify.Flags().StringVar(&lockFile, "lock", "", "compare with this lock file (census lock) instead of the manifest")
	verify.Flags().StringVar(&recompute, "recompute", "", "recompute K units of every committed bundle (data/bundles), the costliest half and the rest drawn by cost strata, or all of them (all), and compare them byte for byte; fails when it would check nothing")
	verify.Flags().Uint64Var(&recomputeSeed, "seed", 0, "seed of --recompute's draw (default: from the clock, printed)")
	verify.Flags().StringSliceVar(&recomputeBundles, "bundle", nil, "recompute units of this bundle only (its name, e.g. symmetry-12; repeatable; default: every bundle)")
	recomputeEx.register(verify)
	verify.Flags().DurationVar(&recomputeMaxCPU, "max-unit-cpu", 0, "draw --recompute's units only among those whose recomputation takes at most this CPU time (the bundle's projection, else the recorded time; e.g. 30s; default: all)")

	var lockOut string
	lock := &cobra.Command{
		Use:   "lock",
		Short: "Write the lock of a finished run: every artifact's SHA-256 and every stage's fingerprint, sorted JSON",
		Long: `Write the lock of a finished run (every stage fresh): every artifact with its SHA-256
and size, and every stage's Version, fingerprint and configuration, sorted, as stable JSON, to -o FILE or
standard output. The repository commits the locks of the paper's run
(configs/default.lock.json) and of the smoke run (configs/smoke.lock.json); anyone can
check a rerun against one with census verify --lock FILE.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			e, err := openEngine()
			if err != nil {
				return err
			}
			if lockOut != "" {
				return e.WriteLock(lockOut)
			}
			l, err := e.Lock()
			if err != nil {
				return err
			}
			_, err = io.Stdout.Write(l.Encode())
			return err
		},
	}
	lock.Flags().StringVarP(&lockOut, "output", "o", "", "write the lock to this file (default: standard output)")

	cite := &cobra.Command{
		Use:   "cite ARTIFACT",
		Short: "Print a BibTeX entry for an artifact",
		Args:  exactArgs(1, "cite needs one artifact name or path, for example: census cite total"),
		RunE: func(cmd *cobra.Command, args []string) error {
			e, err := openEngine()
			if err != nil {
				return err
			}
			if err := e.Project().Cite(io.Stdout, args[0]); err != nil {
				return unknownIsUsage(err)
			}
			return nil
		},
	}

	var gcWait bool
	var keepLast int
	gc := &cobra.Command{
		Use:   "gc",
		Short: "Remove units and run-cache entries no current fingerprint needs",
		Long: `Remove what no run needs under data/units and data/cache: for each stage, the units of
every fingerprint other than the published one and the one the current configuration gives;
the units of stages no longer in the pipeline; temporary files of interrupted runs; the run
cache's records of other fingerprints (--keep-last N keeps the N most recent of each stage)
and the objects no kept record names. Artifacts are never touched, and every current one
stays restorable. Takes data/.lock like a run.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			e, err := openEngine()
			if err != nil {
				return err
			}
			if keepLast < 0 {
				return usageError{fmt.Errorf("--keep-last %d: want an integer ≥ 0", keepLast)}
			}
			removed, err := e.GC(gcWait, keepLast)
			files, bytes := 0, int64(0)
			for _, r := range removed {
				fmt.Fprintf(io.Stdout, "removed  %s  (%d files, %d bytes)\n", r.Path, r.Files, r.Bytes)
				files += r.Files
				bytes += r.Bytes
			}
			if err != nil {
				return err
			}
			fmt.Fprintf(io.Stdout, "gc: removed %d files, %d bytes\n", files, bytes)
			return nil
		},
	}
	gc.Flags().BoolVar(&gcWait, "wait", false, "wait for a run holding data/ instead of failing")
	gc.Flags().IntVar(&keepLast, "keep-last", 0, "keep the run cache's N most recent other runs of each stage")

	root.AddCommand(run, status, dag, show, verify, lock, diffCommand(io, openEngine), countCommand(io), cite, gc,
		pushCommand(io, openEngine), pullCommand(io, openEngine), unitsCommand(io, g, openEngine))
	return root
}

// unknownIsUsage makes an unknown artifact's name bad usage (exit 2); any
// other error (a damaged manifest or artifact) is a failed check (exit 1).
func unknownIsUsage(err error) error {
	if errors.Is(err, inspect.ErrUnknownArtifact) {
		return usageError{err}
	}
	return err
}

func exactArgs(n int, msg string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != n {
			return usageError{errors.New(msg)}
		}
		return nil
	}
}

// writePlan prints a dry run: one line per stage, its action, the reason
// and, for a stage that would run, the time its last run took.
func writePlan(w io.Writer, plan []engine.Planned, width int) {
	took := make([]string, len(plan))
	stageW, actionW, tookW := len("stage"), len("would"), len("last run took")
	for i, p := range plan {
		if p.Expected > 0 {
			took[i] = p.Expected.Round(10 * time.Millisecond).String()
		} else if p.Action == "run" {
			took[i] = "never ran here"
		}
		stageW, actionW, tookW = max(stageW, len(p.Stage)), max(actionW, len(p.Action)), max(tookW, len(took[i]))
	}
	// On a terminal the why column gets what the others leave of its
	// width (at least 20 columns), and a longer reason is cut with "…";
	// census run -n --json gives every reason whole.
	whyW := 0
	if width > 0 {
		whyW = max(20, width-1-(stageW+2)-(actionW+2)-(tookW+2))
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "stage\twould\twhy\tlast run took")
	for i, p := range plan {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", p.Stage, p.Action, cut(p.Reason, whyW), took[i])
	}
	tw.Flush()
}

// cut returns s in at most n runes, its end replaced by "…" when it is
// longer; n = 0: s whole.
func cut(s string, n int) string {
	r := []rune(s)
	if n <= 0 || len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// writePlanJSON writes a dry run's plan as a JSON array, one object per
// stage: stage, action, reason (whole) and the seconds its last run took
// (null when it never ran here).
func writePlanJSON(w io.Writer, plan []engine.Planned) error {
	type planned struct {
		Stage    string   `json:"stage"`
		Action   string   `json:"action"`
		Reason   string   `json:"reason"`
		LastWall *float64 `json:"last_run_seconds"`
	}
	out := make([]planned, 0, len(plan))
	for _, p := range plan {
		q := planned{Stage: p.Stage, Action: p.Action, Reason: p.Reason}
		if p.Expected > 0 {
			secs := p.Expected.Seconds()
			q.LastWall = &secs
		}
		out = append(out, q)
	}
	data, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", data)
	return err
}

// writeTimings prints the run's timing report: one line per stage, then
// each stage's own measurements, one per line.
func writeTimings(w io.Writer, results []engine.StageResult) {
	if len(results) == 0 {
		return
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "stage\taction\twall\tcpu")
	for _, r := range results {
		if r.Skipped {
			fmt.Fprintf(tw, "%s\tskipped\t\t\n", r.Stage)
			continue
		}
		if r.Restored {
			fmt.Fprintf(tw, "%s\trestored from cache\t%.2fs\t\n", r.Stage, r.Wall.Seconds())
			continue
		}
		if !r.Ran {
			fmt.Fprintf(tw, "%s\tup to date\t\t\n", r.Stage)
			continue
		}
		fmt.Fprintf(tw, "%s\tran\t%.2fs\t%.2fs\n", r.Stage, r.Wall.Seconds(), r.CPU.Seconds())
	}
	tw.Flush()
	for _, r := range results {
		for _, m := range r.Metrics {
			value := fmt.Sprint(m.Value)
			if f, ok := m.Value.(float64); ok {
				value = fmt.Sprintf("%.4g", f)
			}
			fmt.Fprintf(w, "  %s: %s = %s\n", r.Stage, m.Name, value)
		}
	}
}
