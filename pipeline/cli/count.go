package cli

import (
	"errors"
	"fmt"
	stdio "io"
	"math"
	"math/big"
	"runtime"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/pipeline/internal/files"
	"github.com/sudoku-census/sudoku-census/stages/maths/forecast"
	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
	"github.com/sudoku-census/sudoku-census/stages/maths/montecarlo"
)

// calibration is how long count runs the exact counter to measure its
// speed on the grid before predicting the time of the whole count; small
// grids are counted within it.
const calibration = time.Second

// defaultSamples is the number of probes when --samples is not given: a
// second or two of probes on two cores, whose cost grows with the side.
func defaultSamples(n int) int64 {
	switch {
	case n <= 9:
		return 200000
	case n <= 16:
		return 20000
	}
	return 2000
}

// countCommand is `census count`: the exact number of completions of a
// partial grid, with the counter the exact stage cross-checks with, guarded
// by a prediction of its time; or, with --estimate, the prediction alone.
func countCommand(io IO) *cobra.Command {
	var box, samplesFlag, seedFlag, maxTimeFlag string
	var estimate, force bool
	cmd := &cobra.Command{
		Use:   "count [--box RxC] [--estimate] [--max-time D] [--force] [FILE|-]",
		Short: "Print the exact number of completions of a partial grid, or an estimate of it",
		Long: `Reads a partial grid from FILE (or standard input, given - or nothing): one line of n² cells or
n lines of n; '.' or '0' is an empty cell; symbols are 1-9, then A-Z for n > 9. Prints the number of
completions. Boxes default to √n×√n; name others with --box RxC (for example --box 2x3 for 6×6): for
a side that is not a square the error lists the possible boxes. Bad input is one line naming the line
and column (exit 2); clashing givens print 0, and a message names the two cells. FILE must be a
regular file: a FIFO or a device is refused rather than waited on.

Before counting, count runs the counter for up to a second; a grid counted by then is printed. Otherwise
random probes of the counter's search tree estimate the completions and the size of the tree, and the
time the count would take; when even the optimistic end of that prediction exceeds --max-time, count
stops with one line giving the estimate and the prediction. --force counts without any of this.
--estimate prints the estimates and the prediction and does not count. The probes are reproducible:
they depend on --seed and --samples only.`,
		Example: `  echo 000000010400000000020000000000050407008000300001090000300400200050100000000806000 | census count   # 1
  printf '%081d' 0 | census count --estimate   # about 6.72132e+21 completions (95% interval 6.65704e+21 to 6.7856e+21)`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return usageError{errors.New("count reads one grid: census count [--box RxC] [FILE|-]")}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if estimate && force {
				return usageError{errors.New("--estimate and --force: --estimate does not count and --force only skips the guard of a count; give one or the other")}
			}
			seed, err := strconv.ParseUint(seedFlag, 10, 64)
			if err != nil {
				return usageError{fmt.Errorf("--seed %q: want an integer from 0 to %d", seedFlag, uint64(math.MaxUint64))}
			}
			maxTime, err := time.ParseDuration(maxTimeFlag)
			if err != nil || maxTime <= 0 {
				return usageError{fmt.Errorf("--max-time %q: want a duration > 0 such as 90s, 10m or 2h", maxTimeFlag)}
			}
			samples := int64(0)
			if samplesFlag != "" {
				if samples, err = strconv.ParseInt(samplesFlag, 10, 64); err != nil || samples < 1 || samples > forecast.MaxSamples {
					return usageError{fmt.Errorf("--samples %q: want an integer from 1 to %d", samplesFlag, forecast.MaxSamples)}
				}
			}
			in, name := io.Stdin, "standard input"
			if len(args) == 1 && args[0] != "-" {
				f, err := files.OpenRegular(args[0])
				if err != nil {
					return usageError{err}
				}
				defer f.Close()
				in, name = f, args[0]
			}
			g, err := grid.ReadText(in, box)
			if err != nil {
				return usageError{fmt.Errorf("%s: %w", name, err)}
			}
			if samples == 0 {
				samples = defaultSamples(g.Shape.N())
			}
			// cmd.Context() is cancelled by Ctrl-C or SIGTERM (see Main):
			// the counter and the probes stop and the command exits non-zero.
			ctx := cmd.Context()
			workers := runtime.GOMAXPROCS(0)
			// The exact count shows the share of its subtrees counted, on a
			// terminal only.
			countExactly := func() (*big.Int, error) {
				var out stdio.Writer
				if io.Terminal {
					out = io.Stderr
				}
				var bar *pipeline.Progress
				count, err := g.CountWithProgress(ctx, workers, func(total int) func() {
					bar = pipeline.NewProgress(out, "count: subtrees", int64(total))
					return func() { bar.Add(1) }
				})
				if bar != nil {
					bar.Done()
				}
				return count, err
			}
			// failed says whether a counting error ends the command, and
			// with what: a cancelled context, clashing givens (count 0 and a
			// message, exit 0) or a plain error; not when err is nil and the
			// context is live.
			failed := func(err error) (bool, error) {
				switch {
				case ctx.Err() != nil:
					return true, ctx.Err()
				case errors.Is(err, grid.ErrClash):
					fmt.Fprintln(io.Stdout, "0")
					fmt.Fprintf(io.Stderr, "census: %s: the givens clash: %v\n", name, err)
					return true, nil
				case err != nil:
					return true, fmt.Errorf("%s: %w", name, err)
				}
				return false, nil
			}
			if force {
				count, err := countExactly()
				if done, err := failed(err); done {
					return err
				}
				fmt.Fprintln(io.Stdout, count.String())
				return nil
			}
			cal, err := forecast.Calibrate(ctx, g, workers, min(calibration, maxTime))
			if done, err := failed(err); done {
				return err
			}
			if cal.Count != nil && !estimate {
				fmt.Fprintln(io.Stdout, cal.Count.String())
				return nil
			}
			est, err := forecast.EstimateCount(ctx, g, seed, samples, workers)
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			pred := forecast.Predict(est.OuterNodes, cal)
			if estimate {
				printEstimate(io.Stdout, est, pred, cal, seed)
				return nil
			}
			if pred.Warm > maxTime.Seconds() {
				return fmt.Errorf("%s: not counted: predicted to take %s (warm memo) to %s (cold memo), over --max-time %s; %s; --force counts anyway",
					name, humanSeconds(pred.Warm), humanSeconds(pred.Cold), maxTime, completionsText(est.Completions))
			}
			count, err := countExactly()
			if done, err := failed(err); done {
				return err
			}
			fmt.Fprintln(io.Stdout, count.String())
			return nil
		},
	}
	cmd.Flags().StringVar(&box, "box", "", "box shape RxC (default: √n×√n)")
	cmd.Flags().BoolVar(&estimate, "estimate", false, "print estimates of the completions, the search tree and the count's time; do not count")
	cmd.Flags().StringVar(&samplesFlag, "samples", "", "number of probes (default: 200000 for sides up to 9, 20000 up to 16, else 2000)")
	cmd.Flags().StringVar(&seedFlag, "seed", "1", "seed of the probes' random streams, an integer ≥ 0")
	cmd.Flags().StringVar(&maxTimeFlag, "max-time", "10m", "refuse counts predicted to take longer than this")
	cmd.Flags().BoolVar(&force, "force", false, "count without predicting the time first")
	return cmd
}

// sig writes x with 6 significant digits.
func sig(x *big.Float) string { return x.Text('g', 6) }

// completionsText is the estimate of the completions with its interval.
func completionsText(s montecarlo.Stats) string {
	if s.NonzeroFraction == 0 {
		// All-zero samples give the interval [0, 0], which would claim far
		// more than the probes know.
		return fmt.Sprintf("no estimate of the completions: none of the %d probes reached one (more --samples may)", s.Samples)
	}
	return fmt.Sprintf("about %s completions (95%% interval %s to %s)", sig(s.Estimate), sig(s.CILow), sig(s.CIHigh))
}

// printEstimate writes the report of --estimate: three lines.
func printEstimate(w stdio.Writer, est forecast.CountEstimate, pred forecast.Prediction, cal forecast.Calibration, seed uint64) {
	fmt.Fprintf(w, "estimate: %s from %d probes, seed %d\n", completionsText(est.Completions), est.Completions.Samples, seed)
	n := est.OuterNodes
	fmt.Fprintf(w, "search tree: about %s outer nodes (95%% interval %s to %s)\n", sig(n.Estimate), sig(n.CILow), sig(n.CIHigh))
	if cal.Count != nil {
		fmt.Fprintf(w, "exact count: %s, counted in %s\n", cal.Count, cal.Elapsed.Round(time.Millisecond))
		return
	}
	fmt.Fprintf(w, "exact count: predicted to take %s (warm memo) to %s (cold memo) (95%% interval %s to %s)\n",
		humanSeconds(pred.Warm), humanSeconds(pred.Cold), humanSeconds(pred.Low), humanSeconds(pred.High))
}

// humanSeconds writes a time in the largest unit that keeps it above 1.
func humanSeconds(s float64) string {
	switch {
	case math.IsInf(s, 1) || math.IsNaN(s):
		return "longer than 1e300 years"
	case s < 60:
		return fmt.Sprintf("%.3g s", s)
	case s < 3600:
		return fmt.Sprintf("%.3g min", s/60)
	case s < 2*86400:
		return fmt.Sprintf("%.3g h", s/3600)
	case s < 2*365.25*86400:
		return fmt.Sprintf("%.3g days", s/86400)
	}
	return fmt.Sprintf("%.3g years", s/(365.25*86400))
}
