package shapes

import (
	"fmt"
	"runtime"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/shared/pairunits"
)

// OrbitStacks is data/orbit_stacks.parquet: with shapes.orbit_stacks, the
// numbers behind each 2xC count (empty without it).
var OrbitStacks = pipeline.NewTable[OrbitStackRow]("orbit_stacks",
	"with shapes.orbit_stacks, one row per pattern orbit of each counted 2xC width, in the pair kernel's plan order: its weight and stack count, whose Σ W·E² is the count")

// OrbitStackRow is one pattern orbit O of box width C: W(O) tuples of row
// sets have their pattern multiset in O, and E(O) stacks realise each.
type OrbitStackRow struct {
	Width int32 `parquet:"width"`
	// Orbit is the representative, as pair.Orbit.String writes it:
	// "<c>:<its 2c patterns in hexadecimal, a byte each>".
	Orbit  string `parquet:"orbit"`
	Weight uint64 `parquet:"weight"`
	Stacks uint64 `parquet:"stacks"`
}

// writeOrbitStacks writes OrbitStacks: for 2x6 from the stack-count units,
// for a smaller width counted here and checked against the width's count.
func writeOrbitStacks(p *pipeline.Pass, found pairunits.Counts) error {
	cfg := pipeline.ConfigOf[Config](p)
	var rows []OrbitStackRow
	if !cfg.OrbitStacks {
		return OrbitStacks.Write(p, rows)
	}
	byID, err := p.UnitResultsByID()
	if err != nil {
		return err
	}
	counted, _ := cfg.widths()
	for _, c := range counted {
		plan, err := pairunits.PlanOf(p, c)
		if err != nil {
			return err
		}
		var es []uint64
		if c == pairunits.BundleWidth {
			if es, err = pairunits.BundleStackCounts(plan, byID); err != nil {
				return err
			}
		} else {
			es, err = plan.StackCounts(p.Context(), 0, len(plan.Orbits), runtime.GOMAXPROCS(0))
			if err != nil {
				return err
			}
			if got := pairunits.WeightedSquares(plan.Orbits, es); got.Cmp(found.Pair[c]) != 0 {
				return fmt.Errorf("width %d: the orbits' stack counts give Σ W·E² = %v, the units %v", c, got, found.Pair[c])
			}
		}
		for i, o := range plan.Orbits {
			rows = append(rows, OrbitStackRow{Width: int32(c), Orbit: o.String(), Weight: o.Weight, Stacks: es[i]})
		}
	}
	return OrbitStacks.Write(p, rows)
}
