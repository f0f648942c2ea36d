// Command toycensus is the census command line over the toy pipeline of
// pipeline/cli/internal/toy, for the tests of pipeline/cli that need a real
// process: the slurm executor (its array tasks run this binary) and
// signals. The tests build it with go build.
package main

import (
	"os"

	"github.com/sudoku-census/sudoku-census/pipeline/cli"
	"github.com/sudoku-census/sudoku-census/pipeline/cli/internal/toy"
)

func main() {
	os.Exit(cli.Main(toy.Stages(), os.Args[1:], cli.StdIO()))
}
