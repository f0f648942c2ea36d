package knuth

import (
	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/shared/longruns"
	"github.com/sudoku-census/sudoku-census/stages/shared/sampling"
)

// The long runs (knuth.long) are the paper's headline intervals for the
// large shapes; their units, ids and bundle are package longruns'.

// LongBundle keeps the long runs' units (longruns.Bundle).
var LongBundle = longruns.Bundle

// LongSummary is data/knuth_long.parquet.
var LongSummary = pipeline.NewTable[LongRow]("knuth_long", "one row per long run (knuth.long), from the bundled units: estimate, error, diagnostics, CPU time and efficiency").WithMachineColumns(sampling.CPUColumnNames...)

// LongRow is one long run: a SummaryRow with the run's cost.
type LongRow struct {
	Shape   string  `parquet:"shape"`
	Variant string  `parquet:"variant"`
	Order   string  `parquet:"order"`
	HybridK int32   `parquet:"hybrid_k"`
	Budget  int32   `parquet:"budget"`
	Alpha   float64 `parquet:"alpha"`
	sampling.Columns
	sampling.RelVarColumns
	Units               int32  `parquet:"units"` // bundled units of the run
	sampling.CPUColumns        // their CPU time as the bundle records it (each unit alone, on every core) and the efficiency
	Kernel              string `parquet:"kernel"` // the bundle's kernel (LongBundle.Kernel)
}

// longRuns returns the configuration's long runs.
func (c *Config) longRuns() []longruns.Run { return longruns.Runs(c.Long, c.LongBlockSize, c.variant) }

// listLong returns the ids of the long runs' units, after checking that
// those the bundle lacks fit knuth.max_cpu_hours.
func listLong(p *pipeline.Pass) ([]string, error) {
	cfg := pipeline.ConfigOf[Config](p)
	return longruns.List(p.Root(), cfg.longRuns(), cfg.LongSeed, cfg.BlockSize, cfg.MaxCPUHours)
}

// runLong merges the long runs' units (ids and results, in listLong's
// order) into data/knuth_long.parquet (longruns.Merge) and returns the
// coverage runs of knuth.long_coverage cut from them.
func runLong(p *pipeline.Pass, ids []string, results [][]byte) ([]CoverageRow, error) {
	cfg := pipeline.ConfigOf[Config](p)
	runs, err := longruns.Merge(p, cfg.longRuns(), cfg.LongSeed, cfg.BlockSize, ids, results, cfg.LongCoverage, cfg.Goals)
	if err != nil {
		return nil, err
	}
	var rows []LongRow
	var coverage []CoverageRow
	for _, c := range runs {
		v := c.Run.Variant
		for i, res := range c.Slices {
			coverage = append(coverage, CoverageRow{Shape: c.Run.Shape.String(), Variant: longruns.Label(v), Run: int32(i), Long: true,
				Columns: sampling.ColumnsOf(res)})
		}
		rows = append(rows, LongRow{Shape: c.Run.Shape.String(), Variant: longruns.Label(v), Order: v.Order.String(), HybridK: int32(v.HybridK),
			Budget: int32(max(1, v.Budget)), Alpha: v.Alpha, Columns: sampling.ColumnsOf(c.Result),
			Units: int32(len(c.Units)), Kernel: LongBundle.Kernel})
		rows[len(rows)-1].RelVarColumns, rows[len(rows)-1].CPUColumns = c.Efficiency()
	}
	return coverage, LongSummary.Write(p, rows)
}
