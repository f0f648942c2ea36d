// Package all lists every stage of the pipeline, in the order `census dag`
// shows them. Each stage package adds itself here.
package all

import (
	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/bands"
	"github.com/sudoku-census/sudoku-census/stages/classes"
	"github.com/sudoku-census/sudoku-census/stages/exact"
	"github.com/sudoku-census/sudoku-census/stages/figures"
	"github.com/sudoku-census/sudoku-census/stages/importance"
	"github.com/sudoku-census/sudoku-census/stages/kilfoil"
	"github.com/sudoku-census/sudoku-census/stages/knuth"
	"github.com/sudoku-census/sudoku-census/stages/reduce"
	"github.com/sudoku-census/sudoku-census/stages/report"
	"github.com/sudoku-census/sudoku-census/stages/shapes"
)

// Stages is the whole pipeline.
var Stages = []*pipeline.Stage{
	bands.Stage,
	reduce.Stage,
	classes.Stage,
	exact.Stage,
	shapes.Stage,
	kilfoil.Stage,
	knuth.Stage,
	importance.Stage,
	figures.Stage, // figures and report stay last: they present the others
	report.Stage,
}
