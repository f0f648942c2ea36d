package report

import (
	"github.com/sudoku-census/sudoku-census/stages/presentation/present"
)

// The tables are made by package present (present.Tables), which the HTML
// report prints too; this stage writes them as TeX.

// FunnelTable and the others are the present tables as TeX: a longtable
// for those present marks Long (NamedTable.TeX), a tabular for the others.
func FunnelTable(r *present.Results) []byte     { return present.FunnelTable(r).TeX() }
func ClassesTable(r *present.Results) []byte    { return present.ClassesTable(r).TeX() }
func EstimatorsTable(r *present.Results) []byte { return present.EstimatorsTable(r).LongTeX() }
func ShapesTable(r *present.Results) []byte     { return present.ShapesTable(r).TeX() }
func SymmetryTable(r *present.Results) []byte   { return present.SymmetryTable(r).TeX() }
func FixingTable(r *present.Results) []byte     { return present.FixingTable(r).TeX() }
func CorrectionTable(r *present.Results) []byte { return present.CorrectionTable(r).LongTeX() }
func CoverageTable(r *present.Results) []byte   { return present.CoverageTable(r).TeX() }
func TailsTable(r *present.Results) []byte      { return present.TailsTable(r).TeX() }
func LongRunsTable(r *present.Results) []byte   { return present.LongRunsTable(r).TeX() }
