package cli

import (
	"errors"
	"fmt"
	"os"
	"runtime"

	"github.com/spf13/cobra"

	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
)

// countCommand is `census count`: the exact number of completions of a
// partial grid, with the counter the exact stage cross-checks with.
func countCommand(io IO) *cobra.Command {
	var box string
	cmd := &cobra.Command{
		Use:   "count [--box RxC] [FILE|-]",
		Short: "Print the exact number of completions of a partial grid",
		Long: `Reads a partial grid from FILE (or standard input, given - or nothing): one line of n² cells or
n lines of n; '.' or '0' is an empty cell; symbols are 1-9, then A-Z for n > 9. Prints the number of
completions. Boxes default to √n×√n; name others with --box RxC (for example --box 2x3 for 6×6).`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return usageError{errors.New("count reads one grid: census count [--box RxC] [FILE|-]")}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			in, name := io.Stdin, "standard input"
			if len(args) == 1 && args[0] != "-" {
				f, err := os.Open(args[0])
				if err != nil {
					return usageError{err}
				}
				defer f.Close()
				in, name = f, args[0]
			}
			// cmd.Context() is cancelled by Ctrl-C or SIGTERM (see Main):
			// the counter stops and the command exits non-zero.
			ctx := cmd.Context()
			_, count, err := grid.CountText(ctx, in, box, runtime.GOMAXPROCS(0))
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if errors.Is(err, grid.ErrClash) {
				fmt.Fprintln(io.Stdout, "0")
				fmt.Fprintf(io.Stderr, "census: %s: the givens clash: %v\n", name, err)
				return nil
			}
			if err != nil {
				return usageError{fmt.Errorf("%s: %w", name, err)}
			}
			fmt.Fprintln(io.Stdout, count.String())
			return nil
		},
	}
	cmd.Flags().StringVar(&box, "box", "", "box shape RxC (default: √n×√n)")
	return cmd
}
