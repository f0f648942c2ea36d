package symmetry

import (
	"context"
	"fmt"
	"maps"
	"math/big"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
	"github.com/sudoku-census/sudoku-census/stages/maths/pair"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/search"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/stackjoin"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/stacks"
	"github.com/sudoku-census/sudoku-census/stages/shapes"
	gridcounts "github.com/sudoku-census/sudoku-census/stages/shared/literature"
	"github.com/sudoku-census/sudoku-census/stages/shared/pairunits"
)

// Stage writes data/symmetry_classes.parquet and
// data/essentially_different.parquet.
var Stage = &pipeline.Stage{
	Name:      "symmetry",
	Doc:       "essentially different grids per box shape, by Burnside's lemma over the conjugacy classes of the symmetry group",
	Version:   6,
	Requires:  []*pipeline.Stage{shapes.Stage},
	NewConfig: func() pipeline.Config { return DefaultConfig() },
	Outputs:   []pipeline.Output{Classes.Output, Counts.Output},
	Headlines: headlines,
	Run:       run,
	// Units: the grids fixed by one conjugacy class of one shape. Each unit
	// uses every core itself. The 12×12 units are kept in a committed
	// bundle (Bundle).
	Units: &pipeline.Units{List: listUnits, Compute: computeUnit, Workers: 1, Bundle: Bundle,
		MoreBundles: []*pipeline.Bundle{ChecksBundle}},
}

// Classes is data/symmetry_classes.parquet.
var Classes = pipeline.NewTable[ClassRow]("symmetry_classes",
	"one row per shape and conjugacy class of its symmetry group: size, representative and grids fixed up to relabelling")

// ClassRow is one conjugacy class of the group of one shape. Size and Fixed
// are decimal strings: Fixed is F(g), the number of grids X with X∘g a
// relabelling of X, divided by N! (an integer).
type ClassRow struct {
	Shape          string `parquet:"shape"`
	Transpose      bool   `parquet:"transpose"`
	Class          int32  `parquet:"class"`
	Size           string `parquet:"size"`
	Order          int32  `parquet:"order"`
	Type           string `parquet:"type"`
	Representative string `parquet:"representative"`
	Fixed          string `parquet:"fixed"`
	// Method is how Fixed was counted: "identity" (the shapes stage's grid
	// count divided by N!), "search" or "stacks" (the stack method).
	Method string `parquet:"method"`
	// CheckMethod names the second count of F, "" when there is none;
	// CheckFixed is that count (equal to Fixed, or the stage fails), ""
	// when none, and CheckCPUSeconds the CPU time the checks bundle records
	// for it (0 for a count made in the run).
	CheckMethod     string  `parquet:"check_method"`
	CheckFixed      string  `parquet:"check_fixed"`
	CheckCPUSeconds float64 `parquet:"check_cpu_seconds"`
}

// Counts is data/essentially_different.parquet.
var Counts = pipeline.NewTable[CountRow]("essentially_different",
	"one row per shape: the group, the Burnside sum and the number of essentially different grids")

// CountRow is one shape's result. Decimal strings hold exact integers.
type CountRow struct {
	Shape                string `parquet:"shape"`
	Group                string `parquet:"group"`
	GroupOrder           string `parquet:"group_order"`
	Classes              int32  `parquet:"classes"`
	ClassesFixing        int32  `parquet:"classes_fixing"`
	Grids                string `parquet:"grids"`
	IdentityFixed        string `parquet:"identity_fixed"`
	BurnsideSum          string `parquet:"burnside_sum"`
	EssentiallyDifferent string `parquet:"essentially_different"`
	CheckedBy            string `parquet:"checked_by"`
	// Literature is the published count of essentially different grids, ""
	// where none is known, and LiteratureSource names where it is published.
	Literature       string `parquet:"literature"`
	LiteratureSource string `parquet:"literature_source"`
	// BundleCPUSeconds is the CPU time the committed bundle records for the
	// shape's bundled classes (2x6 and 6x2: its 488 units, each as measured
	// when it was computed); 0 for a shape without a bundle.
	BundleCPUSeconds float64 `parquet:"bundle_cpu_seconds"`
	// VerifiedShare is the fraction of the non-identity Burnside sum
	// Σ|class|·F whose F a second count equals, one sharing counting code
	// with the first counted as half: 6 decimals, rounded down; "" when no
	// class but the identity fixes a grid.
	VerifiedShare string `parquet:"verified_share"`
}

// Config is the stage's configuration (keys under "symmetry.").
type Config struct {
	// Shapes lists the box shapes, each "RxC" and each in shapes.shapes,
	// in the order of the artifacts' rows.
	Shapes []string `mapstructure:"shapes" json:"shapes"`
	// Transpose puts transposition in the group of square boxes.
	Transpose bool `mapstructure:"transpose" json:"transpose"`
	// MaxCPUHours is the largest projected cost of the 12×12 units the
	// bundle lacks; 2x6 and 6x2 run only when it covers them.
	MaxCPUHours float64 `mapstructure:"max_cpu_hours" json:"max_cpu_hours"`
	// CheckMaxClassCPUHours is the largest projected CPU time of a class's
	// second count that a run lists (the heavy 5×2 recounts take hours).
	CheckMaxClassCPUHours float64 `mapstructure:"check_max_class_cpu_hours" json:"check_max_class_cpu_hours"`
}

// DefaultConfig is the configuration without a config file.
func DefaultConfig() *Config {
	return &Config{Shapes: []string{"2x2", "2x3", "3x2", "2x4", "4x2", "3x3", "2x5", "5x2"}, Transpose: true, MaxCPUHours: 1, CheckMaxClassCPUHours: 0.25}
}

// maxSide is the largest side the stage accepts for any shape: beyond it
// the fixed-grid search does not finish for every class. Side 10 is
// accepted for 2x5 and 5x2, whose classes the stack method counts, and
// side 12 for the bundled families (2x6, 6x2, 3x4 and 4x3).
const maxSide = 9

// allowedShapes describes the accepted shapes, for errors.
const allowedShapes = "box shapes RxC with side 2 ≤ R·C ≤ 9, or 2x5, 5x2, 2x6, 6x2, 3x4 or 4x3"

// accepted reports whether the stage counts shape s.
func accepted(s grid.Shape) bool {
	n := s.N()
	return (n >= 2 && n <= maxSide) || (n == 10 && (s.R == 2 || s.C == 2)) ||
		familyOf(symmetry.Shape{R: s.R, C: s.C}) != nil
}

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

// Validate checks every key.
func (c *Config) Validate() error {
	if !(c.MaxCPUHours >= 0 && c.MaxCPUHours <= maxCPUHours) {
		return pipeline.Invalid("symmetry.max_cpu_hours", c.MaxCPUHours, fmt.Sprintf("a number in [0, %d]", maxCPUHours))
	}
	if !(c.CheckMaxClassCPUHours >= 0 && c.CheckMaxClassCPUHours <= maxCPUHours) {
		return pipeline.Invalid("symmetry.check_max_class_cpu_hours", c.CheckMaxClassCPUHours, fmt.Sprintf("a number in [0, %d]", maxCPUHours))
	}
	if len(c.Shapes) == 0 {
		return pipeline.Invalid("symmetry.shapes", "[]", "a non-empty list of "+allowedShapes)
	}
	seen := map[grid.Shape]bool{}
	for _, text := range c.Shapes {
		s, err := grid.ParseShape(text)
		if err != nil || !accepted(s) {
			return pipeline.Invalid("symmetry.shapes", strconv.Quote(text), allowedShapes+", e.g. 2x3 or 3x3")
		}
		if seen[s] {
			return pipeline.Invalid("symmetry.shapes", strconv.Quote(text), "each box shape once")
		}
		seen[s] = true
	}
	return nil
}

// shapesOf returns the configured shapes, parsed (Validate has checked
// them).
func (c *Config) shapesOf() []symmetry.Shape {
	var out []symmetry.Shape
	for _, text := range c.Shapes {
		s, _ := grid.ParseShape(text)
		out = append(out, symmetry.Shape{R: s.R, C: s.C})
	}
	return out
}

// transpose reports whether the group of s includes transposition.
func (c *Config) transpose(s symmetry.Shape) bool { return c.Transpose && s.R == s.C }

// groups caches the groups by shape and transposition: building one is
// cheap, but every unit needs its shape's.
var groups sync.Map // groupKey → *symmetry.Group

type groupKey struct {
	s         symmetry.Shape
	transpose bool
}

func groupOf(s symmetry.Shape, transpose bool) (*symmetry.Group, error) {
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

// unitID names class i of shape s: "3x3.class020", with 4 digits for the
// 12×12 shapes ("2x6.class0142").
func unitID(s symmetry.Shape, i int) string {
	if s.N() == bundledSide {
		return fmt.Sprintf("%v.class%04d", s, i)
	}
	return fmt.Sprintf("%v.class%03d", s, i)
}

// listUnits lists every class but the identity of every shape, in config
// order and class order; a 12×12 shape and its transpose share the units
// of the family's shape, 2×6 or 3×4 (see unitOf), listed once, and those
// the bundle lacks must fit symmetry.max_cpu_hours.
func listUnits(p *pipeline.Pass) ([]string, error) {
	cfg := pipeline.ConfigOf[Config](p)
	var ids []string
	var checkShapes []symmetry.Shape
	for _, s := range cfg.shapesOf() {
		if cs, ok := checkShapeOf(s); ok && !slices.Contains(checkShapes, cs) {
			checkShapes = append(checkShapes, cs)
		}
		if f := familyOf(s); f != nil {
			if slices.Contains(ids, unitID(f.shape, 1)) {
				continue // 6x2 after 2x6, or the other way round
			}
			bundled, err := bundleIDs(p, f, cfg.MaxCPUHours)
			if err != nil {
				return nil, err
			}
			ids = append(ids, bundled...)
			continue
		}
		g, err := groupOf(s, cfg.transpose(s))
		if err != nil {
			return nil, err
		}
		for i := 1; i < len(g.Classes); i++ {
			ids = append(ids, unitID(s, i))
		}
	}
	// The second counts after the first ones.
	for _, cs := range checkShapes {
		var of []symmetry.Shape
		for _, s := range cfg.shapesOf() {
			if t, ok := checkShapeOf(s); ok && t == cs {
				of = append(of, s)
			}
		}
		checks, err := checkIDs(p, cs, of, cfg.transpose, cfg.CheckMaxClassCPUHours, cfg.MaxCPUHours)
		if err != nil {
			return nil, err
		}
		ids = append(ids, checks...)
	}
	return ids, nil
}

// parseUnit returns the shape and class index of a unit id, as unitID
// writes them.
func parseUnit(id string) (symmetry.Shape, int, error) {
	shapeText, classText, ok := strings.Cut(id, ".class")
	gs, err := grid.ParseShape(shapeText)
	i, err2 := strconv.Atoi(classText)
	s := symmetry.Shape{R: gs.R, C: gs.C}
	if !ok || err != nil || err2 != nil || i < 0 || unitID(s, i) != id {
		return symmetry.Shape{}, 0, fmt.Errorf("unit %q: want <shape>.class<index>, as 3x3.class020 or 2x6.class0142", id)
	}
	return s, i, nil
}

// computeUnit returns F of one class, "<method> <decimal count>", or for a
// part of a 3×4 class its sums, "stackjoin-part <sum> …" (one per
// relabelling type, stackjoin.FixedPart).
func computeUnit(p *pipeline.Pass, id string) ([]byte, error) {
	cfg := pipeline.ConfigOf[Config](p)
	if strings.HasPrefix(id, checkPrefix) {
		return computeCheck(p, id)
	}
	s, i, part, parts, err := parseUnitPart(id)
	if err != nil {
		return nil, err
	}
	if parts > 1 {
		return partOf(p.Context(), s, i, part, parts)
	}
	return fixedOf(p.Context(), s, cfg.transpose(s), i, func(c int) ([]pair.Orbit, []uint64, error) {
		rows, err := shapes.OrbitStacks.Read(p)
		if err != nil {
			return nil, nil, err
		}
		return orbitStacksFrom(p.Context(), rows, c)
	})
}

// methodStackjoinPart marks the result of a part of a 3×4 class.
const methodStackjoinPart = "stackjoin-part"

// partOf returns the sums of part of parts of class i of shape s (3×4),
// "stackjoin-part <sum> …", on every core.
func partOf(ctx context.Context, s symmetry.Shape, i, part, parts int) ([]byte, error) {
	if s != joinShape && s != checkBundleShape {
		return nil, fmt.Errorf("%v class %d: only 3x4 and 5x2 classes are counted in parts", s, i)
	}
	g, err := groupOf(s, false)
	if err != nil {
		return nil, err
	}
	c, err := g.Class(i)
	if err != nil {
		return nil, err
	}
	sums, err := stackjoin.FixedPart(ctx, s, c.Rep, part, parts, runtime.GOMAXPROCS(0))
	if err != nil {
		return nil, err
	}
	out := []byte(methodStackjoinPart)
	for _, x := range sums {
		out = append(out, ' ')
		out = x.Append(out, 10)
	}
	return out, nil
}

// fixedFromUnits returns F of a class and its method from the results of
// its units: one "<method> <count>", or the parts of a 3×4 class, whose
// sums stackjoin.Combine adds and divides.
func fixedFromUnits(ids []string, resultOf map[string][]byte) (*big.Int, string, error) {
	var parts [][]*big.Int
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
			if len(counts) != 1 || len(fields) != 2 || (m != methodSearch && m != methodStacks && m != methodStackjoin) {
				return nil, "", fmt.Errorf("unit %s: result %q is not a method and a count", id, result)
			}
			return counts[0], m, nil
		}
		if m != methodStackjoinPart || len(counts) == 0 || len(counts) != len(fields)-1 {
			return nil, "", fmt.Errorf("unit %s: result %q is not %q and counts", id, result, methodStackjoinPart)
		}
		parts = append(parts, counts)
	}
	s, i, _, _, err := parseUnitPart(strings.TrimPrefix(ids[0], checkPrefix))
	if err != nil {
		return nil, "", err
	}
	g, err := groupOf(s, false)
	if err != nil {
		return nil, "", err
	}
	c, err := g.Class(i)
	if err != nil {
		return nil, "", err
	}
	f, err := stackjoin.Combine(s, c.Rep, parts...)
	return f, methodStackjoin, err
}

// orbitSource returns every pattern orbit of box width c, each once, with
// its stack count E(O).
type orbitSource func(c int) ([]pair.Orbit, []uint64, error)

// orbitStacksFrom returns the orbits of width c and their stack counts
// from the shapes stage's rows, after checking that the rows have each
// orbit of pair.Orbits(c) exactly once, with its weight.
func orbitStacksFrom(ctx context.Context, rows []shapes.OrbitStackRow, c int) ([]pair.Orbit, []uint64, error) {
	byOrbit := map[string]shapes.OrbitStackRow{}
	for _, r := range rows {
		if int(r.Width) != c {
			continue
		}
		if _, dup := byOrbit[r.Orbit]; dup {
			return nil, nil, fmt.Errorf("%s: orbit %s twice", shapes.OrbitStacks.Path, r.Orbit)
		}
		byOrbit[r.Orbit] = r
	}
	if len(byOrbit) == 0 {
		return nil, nil, fmt.Errorf("%s has no stack counts of box width %d, which the sum over pattern orbits needs: set shapes.orbit_stacks=true", shapes.OrbitStacks.Path, c)
	}
	orbits, err := pair.Orbits(ctx, c)
	if err != nil {
		return nil, nil, err
	}
	if len(orbits) != len(byOrbit) {
		return nil, nil, fmt.Errorf("%s: %d orbits of box width %d, want %d", shapes.OrbitStacks.Path, len(byOrbit), c, len(orbits))
	}
	es := make([]uint64, len(orbits))
	for i, o := range orbits {
		r, ok := byOrbit[o.String()]
		if !ok || r.Weight != o.Weight {
			return nil, nil, fmt.Errorf("%s: orbit %s of weight %d: its row is missing or has weight %d", shapes.OrbitStacks.Path, o, o.Weight, r.Weight)
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
func fixedOf(ctx context.Context, s symmetry.Shape, transpose bool, i int, orbitsOf orbitSource) ([]byte, error) {
	g, err := groupOf(s, transpose)
	if err != nil {
		return nil, err
	}
	c, err := g.Class(i)
	if err != nil {
		return nil, err
	}
	method := methodSearch
	var f *big.Int
	switch {
	case s.R == 2 && !c.Rep.Transpose && stacks.ByOrbits(s, c.Rep):
		method = methodStacks
		orbits, es, err := orbitsOf(s.C)
		if err != nil {
			return nil, fmt.Errorf("%v class %d: %w", s, i, err)
		}
		f, err = stacks.FixedFromOrbits(s, c.Rep, orbits, es)
	case stackMethod(s, c):
		method = methodStacks
		f, err = stacks.Fixed(ctx, s, c.Rep)
	case s == joinShape:
		method = methodStackjoin
		f, err = stackjoin.FixedWorkers(ctx, s, c.Rep, runtime.GOMAXPROCS(0))
	default:
		f, err = search.Fixed(ctx, s, c)
	}
	if err != nil {
		return nil, err
	}
	return []byte(method + " " + f.String()), nil
}

// unitOf returns the unit whose result is F of class c of shape s. A 6×2
// (4×3) class takes the 2×6 (3×4) unit of its transpose: transposing the
// grid carries the grids fixed by (ρ, κ) with 6×2 boxes onto those fixed
// by (κ, ρ) with 2×6 boxes, so F is the same (and the stack method counts
// 6×2 by this transposition anyway); the two classes have the same size,
// checked.
func unitOf(s symmetry.Shape, c symmetry.Class) (string, error) {
	f := familyOf(s)
	if f == nil || s == f.shape {
		return unitID(s, c.Index), nil
	}
	bundleShape := f.shape
	g, err := groupOf(bundleShape, false)
	if err != nil {
		return "", err
	}
	i, err := g.ClassOf(symmetry.Element{Rows: c.Rep.Cols, Cols: c.Rep.Rows})
	if err != nil {
		return "", err
	}
	if g.Classes[i].Size.Cmp(c.Size) != 0 || g.Classes[i].Order != c.Order {
		return "", fmt.Errorf("%v class %d (%s): its transpose is in %v class %d, of size %v and order %d, not %v and %d",
			s, c.Index, c.Desc, bundleShape, i, g.Classes[i].Size, g.Classes[i].Order, c.Size, c.Order)
	}
	return unitID(bundleShape, i), nil
}

// Methods of the fixed counts, as written in the classes table.
const (
	methodIdentity  = "identity"
	methodSearch    = "search"
	methodStacks    = "stacks"
	methodStackjoin = "stackjoin"
)

// literature is the published count of essentially different grids, by
// shape and transposition in the group (see the package comment). A count
// that differs from it stops the stage, unless the entry is disputed: then
// the difference is recorded in checked_by and the literature columns, and
// the paper states it.
var literature = map[groupKey]published{
	{symmetry.Shape{R: 2, C: 2}, true}:  {"2", "OEIS A109741", ""},
	{symmetry.Shape{R: 2, C: 3}, false}: {"49", "OEIS A291188", ""},
	{symmetry.Shape{R: 3, C: 2}, false}: {"49", "OEIS A291188", ""},
	{symmetry.Shape{R: 2, C: 4}, false}: {"1673187", "OEIS A291188", ""},
	{symmetry.Shape{R: 4, C: 2}, false}: {"1673187", "OEIS A291188", ""},
	{symmetry.Shape{R: 2, C: 5}, false}: {"4743933602050718", "OEIS A291188", a291188Disputed},
	{symmetry.Shape{R: 5, C: 2}, false}: {"4743933602050718", "OEIS A291188", a291188Disputed},
	{symmetry.Shape{R: 3, C: 3}, true}:  {"5472730538", "Russell and Jarvis (2006)", ""},
}

// published is a count from the literature: the decimal count, its source
// and, for a disputed count, why a difference is recorded rather than fatal.
type published struct{ count, source, disputed string }

// compareLiterature compares orbits, the stage's count for shape s, with
// lit (the zero value: nothing published) and returns the checked_by text:
// "" when nothing is published, the agreement, or for a disputed count the
// signed difference; a difference from an undisputed count is an error.
func compareLiterature(s symmetry.Shape, orbits *big.Int, lit published) (string, error) {
	switch {
	case lit.count == "":
		return "", nil
	case orbits.String() == lit.count:
		return "equal to the literature: " + lit.source, nil
	case lit.disputed == "":
		return "", fmt.Errorf("%v: Burnside's lemma gives %v essentially different grids, the literature (%s) %s", s, orbits, lit.source, lit.count)
	}
	want, ok := new(big.Int).SetString(lit.count, 10)
	if !ok {
		return "", fmt.Errorf("%v: the literature's count %q is not an integer", s, lit.count)
	}
	return fmt.Sprintf("differs from the literature (%s: %s) by %v: %s", lit.source, lit.count, new(big.Int).Sub(orbits, want), lit.disputed), nil
}

// a291188Disputed is why a 2×5 count that differs from A291188 is recorded
// rather than fatal: the sequence gives its 2×5 term without a method or
// program, and every non-identity class of this stage's sum is checked by a
// count that shares no code with the stack method (package stacks' tests),
// while Burnside's lemma holds on every cyclic subgroup (CheckPowers).
const a291188Disputed = "the sequence gives no method or program for this term; every class here is checked by an independent count and Burnside's lemma holds on every cyclic subgroup"

// Methods, as written in the checked_by column.
const methodCanonical = "canonical forms: every grid with first row 1…N mapped through every element of the group, the smallest relabelled image kept, distinct images counted"

const methodStacksText = "every class by the stack method (twisted stack counts over pattern assignments), which equals the search on every class of 2x2 to 4x2 and on the 2x5 classes the search finishes, and is checked on the other 2x5 classes against package pair's stack counts, plain backtracking, every pattern assignment and a count by bands"

// methodStacks12Text is the stack method's checked_by text for 2x6 and 6x2.
var methodStacks12Text = "every class by the stack method, which equals the search on every class of 2x2 to 4x2, on the 2x5 classes the search finishes and on 2x6 classes 220, 2307, 2309, 2325, 3689, 3727 and 3879 (3879 also as 6x2), and whose twisted stack counts equal plain backtracking on sampled 2x6 assignments, but the 16 that exchange the stacks with every map an involution (classes 10, 21, 32, 43, 54, 65, 76, 87, 98, 109, 120, 131, 142, 153, 164 and 175) by package stacks' sum over the pair method's pattern orbits, with each orbit's stack count from the shapes stage's bundled stack-count units (each checked against the sum unit of the same orbits), which equals the stack method on every such exchange of 2x2 to 2x5 (and on 2x6 classes 10, 21 and 32 when the bundle's rows of them, from the stack method, are recomputed); 6x2 takes each class's count from the 2x6 class of its transpose; the counts of the 2x6 classes from the committed bundle " + Bundle.Path()

// methodStackjoinText is the R-stack method's checked_by text for 3x4 and
// 4x3.
var methodStackjoinText = "every class by the R-stack method (package stackjoin: twisted stack counts joined over row-set configurations), which equals the search on every class without transposition of 2x2, 2x3 and 3x2, on the 9x9 classes without transposition that fix a grid and on 122 classes of 3x4 (the tests of package stackjoin), whose reduced stack counts equal the plain dynamic programme on every class it is compared on, and whose count of a class that cycles every stack (3x4 class 145) by the column permutations of the symbols each relabelling moves equals the enumeration on the 28 relabelling types of such classes of 2x2 to 3x3 and, for the identity relabelling, the number of 12x4 stacks counted by bands (package walkbands); 4x3 takes each class's count from the 3x4 class of its transpose; the counts of the 3x4 classes from the committed bundle " + Bundle.Path()

// orbitRecountText is the checked_by text of recountOrbitClasses.
const orbitRecountText = "the %d classes counted by the sum over pattern orbits recounted by it in this run from the shapes stage's orbit stack counts, equal to the bundle's rows (those of classes 10, 21 and 32 computed by the stack method)"

// recountOrbitClasses recounts by the sum over pattern orbits every 2×6
// class that stacks.ByOrbits names, when the shapes stage wrote the 2×6
// orbits' stack counts (shapes.orbit_stacks), and fails unless each equals
// its unit's result. The bundle's rows of classes 10, 21 and 32 were
// computed by the stack method before the orbit sum existed, so for them
// this is a second method; for the others it recomputes the committed row.
// It returns how many classes it recounted (0 without the stack counts)
// and the recounts of the classes of stackMethodRows, a second count of
// theirs.
func recountOrbitClasses(p *pipeline.Pass, resultOf map[string][]byte) (int, map[int]*big.Int, error) {
	rows, err := shapes.OrbitStacks.Read(p)
	if err != nil {
		return 0, nil, err
	}
	if !slices.ContainsFunc(rows, func(r shapes.OrbitStackRow) bool { return int(r.Width) == bundleShape.C }) {
		return 0, nil, nil
	}
	orbits, es, err := orbitStacksFrom(p.Context(), rows, bundleShape.C)
	if err != nil {
		return 0, nil, err
	}
	g, err := groupOf(bundleShape, false)
	if err != nil {
		return 0, nil, err
	}
	n := 0
	second := map[int]*big.Int{}
	for _, c := range g.Classes[1:] {
		if !stacks.ByOrbits(bundleShape, c.Rep) {
			continue
		}
		if err := p.Context().Err(); err != nil {
			return 0, nil, err
		}
		id := unitID(bundleShape, c.Index)
		f, err := stacks.FixedFromOrbits(bundleShape, c.Rep, orbits, es)
		if err != nil {
			return 0, nil, err
		}
		if want := methodStacks + " " + f.String(); string(resultOf[id]) != want {
			// Either side may be wrong: the unit, or a stack count the
			// shapes stage took from its bundle's stack-count units.
			return 0, nil, fmt.Errorf("%v class %d: unit %s has %q, the sum over pattern orbits gives %q: either that unit (in %s) or a stack count of %s (from the units %s* of %s) is wrong; census verify --recompute all --bundle %s, then --bundle %s, names the unit",
				bundleShape, c.Index, id, resultOf[id], want, Bundle.Path(), shapes.OrbitStacks.Path, pairunits.StacksPrefix, pairunits.Bundle.Path(), pairunits.Bundle.Name, Bundle.Name)
		}
		if slices.Contains(stackMethodRows, c.Index) {
			second[c.Index] = f
		}
		n++
	}
	return n, second, nil
}

// stackMethodRows are the 2×6 classes counted by the sum over pattern
// orbits whose bundle rows the stack method computed (before the orbit sum
// existed): for them the run's recount is a second count, by code of the
// same package (methodOrbitSum).
var stackMethodRows = []int{10, 21, 32}

// methodOrbitSum names the orbit-sum recount as a second count.
const methodOrbitSum = "orbit-sum"

// groupText describes the group of s for the artifact and the paper.
func groupText(s symmetry.Shape, transpose bool) string {
	t := fmt.Sprintf("bands and rows within bands (S%d wr S%d) × stacks and columns within stacks (S%d wr S%d)", s.R, s.C, s.C, s.R)
	if transpose {
		t += " ⋊ transposition"
	}
	return t
}

func run(p *pipeline.Pass) error {
	cfg := pipeline.ConfigOf[Config](p)
	known, err := shapes.Table.Read(p)
	if err != nil {
		return err
	}
	gridsOf := map[symmetry.Shape]*big.Int{}
	for _, row := range known {
		n, ok := new(big.Int).SetString(row.Grids, 10)
		if !ok {
			return fmt.Errorf("%s: grids %q of %dx%d is not an integer", shapes.Table.Path, row.Grids, row.Rows, row.Cols)
		}
		gridsOf[symmetry.Shape{R: int(row.Rows), C: int(row.Cols)}] = n
	}
	resultOf, err := p.UnitResultsByID()
	if err != nil {
		return err
	}
	orbitRecounts := 0               // for 2x6 and 6x2, from the bundles
	var orbitSecond map[int]*big.Int // 2×6 classes recounted by another method
	cpuOf, err := checkCPUSeconds(p, slices.Sorted(maps.Keys(resultOf)))
	if err != nil {
		return err
	}
	bundleCPU := map[*family]float64{} // for the 12×12 shapes
	for _, s := range cfg.shapesOf() {
		f := familyOf(s)
		if f == nil {
			continue
		}
		if _, done := bundleCPU[f]; done {
			continue
		}
		if f.shape == bundleShape {
			if orbitRecounts, orbitSecond, err = recountOrbitClasses(p, resultOf); err != nil {
				return err
			}
		}
		if bundleCPU[f], err = bundleCPUSeconds(p, f); err != nil {
			return err
		}
	}
	used := map[string]bool{}
	var classRows []ClassRow
	var countRows []CountRow
	for _, s := range cfg.shapesOf() {
		var checked []string
		grids, ok := gridsOf[s]
		if !ok && familyOf(s) == familyOf(joinShape) {
			// The shapes stage does not count 3×4: the identity's term takes
			// the literature's grid count.
			lit, found := gridcounts.Grids(grid.Shape{R: s.R, C: s.C})
			if !found {
				return fmt.Errorf("%v: no published grid count for the identity's term", s)
			}
			grids, ok = lit.Grids, true
			checked = append(checked, "the identity's term from the literature's grid count, not counted here: "+lit.Source)
		}
		if !ok {
			return pipeline.Invalid("symmetry.shapes", s.String(), "shapes the shapes stage counts: add it to shapes.shapes")
		}
		transpose := cfg.transpose(s)
		g, err := groupOf(s, transpose)
		if err != nil {
			return err
		}
		idFixed, err := symmetry.IdentityFixed(s, grids)
		if err != nil {
			return err
		}
		sum := new(big.Int)
		// Σ|class|·F above the identity, and its part a second count equals
		// (a count sharing code with the first as half).
		above, verified := new(big.Int), new(big.Rat)
		fixing := 0
		methods := map[string]bool{}
		fixed := make([]*big.Int, len(g.Classes))
		for _, c := range g.Classes {
			f, method := idFixed, methodIdentity
			if c.Index > 0 {
				id, err := unitOf(s, c)
				if err != nil {
					return err
				}
				ids := []string{id}
				if fam := familyOf(s); fam != nil {
					_, i, _ := parseUnit(id)
					ids = fam.unitIDs(i)
				}
				if f, method, err = fixedFromUnits(ids, resultOf); err != nil {
					return fmt.Errorf("%v class %d: %w", s, c.Index, err)
				}
				// g permutes the grids up to relabelling, F(identity) of
				// them, and fixes at most all: so the count lies between
				// ⌈F(identity)/|G|⌉ and F(identity).
				if f.Cmp(idFixed) > 0 {
					return fmt.Errorf("%v class %d: F = %v is more than F(identity) = %v, the number of grids up to relabelling", s, c.Index, f, idFixed)
				}
				methods[method] = true
				for _, id := range ids {
					used[id] = true
				}
			}
			if f.Sign() > 0 {
				fixing++
			}
			fixed[c.Index] = f
			term := new(big.Int).Mul(f, c.Size)
			sum.Add(sum, term)
			row := ClassRow{Shape: s.String(), Transpose: transpose, Class: int32(c.Index),
				Size: c.Size.String(), Order: int32(c.Order), Type: c.Type, Representative: c.Desc, Fixed: f.String(), Method: method}
			if c.Index > 0 {
				above.Add(above, term)
				chk, ids, err := checkOfClass(s, transpose, c, resultOf, cpuOf)
				if err != nil {
					return fmt.Errorf("%v class %d: second count: %w", s, c.Index, err)
				}
				for _, id := range ids {
					used[id] = true
				}
				if chk == nil && orbitSecond != nil && familyOf(s) == familyOf(bundleShape) {
					chk, err = orbitSecondOf(s, c, orbitSecond)
					if err != nil {
						return err
					}
				}
				if err := compareCheck(s, c, f, method, chk); err != nil {
					return err
				}
				if chk != nil {
					row.CheckMethod, row.CheckFixed, row.CheckCPUSeconds = chk.method, chk.fixed.String(), chk.cpu
					w := new(big.Rat).SetInt(term)
					if chk.half {
						w.Quo(w, big.NewRat(2, 1))
					}
					verified.Add(verified, w)
				}
			}
			classRows = append(classRows, row)
		}
		orbits, rem := new(big.Int).QuoRem(sum, g.Order, new(big.Int))
		if rem.Sign() != 0 {
			return fmt.Errorf("%v: the Burnside sum %v is not a multiple of the group order %v", s, sum, g.Order)
		}
		if err := g.CheckPowers(fixed); err != nil {
			return err
		}
		if s.N() <= symmetry.MaxCanonicalSide {
			n, err := symmetry.CountByCanonicalForms(p.Context(), s, transpose)
			if err != nil {
				return err
			}
			if big.NewInt(n).Cmp(orbits) != 0 {
				return fmt.Errorf("%v: Burnside's lemma gives %v essentially different grids, canonical forms %d", s, orbits, n)
			}
			checked = append(checked, methodCanonical)
		}
		lit := literature[groupKey{s, transpose}]
		text, err := compareLiterature(s, orbits, lit)
		if err != nil {
			return err
		}
		if text != "" {
			checked = append(checked, text)
		}
		if lit.disputed != "" && lit.count != orbits.String() {
			p.Log.Warn("essentially different grids differ from the literature", "shape", s.String(), "count", orbits,
				"literature", lit.count, "source", lit.source)
		}
		switch {
		case methods[methodStacks] && s.N() == bundledSide:
			checked = append(checked, methodStacks12Text)
			if orbitRecounts > 0 {
				checked = append(checked, fmt.Sprintf(orbitRecountText, orbitRecounts))
			}
		case methods[methodStacks]:
			checked = append(checked, methodStacksText)
		case methods[methodStackjoin]:
			checked = append(checked, methodStackjoinText)
		}
		p.Log.Info("essentially different grids", "shape", s.String(), "transpose", transpose, "group_order", g.Order,
			"classes", len(g.Classes), "classes_fixing", fixing, "essentially_different", orbits)
		countRows = append(countRows, CountRow{Shape: s.String(), Group: groupText(s, transpose), GroupOrder: g.Order.String(),
			Classes: int32(len(g.Classes)), ClassesFixing: int32(fixing), Grids: grids.String(), IdentityFixed: idFixed.String(),
			BurnsideSum: sum.String(), EssentiallyDifferent: orbits.String(), CheckedBy: strings.Join(checked, "; "),
			Literature: lit.count, LiteratureSource: lit.source, BundleCPUSeconds: bundleCPU[familyOf(s)],
			VerifiedShare: verifiedShare(verified, above)})
	}
	if len(used) != len(resultOf) {
		return fmt.Errorf("%d unit results, %d used", len(resultOf), len(used))
	}
	if err := Classes.Write(p, classRows); err != nil {
		return err
	}
	return Counts.Write(p, countRows)
}

// headlines are each shape's count of essentially different grids, for
// census diff.
func headlines(root string) ([]pipeline.Headline, error) {
	rows, err := Counts.Load(root)
	var out []pipeline.Headline
	for _, r := range rows {
		out = append(out, pipeline.Headline{Name: r.Shape + " essentially_different", Value: r.EssentiallyDifferent})
	}
	return out, err
}
