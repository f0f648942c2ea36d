package symmetry

import (
	"fmt"
	"maps"
	"slices"
	"sync"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/search"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/stacks"
	"github.com/sudoku-census/sudoku-census/stages/shapes"
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

// bundledClasses is the number of 2×6 classes that admit a relabelling
// type (search.SigmaTypes), the bundle's units.
const bundledClasses = 488

// projectedCPUHours is the projected CPU time of the bundle's 488 units
// (see the package doc, "Cost"): the 51 twisted classes 3.8 CPU-hours, the
// other 421 about 8 minutes, the 16 involutive exchanges by pattern orbits
// seconds (their stack counts are the shapes stage's, 3.7 CPU-hours there).
// A unit the bundle lacks counts as the mean, projectedCPUHours/488.
const projectedCPUHours = 4.0

// Bundle keeps the units of the 12×12 classes that cost: one per
// non-identity class of 2×6 that admits a relabelling type, whose result
// ("stacks <F>") is a function of its id alone. The other 4,516 classes
// fix no grid, which the stack method finds at once (no σ type), and run
// as ordinary units.
var Bundle = &pipeline.Bundle{
	Name:   "symmetry-12",
	Kernel: fmt.Sprintf("symmetry stack method (stacks.Fixed) v%d", stacks.KernelVersion),
	Holds: func(id string) bool {
		s, i, err := parseUnit(id)
		if err != nil || s != bundleShape || i < 1 || i >= bundleClasses {
			return false
		}
		held, err := heldClasses()
		return err == nil && held[i]
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
}

// heldClasses returns the 2×6 classes the bundle holds: those with a
// relabelling type, 488 of them (checked).
var heldClasses = sync.OnceValues(func() (map[int]bool, error) {
	g, err := groupOf(bundleShape, false)
	if err != nil {
		return nil, err
	}
	held := map[int]bool{}
	for _, c := range g.Classes[1:] {
		if len(search.SigmaTypes(bundleShape, c.Rep)) > 0 {
			held[c.Index] = true
		}
	}
	if len(held) != bundledClasses {
		return nil, fmt.Errorf("%v: %d classes admit a relabelling type, the bundle holds %d", bundleShape, len(held), bundledClasses)
	}
	return held, nil
})

// bundleIDs returns the ids of every non-identity 2×6 class, in class
// order, after checking that the units the bundle holds and lacks fit
// maxHours (symmetry.max_cpu_hours).
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
	held, err := heldClasses()
	if err != nil {
		return nil, err
	}
	have, err := pipeline.ReadBundle(p.Root(), Bundle, ids)
	if err != nil {
		return nil, err
	}
	missing := len(held) - len(have)
	if hours := float64(missing) * projectedCPUHours / float64(len(held)); hours > maxHours {
		return nil, pipeline.Invalid("symmetry.max_cpu_hours", maxHours, fmt.Sprintf(
			"at least %.2g to count 2x6 and 6x2: %s holds %d of its %d units, and the other %d need about %.2g CPU-hours",
			hours, Bundle.Path(), len(have), len(held), missing, hours))
	}
	if err := checkOrbitStacks(p, g, have); err != nil {
		return nil, err
	}
	return ids, nil
}

// checkOrbitStacks refuses a run that would count a 2×6 class by the sum
// over pattern orbits (a class the bundle lacks) without the orbits' stack
// counts from the shapes stage, before any unit runs.
func checkOrbitStacks(p *pipeline.Pass, g *symmetry.Group, have map[string]pipeline.BundleRow) error {
	lacking := 0
	for _, c := range g.Classes[1:] {
		if _, ok := have[unitID(bundleShape, c.Index)]; !ok && stacks.ByOrbits(bundleShape, c.Rep) {
			lacking++
		}
	}
	if lacking == 0 {
		return nil
	}
	rows, err := shapes.OrbitStacks.Read(p)
	if err != nil {
		return err
	}
	for _, r := range rows {
		if int(r.Width) == bundleShape.C {
			return nil
		}
	}
	return fmt.Errorf("symmetry.shapes: 2x6 and 6x2 need shapes.orbit_stacks=true: %s lacks %d classes counted by the sum over pattern orbits, which takes every 2x6 orbit's stack count from %s",
		Bundle.Path(), lacking, shapes.OrbitStacks.Path)
}

// bundleCPUSeconds returns the CPU time the bundle records for its units,
// all of which a run with 2x6 or 6x2 has used (checked).
func bundleCPUSeconds(p *pipeline.Pass) (float64, error) {
	held, err := heldClasses()
	if err != nil {
		return 0, err
	}
	ids := make([]string, 0, len(held))
	for i := range held {
		ids = append(ids, unitID(bundleShape, i))
	}
	rows, err := pipeline.ReadBundle(p.Root(), Bundle, ids)
	if err != nil {
		return 0, err
	}
	if len(rows) != len(ids) {
		return 0, fmt.Errorf("%s holds %d of its %d units after the run", Bundle.Path(), len(rows), len(ids))
	}
	var cpu float64
	for _, id := range slices.Sorted(maps.Keys(rows)) {
		cpu += rows[id].CPUSeconds
	}
	return cpu, nil
}
