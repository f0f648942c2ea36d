package shapes

import (
	"fmt"
	"slices"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/shared/pairunits"
)

// UnitsTable is data/shapes_units.parquet: the committed record of how the
// 2x6 count was computed, one row per unit (none when the configuration
// leaves 2x6 out), in unit order. Its cpu_seconds and peak_rss_bytes are
// the machine's that computed each unit (the paper's cost figures): a
// unit recomputed elsewhere changes them alone, so a lock compares the
// table without them as well (pipeline.Output.MachineColumns).
var UnitsTable = pipeline.NewTable[UnitRow]("shapes_units", "one row per 2x6 unit of the bundle: what it covers, its CPU time and the peak memory of its process").
	WithMachineColumns("cpu_seconds", "peak_rss_bytes")

// UnitRow is one 2x6 unit as the bundle records it.
type UnitRow struct {
	Unit         string  `parquet:"unit"`
	Work         string  `parquet:"work"`
	Sum          string  `parquet:"sum"`
	Kernel       string  `parquet:"kernel"`
	CPUSeconds   float64 `parquet:"cpu_seconds"`
	PeakRSSBytes int64   `parquet:"peak_rss_bytes"`
	SHA256       string  `parquet:"sha256"`
}

// writeBundledUnits writes UnitsTable from the bundle, which by now holds
// every 2x6 unit the run used (each unit computed goes in as it finishes).
func writeBundledUnits(p *pipeline.Pass) error {
	var rows []UnitRow
	cfg := pipeline.ConfigOf[Config](p)
	if counted, _ := cfg.widths(); slices.Contains(counted, pairunits.BundleWidth) {
		ids := pairunits.BundleIDs()
		have, err := pipeline.ReadBundle(p.Root(), pairunits.Bundle, ids)
		if err != nil {
			return err
		}
		byID, err := p.UnitResultsByID()
		if err != nil {
			return err
		}
		for _, id := range ids {
			r, ok := have[id]
			if !ok || r.Result != string(byID[id]) {
				return fmt.Errorf("2x6 unit %s: the bundle %s does not hold the result the run used", id, pairunits.Bundle.Path())
			}
			rows = append(rows, UnitRow{Unit: r.Unit, Work: r.Work, Sum: r.Result, Kernel: r.Kernel,
				CPUSeconds: r.CPUSeconds, PeakRSSBytes: r.PeakRSSBytes, SHA256: r.SHA256})
		}
	}
	return UnitsTable.Write(p, rows)
}
