// Package symunits is the symmetry stage's work units: their ids, the
// groups they count in, the counting of one unit (Compute: F of a class,
// by the search, the stack method or the R-stack method, or a part of a
// split class) and F of a class from its units' results (FixedFromUnits).
//
// A unit id names a class of a shape, "<shape>.class<index>" (UnitID, 4
// digits for the 12×12 shapes), or a part of one,
// "<class id>.part<k>of<parts>" (PartID); a check unit (package symchecks)
// is such an id after CheckPrefix. A result is "<method> <F>" or, for a
// part, "stackjoin-part <sum> …".
//
// The 12×12 classes take CPU-hours: their units are kept in the committed
// bundle data/bundles/symmetry-12.parquet (Bundle), in two families, 2×6
// (the stack method; 6×2 takes its classes by transposition, UnitOf) and
// 3×4 (the R-stack method; 4×3 likewise). A family lists its units
// (Family.IDs) after checking that those the bundle lacks fit
// symmetry.max_cpu_hours by their projected cost. The 2×6 classes that
// exchange the stacks by involutions are counted by the sum over pattern
// orbits from the shapes stage's orbit stack counts (OrbitTable), and a
// run recounts them (Bundled).
//
// MethodsText says how a shape's classes were counted and checked, for the
// stage's checked_by column.
package symunits

import (
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry"
)

// groups caches the groups by shape and transposition: building one is
// cheap, but every unit needs its shape's.
var groups sync.Map // groupKey → *symmetry.Group

// groupKey is a group's shape and whether it has transposition.
type groupKey struct {
	s         symmetry.Shape
	transpose bool
}

// Group returns the symmetry group of s, with transposition when
// transpose, from the cache.
func Group(s symmetry.Shape, transpose bool) (*symmetry.Group, error) {
	k := groupKey{s, transpose}
	if g, ok := groups.Load(k); ok {
		return g.(*symmetry.Group), nil
	}
	g, err := symmetry.NewGroup(s, transpose)
	if err != nil {
		return nil, err
	}
	groups.Store(k, g)
	return g, nil
}

// UnitID names class i of shape s: "3x3.class020", with 4 digits for the
// 12×12 shapes ("2x6.class0142").
func UnitID(s symmetry.Shape, i int) string {
	if s.N() == bundledSide {
		return fmt.Sprintf("%v.class%04d", s, i)
	}
	return fmt.Sprintf("%v.class%03d", s, i)
}

// ParseUnit returns the shape and class index of a unit id, as UnitID
// writes them.
func ParseUnit(id string) (symmetry.Shape, int, error) {
	shapeText, classText, ok := strings.Cut(id, ".class")
	gs, err := grid.ParseShape(shapeText)
	i, err2 := strconv.Atoi(classText)
	s := symmetry.Shape{R: gs.R, C: gs.C}
	if !ok || err != nil || err2 != nil || i < 0 || UnitID(s, i) != id {
		return symmetry.Shape{}, 0, fmt.Errorf("unit %q: want <shape>.class<index>, as 3x3.class020 or 2x6.class0142", id)
	}
	return s, i, nil
}

// PartID names part k of parts of class i of shape s, k as wide as
// parts: "3x4.class0104.part007of256".
func PartID(s symmetry.Shape, i, k, parts int) string {
	return fmt.Sprintf("%s.part%0*dof%d", UnitID(s, i), len(strconv.Itoa(parts)), k, parts)
}

// ParseUnitPart returns the shape, class, part and parts of a unit id as
// UnitID (part 0 of 1) or PartID writes them.
func ParseUnitPart(id string) (s symmetry.Shape, class, part, parts int, err error) {
	base, suffix, split := strings.Cut(id, ".part")
	if s, class, err = ParseUnit(base); err != nil {
		return symmetry.Shape{}, 0, 0, 0, err
	}
	if !split {
		return s, class, 0, 1, nil
	}
	k, n, ok := strings.Cut(suffix, "of")
	part, err1 := strconv.Atoi(k)
	parts, err2 := strconv.Atoi(n)
	if !ok || err1 != nil || err2 != nil || parts < 2 || part < 0 || part >= parts || PartID(s, class, part, parts) != id {
		return symmetry.Shape{}, 0, 0, 0, fmt.Errorf("unit %q: want <shape>.class<index>.part<k>of<parts>, as 3x4.class0104.part007of256", id)
	}
	return s, class, part, parts, nil
}

// Methods of the fixed counts, as written in the classes table.
const (
	MethodIdentity  = "identity"
	MethodSearch    = "search"
	MethodStacks    = "stacks"
	MethodStackjoin = "stackjoin"
)

// GroupText describes the group of s for the artifact and the paper.
func GroupText(s symmetry.Shape, transpose bool) string {
	t := fmt.Sprintf("bands and rows within bands (S%d wr S%d) × stacks and columns within stacks (S%d wr S%d)", s.R, s.C, s.C, s.R)
	if transpose {
		t += " ⋊ transposition"
	}
	return t
}

// CheckPrefix starts the id of every check unit (package symchecks).
const CheckPrefix = "check."
