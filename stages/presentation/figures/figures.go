package figures

import (
	"errors"
	"fmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/presentation/plots"
	"github.com/sudoku-census/sudoku-census/stages/presentation/present"
)

// figure is one drawn figure and the artifacts it is written to.
type figure struct {
	name     string // file name without extension
	draw     func(r *present.Results) (vg.Length, vg.Length, func(draw.Canvas), error)
	pdf, png pipeline.File
}

// newFigure declares figure name, drawn by draw, written to
// figures/<name>.pdf and figures/<name>.png; doc says what it shows.
func newFigure(name, doc string, draw func(r *present.Results) (vg.Length, vg.Length, func(draw.Canvas), error)) *figure {
	return &figure{name: name, draw: draw,
		pdf: pipeline.NewFile("figure_"+name+"_pdf", "figures/"+name+".pdf", doc+" (PDF)"),
		png: pipeline.NewFile("figure_"+name+"_png", "figures/"+name+".png", doc+" (PNG)")}
}

// single adapts a one-panel plot builder to a figure drawer.
func single(build func(*present.Results) (*plot.Plot, error)) func(*present.Results) (vg.Length, vg.Length, func(draw.Canvas), error) {
	return func(r *present.Results) (vg.Length, vg.Length, func(draw.Canvas), error) {
		p, err := build(r)
		if err != nil {
			return 0, 0, nil, err
		}
		return plots.Width, plots.Height, p.Draw, nil
	}
}

// figures are the paper's figures, in drawing order.
var figures = []*figure{
	newFigure("convergence", "running 9×9 estimate against samples with its 95% band, one panel per estimator",
		func(r *present.Results) (vg.Length, vg.Length, func(draw.Canvas), error) {
			h, paint, err := plots.Convergence(r)
			return plots.Width, h, paint, err
		}),
	newFigure("error_work", "relative standard error against CPU seconds (samples × the 9×9 long run's CPU-s per sample), log-log, every 9×9 estimator with a long run, with a 1/√n slope",
		func(r *present.Results) (vg.Length, vg.Length, func(draw.Canvas), error) {
			p, err := plots.ErrorWork(r)
			if err != nil {
				return 0, 0, nil, err
			}
			return plots.Width, plots.Height, plots.LegendBeside(p, 1.45*vg.Inch), nil
		}),
	newFigure("heuristic", "exact counts and Monte Carlo estimates over Kilfoil's heuristic (count/heuristic − 1, %, symmetric log scale), per box shape",
		func(r *present.Results) (vg.Length, vg.Length, func(draw.Canvas), error) {
			p, legend, err := plots.Heuristic(r)
			if err != nil {
				return 0, 0, nil, err
			}
			return plots.Width, plots.Height, plots.LegendAbove(p, legend), nil
		}),
	newFigure("classes", "completions per band against class size for the equivalence classes of first bands", single(plots.Classes)),
	newFigure("funnel", "first-band classes left after each reduction step, log scale", single(plots.Funnel)),
	newFigure("unit_times", "CPU time of each committed 2×6 work unit against its place in the plan, log scale", single(plots.UnitTimes)),
}

// Row is one figure the stage drew: a row of Index.
type Row struct {
	Figure string `parquet:"figure"` // name: convergence, error_work, heuristic, classes, funnel, unit_times
	PDF    string `parquet:"pdf"`    // path of the PDF below the project root, figures/<figure>.pdf
	PNG    string `parquet:"png"`    // path of the PNG, figures/<figure>.png
	Drawn  bool   `parquet:"drawn"`  // drawn from data; false: drawn as a one-line notice
	Notice string `parquet:"notice"` // why not drawn from data ("" when Drawn)
}

// Index lists the figures in drawing order: the report stage reads it to
// know which figures the paper may show.
var Index = pipeline.NewTable[Row]("figures", "one row per figure: its PDF and PNG, and whether it was drawn from data or as a notice")

// Stage draws the figures.
var Stage = &pipeline.Stage{
	Name:     "figures",
	Doc:      "draws the paper's figures (PDF and PNG) from the counts and estimates, and lists them",
	Version:  20,
	Requires: present.Requires(),
	Outputs: func() []pipeline.Output {
		var outs []pipeline.Output
		for _, f := range figures {
			outs = append(outs, f.pdf.Output, f.png.Output)
		}
		return append(outs, Index.Output)
	}(),
	Run: run,
}

func run(p *pipeline.Pass) error {
	r, err := present.Gather(p)
	if err != nil {
		return err
	}
	var rows []Row
	for _, f := range figures {
		enc, row, err := render(f, r)
		if err != nil {
			return err
		}
		if err := f.pdf.Write(p, enc.PDF); err != nil {
			return err
		}
		if err := f.png.Write(p, enc.PNG); err != nil {
			return err
		}
		rows = append(rows, row)
		p.Log.Info("figure drawn", "figure", f.name, "from_data", row.Drawn, "pdf_bytes", len(enc.PDF), "png_bytes", len(enc.PNG))
	}
	return Index.Write(p, rows)
}

// render draws figure f from r, and returns its row of Index. A figure
// whose data this run lacks is drawn as a notice saying so, never with
// made-up data.
func render(f *figure, r *present.Results) (plots.Encoded, Row, error) {
	row := Row{Figure: f.name, PDF: f.pdf.Path, PNG: f.png.Path, Drawn: true}
	w, h, paint, err := f.draw(r)
	if errors.Is(err, plots.ErrNoData) {
		w, h, paint = plots.Notice(fmt.Sprintf("%s: not drawn (%v)", f.name, err))
		row.Drawn, row.Notice = false, err.Error()
	} else if err != nil {
		return plots.Encoded{}, Row{}, fmt.Errorf("figure %s: %w", f.name, err)
	}
	enc, err := plots.Render(w, h, paint)
	return enc, row, err
}
