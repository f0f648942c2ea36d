// Package stages lists every stage of the pipeline, in the order `census dag`
// shows them; each stage package adds itself here.
//
// The folders below are of four kinds: one package per computing stage
// (bands, reduce, classes, exact, shapes, symmetry, kilfoil, knuth,
// importance), the presenting stages and what they share in presentation/
// (figures, report, paper, htmlreport; present, typeset, plots), the maths
// in maths/ (standard library only, no pipeline), and shared/, the code
// several stages use that knows the pipeline. Each stage's package doc
// (doc.go) is its reference: `go doc ./stages/knuth`.
package stages

import (
	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/bands"
	"github.com/sudoku-census/sudoku-census/stages/classes"
	"github.com/sudoku-census/sudoku-census/stages/exact"
	"github.com/sudoku-census/sudoku-census/stages/importance"
	"github.com/sudoku-census/sudoku-census/stages/kilfoil"
	"github.com/sudoku-census/sudoku-census/stages/knuth"
	"github.com/sudoku-census/sudoku-census/stages/presentation/figures"
	"github.com/sudoku-census/sudoku-census/stages/presentation/htmlreport"
	"github.com/sudoku-census/sudoku-census/stages/presentation/paper"
	"github.com/sudoku-census/sudoku-census/stages/presentation/report"
	"github.com/sudoku-census/sudoku-census/stages/reduce"
	"github.com/sudoku-census/sudoku-census/stages/shapes"
	"github.com/sudoku-census/sudoku-census/stages/symmetry"
)

// All is the whole pipeline.
var All = []*pipeline.Stage{
	bands.Stage,
	reduce.Stage,
	classes.Stage,
	exact.Stage,
	shapes.Stage,
	symmetry.Stage,
	kilfoil.Stage,
	knuth.Stage,
	importance.Stage,
	figures.Stage, // figures, report, paper and htmlreport stay last: they present the others
	report.Stage,
	paper.Stage,
	htmlreport.Stage,
}
