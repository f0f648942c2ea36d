package classes

import (
	"fmt"
	"strings"
	"time"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/maths/bandpair"
	"github.com/sudoku-census/sudoku-census/stages/maths/funnel"
	"github.com/sudoku-census/sudoku-census/stages/maths/sudoku"
	"github.com/sudoku-census/sudoku-census/stages/reduce"
)

// Stage writes data/classes.parquet and data/funnel.parquet from
// data/reduced.parquet.
var Stage = &pipeline.Stage{
	Name:     "classes",
	Doc:      "classes of reduced bands with equal completion counts (2,051, 416, 174, 71, 44)",
	Version:  1,
	Requires: []*pipeline.Stage{reduce.Stage},
	Outputs:  []pipeline.Output{Table.Output, Funnel.Output},
	Run:      run,
}

// Table is data/classes.parquet.
var Table = pipeline.NewTable[Row]("classes",
	"one row per reduced band: the id of its class representative at levels 1-5")

// Row is one reduced band. LevelK is the id (in reduced.parquet) of the
// representative of the band's class at level K: the class's smallest id,
// which is its lexicographically smallest band.
type Row struct {
	ID     int32 `parquet:"id"`
	Level1 int32 `parquet:"level1"`
	Level2 int32 `parquet:"level2"`
	Level3 int32 `parquet:"level3"`
	Level4 int32 `parquet:"level4"`
	Level5 int32 `parquet:"level5"`
}

// Funnel is data/funnel.parquet.
var Funnel = pipeline.NewTable[FunnelRow]("funnel",
	"one row per level of the reduction, from all bands (-1) to column sets (5)")

// FunnelRow is one level: how many classes remain after adding operations,
// and how many the literature reports.
type FunnelRow struct {
	Level        int32  `parquet:"level"`
	Name         string `parquet:"name"`
	Operations   string `parquet:"operations"`
	Classes      int32  `parquet:"classes"`
	PaperClasses int32  `parquet:"paper_classes"`
	Note         string `parquet:"note"`
}

func run(p *pipeline.Pass) error {
	in, err := reduce.Table.Read(p)
	if err != nil {
		return err
	}
	reduced, total, err := Catalogue(in)
	if err != nil {
		return err
	}
	start := time.Now()
	cls, err := funnel.Compute(reduced)
	p.Report("classes_seconds", time.Since(start).Seconds())
	if err != nil {
		return err
	}
	rows := make([]Row, len(reduced))
	for i := range rows {
		c := func(l int) int32 { return cls.Class[l-1][i] }
		rows[i] = Row{ID: int32(i), Level1: c(1), Level2: c(2), Level3: c(3), Level4: c(4), Level5: c(5)}
	}
	funnel := FunnelRows(cls, total)
	for _, f := range funnel {
		p.Log.Info("classes", "level", f.Level, "name", f.Name, "classes", f.Classes, "paper", f.PaperClasses)
	}
	if err := Table.Write(p, rows); err != nil {
		return err
	}
	return Funnel.Write(p, funnel)
}

// Catalogue parses reduced.parquet's rows and checks that they are the
// whole catalogue of the lexicographic reduction: 36,288 reduced bands of
// multiplicity 72 each, ids 0, 1, .... It returns the bands and the sum of
// the multiplicities.
func Catalogue(rows []reduce.Row) ([]sudoku.Band, int, error) {
	bands := make([]sudoku.Band, len(rows))
	for i, r := range rows {
		b, err := r.Band()
		if err != nil {
			return nil, 0, fmt.Errorf("reduced.parquet row %d: %w", i, err)
		}
		if !b.IsReduced() {
			return nil, 0, fmt.Errorf("reduced.parquet row %d: band %s is not lexicographically reduced "+
				"(B3 comes before B2): the classes need reduce.swap_blocks=true", i, b)
		}
		bands[i] = b
	}
	total := 0
	for i, r := range rows {
		if r.ID != int32(i) || r.Multiplicity != 72 {
			return nil, 0, fmt.Errorf("reduced.parquet row %d: id %d, multiplicity %d; want id %d, multiplicity 72 "+
				"(the catalogue made with reduce.swap_blocks=true)", i, r.ID, r.Multiplicity, i)
		}
		total += int(r.Multiplicity)
	}
	if len(rows) != sudoku.ReducedCount || total != sudoku.BandCount {
		return nil, 0, fmt.Errorf("reduced.parquet: %d bands standing for %d, want %d standing for %d "+
			"(the catalogue made with reduce.swap_blocks=true)", len(rows), total, sudoku.ReducedCount, sudoku.BandCount)
	}
	return bands, total, nil
}

// FunnelRows returns the funnel: level -1 (all bands with canonical B1,
// total of them), level 0 (the reduced catalogue) and levels 1-5.
func FunnelRows(c *funnel.Classes, total int) []FunnelRow {
	rows := []FunnelRow{
		{Level: -1, Name: "bands", Operations: "relabel the digits so that B1 is 123/456/789",
			Classes: int32(total), PaperClasses: sudoku.BandCount},
		{Level: 0, Name: "lexicographic reduction", Operations: "sort the columns of B2 and of B3 by their top digits; exchange B2 and B3 if B3's top row comes first",
			Classes: int32(len(c.Class[0])), PaperClasses: sudoku.ReducedCount},
	}
	for l, lv := range funnel.Levels {
		rows = append(rows, FunnelRow{Level: int32(lv.Level), Name: lv.Name, Operations: lv.Operations,
			Classes: int32(c.Count(l + 1)), PaperClasses: int32(lv.Paper)})
	}
	for i := range rows {
		r := &rows[i]
		if r.Classes == r.PaperClasses {
			r.Note = "as in the paper"
		} else {
			r.Note = fmt.Sprintf("our operations give %d, the paper %d", r.Classes, r.PaperClasses)
		}
	}
	return rows
}

// String writes the funnel as a small table, for logs and tests.
func funnelString(rows []FunnelRow) string {
	var sb strings.Builder
	for _, r := range rows {
		fmt.Fprintf(&sb, "%3d %-30s %9d %9d\n", r.Level, r.Name, r.Classes, r.PaperClasses)
	}
	return sb.String()
}

// ReadLevel5 reads the reduced bands and the level-5 class of each, for a
// stage that requires reduce and classes.
func ReadLevel5(p *pipeline.Pass) ([]bandpair.ReducedBand, []int32, error) {
	reduced, err := reduce.Table.Read(p)
	if err != nil {
		return nil, nil, err
	}
	cls, err := Table.Read(p)
	if err != nil {
		return nil, nil, err
	}
	if len(cls) != len(reduced) {
		return nil, nil, fmt.Errorf("classes.parquet has %d rows, reduced.parquet %d", len(cls), len(reduced))
	}
	classOf := make([]int32, len(reduced))
	bands := make([]bandpair.ReducedBand, len(reduced))
	for i, c := range cls {
		r := reduced[i]
		if c.ID != r.ID {
			return nil, nil, fmt.Errorf("classes.parquet row %d is band %d, reduced.parquet row %d band %d", i, c.ID, i, r.ID)
		}
		classOf[i] = c.Level5
		band, err := r.Band()
		if err != nil {
			return nil, nil, fmt.Errorf("reduced band %d: %w", r.ID, err)
		}
		bands[i] = bandpair.ReducedBand{ID: r.ID, Band: band, Multiplicity: r.Multiplicity}
	}
	return bands, classOf, nil
}
