package results

import (
	"fmt"
	"math/big"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/exact"
)

func init() { register(exact.Stage, readExact) }

func readExact(p *pipeline.Pass, r *Results) error {
	rows, err := exact.Completions.Read(p)
	if err != nil {
		return err
	}
	for _, row := range rows {
		n, err := ParseInt("completions.completions", row.Completions)
		if err != nil {
			return err
		}
		r.Classes = append(r.Classes, Class{Class: int(row.Class), Size: int64(row.Size), FirstBands: row.FirstBands,
			Representative: row.Representative, SecondBands: row.BandsWithColumnSets, Completions: n,
			Crosschecked: row.Crosschecked})
	}
	totals, err := exact.Total.Read(p)
	if err != nil {
		return err
	}
	if len(totals) != 1 {
		return fmt.Errorf("total.parquet: %d rows, want 1", len(totals))
	}
	row := totals[0]
	t := &Total{ReducedCountFactors: row.ReducedCountFactors, CrosscheckedClasses: int(row.CrosscheckedClasses)}
	for _, c := range []struct {
		dst  **big.Int
		col  string
		text string
	}{{&t.Grids, "total.grids", row.Grids}, {&t.CanonicalGrids, "total.canonical_grids", row.CanonicalGrids},
		{&t.ReducedCount, "total.reduced_count", row.ReducedCount}} {
		if *c.dst, err = ParseInt(c.col, c.text); err != nil {
			return err
		}
	}
	r.Total = t
	return nil
}
