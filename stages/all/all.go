// Package all lists every stage of the pipeline, in the order `census dag`
// shows them. Each stage package adds itself here.
package all

import (
	"github.com/sudoku-census/sudoku-census/pipeline"
)

// Stages is the whole pipeline.
var Stages = []*pipeline.Stage{}
