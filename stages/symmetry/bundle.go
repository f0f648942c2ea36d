package symmetry

import (
	"fmt"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/stacks"
)

// The 12×12 classes (2×6 and 6×2 boxes) take CPU-hours by the stack method,
// so their units are kept in the committed bundle
// data/bundles/symmetry-12.parquet (pipeline.Bundle, the engine's mechanism
// that the shapes stage's 2×6 count and knuth's long runs use): a run takes
// the bundle's units, computes only the missing ones (each added to the
// bundle as it finishes, so a stopped run keeps them), and refuses to start
// when those it lacks need more than symmetry.max_cpu_hours.

// bundledSide is the side of the shapes whose units the bundle keeps.
const bundledSide = 12

// bundleShape is the orientation whose classes are the 12×12 units: a 6×2
// class takes its count from the 2×6 class of its transpose (unitOf).
var bundleShape = symmetry.Shape{R: 2, C: 6}

// bundleClasses is the number of conjugacy classes of the 2×6 group
// (65 row types × 77 column types), checked against the group when the
// units are listed.
const bundleClasses = 5005

// maxCPUHours bounds symmetry.max_cpu_hours (a year on one core).
const maxCPUHours = 8760

// projectedCPUHours is the projected CPU time of all 5,004 units of 2×6
// (see the package doc, "Cost"); a unit the bundle lacks counts as the
// mean, projectedCPUHours/5,004.
const projectedCPUHours = 6.0

// Bundle keeps the units of the 12×12 classes: one per non-identity class
// of 2×6, whose result ("stacks <F>") is a function of its id alone.
var Bundle = &pipeline.Bundle{
	Name:   "symmetry-12",
	Kernel: fmt.Sprintf("symmetry stack method (stacks.Fixed) v%d", stacks.KernelVersion),
	Holds: func(id string) bool {
		s, i, err := parseUnit(id)
		return err == nil && s == bundleShape && i >= 1 && i < bundleClasses
	},
	Work: func(id string) string {
		_, i, err := parseUnit(id)
		if err != nil {
			return ""
		}
		g, err := groupOf(bundleShape, false)
		if err != nil || i >= len(g.Classes) {
			return ""
		}
		return fmt.Sprintf("2x6 class %d (%s): grids fixed up to relabelling, by the stack method", i, g.Classes[i].Desc)
	},
	// No Cost: a unit shares nothing with the units computed before it in
	// its process, so the CPU time its row records is what recomputing it
	// takes.
}

// bundleIDs returns the ids of every 2×6 unit of the bundle, in class
// order, after checking that those it lacks fit maxHours
// (symmetry.max_cpu_hours).
func bundleIDs(p *pipeline.Pass, maxHours float64) ([]string, error) {
	g, err := groupOf(bundleShape, false)
	if err != nil {
		return nil, err
	}
	if len(g.Classes) != bundleClasses {
		return nil, fmt.Errorf("%v: %d classes, the bundle's units are %d", bundleShape, len(g.Classes), bundleClasses)
	}
	ids := make([]string, 0, bundleClasses-1)
	for i := 1; i < bundleClasses; i++ {
		ids = append(ids, unitID(bundleShape, i))
	}
	have, err := pipeline.ReadBundle(p.Root(), Bundle, ids)
	if err != nil {
		return nil, err
	}
	missing := len(ids) - len(have)
	if hours := float64(missing) * projectedCPUHours / float64(len(ids)); hours > maxHours {
		return nil, pipeline.Invalid("symmetry.max_cpu_hours", maxHours, fmt.Sprintf(
			"at least %.2g to count 2x6 and 6x2: %s holds %d of its %d units, and the other %d need about %.2g CPU-hours",
			hours, Bundle.Path(), len(have), len(ids), missing, hours))
	}
	return ids, nil
}
