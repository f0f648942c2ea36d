package longruns

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
	"github.com/sudoku-census/sudoku-census/stages/maths/walks"
	"github.com/sudoku-census/sudoku-census/stages/shared/sampling"
)

// Names are the knuth stage's variants, in the order of its runs.
var Names = []string{"rowmajor", "random", "mrv", "cover", "hybrid", "se", "lookahead", "bandmrv", "bandse", "bandmrvlast", "bandselast", "stacks", "stackshybrid"}

// maxBudget bounds se_budget: each kept partial grid holds a few KiB of
// bookkeeping per worker.
const maxBudget = 10000

// Params are the variants' parameters in the knuth stage's configuration
// (knuth.hybrid_order, se_order, hybrid_k, se_budget, lookahead_alpha,
// stacks_exact).
type Params struct {
	HybridOrder, SEOrder string
	HybridK, SEBudget    map[string]int // by shape
	Alpha                float64
	// StacksExact maps a shape to stackshybrid's exact matching columns
	// there, in place of walks.StacksHybridColumns: fewer than the side,
	// so that on a shape whose count is known the drawn columns are tested.
	StacksExact map[string]int
	// StacksDraws maps a shape to stackshybrid's candidates per matching
	// drawn in part and per sampled structure (walks.Stacks.SetDraws);
	// absent or 1: one.
	StacksDraws map[string]int
}

// Variant returns the named variant on shape s.
func (c Params) Variant(name string, s grid.Shape) walks.Variant {
	cells := s.N() * s.N()
	if name == "bandmrv" {
		return walks.Variant{Name: name, Order: walks.MRV, HybridK: cells, FirstBand: true}
	}
	if name == "bandse" {
		return walks.Variant{Name: name, Order: walks.MRV, HybridK: cells, Budget: c.SEBudget[s.String()], FirstBand: true}
	}
	if name == "bandmrvlast" {
		return walks.Variant{Name: name, Order: walks.MRV, HybridK: cells, FirstBand: true, LastBand: true}
	}
	if name == "bandselast" {
		return walks.Variant{Name: name, Order: walks.MRV, HybridK: cells, Budget: c.SEBudget[s.String()], FirstBand: true, LastBand: true}
	}
	if name == "stacks" {
		return walks.Variant{Name: name, HybridK: cells, Stacks: true}
	}
	if name == "stackshybrid" {
		exact := walks.StacksHybridColumns
		if e, ok := c.StacksExact[s.String()]; ok {
			exact = e
		}
		draws := 0
		if d := c.StacksDraws[s.String()]; d > 1 {
			draws = d
		}
		return walks.Variant{Name: name, HybridK: cells, Stacks: true, StacksExact: exact, StacksDraws: draws}
	}
	if name == "lookahead" {
		return walks.Variant{Name: name, Order: walks.MRV, HybridK: cells, Budget: c.SEBudget[s.String()], Lookahead: true, Alpha: c.Alpha}
	}
	if name == "se" {
		o, _ := walks.ParseOrder(c.SEOrder)
		return walks.Variant{Name: name, Order: o, HybridK: cells, Budget: c.SEBudget[s.String()]}
	}
	if name == "hybrid" {
		o, _ := walks.ParseOrder(c.HybridOrder)
		return walks.Variant{Name: name, Order: o, HybridK: c.HybridK[s.String()], Hybrid: true}
	}
	o, _ := walks.ParseOrder(name)
	return walks.Variant{Name: name, Order: o, HybridK: cells}
}

// Label names a variant's runs in the knuth stage's artifacts: its name,
// and "stackshybrid@k" for stackshybrid with k > 1 candidates
// (StacksDraws): another estimator, whose coverage is its own
// (present.Results.Trusted).
func Label(v walks.Variant) string {
	if v.Stacks && v.StacksDraws > 1 {
		return v.Name + "@" + strconv.Itoa(v.StacksDraws)
	}
	return v.Name
}

// splitDraws reads the variant of a knuth.long key: a name, or
// stackshybrid@k, stackshybrid with k candidates whatever
// knuth.stacks_draws says, k from 1 to walks.MaxStacksDraws in decimal
// without sign or leading zeros. draws is 0 without a suffix; ok is false
// for a malformed one.
func splitDraws(variant string) (name string, draws int, ok bool) {
	name, k, at := strings.Cut(variant, "@")
	if !at {
		return variant, 0, true
	}
	d, err := strconv.Atoi(k)
	if name != "stackshybrid" || err != nil || strconv.Itoa(d) != k || d < 1 || d > walks.MaxStacksDraws {
		return name, 0, false
	}
	return name, d, true
}

// Check checks the parameters of runs, those of knuth.samples,
// knuth.coverage_samples and knuth.long: uses says whether a variant runs,
// and count names the key and sample count of a run, for an error.
func (c Params) Check(runs []sampling.Run, uses func(variant string) bool, count func(sampling.Run) (key string, n int64)) error {
	if uses("lookahead") && !(c.Alpha >= 0 && c.Alpha <= walks.MaxAlpha) {
		return pipeline.Invalid("knuth.lookahead_alpha", c.Alpha, fmt.Sprintf("a number in [0, %g]", walks.MaxAlpha))
	}
	if uses("se") {
		if o, err := walks.ParseOrder(c.SEOrder); err != nil || (o != walks.MRV && o != walks.Cover) {
			return pipeline.Invalid("knuth.se_order", c.SEOrder, "mrv or cover")
		}
	}
	for _, key := range slices.Sorted(maps.Keys(c.StacksExact)) {
		e := c.StacksExact[key]
		s, err := sampling.ShapeKey("knuth.stacks_exact", key, e)
		if err != nil {
			return err
		}
		if e < 1 || e >= s.N() || e > walks.MaxStacksSide {
			return pipeline.Invalid("knuth.stacks_exact."+key, e, fmt.Sprintf("an integer in [1, %d]: fewer exact columns than the side (with as many, stackshybrid is stacks)", s.N()-1))
		}
	}
	for _, key := range slices.Sorted(maps.Keys(c.StacksDraws)) {
		d := c.StacksDraws[key]
		if _, err := sampling.ShapeKey("knuth.stacks_draws", key, d); err != nil {
			return err
		}
		if d < 1 || d > walks.MaxStacksDraws {
			return pipeline.Invalid("knuth.stacks_draws."+key, d, fmt.Sprintf("an integer in [1, %d]: stackshybrid's candidates per drawn matching and sampled structure", walks.MaxStacksDraws))
		}
	}
	for _, r := range runs {
		s := r.Shape
		if why := unfit(r.Variant, s); why != "" {
			key, n := count(r)
			return pipeline.Invalid(key+"."+s.String()+"/"+r.Variant, n, why)
		}
		switch r.Variant {
		case "hybrid":
			k, ok := c.HybridK[s.String()]
			if !ok || k < 0 || k > s.N()*s.N() {
				return pipeline.Invalid("knuth.hybrid_k."+s.String(), k, fmt.Sprintf("an integer in [0, %d] for every shape the hybrid runs on", s.N()*s.N()))
			}
		case "se", "lookahead", "bandse", "bandselast":
			b, ok := c.SEBudget[s.String()]
			if !ok || b < 1 || b > maxBudget {
				return pipeline.Invalid("knuth.se_budget."+s.String(), b, fmt.Sprintf("an integer in [1, %d] for every shape se, lookahead, bandse or bandselast runs on", maxBudget))
			}
		}
	}
	return nil
}

// unfit returns, for a variant that does not run on shape s, what a
// sample count of it on s may be ("0 for …", for a configuration error),
// and "" for one that runs on s.
func unfit(variant string, s grid.Shape) string {
	if why := beyondText(variant, s); why != "" {
		return "0 for " + variant + ": " + why
	}
	if isStacks(variant) && !stacksFits(s) {
		return fmt.Sprintf("0 for "+variant+" on a shape beyond box height %d, box width %d or side %d (a transpose C×R within them has the same count)", walks.MaxStacksHeight, walks.MaxStacksWidth, walks.MaxStacksSide)
	}
	if h := maxBandHeight(variant); s.R > h {
		return fmt.Sprintf("0 for %s on a shape with box height R > %d (its C×R transpose has the same count)", variant, h)
	}
	return ""
}

// beyondText is the rule of the sides beyond the grids' text form
// (grid.MaxTextN, 35) up to sampling.MaxSide (36, box 6×6): only
// stackshybrid runs there. The walks are of no use long before (neither
// tested nor measured there), and plain stacks counts every column of each
// band's matchings exactly, a memo over 2^36 sets of symbols (a sample
// projects to about 10 CPU-hours). It returns why variant does not run on
// s, or "" when it may.
func beyondText(variant string, s grid.Shape) string {
	if s.N() <= grid.MaxTextN || variant == "stackshybrid" {
		return ""
	}
	return fmt.Sprintf("box %d×%d (N = %d) runs only with stackshybrid (the walks are not measured there, and plain stacks counts every matching column exactly: a memo of 2^%d sets)", s.R, s.C, s.N(), s.N())
}

// maxBandHeight is the largest box height R a variant runs on: the band
// variants start from a uniform first band (R ≤ walks.MaxFirstBandHeight)
// and those ending in "last" count the last band too (R ≤
// walks.MaxLastBandHeight); the others run on every shape.
func maxBandHeight(variant string) int {
	switch {
	case !strings.HasPrefix(variant, "band"):
		return math.MaxInt
	case strings.HasSuffix(variant, "last"):
		return walks.MaxLastBandHeight
	}
	return walks.MaxFirstBandHeight
}

// isStacks reports whether a variant is the stack estimator (stacks, or
// stackshybrid with its matchings drawn in part).
func isStacks(variant string) bool { return strings.HasPrefix(variant, "stacks") }

// stacksFits reports whether the stack estimator runs on shape s.
func stacksFits(s grid.Shape) bool {
	return s.R <= walks.MaxStacksHeight && s.C <= walks.MaxStacksWidth && s.N() <= walks.MaxStacksSide
}
