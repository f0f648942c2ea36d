package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/sudoku-census/sudoku-census/pipeline/engine"
	"github.com/sudoku-census/sudoku-census/pipeline/inspect"

	"github.com/spf13/cobra"
)

// diffCommand is `census diff A [B]`: two runs compared, each a lock file
// or the current data/.
func diffCommand(io IO, openEngine func() (*engine.Engine, error)) *cobra.Command {
	var asJSON, exitCode, all bool
	cmd := &cobra.Command{
		Use:   "diff LOCK [LOCK|data]",
		Short: "Compare two runs (locks, or a lock and data/): config keys, stages and artifacts that differ, headline numbers and times old → new",
		Long: `Compare two runs, each a lock file (census lock) or "data", the current data/
(the default for the second): the configuration keys whose values differ, the stages
whose version or fingerprint differ, the artifacts whose SHA-256 differ, and old → new
for the headline numbers read from the artifacts (exact counts, Monte Carlo estimates and
95% half-widths) and the run times of the run log. A lock's numbers are read from the
copies of its artifacts this project holds (data/ or the run cache: census pull --lock
fetches them); what cannot be compared is said in a note. Exit 0, or with --exit-code
1 when the runs differ (config, stages or artifacts), as git diff --exit-code.`,
		Example: `  census diff configs/smoke.lock.json                  # the smoke lock against data/
  census diff configs/smoke.lock.json configs/default.lock.json --json
  census diff configs/default.lock.json --exit-code     # exit 1 if data/ is another run`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) < 1 || len(args) > 2 {
				return usageError{fmt.Errorf("diff needs one or two runs, each a lock file or %q, for example: census diff configs/smoke.lock.json", inspect.DataSide)}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			e, err := openEngine()
			if err != nil {
				return err
			}
			b := inspect.DataSide
			if len(args) == 2 {
				b = args[1]
			}
			d, err := e.Project().Diff(args[0], b, inspect.DiffOptions{All: all})
			if err != nil {
				return usageError{err}
			}
			if asJSON {
				out, _ := json.MarshalIndent(d, "", "  ")
				fmt.Fprintf(io.Stdout, "%s\n", out)
			} else {
				writeDiff(io.Stdout, d)
			}
			if exitCode && d.Differs() {
				return exitError{1}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "write the differences as JSON")
	cmd.Flags().BoolVar(&exitCode, "exit-code", false, "exit 1 when the runs differ in config, stages or artifacts")
	cmd.Flags().BoolVar(&all, "all", false, "list every headline number and time, not only those that differ")
	return cmd
}

// writeDiff prints a diff as tables, one per kind of difference.
func writeDiff(w io.Writer, d *inspect.Diff) {
	fmt.Fprintf(w, "%s → %s\n", d.A, d.B)
	if !d.Differs() && len(d.Metrics) == 0 {
		fmt.Fprintln(w, "\nno difference")
	}
	or := func(s string) string {
		if s == "" {
			return "-"
		}
		return s
	}
	section := func(title string, header string, n int, rows func(tw *tabwriter.Writer)) {
		if n == 0 {
			return
		}
		fmt.Fprintf(w, "\n%s (%d)\n", title, n)
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, header)
		rows(tw)
		tw.Flush()
	}
	section("config", "key\told\tnew", len(d.Config), func(tw *tabwriter.Writer) {
		for _, c := range d.Config {
			fmt.Fprintf(tw, "%s\t%s\t%s\n", c.Key, or(c.Old), or(c.New))
		}
	})
	section("stages", "stage\tversion\tfingerprint", len(d.Stages), func(tw *tabwriter.Writer) {
		for _, s := range d.Stages {
			fmt.Fprintf(tw, "%s\t%d → %d\t%s → %s\n", s.Stage, s.OldVersion, s.NewVersion, or(short(s.OldFingerprint)), or(short(s.NewFingerprint)))
		}
	})
	section("artifacts", "path\tsha256\tsize", len(d.Artifacts), func(tw *tabwriter.Writer) {
		for _, a := range d.Artifacts {
			fmt.Fprintf(tw, "%s\t%s → %s\t%d → %d\n", a.Path, or(short(a.OldSHA256)), or(short(a.NewSHA256)), a.OldSize, a.NewSize)
		}
	})
	section("numbers", "stage\tname\told\tnew", len(d.Metrics), func(tw *tabwriter.Writer) {
		for _, m := range d.Metrics {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", m.Stage, m.Key, or(m.Old), or(m.New))
		}
	})
	for _, n := range d.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
}

// short is the first twelve characters of a digest.
func short(digest string) string {
	if len(digest) > 12 {
		return digest[:12]
	}
	return digest
}
