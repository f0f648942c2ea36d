// Command census runs the sudoku-census pipeline; `census --help` lists
// its commands.
package main

import (
	"os"

	"github.com/sudoku-census/sudoku-census/pipeline/cli"
	"github.com/sudoku-census/sudoku-census/stages"
)

func main() {
	os.Exit(cli.Main(stages.All, os.Args[1:], cli.StdIO()))
}
