package present

import (
	"fmt"
	"math/big"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/exact"
	"github.com/sudoku-census/sudoku-census/stages/presentation/typeset"
)

// readExact reads the exact stage's completions of each class and its
// one-row total.
func readExact(p *pipeline.Pass, r *Results) error {
	rows, err := exact.Completions.Read(p)
	if err != nil {
		return err
	}
	for _, row := range rows {
		n, err := ParseInt(exact.Completions.Name+".completions", row.Completions)
		if err != nil {
			return err
		}
		r.Classes = append(r.Classes, Class{Class: int(row.Class), Size: int64(row.Size), FirstBands: row.FirstBands,
			Representative: row.Representative, SecondBands: row.BandsWithColumnSets, Completions: n,
			Crosschecked: row.Crosschecked, From: typeset.Row(exact.Completions.Path, "class", row.Class)})
	}
	totals, err := exact.Total.Read(p)
	if err != nil {
		return err
	}
	if len(totals) != 1 {
		return fmt.Errorf("%s: %d rows, want 1", exact.Total.Path, len(totals))
	}
	row := totals[0]
	t := &Total{ReducedCountFactors: row.ReducedCountFactors, CrosscheckedClasses: int(row.CrosscheckedClasses), From: typeset.Source{Artifact: exact.Total.Path}}
	for _, c := range []struct {
		dst  **big.Int
		col  string
		text string
	}{{&t.Grids, "grids", row.Grids}, {&t.CanonicalGrids, "canonical_grids", row.CanonicalGrids},
		{&t.ReducedCount, "reduced_count", row.ReducedCount}} {
		if *c.dst, err = ParseInt(exact.Total.Name+"."+c.col, c.text); err != nil {
			return err
		}
	}
	r.Total = t
	return nil
}
