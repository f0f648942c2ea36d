package symunits

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"math/big"
	"slices"
	"sync"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/search"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/stackjoin"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/stacks"
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

// BundleShape is the orientation whose classes are the 2×6 family's units:
// a 6×2 class takes its count from the 2×6 class of its transpose (UnitOf).
var BundleShape = symmetry.Shape{R: 2, C: 6}

// bundleClasses is the number of conjugacy classes of the 2×6 group
// (65 row types × 77 column types), checked against the group when the
// units are listed.
const bundleClasses = 5005

// MaxCPUHours bounds symmetry.max_cpu_hours (a year on one core).
const MaxCPUHours = 8760

// bundledClasses is the number of 2×6 classes that admit a relabelling
// type (search.SigmaTypes), the bundle's 2×6 units.
const bundledClasses = 488

// JoinShape is the orientation whose classes are the 3×4 family's units
// (4×3 takes the class of its transpose), joinClasses the number of its
// conjugacy classes and joinedClasses those with a relabelling type, the
// bundle's 3×4 units; both are checked against the group.
var JoinShape = symmetry.Shape{R: 3, C: 4}

const (
	joinClasses   = 3315
	joinedClasses = 316
)

// Every 3×4 class with a relabelling type is a unit of the bundle, and a
// heavy one is split into joinParts parts (stackjoin.FixedPart), so that no
// unit outlasts a working session and a stopped run keeps most of its work:
// <class id>.part<k>of<parts>, k from 000, the class's F combining every
// part. The heavy classes are the 50 whose R-stack count (KernelVersion
// 2) passed 10^7 work units (enumeration nodes, dynamic-programme states
// and symmetries tried) in stackjoin.TestSurvey (2026-11-28); the other 266
// took 41 CPU-seconds in all there, 3.9 s at most (class 2887). The list
// and the number of parts name the units: changing them leaves the
// bundle's rows of those classes foreign (a failed run), so they stay
// fixed once units are kept.
//
// joinHeavyCPUHours is each heavy class's projected CPU time (the symmetry
// stage's package doc, "12×12: 3×4"): from part 0 of its 256, measured on one core
// (stackjoin.TestPartSurvey, 2026-11-28; the 31 classes then left measured
// again after the faster symmetry tests, in one process as a run computes
// them, sharing the plain stack counts) and times 256; part 0 is among
// the heaviest parts (the least configurations, the only ones counted,
// come first), so this mostly overstates, though not always (class 12's
// part 1 took 34 s, its part 0 8 s; class 84's parts 657 CPU-s in all
// against 360 projected). Classes 38, 101, 115 and 116, whose part 0
// passed 30 s there, are from its second run in the same process (its
// stack counts kept, as in a run of many parts; the first took 74, 89, 96
// and 131 s); 102, 115 and 116 since the twisted counts are keyed up to
// relabelling (rowkeys.CycleKey, 2026-11-28) from parts run one after
// the other (102 parts 0 and 7 4.8 s each; 115 parts 1 and 2 21.6 s each;
// 116 part 2 49.7 s, after part 1 cold 109 s), and 77 and 101 from parts
// 1-3 so (77 parts 2 and 3 10 s each after part 1 cold 73 s; 101 14.3 s
// a part). Class 145, whose first stack's configurations the
// enumeration could not list in minutes, is counted by columns for its
// three heaviest σ types (stackjoin, "One stack cycle") since 2026-11-28:
// the whole class took 16 s on one core, its projection. joinLightCPUHours is the other 266
// classes' in all. They decide when symmetry.max_cpu_hours refuses 3x4,
// and the order in which a run computes the heavy classes.
var joinHeavyCPUHours = map[int]float64{
	11: 0.0353, 12: 0.582, 24: 0.0168, 25: 0.847, 37: 0.201, 38: 0.906,
	46: 0.721, 50: 0.0403, 51: 0.994, 63: 0.2, 64: 0.289, 76: 0.227,
	77: 0.711, 84: 0.1, 89: 0.606, 90: 0.334, 101: 1.01, 102: 0.341,
	103: 0.515, 104: 0.213, 105: 0.505, 106: 0.427, 107: 0.738, 108: 0.629,
	109: 0.403, 110: 0.416, 111: 0.816, 112: 0.551, 113: 0.398, 114: 0.291,
	115: 1.54, 116: 3.53, 120: 0.0112, 125: 0.0143, 130: 0.00967, 135: 0.117,
	140: 0.119, 141: 0.00976, 142: 0.0162, 143: 0.0191, 144: 0.0198, 145: 0.00444,
	150: 0.177, 513: 0.171, 527: 0.00699, 663: 0.00909, 1279: 0.0207, 1340: 0.12,
	1341: 0.0154, 1478: 0.238,
}

const (
	joinParts         = 256
	joinLightCPUHours = 41.0 / 3600
)

// A family is a 12×12 box shape whose classes with a relabelling type are
// bundled units, and its transpose, whose classes take the units of their
// transposes.
type Family struct {
	shape   symmetry.Shape
	classes int // conjugacy classes of its group
	held    int // classes with a relabelling type: the bundle's units
	kernel  string
	// projectedCPUHours is the projected CPU time of the held units (see
	// the symmetry stage's package doc, "Cost"); a class the bundle lacks
	// counts as the mean
	// (2×6; 3×4 per class, classCPUHours).
	projectedCPUHours float64
	heldOnce          func() (map[int]bool, error)
}

// families are the bundled 12×12 families. The 2×6 projection: the 51
// twisted classes 3.8 CPU-hours, the other 421 about 8 minutes, the 16
// involutive exchanges by pattern orbits seconds (their stack counts are
// the shapes stage's, 3.7 CPU-hours there). The 3×4 projection: see the
// symmetry stage's package doc.
var families = []*Family{
	{shape: BundleShape, classes: bundleClasses, held: bundledClasses,
		kernel:            fmt.Sprintf("symmetry stack method (stacks.Fixed) v%d", stacks.KernelVersion),
		projectedCPUHours: 4.0},
	{shape: JoinShape, classes: joinClasses, held: joinedClasses,
		kernel:            fmt.Sprintf("symmetry R-stack method (stackjoin.FixedWorkers) v%d", stackjoin.KernelVersion),
		projectedCPUHours: joinLightCPUHours + joinHeavySum()},
}

func init() {
	for _, f := range families {
		f.heldOnce = sync.OnceValues(f.computeHeld)
	}
}

// Shape is the family's shape, whose classes are the units (2×6 or 3×4).
func (f *Family) Shape() symmetry.Shape { return f.shape }

// FamilyOf returns the family of s (its shape or the transpose), nil for a
// shape that is in none.
func FamilyOf(s symmetry.Shape) *Family {
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
		_, i, _, parts, _ := ParseUnitPart(id)
		held, err := f.heldClasses()
		return err == nil && held[i] && parts == f.parts(i)
	},
	Work: func(id string) string {
		f := bundleFamilyOf(id)
		if f == nil {
			return ""
		}
		_, i, part, parts, _ := ParseUnitPart(id)
		g, err := Group(f.shape, false)
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
func bundleFamilyOf(id string) *Family {
	s, i, _, _, err := ParseUnitPart(id)
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
func (f *Family) parts(i int) int {
	held, err := f.heldClasses()
	switch {
	case f.shape != JoinShape || err != nil || !held[i]:
		return 1
	case joinHeavyCPUHours[i] > 0:
		return joinParts
	}
	return 1
}

// classCPUHours is the projected CPU time of class i's units.
func (f *Family) classCPUHours(i int) float64 {
	if f.shape != JoinShape {
		return f.projectedCPUHours / float64(f.held)
	}
	if h, ok := joinHeavyCPUHours[i]; ok {
		return h
	}
	return joinLightCPUHours / float64(joinedClasses-len(joinHeavyCPUHours))
}

// joinHeavySum is the heavy 3×4 classes' projected CPU time.
func joinHeavySum() float64 {
	sum := 0.0
	for _, h := range joinHeavyCPUHours {
		sum += h
	}
	return sum
}

// UnitIDs returns the units of class i of the family's shape: the class's
// own, or one per part.
func (f *Family) UnitIDs(i int) []string {
	n := f.parts(i)
	if n == 1 {
		return []string{UnitID(f.shape, i)}
	}
	ids := make([]string, n)
	for k := range n {
		ids[k] = PartID(f.shape, i, k, n)
	}
	return ids
}

// methodText names how the family's units are counted.
func (f *Family) methodText() string {
	if f.shape == JoinShape {
		return "the R-stack method"
	}
	return "the stack method"
}

// heldClasses returns the classes of the family's shape that the bundle
// holds: those with a relabelling type (their number checked).
func (f *Family) heldClasses() (map[int]bool, error) { return f.heldOnce() }

func (f *Family) computeHeld() (map[int]bool, error) {
	g, err := Group(f.shape, false)
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

// IDs returns the units of every non-identity class of the family's
// shape, after checking that the units the bundle (under root) holds and
// lacks fit maxHours (symmetry.max_cpu_hours), and for 2×6 that orbits,
// the shapes stage's orbit stack counts, are there if a class the bundle
// lacks needs them.
func (f *Family) IDs(root string, maxHours float64, orbits func() (OrbitTable, error)) ([]string, error) {
	g, err := Group(f.shape, false)
	if err != nil {
		return nil, err
	}
	if len(g.Classes) != f.classes {
		return nil, fmt.Errorf("%v: %d classes, the bundle's units are %d", f.shape, len(g.Classes), f.classes)
	}
	// The classes counted whole first, then the parts of the others class
	// by class, the cheapest projected first (ties by index), so that a run
	// stopped early on one machine has finished as many classes as it
	// could; on a cluster the order does not matter.
	ids := make([]string, 0, f.classes-1)
	var split []int
	for i := 1; i < f.classes; i++ {
		if f.parts(i) == 1 {
			ids = append(ids, UnitID(f.shape, i))
		} else {
			split = append(split, i)
		}
	}
	slices.SortStableFunc(split, func(a, b int) int { return cmp.Compare(f.classCPUHours(a), f.classCPUHours(b)) })
	for _, i := range split {
		ids = append(ids, f.UnitIDs(i)...)
	}
	held, err := f.heldClasses()
	if err != nil {
		return nil, err
	}
	have, err := pipeline.ReadBundle(root, Bundle, ids)
	if err != nil {
		return nil, err
	}
	// A class the bundle lacks counts as its projection, a part of one as
	// its share of it.
	missing, hours := 0.0, 0.0
	for i := range held {
		for _, id := range f.UnitIDs(i) {
			if _, ok := have[id]; !ok {
				missing += 1 / float64(f.parts(i))
				hours += f.classCPUHours(i) / float64(f.parts(i))
			}
		}
	}
	if hours > maxHours {
		t := symmetry.Shape{R: f.shape.C, C: f.shape.R}
		return nil, pipeline.Invalid("symmetry.max_cpu_hours", maxHours, fmt.Sprintf(
			"at least %.2g to count %v and %v: %s lacks %.1f of its %d classes' units, which need about %.2g CPU-hours",
			hours, f.shape, t, Bundle.Path(), missing, len(held), hours))
	}
	if f.shape == BundleShape {
		if err := checkOrbitStacks(orbits, g, have); err != nil {
			return nil, err
		}
	}
	return ids, nil
}

// checkOrbitStacks refuses a run that would count a 2×6 class by the sum
// over pattern orbits (a class the bundle lacks) without the orbits' stack
// counts from the shapes stage, before any unit runs.
func checkOrbitStacks(orbits func() (OrbitTable, error), g *symmetry.Group, have map[string]pipeline.BundleRow) error {
	lacking := 0
	for _, c := range g.Classes[1:] {
		if _, ok := have[UnitID(BundleShape, c.Index)]; !ok && stacks.ByOrbits(BundleShape, c.Rep) {
			lacking++
		}
	}
	if lacking == 0 {
		return nil
	}
	table, err := orbits()
	if err != nil {
		return err
	}
	for _, r := range table.Rows {
		if int(r.Width) == BundleShape.C {
			return nil
		}
	}
	return fmt.Errorf("symmetry.shapes: 2x6 and 6x2 need shapes.orbit_stacks=true: %s lacks %d classes counted by the sum over pattern orbits, which takes every 2x6 orbit's stack count from %s",
		Bundle.Path(), lacking, table.Path)
}

// CPUSeconds returns the CPU time the bundle (under root) records for the
// family's units, all of which a run with its shapes has used (checked).
func (f *Family) CPUSeconds(root string) (float64, error) {
	held, err := f.heldClasses()
	if err != nil {
		return 0, err
	}
	var ids []string
	for i := range held {
		ids = append(ids, f.UnitIDs(i)...)
	}
	rows, err := pipeline.ReadBundle(root, Bundle, ids)
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

// Bundled returns, for the families of shapes, the CPU time the bundle
// (under root) records for each family's units (Family.CPUSeconds); for
// 2×6 it first recounts the classes counted by the sum over pattern orbits
// from the orbit stack counts (recountOrbitClasses) and returns how many
// it recounted and the recounts that are second counts.
func Bundled(ctx context.Context, root string, shapes []symmetry.Shape, orbits func() (OrbitTable, error),
	resultOf map[string][]byte) (cpu map[*Family]float64, recounts int, second map[int]*big.Int, err error) {
	cpu = map[*Family]float64{}
	for _, s := range shapes {
		f := FamilyOf(s)
		if f == nil {
			continue
		}
		if _, done := cpu[f]; done {
			continue
		}
		if f.shape == BundleShape {
			table, err := orbits()
			if err != nil {
				return nil, 0, nil, err
			}
			if recounts, second, err = recountOrbitClasses(ctx, table, resultOf); err != nil {
				return nil, 0, nil, err
			}
		}
		if cpu[f], err = f.CPUSeconds(root); err != nil {
			return nil, 0, nil, err
		}
	}
	return cpu, recounts, second, nil
}

// ClassFixed returns F of class c of shape s and its method from the
// results of its units (unitsOf, FixedFromUnits), and the units, after
// checking that F is at most idFixed, F(identity): the class permutes the
// grids up to relabelling and fixes at most all of them.
func ClassFixed(s symmetry.Shape, c symmetry.Class, idFixed *big.Int, resultOf map[string][]byte) (*big.Int, string, []string, error) {
	ids, err := unitsOf(s, c)
	if err != nil {
		return nil, "", nil, err
	}
	f, method, err := FixedFromUnits(ids, resultOf)
	if err != nil {
		return nil, "", nil, fmt.Errorf("%v class %d: %w", s, c.Index, err)
	}
	if f.Cmp(idFixed) > 0 {
		return nil, "", nil, fmt.Errorf("%v class %d: F = %v is more than F(identity) = %v, the number of grids up to relabelling", s, c.Index, f, idFixed)
	}
	return f, method, ids, nil
}
