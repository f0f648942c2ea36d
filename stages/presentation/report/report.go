package report

import (
	"path"
	"strings"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/presentation/figures"
	"github.com/sudoku-census/sudoku-census/stages/presentation/numbers"
	"github.com/sudoku-census/sudoku-census/stages/presentation/present"
)

// generated declares paper/generated/<name>.
func generated(name, doc string) pipeline.File {
	return pipeline.NewFile("tex_"+strings.TrimSuffix(name, ".tex"), path.Join("paper", "generated", name), doc)
}

// The generated files.
var (
	NumbersTeX    = generated("numbers.tex", "a macro for every number the paper quotes, and \\ifHave... flags")
	FunnelTeX     = generated("funnel.tex", "table: the reduction funnel of first bands")
	ClassesTeX    = generated("classes.tex", "table: the classes of first bands and their completions")
	EstimatorsTeX = generated("estimators.tex", "table: the Monte Carlo estimators compared")
	ShapesTeX     = generated("shapes.tex", "table: box shapes, exact counts, heuristic and Monte Carlo")
	SymmetryTeX   = generated("symmetry.tex", "table: essentially different grids per box shape, by Burnside's lemma")
	FixingTeX     = generated("fixing.tex", "table: the conjugacy classes of the 9x9 symmetry group that fix a grid")
	CorrectionTeX = generated("correction.tex", "table: the classes behind the count that corrects a published one, with both counts of each")
	CoverageTeX   = generated("coverage.tex", "table: empirical coverage of the Monte Carlo 95% intervals on shapes with known counts")
	TailsTeX      = generated("tails.tex", "table: tail diagnostics (ESS, largest share, Pareto k-hat) of the estimates for grids of side 15 and more")
	LongRunsTeX   = generated("longruns.tex", "table: every long run: samples, units, CPU-hours, estimate, k-hat")
	ArtifactsTeX  = generated("artifacts.tex", "table: every input artifact with its SHA-256, and each stage's fingerprint")
)

// tables are the tables written from the results; numbers.tex flags each
// (\HaveTableFunneltrue…).
var tables = []struct {
	file  pipeline.File
	write func(*present.Results) []byte
}{
	{FunnelTeX, FunnelTable},
	{ClassesTeX, ClassesTable},
	{EstimatorsTeX, EstimatorsTable},
	{ShapesTeX, ShapesTable},
	{SymmetryTeX, SymmetryTable},
	{FixingTeX, FixingTable},
	{CorrectionTeX, CorrectionTable},
	{CoverageTeX, CoverageTable},
	{TailsTeX, TailsTable},
	{LongRunsTeX, LongRunsTable},
}

// Stage writes the generated TeX.
var Stage = &pipeline.Stage{
	Name:     "report",
	Doc:      "writes the paper's numbers, tables and artifact list as TeX (paper/generated/)",
	Version:  46,
	Requires: append(present.Requires(), figures.Stage),
	Outputs: func() []pipeline.Output {
		outs := []pipeline.Output{NumbersTeX.Output, ArtifactsTeX.Output}
		for _, t := range tables {
			outs = append(outs, t.file.Output)
		}
		return outs
	}(),
	Run: run,
}

func run(p *pipeline.Pass) error {
	r, err := present.Gather(p)
	if err != nil {
		return err
	}
	figs, err := figures.Index.Read(p)
	if err != nil {
		return err
	}
	files, err := generate(r, figs, p.Inputs())
	if err != nil {
		return err
	}
	for _, g := range files {
		if err := g.file.Write(p, g.data); err != nil {
			return err
		}
	}
	return nil
}

// file is one generated file's contents.
type file struct {
	file pipeline.File
	data []byte
}

// generate writes every output of the stage, in the order of
// Stage.Outputs, from the results r, the figures stage's index figs (a
// figure gets its \HaveFig flag when it was drawn from data, not as a
// notice) and the manifest entries of the stage's inputs.
func generate(r *present.Results, figs []figures.Row, inputs []pipeline.ArtifactEntry) ([]file, error) {
	var drawn []string
	for _, f := range figs {
		if f.Drawn {
			drawn = append(drawn, f.Figure)
		}
	}
	var names []string
	for _, t := range tables {
		names = append(names, strings.TrimSuffix(path.Base(t.file.Path), ".tex"))
	}
	tex, err := numbers.TeX(r, drawn, names)
	if err != nil {
		return nil, err
	}
	out := []file{{NumbersTeX, tex}, {ArtifactsTeX, ArtifactsTable(inputs)}}
	for _, t := range tables {
		out = append(out, file{t.file, t.write(r)})
	}
	return out, nil
}
