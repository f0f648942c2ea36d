// Package report is the stage that writes the paper's generated TeX:
// numbers.tex (a macro for every number the paper quotes), the tables, and
// artifacts.tex (every input artifact with its SHA-256 and its stage's
// fingerprint). The paper's text, paper/main.tex, only \input's these, so
// no number in it is typed by hand.
package report

import (
	"path"
	"strings"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/figures"
	"github.com/sudoku-census/sudoku-census/stages/report/results"
)

// generated declares paper/generated/<name>.
func generated(name, doc string) pipeline.File {
	return pipeline.NewFile("tex_"+strings.TrimSuffix(name, ".tex"), path.Join("paper", "generated", name), doc)
}

// The generated files. Tables whose inputs are not in the pipeline are
// not declared (and main.tex leaves them out through numbers.tex's flags).
var (
	NumbersTeX     = generated("numbers.tex", "a macro for every number the paper quotes, and \\ifHave... flags")
	FunnelTeX      = generated("funnel.tex", "table: the reduction funnel of first bands")
	ClassesTeX     = generated("classes.tex", "table: the classes of first bands and their completions")
	EstimatorsTeX  = generated("estimators.tex", "table: the Monte Carlo estimators compared")
	ShapesTeX      = generated("shapes.tex", "table: box shapes, exact counts, heuristic and Monte Carlo")
	ArtifactsTeX   = generated("artifacts.tex", "table: every input artifact with its SHA-256, and each stage's fingerprint")
	optionalTables = []struct {
		file  pipeline.File
		needs []string // any one of these stages
		write func(*results.Results) []byte
	}{
		{FunnelTeX, []string{"classes"}, FunnelTable},
		{ClassesTeX, []string{"exact"}, ClassesTable},
		{EstimatorsTeX, []string{"knuth", "importance"}, EstimatorsTable},
		{ShapesTeX, []string{"kilfoil", "shapes"}, ShapesTable},
	}
)

func hasAny(names []string) bool {
	for _, n := range names {
		if results.Has(n) {
			return true
		}
	}
	return false
}

// Stage writes the generated TeX.
var Stage = &pipeline.Stage{
	Name:     "report",
	Doc:      "writes the paper's numbers, tables and artifact list as TeX (paper/generated/)",
	Version:  11,
	Requires: append(results.Requires(), figures.Stage),
	Outputs: func() []pipeline.Output {
		outs := []pipeline.Output{NumbersTeX.Output, ArtifactsTeX.Output}
		for _, t := range optionalTables {
			if hasAny(t.needs) {
				outs = append(outs, t.file.Output)
			}
		}
		return outs
	}(),
	Run: run,
}

func run(p *pipeline.Pass) error {
	r, err := results.Gather(p)
	if err != nil {
		return err
	}
	figs := figures.Available(r) // drawn with data, not as a notice
	var tables []string
	for _, t := range optionalTables {
		if hasAny(t.needs) {
			tables = append(tables, strings.TrimSuffix(path.Base(t.file.Path), ".tex"))
		}
	}
	numbers, err := Numbers(r, figs, tables)
	if err != nil {
		return err
	}
	if err := NumbersTeX.Write(p, numbers); err != nil {
		return err
	}
	for _, t := range optionalTables {
		if hasAny(t.needs) {
			if err := t.file.Write(p, t.write(r)); err != nil {
				return err
			}
		}
	}
	return ArtifactsTeX.Write(p, ArtifactsTable(p.Inputs()))
}
