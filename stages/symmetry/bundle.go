package symmetry

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/search"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/stackjoin"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/stacks"
	"github.com/sudoku-census/sudoku-census/stages/shapes"
)

// The 12×12 classes take CPU-hours, so their units are kept in the
// committed bundle data/bundles/symmetry-12.parquet (pipeline.Bundle, the
// engine's mechanism that the shapes stage's 2×6 count and knuth's long
// runs use): a run takes the bundle's units, computes only the missing
// ones (each added to the bundle as it finishes, so a stopped run keeps
// them), and refuses to start when those it lacks need more than
// symmetry.max_cpu_hours. Two families share the file: the 2×6 classes
// (the stack method, package stacks; 6×2 takes them by transposition) and
// the 3×4 classes (the R-stack method, package stackjoin; 4×3 likewise).

// bundledSide is the side of the shapes whose units the bundle keeps.
const bundledSide = 12

// bundleShape is the orientation whose classes are the 2×6 family's units:
// a 6×2 class takes its count from the 2×6 class of its transpose (unitOf).
var bundleShape = symmetry.Shape{R: 2, C: 6}

// bundleClasses is the number of conjugacy classes of the 2×6 group
// (65 row types × 77 column types), checked against the group when the
// units are listed.
const bundleClasses = 5005

// maxCPUHours bounds symmetry.max_cpu_hours (a year on one core).
const maxCPUHours = 8760

// bundledClasses is the number of 2×6 classes that admit a relabelling
// type (search.SigmaTypes), the bundle's 2×6 units.
const bundledClasses = 488

// joinShape is the orientation whose classes are the 3×4 family's units
// (4×3 takes the class of its transpose), joinClasses the number of its
// conjugacy classes and joinedClasses those with a relabelling type, the
// bundle's 3×4 units; both are checked against the group.
var joinShape = symmetry.Shape{R: 3, C: 4}

const (
	joinClasses   = 3315
	joinedClasses = 316
)

// joinProjectedCPUHours is the projected CPU time of the 3×4 units, a
// rough figure: class 46, planned by the search under 3·10⁴ nodes, took
// 17 CPU-seconds for each of two parts sampled among 1,024
// (stackjoin.FixedPart, 2026-11-27), about 4.8 CPU-hours in all; 316
// classes at that cost make about 1,500, and the 43 heavy classes may cost
// more. It decides when symmetry.max_cpu_hours refuses 3x4.
const joinProjectedCPUHours = 1500.0

// Every 3×4 class with a relabelling type is counted in parts
// (stackjoin.FixedPart), so that no unit outlasts a working session and a
// stopped run keeps most of its work: joinParts of them for the 43 classes
// of joinSplit, those whose search plans at least 10⁹ nodes
// (search.PlanCost; the package doc, "12×12: 3×4"), joinLightParts for the
// others (the R-stack method takes minutes on some of those too: class 46
// enumerates millions of first-stack configurations). Their units are
// <class id>.part<k>of<parts>, k from 00, and the class's F combines every
// part. The list and the numbers of parts name the units: changing them
// leaves the bundle's rows of those classes foreign (a failed run), so
// they stay fixed once units are kept.
var joinSplit = map[int]bool{
	11: true, 12: true, 24: true, 25: true, 37: true, 38: true, 63: true, 64: true, 89: true, 90: true,
	104: true, 105: true, 107: true, 110: true, 111: true, 114: true, 115: true, 116: true, 120: true,
	139: true, 140: true, 141: true, 142: true, 143: true, 144: true, 145: true, 146: true, 147: true,
	150: true, 166: true, 169: true, 185: true, 204: true, 274: true, 344: true, 417: true, 482: true,
	484: true, 492: true, 495: true, 507: true, 510: true, 513: true,
}

const (
	joinParts      = 64
	joinLightParts = 16
)

// A family is a 12×12 box shape whose classes with a relabelling type are
// bundled units, and its transpose, whose classes take the units of their
// transposes.
type family struct {
	shape   symmetry.Shape
	classes int // conjugacy classes of its group
	held    int // classes with a relabelling type: the bundle's units
	kernel  string
	// projectedCPUHours is the projected CPU time of the held units (see
	// the package doc, "Cost"); a unit the bundle lacks counts as the mean.
	projectedCPUHours float64
	heldOnce          func() (map[int]bool, error)
}

// families are the bundled 12×12 families. The 2×6 projection: the 51
// twisted classes 3.8 CPU-hours, the other 421 about 8 minutes, the 16
// involutive exchanges by pattern orbits seconds (their stack counts are
// the shapes stage's, 3.7 CPU-hours there). The 3×4 projection: see the
// package doc.
var families = []*family{
	{shape: bundleShape, classes: bundleClasses, held: bundledClasses,
		kernel:            fmt.Sprintf("symmetry stack method (stacks.Fixed) v%d", stacks.KernelVersion),
		projectedCPUHours: 4.0},
	{shape: joinShape, classes: joinClasses, held: joinedClasses,
		kernel:            fmt.Sprintf("symmetry R-stack method (stackjoin.FixedWorkers) v%d", stackjoin.KernelVersion),
		projectedCPUHours: joinProjectedCPUHours},
}

func init() {
	for _, f := range families {
		f.heldOnce = sync.OnceValues(f.computeHeld)
	}
}

// familyOf returns the family of s (its shape or the transpose), nil for a
// shape that is in none.
func familyOf(s symmetry.Shape) *family {
	for _, f := range families {
		if s == f.shape || (s == symmetry.Shape{R: f.shape.C, C: f.shape.R}) {
			return f
		}
	}
	return nil
}

// Bundle keeps the units of the 12×12 classes that cost: one per
// non-identity class of 2×6 or 3×4 that admits a relabelling type, whose
// result ("stacks <F>" or "stackjoin <F>") is a function of its id alone.
// The other classes fix no grid, which either method finds at once (no σ
// type), and run as ordinary units.
var Bundle = &pipeline.Bundle{
	Name: "symmetry-12",
	KernelOf: func(id string) string {
		if f := bundleFamilyOf(id); f != nil {
			return f.kernel
		}
		return ""
	},
	Holds: func(id string) bool {
		f := bundleFamilyOf(id)
		if f == nil {
			return false
		}
		_, i, _, parts, _ := parseUnitPart(id)
		held, err := f.heldClasses()
		return err == nil && held[i] && parts == f.parts(i)
	},
	Work: func(id string) string {
		f := bundleFamilyOf(id)
		if f == nil {
			return ""
		}
		_, i, part, parts, _ := parseUnitPart(id)
		g, err := groupOf(f.shape, false)
		if err != nil || i >= len(g.Classes) {
			return ""
		}
		what := "grids fixed up to relabelling"
		if parts > 1 {
			what = fmt.Sprintf("part %d of %d of the sums giving the grids fixed up to relabelling", part, parts)
		}
		return fmt.Sprintf("%v class %d (%s): %s, by %s", f.shape, i, g.Classes[i].Desc, what, f.methodText())
	},
}

// bundleFamilyOf returns the family whose unit id (of a class or a part
// of one) names a class of its shape (not the transpose), in the group's
// range; nil for any other id.
func bundleFamilyOf(id string) *family {
	s, i, _, _, err := parseUnitPart(id)
	if err != nil {
		return nil
	}
	for _, f := range families {
		if s == f.shape && i >= 1 && i < f.classes {
			return f
		}
	}
	return nil
}

// parts is the number of units of class i of the family's shape.
func (f *family) parts(i int) int {
	held, err := f.heldClasses()
	switch {
	case f.shape != joinShape || err != nil || !held[i]:
		return 1
	case joinSplit[i]:
		return joinParts
	}
	return joinLightParts
}

// unitIDs returns the units of class i of the family's shape: the class's
// own, or one per part.
func (f *family) unitIDs(i int) []string {
	n := f.parts(i)
	if n == 1 {
		return []string{unitID(f.shape, i)}
	}
	ids := make([]string, n)
	for k := range n {
		ids[k] = partID(f.shape, i, k, n)
	}
	return ids
}

// partID names part k of parts of class i of shape s:
// "3x4.class0104.part07of64".
func partID(s symmetry.Shape, i, k, parts int) string {
	return fmt.Sprintf("%s.part%02dof%02d", unitID(s, i), k, parts)
}

// parseUnitPart returns the shape, class, part and parts of a unit id as
// unitID (part 0 of 1) or partID writes them.
func parseUnitPart(id string) (s symmetry.Shape, class, part, parts int, err error) {
	base, suffix, split := strings.Cut(id, ".part")
	if s, class, err = parseUnit(base); err != nil {
		return symmetry.Shape{}, 0, 0, 0, err
	}
	if !split {
		return s, class, 0, 1, nil
	}
	k, n, ok := strings.Cut(suffix, "of")
	part, err1 := strconv.Atoi(k)
	parts, err2 := strconv.Atoi(n)
	if !ok || err1 != nil || err2 != nil || parts < 2 || part < 0 || part >= parts || partID(s, class, part, parts) != id {
		return symmetry.Shape{}, 0, 0, 0, fmt.Errorf("unit %q: want <shape>.class<index>.part<k>of<parts>, as 3x4.class0104.part07of64", id)
	}
	return s, class, part, parts, nil
}

// methodText names how the family's units are counted.
func (f *family) methodText() string {
	if f.shape == joinShape {
		return "the R-stack method"
	}
	return "the stack method"
}

// heldClasses returns the classes of the family's shape that the bundle
// holds: those with a relabelling type (their number checked).
func (f *family) heldClasses() (map[int]bool, error) { return f.heldOnce() }

func (f *family) computeHeld() (map[int]bool, error) {
	g, err := groupOf(f.shape, false)
	if err != nil {
		return nil, err
	}
	held := map[int]bool{}
	for _, c := range g.Classes[1:] {
		if len(search.SigmaTypes(f.shape, c.Rep)) > 0 {
			held[c.Index] = true
		}
	}
	if len(held) != f.held {
		return nil, fmt.Errorf("%v: %d classes admit a relabelling type, the bundle holds %d", f.shape, len(held), f.held)
	}
	return held, nil
}

// bundleIDs returns the units of every non-identity class of the
// family's shape, after checking that the units the bundle holds
// and lacks fit maxHours (symmetry.max_cpu_hours).
func bundleIDs(p *pipeline.Pass, f *family, maxHours float64) ([]string, error) {
	g, err := groupOf(f.shape, false)
	if err != nil {
		return nil, err
	}
	if len(g.Classes) != f.classes {
		return nil, fmt.Errorf("%v: %d classes, the bundle's units are %d", f.shape, len(g.Classes), f.classes)
	}
	// The classes counted whole first, then the parts of the others in
	// turn (part 0 of each, then part 1, ...), so that a run stopped early
	// has measured a part of many classes: the projection of what is left;
	// the classes of 16 parts before those of 64, the heaviest.
	ids := make([]string, 0, f.classes-1)
	for i := 1; i < f.classes; i++ {
		if f.parts(i) == 1 {
			ids = append(ids, unitID(f.shape, i))
		}
	}
	for _, parts := range []int{joinLightParts, joinParts} {
		for k := range parts {
			for i := 1; i < f.classes; i++ {
				if f.parts(i) == parts {
					ids = append(ids, partID(f.shape, i, k, parts))
				}
			}
		}
	}
	held, err := f.heldClasses()
	if err != nil {
		return nil, err
	}
	have, err := pipeline.ReadBundle(p.Root(), Bundle, ids)
	if err != nil {
		return nil, err
	}
	// A class the bundle lacks counts as the mean class, a part of one as
	// its share of it.
	missing := 0.0
	for i := range held {
		for _, id := range f.unitIDs(i) {
			if _, ok := have[id]; !ok {
				missing += 1 / float64(f.parts(i))
			}
		}
	}
	if hours := missing * f.projectedCPUHours / float64(len(held)); hours > maxHours {
		t := symmetry.Shape{R: f.shape.C, C: f.shape.R}
		return nil, pipeline.Invalid("symmetry.max_cpu_hours", maxHours, fmt.Sprintf(
			"at least %.2g to count %v and %v: %s lacks %.1f of its %d classes' units, which need about %.2g CPU-hours",
			hours, f.shape, t, Bundle.Path(), missing, len(held), hours))
	}
	if f.shape == bundleShape {
		if err := checkOrbitStacks(p, g, have); err != nil {
			return nil, err
		}
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

// bundleCPUSeconds returns the CPU time the bundle records for the
// family's units, all of which a run with its shapes has used (checked).
func bundleCPUSeconds(p *pipeline.Pass, f *family) (float64, error) {
	held, err := f.heldClasses()
	if err != nil {
		return 0, err
	}
	var ids []string
	for i := range held {
		ids = append(ids, f.unitIDs(i)...)
	}
	rows, err := pipeline.ReadBundle(p.Root(), Bundle, ids)
	if err != nil {
		return 0, err
	}
	if len(rows) != len(ids) {
		return 0, fmt.Errorf("%s holds %d of the %d %v units after the run", Bundle.Path(), len(rows), len(ids), f.shape)
	}
	var cpu float64
	for _, id := range slices.Sorted(maps.Keys(rows)) {
		cpu += rows[id].CPUSeconds
	}
	return cpu, nil
}
