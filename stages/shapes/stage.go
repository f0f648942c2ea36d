package shapes

import (
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/exact"
	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
	"github.com/sudoku-census/sudoku-census/stages/maths/pair"
	"github.com/sudoku-census/sudoku-census/stages/maths/pairindep"
	"github.com/sudoku-census/sudoku-census/stages/maths/triple"
	"github.com/sudoku-census/sudoku-census/stages/shared/literature"
	"github.com/sudoku-census/sudoku-census/stages/shared/pairunits"
)

// Stage writes data/shapes.parquet.
var Stage = &pipeline.Stage{
	Name:      "shapes",
	Doc:       "the number of grids for each configured box shape RxC, by two independent computations",
	Version:   7,
	Requires:  []*pipeline.Stage{exact.Stage},
	NewConfig: func() pipeline.Config { return DefaultConfig() },
	Outputs:   []pipeline.Output{Table.Output, UnitsTable.Output, OrbitStacks.Output},
	Headlines: headlines,
	Run:       run,
	// Units: batches of pattern orbits of the pair method, and one unit per
	// independent check. Each unit uses every core itself. The 2x6 units
	// are kept in a committed bundle (package pairunits).
	Units: &pipeline.Units{List: listUnits, Compute: computeUnit, Workers: 1, Bundle: pairunits.Bundle},
}

// Table is data/shapes.parquet.
var Table = pipeline.NewTable[Row]("shapes", "one row per box shape: its number of grids and the methods that agree on it")

// Row is one box shape. Grids is a decimal string; Method names how it was
// counted and CheckedBy the independent computations that gave the same
// number ("; " between them).
type Row struct {
	Rows      int32  `parquet:"rows"`
	Cols      int32  `parquet:"cols"`
	Grids     string `parquet:"grids"`
	Method    string `parquet:"method"`
	CheckedBy string `parquet:"checked_by"`
}

// Config is the stage's configuration (keys under "shapes.").
type Config struct {
	// Shapes lists the box shapes to count, each "RxC", in the order of
	// the artifact's rows.
	Shapes []string `mapstructure:"shapes" json:"shapes"`
	// Check lists the shapes the independent multiset method recounts
	// (it takes minutes for 2x5 where the pair method takes seconds).
	Check []string `mapstructure:"check" json:"check"`
	// OrbitsPerUnit is the number of pattern orbits of one work unit.
	OrbitsPerUnit int `mapstructure:"orbits_per_unit" json:"orbits_per_unit"`
	// MaxCPUHours is the largest projected cost a shape may have; 2x6 and
	// 6x2 need far more, and run only when this says the user means it.
	MaxCPUHours float64 `mapstructure:"max_cpu_hours" json:"max_cpu_hours"`
	// OrbitStacks also writes every pattern orbit's stack count
	// (OrbitStacks) for each counted 2xC width; for 2x6 these are the
	// bundle's stack-count units, as costly as the count itself.
	OrbitStacks bool `mapstructure:"orbit_stacks" json:"orbit_stacks"`
}

// DefaultConfig is the configuration without a config file.
func DefaultConfig() *Config {
	return &Config{
		Shapes:        []string{"2x2", "2x3", "3x2", "2x4", "4x2", "2x5", "5x2", "3x3"},
		Check:         []string{"2x2", "2x3", "3x2", "2x4", "4x2", "2x5", "5x2"},
		OrbitsPerUnit: 32,
		MaxCPUHours:   1,
	}
}

// Methods, as written in the method and checked_by columns.
const (
	methodPair      = "pair: sum over orbits of stack row-set patterns of weight × (stacks with that pattern)^2"
	methodMultisets = "multisets: the same sum over every pattern multiset, stacks counted row by row (package pairindep)"
	methodBacktrack = "backtracking: every grid counted cell by cell"
	methodExact     = "exact stage: band-pair method over the 44 classes of first bands"
	// methodGangster shares no code with the pair method, with the exact
	// stage or with its catalogue of first bands.
	methodGangster = "gangster: three-stack count over the classes of first stacks (package triple)"
	// backtrackMaxSide is the largest side also counted by backtracking.
	backtrackMaxSide = 6
)

// supported says which shapes the stage counts, for error messages.
const supported = "2xC or Cx2 with C ≤ 6 (pair method; 2x6/6x2 from the committed bundle, or computed when shapes.max_cpu_hours accepts the cost of the units it lacks) and 3x3 (from the exact stage)"

// Validate checks every key.
func (c *Config) Validate() error {
	if c.MaxCPUHours < 0 {
		return pipeline.Invalid("shapes.max_cpu_hours", c.MaxCPUHours, "a number ≥ 0")
	}
	if len(c.Shapes) == 0 {
		return pipeline.Invalid("shapes.shapes", "[]", "a non-empty list of box shapes RxC among "+supported)
	}
	seen := map[grid.Shape]bool{}
	for _, text := range c.Shapes {
		s, err := grid.ParseShape(text)
		w := pairunits.Width(s)
		if err != nil || (s != grid.Shape{R: 3, C: 3} && (w == 0 || w > pair.MaxC)) {
			return pipeline.Invalid("shapes.shapes", strconv.Quote(text), "box shapes RxC among "+supported)
		}
		if seen[s] {
			return pipeline.Invalid("shapes.shapes", strconv.Quote(text), "each box shape once")
		}
		seen[s] = true
	}
	for _, text := range c.Check {
		s, err := grid.ParseShape(text)
		if err == nil && !seen[s] {
			continue // a check of a shape not counted is no check: ignored
		}
		if w := pairunits.Width(s); err != nil || w == 0 || w > pairindep.MaxC {
			return pipeline.Invalid("shapes.check", strconv.Quote(text), fmt.Sprintf(
				"shapes of shapes.shapes with 2-row or 2-column boxes of width ≤ %d (the multiset method walks every pattern multiset, 2,284,361,552 for width 6)", pairindep.MaxC))
		}
	}
	if c.OrbitsPerUnit < 1 {
		return pipeline.Invalid("shapes.orbits_per_unit", c.OrbitsPerUnit, "an integer ≥ 1")
	}
	return nil
}

// widths returns the box widths c of the configured pair shapes, each once
// (2xC and Cx2 share one count), ascending; and those the multiset method
// checks (the widths of shapes.check's shapes that shapes.shapes counts).
func (c *Config) widths() (counted, checked []int) {
	seen := map[grid.Shape]bool{}
	for _, text := range c.Shapes {
		s, _ := grid.ParseShape(text)
		seen[s] = true
		if w := pairunits.Width(s); w > 0 && !slices.Contains(counted, w) {
			counted = append(counted, w)
		}
	}
	for _, text := range c.Check {
		s, _ := grid.ParseShape(text)
		if w := pairunits.Width(s); seen[s] && !slices.Contains(checked, w) {
			checked = append(checked, w)
		}
	}
	slices.Sort(counted)
	slices.Sort(checked)
	return counted, checked
}

func listUnits(p *pipeline.Pass) ([]string, error) {
	cfg := pipeline.ConfigOf[Config](p)
	counted, checked := cfg.widths()
	return pairunits.List(p, counted, checked, cfg.OrbitsPerUnit, cfg.OrbitStacks, "shapes.max_cpu_hours", cfg.MaxCPUHours)
}

// computeUnit returns a unit's part of the count as a decimal string, and
// puts its wall time in the run report as "<unit id>.seconds".
func computeUnit(p *pipeline.Pass, id string) ([]byte, error) {
	start := time.Now()
	defer func() { p.Report(id+".seconds", time.Since(start).Seconds()) }()
	return pairunits.Compute(p, id, pipeline.ConfigOf[Config](p).OrbitsPerUnit)
}

func run(p *pipeline.Pass) error {
	cfg := pipeline.ConfigOf[Config](p)
	nine, err := exact.ReadGrids(p)
	if err != nil {
		return err
	}
	results, err := p.UnitResults()
	if err != nil {
		return err
	}
	found, err := pairunits.Merge(p.UnitIDs(), results)
	if err != nil {
		return err
	}
	rows := make([]Row, 0, len(cfg.Shapes))
	for _, text := range cfg.Shapes {
		s, _ := grid.ParseShape(text) // Validate has accepted it
		if s == (grid.Shape{R: 3, C: 3}) {
			checked, err := recounts(p, s, nine, []string{"exact stage: backtracking of the classes chosen by exact.crosscheck"})
			if err != nil {
				return fmt.Errorf("box shape %s: %w", s, err)
			}
			rows = append(rows, Row{Rows: 3, Cols: 3, Grids: nine.String(), Method: methodExact, CheckedBy: checked})
			continue
		}
		row, err := checkedRow(p, s, found, slices.Contains(cfg.Check, text))
		if err != nil {
			return fmt.Errorf("box shape %s: %w", s, err)
		}
		p.Log.Info("counted grids", "shape", s.String(), "grids", row.Grids, "checked_by", row.CheckedBy)
		rows = append(rows, row)
	}
	if err := Table.Write(p, rows); err != nil {
		return err
	}
	if err := writeOrbitStacks(p, found); err != nil {
		return err
	}
	return writeBundledUnits(p)
}

// checkedRow is the row of a pair shape, after every check configured for
// it has agreed with the pair method.
func checkedRow(p *pipeline.Pass, s grid.Shape, found pairunits.Counts, multisets bool) (Row, error) {
	c := pairunits.Width(s)
	count := found.Pair[c]
	if count == nil {
		return Row{}, fmt.Errorf("no pair-method units for width %d", c)
	}
	var agreed []string
	if c == pairunits.BundleWidth {
		// No second computation of the whole sum reaches c = 6: the
		// row names where it was made, then the literature it must equal.
		agreed = append(agreed, fmt.Sprintf("counted here: %s, %d units of %d orbits (%s)", pairunits.Bundle.Kernel, pairunits.BundleUnits, pairunits.BundleOrbits, pairunits.Bundle.Path()))
	}
	if multisets {
		other := found.Multisets[c]
		if other == nil {
			return Row{}, fmt.Errorf("no multiset-method unit for width %d", c)
		}
		if other.Cmp(count) != 0 {
			return Row{}, fmt.Errorf("pair method gives %v grids, the multiset method %v", count, other)
		}
		agreed = append(agreed, methodMultisets)
	}
	checked, err := recounts(p, s, count, agreed)
	return Row{Rows: int32(s.R), Cols: int32(s.C), Grids: count.String(), Method: methodPair, CheckedBy: checked}, err
}

// recounts appends to agreed the computations that share no code with the
// first count and equal it: backtracking (side ≤ backtrackMaxSide), the
// three-stack method (triple.CountShape's shapes) and the literature, and
// joins them with "; "; an error when one of them differs.
func recounts(p *pipeline.Pass, s grid.Shape, count *big.Int, agreed []string) (string, error) {
	if s.N() <= backtrackMaxSide {
		start := time.Now()
		n, err := grid.Grid{Shape: s, Cells: make([]uint8, s.N()*s.N())}.Count(p.Context(), 0)
		if err != nil {
			return "", err
		}
		p.Report("backtrack_seconds_"+s.String(), time.Since(start).Seconds())
		if n.Cmp(count) != 0 {
			return "", fmt.Errorf("the first count gives %v grids, backtracking %v", count, n)
		}
		agreed = append(agreed, methodBacktrack)
	}
	start := time.Now()
	if n, ok, err := triple.CountShape(p.Context(), s.R, s.C); err != nil {
		return "", err
	} else if ok && n.Cmp(count) != 0 {
		return "", fmt.Errorf("the first count gives %v grids, the three-stack method %v", count, n)
	} else if ok {
		p.Report("gangster_seconds_"+s.String(), time.Since(start).Seconds())
		agreed = append(agreed, methodGangster)
	}
	agrees, err := literature.Check(s, count)
	if agrees != "" {
		agreed = append(agreed, agrees)
	}
	return strings.Join(agreed, "; "), err
}

// headlines are each shape's count of grids, for census diff.
func headlines(root string) ([]pipeline.Headline, error) {
	rows, err := Table.Load(root)
	var out []pipeline.Headline
	for _, r := range rows {
		out = append(out, pipeline.Headline{Name: fmt.Sprintf("%dx%d grids", r.Rows, r.Cols), Value: r.Grids})
	}
	return out, err
}
