// Package figures is the stage that draws the paper's figures from the
// computing stages' artifacts, each as PDF (for LaTeX) and PNG (for the
// README and a browser). Drawing is deterministic: the same artifacts give
// byte-identical files.
package figures

import (
	"errors"
	"fmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/report/results"
)

// figure is one drawn figure and the artifacts it is written to.
type figure struct {
	name     string // file name without extension
	doc      string
	needs    [][]string // any one stage of each inner list must be in the pipeline
	draw     func(r *results.Results) (vg.Length, vg.Length, func(draw.Canvas), error)
	pdf, png pipeline.File
}

// single adapts a one-panel plot builder to a figure drawer.
func single(build func(*results.Results) (*plot.Plot, error)) func(*results.Results) (vg.Length, vg.Length, func(draw.Canvas), error) {
	return func(r *results.Results) (vg.Length, vg.Length, func(draw.Canvas), error) {
		p, err := build(r)
		if err != nil {
			return 0, 0, nil, err
		}
		return figWidth, figHeight, p.Draw, nil
	}
}

var monteCarlo = []string{"knuth", "importance"}

var all = []*figure{
	{name: "convergence", doc: "running 9×9 estimate against samples with its 95% band, one panel per estimator",
		needs: [][]string{monteCarlo, {"exact", "shapes"}},
		draw: func(r *results.Results) (vg.Length, vg.Length, func(draw.Canvas), error) {
			h, paint, err := Convergence(r)
			return figWidth, h, paint, err
		}},
	{name: "error_work", doc: "relative standard error against work, log-log, every 9×9 estimator, with a 1/√n slope",
		needs: [][]string{monteCarlo}, draw: single(ErrorWork)},
	{name: "heuristic", doc: "exact counts and Monte Carlo estimates divided by Kilfoil's heuristic, per box shape",
		needs: [][]string{{"kilfoil"}, {"exact", "shapes", "knuth", "importance"}}, draw: single(Heuristic)},
	{name: "classes", doc: "completions per band against class size for the equivalence classes of first bands",
		needs: [][]string{{"exact"}}, draw: single(Classes)},
	{name: "funnel", doc: "first-band classes left after each reduction step, log scale",
		needs: [][]string{{"classes"}}, draw: single(Funnel)},
}

// figures are the figures whose inputs the pipeline makes.
var figures = func() []*figure {
	var fs []*figure
	for _, f := range all {
		ok := true
		for _, anyOf := range f.needs {
			found := false
			for _, name := range anyOf {
				found = found || results.Has(name)
			}
			ok = ok && found
		}
		if ok {
			f.pdf = pipeline.NewFile("figure_"+f.name+"_pdf", "figures/"+f.name+".pdf", f.doc+" (PDF)")
			f.png = pipeline.NewFile("figure_"+f.name+"_png", "figures/"+f.name+".png", f.doc+" (PNG)")
			fs = append(fs, f)
		}
	}
	return fs
}()

// Stage draws the figures.
var Stage = &pipeline.Stage{
	Name:     "figures",
	Doc:      "draws the paper's figures (PDF and PNG) from the counts and estimates",
	Version:  8,
	Requires: results.Requires(),
	Outputs: func() []pipeline.Output {
		var outs []pipeline.Output
		for _, f := range figures {
			outs = append(outs, f.pdf.Output, f.png.Output)
		}
		return outs
	}(),
	Run: run,
}

// errNoData marks a figure whose inputs this configuration did not make
// (a smoke run without 9×9 traces, say).
var errNoData = errors.New("no data")

func run(p *pipeline.Pass) error {
	r, err := results.Gather(p)
	if err != nil {
		return err
	}
	for _, f := range figures {
		enc, err := Draw(f, r)
		if err != nil {
			return err
		}
		if err := f.pdf.Write(p, enc.PDF); err != nil {
			return err
		}
		if err := f.png.Write(p, enc.PNG); err != nil {
			return err
		}
		p.Log.Info("figure drawn", "figure", f.name, "pdf_bytes", len(enc.PDF), "png_bytes", len(enc.PNG))
	}
	return nil
}

// Draw renders figure f from r. A figure whose data this run lacks is
// drawn as a notice saying so, never with made-up data.
func Draw(f *figure, r *results.Results) (Encoded, error) {
	w, h, paint, err := f.draw(r)
	if errors.Is(err, errNoData) {
		p := newPlot(fmt.Sprintf("%s: not drawn (%v)", f.name, err), "", "")
		p.HideAxes()
		w, h, paint = figWidth, figHeight/3, p.Draw
	} else if err != nil {
		return Encoded{}, fmt.Errorf("figure %s: %w", f.name, err)
	}
	return Render(w, h, paint)
}

// Available returns the names of the figures this pipeline draws from r
// with data (not as a notice), in drawing order: what the paper may show.
func Available(r *results.Results) []string {
	var names []string
	for _, f := range figures {
		if _, _, _, err := f.draw(r); err == nil {
			names = append(names, f.name)
		}
	}
	return names
}
