package symmetry

import (
	"fmt"
	"maps"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
	"github.com/sudoku-census/sudoku-census/stages/maths/pair"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry"
	"github.com/sudoku-census/sudoku-census/stages/shapes"
	gridcounts "github.com/sudoku-census/sudoku-census/stages/shared/literature"
	"github.com/sudoku-census/sudoku-census/stages/shared/symchecks"
	"github.com/sudoku-census/sudoku-census/stages/shared/symunits"
)

// Stage writes data/symmetry_classes.parquet,
// data/essentially_different.parquet and data/symmetry_corrections.csv.
var Stage = &pipeline.Stage{
	Name:      "symmetry",
	Doc:       "essentially different grids per box shape, by Burnside's lemma over the conjugacy classes of the symmetry group",
	Version:   9,
	Requires:  []*pipeline.Stage{shapes.Stage},
	NewConfig: func() pipeline.Config { return DefaultConfig() },
	Outputs:   []pipeline.Output{Classes.Output, Counts.Output, Corrections.Output},
	Headlines: headlines,
	Run:       run,
	// Units: the grids fixed by one conjugacy class of one shape. Each unit
	// uses every core itself. The 12×12 units are kept in a committed
	// bundle (symunits.Bundle), the heavy second counts in another
	// (symchecks.Bundle).
	Units: &pipeline.Units{List: listUnits, Compute: computeUnit, Workers: 1, Bundle: symunits.Bundle,
		MoreBundles: []*pipeline.Bundle{symchecks.Bundle}},
}

// Classes is data/symmetry_classes.parquet.
var Classes = pipeline.NewTable[symunits.ClassRow]("symmetry_classes",
	"one row per shape and conjugacy class of its symmetry group: size, representative and grids fixed up to relabelling")

// ClassRow is one conjugacy class of the group of one shape (the columns:
// symunits.ClassRow).
type ClassRow = symunits.ClassRow

// Counts is data/essentially_different.parquet.
var Counts = pipeline.NewTable[symunits.CountRow]("essentially_different",
	"one row per shape: the group, the Burnside sum and the number of essentially different grids")

// CountRow is one shape's result (the columns: symunits.CountRow).
type CountRow = symunits.CountRow

// Corrections is data/symmetry_corrections.csv (symunits.CorrectionsCSV):
// the classes behind every count that differs from the published one, for
// the sequence's editors (OEIS A291188 for 2×5).
var Corrections = pipeline.NewFile("symmetry_corrections", "data/symmetry_corrections.csv",
	"the classes behind every count that differs from the literature: size, order, F by both methods, |class|·F")

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
	// second count that a run lists (heavy 5×2 and 6×2 ones take hours).
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
		symunits.FamilyOf(symmetry.Shape{R: s.R, C: s.C}) != nil
}

// Validate checks every key.
func (c *Config) Validate() error {
	if !(c.MaxCPUHours >= 0 && c.MaxCPUHours <= symunits.MaxCPUHours) {
		return pipeline.Invalid("symmetry.max_cpu_hours", c.MaxCPUHours, fmt.Sprintf("a number in [0, %d]", symunits.MaxCPUHours))
	}
	if !(c.CheckMaxClassCPUHours >= 0 && c.CheckMaxClassCPUHours <= symunits.MaxCPUHours) {
		return pipeline.Invalid("symmetry.check_max_class_cpu_hours", c.CheckMaxClassCPUHours, fmt.Sprintf("a number in [0, %d]", symunits.MaxCPUHours))
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

// listUnits lists every class but the identity of every shape, in config
// order and class order; a 12×12 shape and its transpose share the units
// of the family's shape, 2×6 or 3×4 (see symunits.UnitOf), listed once, and those
// the bundle lacks must fit symmetry.max_cpu_hours.
func listUnits(p *pipeline.Pass) ([]string, error) {
	cfg := pipeline.ConfigOf[Config](p)
	var ids []string
	for _, s := range cfg.shapesOf() {
		if f := symunits.FamilyOf(s); f != nil {
			if slices.Contains(ids, symunits.UnitID(f.Shape(), 1)) {
				continue // 6x2 after 2x6, or the other way round
			}
			bundled, err := f.IDs(p.Root(), cfg.MaxCPUHours, func() (symunits.OrbitTable, error) { return orbitTable(p) })
			if err != nil {
				return nil, err
			}
			ids = append(ids, bundled...)
			continue
		}
		g, err := symunits.Group(s, cfg.transpose(s))
		if err != nil {
			return nil, err
		}
		for i := 1; i < len(g.Classes); i++ {
			ids = append(ids, symunits.UnitID(s, i))
		}
	}
	// The second counts after the first ones.
	checks, err := symchecks.ListAll(p.Root(), cfg.shapesOf(), cfg.transpose, cfg.CheckMaxClassCPUHours, cfg.MaxCPUHours)
	if err != nil {
		return nil, err
	}
	return append(ids, checks...), nil
}

// computeUnit computes a unit: a check unit's second count
// (symchecks.Compute), else symunits.Compute, with the orbit stack counts
// of the shapes stage.
func computeUnit(p *pipeline.Pass, id string) ([]byte, error) {
	cfg := pipeline.ConfigOf[Config](p)
	if symchecks.IsUnit(id) {
		return symchecks.Compute(p.Context(), id)
	}
	return symunits.Compute(p.Context(), id, cfg.transpose, func(c int) ([]pair.Orbit, []uint64, error) {
		table, err := orbitTable(p)
		if err != nil {
			return nil, nil, err
		}
		return symunits.OrbitStacksFrom(p.Context(), table, c)
	})
}

// orbitTable reads the shapes stage's orbit stack counts.
func orbitTable(p *pipeline.Pass) (symunits.OrbitTable, error) {
	rows, err := shapes.OrbitStacks.Read(p)
	return orbitTableOf(rows), err
}

// orbitTableOf is the shapes stage's rows as symunits reads them.
func orbitTableOf(rows []shapes.OrbitStackRow) symunits.OrbitTable {
	t := symunits.OrbitTable{Path: shapes.OrbitStacks.Path}
	for _, r := range rows {
		t.Rows = append(t.Rows, symunits.OrbitStack{Width: r.Width, Orbit: r.Orbit, Weight: r.Weight, Stacks: r.Stacks})
	}
	return t
}

// run sums each shape's Burnside terms from the units' results, checks
// each class against its second count and the sum against the group
// order, the canonical forms and the literature, and writes the tables.
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
	cpuOf, err := symchecks.CPUSeconds(p.Root(), slices.Sorted(maps.Keys(resultOf)))
	if err != nil {
		return err
	}
	// The 12×12 bundles' CPU time, and for 2x6 and 6x2 the recounts by the
	// sum over pattern orbits (orbitSecond: those by another method).
	bundleCPU, orbitRecounts, orbitSecond, err := symunits.Bundled(p.Context(), p.Root(), cfg.shapesOf(),
		func() (symunits.OrbitTable, error) { return orbitTable(p) }, resultOf)
	if err != nil {
		return err
	}
	// Stack exchanges of 2×c and c×2, c ≤ 5, recounted (seconds).
	multisetCounts, err := symchecks.MultisetCounts(p.Context(), cfg.shapesOf())
	if err != nil {
		return err
	}
	used := map[string]bool{}
	var classRows []ClassRow
	var countRows []CountRow
	for _, s := range cfg.shapesOf() {
		var checked []string
		grids, ok := gridsOf[s]
		if !ok && symunits.FamilyOf(s) == symunits.FamilyOf(symunits.JoinShape) {
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
		g, err := symunits.Group(s, transpose)
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
			f, method := idFixed, symunits.MethodIdentity
			if c.Index > 0 {
				var ids []string
				if f, method, ids, err = symunits.ClassFixed(s, c, idFixed, resultOf); err != nil {
					return err
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
				chk, ids, err := symchecks.Of(s, transpose, c, f, method, resultOf, cpuOf, orbitSecond, multisetCounts)
				if err != nil {
					return err
				}
				for _, id := range ids {
					used[id] = true
				}
				if chk != nil {
					row.CheckMethod, row.CheckFixed, row.CheckCPUSeconds = chk.Method, chk.Fixed.String(), chk.CPUSeconds
					verified.Add(verified, chk.Weight(term))
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
			checked = append(checked, symunits.MethodCanonical)
		}
		text, lit, err := symchecks.CheckLiterature(p.Log, s, transpose, orbits)
		if err != nil {
			return err
		}
		if text != "" {
			checked = append(checked, text)
		}
		checked = append(checked, symunits.MethodsText(s, methods, orbitRecounts)...)
		p.Log.Info("essentially different grids", "shape", s.String(), "transpose", transpose, "group_order", g.Order,
			"classes", len(g.Classes), "classes_fixing", fixing, "essentially_different", orbits)
		countRows = append(countRows, CountRow{Shape: s.String(), Group: symunits.GroupText(s, transpose), GroupOrder: g.Order.String(),
			Classes: int32(len(g.Classes)), ClassesFixing: int32(fixing), Grids: grids.String(), IdentityFixed: idFixed.String(),
			BurnsideSum: sum.String(), EssentiallyDifferent: orbits.String(), CheckedBy: strings.Join(checked, "; "),
			Literature: lit.Count, LiteratureSource: lit.Source, BundleCPUSeconds: bundleCPU[symunits.FamilyOf(s)],
			VerifiedShare: symchecks.VerifiedShare(verified, above)})
	}
	if len(used) != len(resultOf) {
		return fmt.Errorf("%d unit results, %d used", len(resultOf), len(used))
	}
	corrections, err := symunits.CorrectionsCSV(countRows, classRows)
	if err != nil {
		return err
	}
	if err := Classes.Write(p, classRows); err != nil {
		return err
	}
	if err := Counts.Write(p, countRows); err != nil {
		return err
	}
	return Corrections.Write(p, corrections)
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
