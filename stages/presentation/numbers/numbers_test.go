package numbers

import (
	"math"
	"math/big"
	"slices"
	"strings"
	"testing"

	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
	"github.com/sudoku-census/sudoku-census/stages/presentation/present"
	"github.com/sudoku-census/sudoku-census/stages/presentation/typeset"
)

// TestLongDisagreements lists a pair of long runs of one shape only when
// their intervals are disjoint, the lower one first.
func TestLongDisagreements(t *testing.T) {
	five := grid.Shape{R: 5, C: 5}
	run := func(variant string, s grid.Shape, lo, hi, k float64) present.Estimator {
		return present.Estimator{Method: "knuth", Shape: s, Variant: variant, CILow: big.NewFloat(lo), CIHigh: big.NewFloat(hi), ParetoK: k}
	}
	r := &present.Results{}
	d, known := longDisagreements([]present.Estimator{
		run("stackshybrid", five, 4.32, 4.41, 0.33),
		run("se", five, 2.92, 3.82, 0.74),
		run("bandse", five, 0.1, 9.0, math.NaN()), // meets both
		run("random", five, 0, 0, math.NaN()),     // no success: no interval
		run("stacks", grid.Shape{R: 4, C: 5}, 5, 6, 0.2),
	}, r)
	got := typeset.TeXPieces(d)
	if len(known) != 0 {
		t.Errorf("no count is known, yet compared with %v", known)
	}
	if strings.Count(got, " lies ") != 1 || !strings.Contains(got, "se}'s") || !strings.Contains(got, "0.74") ||
		strings.Index(got, "se}'s") > strings.Index(got, "stackshybrid}'s") || strings.Contains(got, "bandse") {
		t.Errorf("disagreements %q: want se below stackshybrid alone", got)
	}
	if got, _ := longDisagreements([]present.Estimator{run("a", five, 1, 2, 0.1), run("b", five, 2, 3, 0.1)}, r); len(got) != 0 {
		t.Errorf("intervals that touch listed: %v", got)
	}
	// Where the count is known (9×9: 6.67·10^21), each run is held against
	// it, not against the others: one above it, one holding it, none without
	// a success.
	nine := grid.Shape{R: 3, C: 3}
	// The shape is named once for its runs, shapes apart by semicolons.
	d, known = longDisagreements([]present.Estimator{
		run("cover", nine, 6.678e21, 6.763e21, 0.26),
		run("bandse", nine, 6.6688e21, 6.6748e21, 0.15),
		run("bandmrv", nine, 6.613e21, 6.670e21, 0.21),
		run("random", nine, 0, 0, math.NaN()),
		run("stackshybrid", five, 4.32, 4.41, 0.33),
		run("se", five, 2.92, 3.82, 0.74),
	}, r)
	got = typeset.TeXPieces(d)
	if strings.Count(got, " lies ") != 3 || !strings.Contains(got, "cover}'s") || !strings.Contains(got, "above the count and ") ||
		!strings.Contains(got, "bandmrv}'s") || !strings.Contains(got, "below the count; on $5\\times5$ boxes, ") ||
		strings.Count(got, `on $3\times3$ boxes`) != 1 || strings.Contains(got, "bandse") || strings.Contains(got, "random") || len(known) != 1 {
		t.Errorf("disagreements %q (compared with %v): want 3×3 once, cover above and bandmrv below the count, then 5×5", got, known)
	}
}

// TestEveryNumberHasItsSource: from results whose every value names its
// artifact row, every number and phrase of numbers.tex names the rows it
// is read from, but the code's constants; the parts a smoke run lacks (the
// 2×6 units, long runs, new and disputed counts of essentially different
// grids) too.
func TestEveryNumberHasItsSource(t *testing.T) {
	f := func(x float64) *big.Float { return big.NewFloat(x) }
	row := func(art string, kv ...any) typeset.Source { return typeset.Row("data/"+art+".parquet", kv...) }
	nine, five, four, six := present.Classic, grid.Shape{R: 5, C: 5}, grid.Shape{R: 4, C: 4}, grid.Shape{R: 2, C: 6}
	twoFive := grid.Shape{R: 2, C: 5}
	n, _ := new(big.Int).SetString("6670903752021072936960", 10)
	estimator := func(s grid.Shape, variant string, est, lo, hi float64, long bool) present.Estimator {
		e := present.Estimator{Method: "knuth", Shape: s, Variant: variant, Samples: 1000, Estimate: f(est), StdError: f(est / 100),
			CILow: f(lo), CIHigh: f(hi), RelativeError: 0.01, ParetoK: 0.3, From: row("knuth", "shape", s, "variant", variant)}
		if long {
			e.Long = &present.LongRun{Units: 2, CPUSeconds: 7200, Bundle: "data/bundles/knuth-long.parquet"}
			e.From = row("knuth_long", "shape", s, "variant", variant)
		}
		return e
	}
	symmetryRow := func(s grid.Shape, count int64, literature *big.Int) present.EssentiallyDifferent {
		return present.EssentiallyDifferent{Shape: s, GroupOrder: big.NewInt(8), Classes: 5, ClassesFixing: 2, IdentityFixed: big.NewInt(80),
			BurnsideSum: big.NewInt(8 * count), Count: big.NewInt(count), Literature: literature, LiteratureSource: "OEIS",
			VerifiedShare: "0.999", BundleCPUSeconds: 3600, From: row("essentially_different", "shape", s)}
	}
	r := &present.Results{
		Total:   &present.Total{Grids: n, CanonicalGrids: big.NewInt(2), ReducedCount: big.NewInt(3), ReducedCountFactors: "3", From: typeset.Source{Artifact: "data/total.parquet"}},
		Classes: []present.Class{{Class: 0, Size: 2, FirstBands: 3, Completions: big.NewInt(5), From: row("completions", "class", 0)}, {Class: 1, Size: 1, FirstBands: 1, Completions: big.NewInt(7), From: row("completions", "class", 1)}},
		Funnel:  []present.FunnelLevel{{Level: 0, Classes: 9, From: row("funnel", "level", 0)}, {Level: 1, Classes: 2, From: row("funnel", "level", 1)}},
		Shapes:  []present.ShapeCount{{Shape: six, Grids: big.NewInt(12), From: row("shapes", "rows", 2, "cols", 6)}},
		Units2x6: []present.UnitCost{{Unit: "a", Kernel: "k", CPUSeconds: 60, From: row("shapes_units", "unit", "a")},
			{Unit: "b", Kernel: "k", CPUSeconds: 60, From: row("shapes_units", "unit", "b")}},
		Symmetry:   []present.EssentiallyDifferent{symmetryRow(twoFive, 10, big.NewInt(11)), symmetryRow(six, 20, nil), symmetryRow(nine, 30, big.NewInt(30))},
		Heuristics: []present.Heuristic{{Shape: nine, BandCount: big.NewInt(1), StackCount: big.NewInt(1), Estimate: big.NewRat(6, 1), From: row("kilfoil", "rows", 3, "cols", 3)}},
		Estimators: []present.Estimator{estimator(nine, "hybrid", 6.6e21, 6.5e21, 6.7e21, false), estimator(four, "mrv", 0, 0, 0, false),
			estimator(five, "se", 3e300, 2.9e300, 3.1e300, true), estimator(five, "stacks", 4e300, 3.9e300, 4.1e300, true)},
		Coverage: []present.CoverageRun{{Method: "knuth", Shape: nine, Variant: "hybrid", Samples: 10, CILow: f(6e21), CIHigh: f(7e21), From: row("knuth_coverage", "shape", nine, "variant", "hybrid")},
			{Method: "knuth", Shape: nine, Variant: "hybrid", Samples: 10, CILow: f(1e21), CIHigh: f(2e21), From: row("knuth_coverage", "shape", nine, "variant", "hybrid")}},
	}
	r.Estimators[1].StdError = f(0)
	r.Estimators[2].ParetoK = math.NaN()
	list, err := Macros(r, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	constants := map[string]bool{"OmegaSizeSci": true, "UnreliableK": true, "UnreliableKFullFrom": true, "TailSide": true, "HeuristicFigureLinearPercent": true}
	from := map[string][]typeset.Source{}
	for _, m := range list {
		if m.Kind != Number && m.Kind != Words || constants[m.Name] || typeset.TeXPieces(m.Value) == "" {
			continue
		}
		from[m.Name] = m.From
		if len(m.From) == 0 {
			t.Errorf("\\%s has no source", m.Name)
		}
		for _, s := range m.From {
			if s.Artifact == "" {
				t.Errorf("\\%s: a source without an artifact: %v", m.Name, m.From)
			}
		}
	}
	for name, want := range map[string][]typeset.Source{
		"GridsTwoXSix":                    {row("shapes", "rows", 2, "cols", 6)},
		"TwoXSixCPUHours":                 {{Artifact: "data/shapes_units.parquet"}},
		"SymmetryDifferences":             {row("essentially_different", "shape", twoFive)},
		"SymmetryNewCounts":               {row("essentially_different", "shape", six)},
		"LongRunCount":                    {row("knuth_long", "shape", five, "variant", "se"), row("knuth_long", "shape", five, "variant", "stacks")},
		"LongDisagreements":               {row("knuth_long", "shape", five, "variant", "se"), row("knuth_long", "shape", five, "variant", "stacks")},
		"KilfoilGapPercent":               {row("kilfoil", "rows", 3, "cols", 3), {Artifact: "data/total.parquet"}},
		"McThreeXThreeZ":                  {row("knuth", "shape", nine, "variant", "hybrid"), {Artifact: "data/total.parquet"}},
		"ClassCount":                      {{Artifact: "data/completions.parquet"}},
		"CompletionsMax":                  {row("completions", "class", 1)},
		"McTwoXSixKnown":                  nil, // no estimate of 2×6
		"KnuthFourXFourMrvNoSuccessBound": {row("knuth", "shape", four, "variant", "mrv")},
	} {
		if got := from[name]; !slices.Equal(got, want) {
			t.Errorf("\\%s: sources %v, want %v", name, got, want)
		}
	}
}

// TestEfficiencyRanking states the partial order of each shape's long
// runs by their covering pairs, grouped, and leaves runs without an
// interval (a default run's CPU time is no artifact's) out.
func TestEfficiencyRanking(t *testing.T) {
	four, five := grid.Shape{R: 4, C: 4}, grid.Shape{R: 5, C: 5}
	run := func(variant string, s grid.Shape, lo, hi float64) present.Estimator {
		return present.Estimator{Method: "knuth", Shape: s, Variant: variant,
			Long: &present.LongRun{Efficiency: (lo + hi) / 2, EfficiencyLow: lo, EfficiencyHigh: hi}}
	}
	defaultRun := present.Estimator{Method: "knuth", Shape: four, Variant: "mrv"}
	six := grid.Shape{R: 6, C: 2}
	chains := efficiencyRanking([]present.Estimator{run("se", five, 1, 3), run("stackshybrid", five, 2.5, 4),
		run("bandse", four, 1, 2), run("stacks", four, 5, 9), run("stacks", six, 1, 2), run("se", six, 1, 2), defaultRun})
	if got := itemsText(chains); got != `On 4\times4 boxes, stacks > bandse|On 5\times5 and 6\times2 boxes, none|` {
		t.Errorf("chains: %s", got)
	}
	// Three runs of one shape: a over b and c, which are not ranked.
	chains = efficiencyRanking([]present.Estimator{run("c", four, 1, 3), run("a", four, 9, 12), run("b", four, 2, 4)})
	if got := itemsText(chains); got != `On 4\times4 boxes, a > (b, c)|` {
		t.Errorf("three runs: %s", got)
	}
	// a beats c, but neither beats b nor b either: the one pair is stated,
	// b named nowhere.
	chains = efficiencyRanking([]present.Estimator{run("c", four, 1, 2), run("a", four, 4.5, 6), run("b", four, 2.5, 4)})
	if got := itemsText(chains); got != `On 4\times4 boxes, a > c|` {
		t.Errorf("one pair: %s", got)
	}
	// The 9×9 pattern: s beats l, c and h; b beats c and h but not l; l, c
	// and h beat r. s > r follows by transitivity and is not stated.
	chains = efficiencyRanking([]present.Estimator{
		run("s", four, 64, 70), run("b", four, 54, 55), run("l", four, 29, 29.3),
		run("c", four, 18, 19), run("h", four, 14.5, 15.6), run("r", four, 1.2, 1.5)})
	if got := itemsText(chains); got != `On 4\times4 boxes, s > (l, c, h); b > (c, h); (l, c, h) > r|` {
		t.Errorf("the 9x9 pattern: %s", got)
	}
	if present.MoreEfficient(run("a", four, 1, 2), defaultRun) || present.MoreEfficient(run("a", four, 1, 2), run("b", four, 2, 3)) {
		t.Error("ranked a pair whose intervals meet, or a run without an interval")
	}
	// Disjoint intervals closer than the spread of CPU time: not ranked.
	if present.MoreEfficient(run("a", four, 3, 4), run("b", four, 1.8, 2.5)) || !present.MoreEfficient(run("a", four, 5.1, 6), run("b", four, 1.8, 2.5)) {
		t.Errorf("ranking ignores the factor %v of CPU time", present.CPUTimeSpread)
	}
}

// itemsText joins the items' pieces, each item ended by "|".
func itemsText(items [][]typeset.Piece) string {
	var b strings.Builder
	for _, it := range items {
		for _, p := range it {
			b.WriteString(p.S)
		}
		b.WriteString("|")
	}
	return b.String()
}

// TestDifferenceVerifiedOnlyWhenWhole: the paper calls a count that differs
// from the literature a correction (\ifHaveSymmetryDifferenceVerified) only
// when a second count equals its whole non-identity Burnside sum.
func TestDifferenceVerifiedOnlyWhenWhole(t *testing.T) {
	twoFive := grid.Shape{R: 2, C: 5}
	for share, want := range map[string]bool{present.FullShare: true, "0.999999": false, "": false} {
		r := &present.Results{Symmetry: []present.EssentiallyDifferent{{Shape: twoFive, GroupOrder: big.NewInt(8), IdentityFixed: big.NewInt(80),
			BurnsideSum: big.NewInt(80), Count: big.NewInt(10), Literature: big.NewInt(11), LiteratureSource: "OEIS", VerifiedShare: share,
			From: typeset.Row("data/essentially_different.parquet", "shape", twoFive)}}}
		list, err := Macros(r, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		got := slices.ContainsFunc(list, func(m Macro) bool { return m.Kind == Flag && m.Name == "HaveSymmetryDifferenceVerified" })
		if got != want {
			t.Errorf("verified share %q: flag %v, want %v", share, got, want)
		}
	}
}

// TestKnuthBestByEfficiency: the 9×9 walk named the cheapest is the long
// run of highest efficiency per CPU second, ranked over the runner-up only
// when their intervals are disjoint ("not separated" otherwise, no Ranked
// flag); a default run, whose CPU time is no artifact's, and a long run
// the headline rule does not trust are never compared, and no macro
// speaks of cells visited.
func TestKnuthBestByEfficiency(t *testing.T) {
	f := func(x float64) *big.Float { return big.NewFloat(x) }
	run := func(variant string, lo, hi float64) present.Estimator {
		return present.Estimator{Method: "knuth", Shape: present.Classic, Variant: variant, Samples: 64000, Estimate: f(6.67e21),
			StdError: f(1e19), CILow: f(6.65e21), CIHigh: f(6.69e21), RelativeError: 0.0015, ParetoK: 0.2,
			From: typeset.Row("data/knuth_long.parquet", "shape", "3x3", "variant", variant),
			Long: &present.LongRun{Units: 1, CPUSeconds: 6.4, Efficiency: (lo + hi) / 2, EfficiencyLow: lo, EfficiencyHigh: hi}}
	}
	// The default run is the most precise and has the lowest relvar: it
	// must still not be named, having no CPU time.
	defaultRun := present.Estimator{Method: "knuth", Shape: present.Classic, Variant: "bandmrv", Samples: 1000000, Estimate: f(6.67e21),
		StdError: f(1e18), CILow: f(6.669e21), CIHigh: f(6.671e21), RelativeError: 0.0001, RelVar: 0.01, RelVarWork: 1,
		From: typeset.Row("data/knuth.parquet", "shape", "3x3", "variant", "bandmrv")}
	for _, c := range []struct {
		name   string
		runs   []present.Estimator
		ranked bool
	}{
		{"separated", []present.Estimator{run("mrv", 1e4, 2e4), run("bandse", 8e4, 9e4), run("se", 2e4, 3.5e4)}, true},
		// Disjoint, but closer than the spread of CPU time between units.
		{"within the CPU spread", []present.Estimator{run("mrv", 1e4, 2e4), run("bandse", 8e4, 9e4), run("se", 3e4, 5e4)}, false},
		{"overlapping", []present.Estimator{run("mrv", 1e4, 2e4), run("bandse", 8e4, 9e4), run("bandselast", 6e4, 8.5e4)}, false},
	} {
		// A heavy-tailed long run (k̂ ≥ 1/2: the headline rule does not
		// trust it) of higher efficiency is neither named nor runner-up.
		heavy := run("rowmajor", 1e5, 2e5)
		heavy.ParetoK = 0.9
		tex, err := TeX(&present.Results{Estimators: append([]present.Estimator{defaultRun, heavy}, c.runs...)}, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		s := string(tex)
		for _, want := range []string{`\HaveKnuthBestMeasuredtrue`, `\HaveKnuthBestComparedtrue`,
			`\newcommand{\KnuthBestVariant}{\texttt{bandse}}`, `\newcommand{\KnuthBestEfficiencyLow}{\ensuremath{8.0\times 10^{4}}}`,
			`\newcommand{\KnuthBestCPUSecondsPerSample}{\ensuremath{1.0\times 10^{-4}}}`} {
			if !strings.Contains(s, want) {
				t.Errorf("%s: numbers.tex lacks %s", c.name, want)
			}
		}
		up := map[string]string{"overlapping": "bandselast"}[c.name]
		if up == "" {
			up = "se"
		}
		if !strings.Contains(s, `\newcommand{\KnuthBestRunnerUp}{\texttt{`+up+`}}`) {
			t.Errorf("%s: runner-up is not %s", c.name, up)
		}
		if got := strings.Contains(s, `\HaveKnuthBestRankedtrue`); got != c.ranked {
			t.Errorf("%s: ranked %v, want %v", c.name, got, c.ranked)
		}
		if strings.Contains(s, "cells visited") || strings.Contains(s, "RelVarWork") {
			t.Errorf("%s: numbers.tex compares by cells:\n%s", c.name, s)
		}
	}
}
