package symunits

import (
	"context"
	"fmt"
	"math/big"
	"runtime"
	"slices"
	"strings"

	"github.com/sudoku-census/sudoku-census/stages/maths/pair"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/bandcols"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/search"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/stackjoin"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/stacks"
	"github.com/sudoku-census/sudoku-census/stages/shared/pairunits"
)

// stackMethod reports whether class c of shape s is counted by the stack
// method rather than the search: every class of 2×5, 5×2, 2×6 and 6×2 (sides
// 10 and 12, the only sides the stage accepts beyond 9). There the search
// does not finish the classes that fix the most grids (about 10^13 nodes
// planned for class 70 of 2×5), and the stack method counts all 1,259
// non-identity classes of 2×5 in about a minute. Smaller shapes keep the
// search, which the stack method is checked against class by class in
// package maths/symmetry/stacks.
func stackMethod(s symmetry.Shape, c symmetry.Class) bool {
	return s.N() >= 10 && (s.R == 2 || s.C == 2) && !c.Rep.Transpose
}

// Compute returns F of one class, "<method> <decimal count>", or for a
// part of a 3×4 class its sums, "stackjoin-part <sum> …" (one per
// relabelling type, stackjoin.FixedPart); transpose tells which groups
// have transposition, and orbitsOf gives the orbit stack counts of a box
// width (the shapes stage's).
func Compute(ctx context.Context, id string, transpose func(symmetry.Shape) bool, orbitsOf func(c int) ([]pair.Orbit, []uint64, error)) ([]byte, error) {
	s, i, part, parts, err := ParseUnitPart(id)
	if err != nil {
		return nil, err
	}
	if parts > 1 {
		return PartOf(ctx, s, i, part, parts)
	}
	return fixedOf(ctx, s, transpose(s), i, orbitsOf)
}

// MethodStackjoinPart marks the result of a part of a 3×4 class.
const MethodStackjoinPart = "stackjoin-part"

// PartOf returns the sums of part of parts of class i of shape s (3×4,
// or 5×2 and 6×2 for the second counts),
// "stackjoin-part <sum> …", on every core: stackjoin.FixedPart's parts, but
// on 6×2 FixedPartByFirstRows's (FirstRowShareVersion), whose heavy classes crowd
// their least configurations into FixedPart's first subtrees.
func PartOf(ctx context.Context, s symmetry.Shape, i, part, parts int) ([]byte, error) {
	// 5×2 and 6×2: the split second counts (package symchecks)
	if s != JoinShape && s != (symmetry.Shape{R: 5, C: 2}) && s != (symmetry.Shape{R: 6, C: 2}) {
		return nil, fmt.Errorf("%v class %d: only 3x4, 5x2 and 6x2 classes are counted in parts", s, i)
	}
	g, err := Group(s, false)
	if err != nil {
		return nil, err
	}
	c, err := g.Class(i)
	if err != nil {
		return nil, err
	}
	partOf := stackjoin.FixedPart
	if s == (symmetry.Shape{R: 6, C: 2}) {
		partOf = stackjoin.FixedPartByFirstRows
	}
	sums, err := partOf(ctx, s, c.Rep, part, parts, runtime.GOMAXPROCS(0))
	if err != nil {
		return nil, err
	}
	out := []byte(MethodStackjoinPart)
	for _, x := range sums {
		out = append(out, ' ')
		out = x.Append(out, 10)
	}
	return out, nil
}

// MethodBandcolsPart marks the result of a σ type of a class recounted by
// package bandcols (one N_k, the part's index k).
const MethodBandcolsPart = "bandcols-part"

// MethodBandcols names package bandcols' count as a second count.
const MethodBandcols = "bandcols"

// FixedFromUnits returns F of a class and its method from the results of
// its units: one "<method> <count>", or the parts of a 3×4 class, whose
// sums stackjoin.Combine adds and divides, or the σ types of a c×2 class
// recounted by package bandcols on its 2×c transpose, which
// bandcols.Combine divides and adds.
func FixedFromUnits(ids []string, resultOf map[string][]byte) (*big.Int, string, error) {
	var parts [][]*big.Int
	bandcolsParts := 0
	for _, id := range ids {
		result, ok := resultOf[id]
		if !ok {
			return nil, "", fmt.Errorf("no result of unit %s", id)
		}
		// A method and at least one non-negative decimal count.
		fields := strings.Fields(string(result))
		counts := make([]*big.Int, 0, len(fields))
		for _, text := range fields[min(1, len(fields)):] {
			x, isInt := new(big.Int).SetString(text, 10)
			if !isInt || x.Sign() < 0 {
				counts = nil
				break
			}
			counts = append(counts, x)
		}
		m := ""
		if len(fields) > 0 {
			m = fields[0]
		}
		if len(ids) == 1 {
			if len(counts) != 1 || len(fields) != 2 || (m != MethodSearch && m != MethodStacks && m != MethodStackjoin) {
				return nil, "", fmt.Errorf("unit %s: result %q is not a method and a count", id, result)
			}
			return counts[0], m, nil
		}
		if m == MethodBandcolsPart && len(counts) == 1 && len(fields) == 2 {
			bandcolsParts++
			parts = append(parts, counts)
			continue
		}
		if m != MethodStackjoinPart || len(counts) == 0 || len(counts) != len(fields)-1 {
			return nil, "", fmt.Errorf("unit %s: result %q is not %q and counts", id, result, MethodStackjoinPart)
		}
		parts = append(parts, counts)
	}
	if bandcolsParts > 0 {
		if bandcolsParts != len(ids) {
			return nil, "", fmt.Errorf("units %s…: %d of %d results are %q", ids[0], bandcolsParts, len(ids), MethodBandcolsPart)
		}
		f, err := bandcolsFromParts(ids[0], parts)
		return f, MethodBandcols, err
	}
	s, i, _, _, err := ParseUnitPart(strings.TrimPrefix(ids[0], CheckPrefix))
	if err != nil {
		return nil, "", err
	}
	g, err := Group(s, false)
	if err != nil {
		return nil, "", err
	}
	c, err := g.Class(i)
	if err != nil {
		return nil, "", err
	}
	f, err := stackjoin.Combine(s, c.Rep, parts...)
	return f, MethodStackjoin, err
}

// bandcolsFromParts returns F of the c×2 class of unit id from its σ
// types' counts N_k (part k), counted on the 2×c transpose.
func bandcolsFromParts(id string, parts [][]*big.Int) (*big.Int, error) {
	s, i, _, _, err := ParseUnitPart(strings.TrimPrefix(id, CheckPrefix))
	if err != nil {
		return nil, err
	}
	sums := make([]*big.Int, len(parts))
	for k, p := range parts {
		sums[k] = p[0]
	}
	if _, _, err := BandcolsElement(s, i); err != nil {
		return nil, err
	}
	return bandcols.Combine(symmetry.Shape{R: s.C, C: s.R}, sums)
}

// BandcolsElement returns the 2×c shape and element that recount class i
// of the c×2 shape s by package bandcols (the transpose of its
// representative), or an error when bandcols does not count it.
func BandcolsElement(s symmetry.Shape, i int) (symmetry.Shape, symmetry.Element, error) {
	g, err := Group(s, false)
	if err != nil {
		return symmetry.Shape{}, symmetry.Element{}, err
	}
	c, err := g.Class(i)
	if err != nil {
		return symmetry.Shape{}, symmetry.Element{}, err
	}
	s2 := symmetry.Shape{R: s.C, C: s.R}
	e2 := symmetry.Element{Rows: c.Rep.Cols, Cols: c.Rep.Rows}
	if !bandcols.Applies(s2, e2) {
		return symmetry.Shape{}, symmetry.Element{}, fmt.Errorf("%v class %d: its transpose is not an involutive stack exchange of %v", s, i, s2)
	}
	return s2, e2, nil
}

// orbitSource returns every pattern orbit of box width c, each once, with
// its stack count E(O).
type orbitSource func(c int) ([]pair.Orbit, []uint64, error)

// An OrbitTable is the shapes stage's table of orbit stack counts
// (shapes.OrbitStacks) as the units read it: its path, for errors, and its
// rows.
type OrbitTable struct {
	Path string
	Rows []OrbitStack
}

// An OrbitStack is a row of the table: a pattern orbit of box width Width
// (as pair.Orbit.String writes it), its weight and its stack count E(O).
type OrbitStack struct {
	Width          int32
	Orbit          string
	Weight, Stacks uint64
}

// OrbitStacksFrom returns the orbits of width c and their stack counts
// from the shapes stage's rows, after checking that the rows have each
// orbit of pair.Orbits(c) exactly once, with its weight.
func OrbitStacksFrom(ctx context.Context, table OrbitTable, c int) ([]pair.Orbit, []uint64, error) {
	byOrbit := map[string]OrbitStack{}
	for _, r := range table.Rows {
		if int(r.Width) != c {
			continue
		}
		if _, dup := byOrbit[r.Orbit]; dup {
			return nil, nil, fmt.Errorf("%s: orbit %s twice", table.Path, r.Orbit)
		}
		byOrbit[r.Orbit] = r
	}
	if len(byOrbit) == 0 {
		return nil, nil, fmt.Errorf("%s has no stack counts of box width %d, which the sum over pattern orbits needs: set shapes.orbit_stacks=true", table.Path, c)
	}
	orbits, err := pair.Orbits(ctx, c)
	if err != nil {
		return nil, nil, err
	}
	if len(orbits) != len(byOrbit) {
		return nil, nil, fmt.Errorf("%s: %d orbits of box width %d, want %d", table.Path, len(byOrbit), c, len(orbits))
	}
	es := make([]uint64, len(orbits))
	for i, o := range orbits {
		r, ok := byOrbit[o.String()]
		if !ok || r.Weight != o.Weight {
			return nil, nil, fmt.Errorf("%s: orbit %s of weight %d: its row is missing or has weight %d", table.Path, o, o.Weight, r.Weight)
		}
		es[i] = r.Stacks
	}
	return orbits, es, nil
}

// fixedOf returns F of class i of shape s, "<method> <decimal count>": by
// the stack method where stackMethod says so (an involutive exchange of a
// 2×c grid that package stacks counts by the sum over pattern orbits with
// the stack counts of orbitsOf), by the R-stack method on 3×4 (package
// stackjoin, on every core), else by the search.
func fixedOf(ctx context.Context, s symmetry.Shape, transpose bool, i int, orbitsOf func(c int) ([]pair.Orbit, []uint64, error)) ([]byte, error) {
	g, err := Group(s, transpose)
	if err != nil {
		return nil, err
	}
	c, err := g.Class(i)
	if err != nil {
		return nil, err
	}
	method := MethodSearch
	var f *big.Int
	switch {
	case s.R == 2 && !c.Rep.Transpose && stacks.ByOrbits(s, c.Rep):
		method = MethodStacks
		orbits, es, err := orbitsOf(s.C)
		if err != nil {
			return nil, fmt.Errorf("%v class %d: %w", s, i, err)
		}
		f, err = stacks.FixedFromOrbits(s, c.Rep, orbits, es)
	case stackMethod(s, c):
		method = MethodStacks
		f, err = stacks.Fixed(ctx, s, c.Rep)
	case s == JoinShape:
		method = MethodStackjoin
		f, err = stackjoin.FixedWorkers(ctx, s, c.Rep, runtime.GOMAXPROCS(0))
	default:
		f, err = search.Fixed(ctx, s, c)
	}
	if err != nil {
		return nil, err
	}
	return []byte(method + " " + f.String()), nil
}

// UnitOf returns the unit whose result is F of class c of shape s. A 6×2
// (4×3) class takes the 2×6 (3×4) unit of its transpose: transposing the
// grid carries the grids fixed by (ρ, κ) with 6×2 boxes onto those fixed
// by (κ, ρ) with 2×6 boxes, so F is the same (and the stack method counts
// 6×2 by this transposition anyway); the two classes have the same size,
// checked.
func UnitOf(s symmetry.Shape, c symmetry.Class) (string, error) {
	f := FamilyOf(s)
	if f == nil || s == f.shape {
		return UnitID(s, c.Index), nil
	}
	BundleShape := f.shape
	g, err := Group(BundleShape, false)
	if err != nil {
		return "", err
	}
	i, err := g.ClassOf(symmetry.Element{Rows: c.Rep.Cols, Cols: c.Rep.Rows})
	if err != nil {
		return "", err
	}
	if g.Classes[i].Size.Cmp(c.Size) != 0 || g.Classes[i].Order != c.Order {
		return "", fmt.Errorf("%v class %d (%s): its transpose is in %v class %d, of size %v and order %d, not %v and %d",
			s, c.Index, c.Desc, BundleShape, i, g.Classes[i].Size, g.Classes[i].Order, c.Size, c.Order)
	}
	return UnitID(BundleShape, i), nil
}

// Methods, as written in the checked_by column.

// MethodCanonical names the count by canonical forms.
const MethodCanonical = "canonical forms: every grid with first row 1…N mapped through every element of the group, the smallest relabelled image kept, distinct images counted"

const methodStacksText = "every class by the stack method (twisted stack counts over pattern assignments), which equals the search on every class of 2x2 to 4x2 and on the 2x5 classes the search finishes, and is checked on the other 2x5 classes against package pair's stack counts, plain backtracking, every pattern assignment and a count by bands"

// methodStacks12Text is the stack method's checked_by text for 2x6 and 6x2.
var methodStacks12Text = "every class by the stack method, which equals the search on every class of 2x2 to 4x2, on the 2x5 classes the search finishes and on 2x6 classes 220, 2307, 2309, 2325, 3689, 3727 and 3879 (3879 also as 6x2), and whose twisted stack counts equal plain backtracking on sampled 2x6 assignments, but the 16 that exchange the stacks with every map an involution (classes 10, 21, 32, 43, 54, 65, 76, 87, 98, 109, 120, 131, 142, 153, 164 and 175) by package stacks' sum over the pair method's pattern orbits, with each orbit's stack count from the shapes stage's bundled stack-count units (each checked against the sum unit of the same orbits), which equals the stack method on every such exchange of 2x2 to 2x5 (and on 2x6 classes 10, 21 and 32 when the bundle's rows of them, from the stack method, are recomputed); 6x2 takes each class's count from the 2x6 class of its transpose; the counts of the 2x6 classes from the committed bundle " + Bundle.Path()

// methodStackjoinText is the R-stack method's checked_by text for 3x4 and
// 4x3.
var methodStackjoinText = "every class by the R-stack method (package stackjoin: twisted stack counts joined over row-set configurations), which equals the search on every class without transposition of 2x2, 2x3 and 3x2, on the 9x9 classes without transposition that fix a grid and on 122 classes of 3x4 (the tests of package stackjoin), whose reduced stack counts equal the plain dynamic programme on every class it is compared on, and whose count of a class that cycles every stack (3x4 class 145) by the column permutations of the symbols each relabelling moves equals the enumeration on the 28 relabelling types of such classes of 2x2 to 3x3 and, for the identity relabelling, the number of 12x4 stacks counted by bands (package walkbands); 4x3 takes each class's count from the 3x4 class of its transpose; the counts of the 3x4 classes from the committed bundle " + Bundle.Path()

// OrbitRecountText is the checked_by text of recountOrbitClasses.
const OrbitRecountText = "the %d classes counted by the sum over pattern orbits recounted by it in this run from the shapes stage's orbit stack counts, equal to the bundle's rows (those of classes 10, 21 and 32 computed by the stack method)"

// recountOrbitClasses recounts by the sum over pattern orbits every 2×6
// class that stacks.ByOrbits names, when the shapes stage wrote the 2×6
// orbits' stack counts (shapes.orbit_stacks), and fails unless each equals
// its unit's result. The bundle's rows of classes 10, 21 and 32 were
// computed by the stack method before the orbit sum existed, so for them
// this is a second method; for the others it recomputes the committed row.
// It returns how many classes it recounted (0 without the stack counts)
// and the recounts of the classes of stackMethodRows, a second count of
// theirs.
func recountOrbitClasses(ctx context.Context, table OrbitTable, resultOf map[string][]byte) (int, map[int]*big.Int, error) {
	if !slices.ContainsFunc(table.Rows, func(r OrbitStack) bool { return int(r.Width) == BundleShape.C }) {
		return 0, nil, nil
	}
	orbits, es, err := OrbitStacksFrom(ctx, table, BundleShape.C)
	if err != nil {
		return 0, nil, err
	}
	g, err := Group(BundleShape, false)
	if err != nil {
		return 0, nil, err
	}
	n := 0
	second := map[int]*big.Int{}
	var differ []orbitMismatch
	for _, c := range g.Classes[1:] {
		if !stacks.ByOrbits(BundleShape, c.Rep) {
			continue
		}
		if err := ctx.Err(); err != nil {
			return 0, nil, err
		}
		id := UnitID(BundleShape, c.Index)
		f, err := stacks.FixedFromOrbits(BundleShape, c.Rep, orbits, es)
		if err != nil {
			return 0, nil, err
		}
		if want := MethodStacks + " " + f.String(); string(resultOf[id]) != want {
			differ = append(differ, orbitMismatch{class: c.Index, unit: id, has: string(resultOf[id]), sum: want})
		}
		if slices.Contains(stackMethodRows, c.Index) {
			second[c.Index] = f
		}
		n++
	}
	if len(differ) > 0 {
		return 0, nil, orbitBlame(differ, n, table.Path)
	}
	return n, second, nil
}

// An orbitMismatch is a 2×6 class whose unit disagrees with its recount by
// the sum over pattern orbits.
type orbitMismatch struct {
	class          int
	unit, has, sum string
}

// orbitBlame names the units to recompute after the recount's mismatches
// among n classes. Every recount reads every orbit's stack count, so one
// class off while the others agree points at that class's unit; several
// off may be several units or one stack count all of them read, and both
// are named.
func orbitBlame(differ []orbitMismatch, n int, orbitPath string) error {
	d := differ[0]
	stackUnits := fmt.Sprintf("the stack-count units %s* of %s (read through %s)", pairunits.StacksPrefix, pairunits.Bundle.Path(), orbitPath)
	if len(differ) == 1 {
		return fmt.Errorf("%v class %d: unit %s has %q, the sum over pattern orbits gives %q, and the other %d classes so recounted agree: unit %s of %s is the likely wrong one (census verify --recompute all --bundle %s recomputes it), else %s",
			BundleShape, d.class, d.unit, d.has, d.sum, n-1, d.unit, Bundle.Path(), Bundle.Name, stackUnits)
	}
	var units []string
	for _, m := range differ {
		units = append(units, m.unit)
	}
	return fmt.Errorf("%v: %d of the %d classes recounted by the sum over pattern orbits disagree with their units (%s); class %d: unit %s has %q, the sum over pattern orbits gives %q: either those units of %s or a stack count they all read, from %s, is wrong (census verify --recompute all --bundle %s, then --bundle %s, names the unit)",
		BundleShape, len(differ), n, strings.Join(units, ", "), d.class, d.unit, d.has, d.sum, Bundle.Path(), stackUnits, Bundle.Name, pairunits.Bundle.Name)
}

// stackMethodRows are the 2×6 classes counted by the sum over pattern
// orbits whose bundle rows the stack method computed (before the orbit sum
// existed): for them the run's recount is a second count, by code of the
// same package (methodOrbitSum).
var stackMethodRows = []int{10, 21, 32}

// MethodsText says how the classes of s were counted, by methods (those
// of its classes' results), for the checked_by column: nothing for the
// search, whose checks the stage names; orbitRecounts is the number of 2×6
// classes recountOrbitClasses recounted.
func MethodsText(s symmetry.Shape, methods map[string]bool, orbitRecounts int) []string {
	switch {
	case methods[MethodStacks] && s.N() == bundledSide:
		if orbitRecounts > 0 {
			return []string{methodStacks12Text, fmt.Sprintf(OrbitRecountText, orbitRecounts)}
		}
		return []string{methodStacks12Text}
	case methods[MethodStacks]:
		return []string{methodStacksText}
	case methods[MethodStackjoin]:
		return []string{methodStackjoinText}
	}
	return nil
}

// unitsOf returns the units whose results give F of class c of shape s
// (FixedFromUnits): the class's unit (UnitOf), or for a split 3×4 class
// one per part.
func unitsOf(s symmetry.Shape, c symmetry.Class) ([]string, error) {
	id, err := UnitOf(s, c)
	if err != nil {
		return nil, err
	}
	ids := []string{id}
	if fam := FamilyOf(s); fam != nil {
		_, i, _ := ParseUnit(id)
		ids = fam.UnitIDs(i)
	}
	return ids, nil
}
