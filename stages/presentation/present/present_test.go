package present

import (
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/knuth"
	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
	"github.com/sudoku-census/sudoku-census/stages/presentation/typeset"
	"github.com/sudoku-census/sudoku-census/stages/shared/sampling"
)

func TestParse(t *testing.T) {
	n, err := ParseInt("grids", " 6670903752021072936960 ")
	if err != nil || n.String() != "6670903752021072936960" {
		t.Errorf("ParseInt = %v, %v", n, err)
	}
	if _, err := ParseInt("grids", "6.67e21"); err == nil {
		t.Error("ParseInt accepted a float")
	}
	q, err := ParseRat("estimate", "6657084616885512582463.488")
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := new(big.Rat).SetString("6657084616885512582463488/1000"); q.Cmp(want) != 0 {
		t.Errorf("ParseRat = %s", q.RatString())
	}
	// 25×25 estimates pass the float64 range: 4.12e308 = 0.55·2^1026.
	x, err := ParseFloat("estimate", "4.12345678901234e+308")
	if err != nil || x.IsInf() || x.MantExp(nil) != 1026 {
		t.Errorf("ParseFloat = %v, %v", x, err)
	}
	if _, err := ParseFloat("estimate", "many"); err == nil {
		t.Error("ParseFloat accepted a word")
	}
}

func TestEstimatorFromColumns(t *testing.T) {
	e, err := estimator(knuth.Stage.Name, knuth.Summary.Output, "3x3", "mrv", sampling.Columns{Samples: 10, Estimate: "6.6e+21",
		StdError: "1e+20", CILow: "6.404e+21", CIHigh: "6.796e+21", RelativeError: 0.015, Work: 810}, sampling.RelVarColumns{RelVarLow: 0.5, RelVarHigh: 0.7})
	if err != nil {
		t.Fatal(err)
	}
	if e.Shape != (grid.Shape{R: 3, C: 3}) || e.Label() != "knuth/mrv" || Float64(e.CIHigh) != 6.796e21 || e.RelVarLow != 0.5 || e.RelVarHigh != 0.7 {
		t.Errorf("estimator = %+v", e)
	}
	if want := (typeset.Source{Artifact: "data/knuth.parquet", Where: "shape=3x3 variant=mrv"}); e.From != want {
		t.Errorf("estimator's source = %+v, want %+v", e.From, want)
	}
	if _, err := estimator(knuth.Stage.Name, knuth.Summary.Output, "3x3", "mrv", sampling.Columns{Estimate: "x"}, sampling.RelVarColumns{}); err == nil {
		t.Error("bad estimate accepted")
	}
}

func TestSortAndLookup(t *testing.T) {
	nine, four := grid.Shape{R: 3, C: 3}, grid.Shape{R: 2, C: 2}
	k := knuth.Stage.Name
	r := &Results{
		Shapes: []ShapeCount{{Shape: nine, Grids: big.NewInt(1)}, {Shape: four, Grids: big.NewInt(288)}},
		Traces: []TracePoint{{Method: k, Shape: nine, Variant: "b", Samples: 4}, {Method: k, Shape: nine, Variant: "a", Samples: 8},
			{Method: k, Shape: nine, Variant: "a", Samples: 2}},
	}
	r.sort()
	if r.Shapes[0].Shape != four {
		t.Errorf("shapes not sorted by size: %v", r.Shapes)
	}
	if tr := r.Trace(k, nine, "a"); len(tr) != 2 || tr[0].Samples != 2 || tr[1].Samples != 8 {
		t.Errorf("trace = %+v", tr)
	}
	if n, ok := r.ExactGrids(four); !ok || n.Int64() != 288 {
		t.Errorf("ExactGrids(2x2) = %v, %v", n, ok)
	}
	if _, ok := r.ExactGrids(grid.Shape{R: 4, C: 4}); ok {
		t.Error("ExactGrids(4x4) found a count")
	}
}

// TestRequiresEachSourceOnce checks that the stages a presenting stage must
// require are the computing stages Gather reads, each once and none of them
// a presenting stage.
func TestRequiresEachSourceOnce(t *testing.T) {
	seen := map[*pipeline.Stage]bool{}
	for _, s := range Requires() {
		if s == nil || seen[s] {
			t.Fatalf("Requires() = %v: a stage is nil or listed twice", Requires())
		}
		seen[s] = true
		if len(s.Outputs) == 0 {
			t.Errorf("stage %s has no artifact to read", s.Name)
		}
	}
	if len(seen) != len(sources) {
		t.Errorf("Requires() lists %d stages, sources %d", len(seen), len(sources))
	}
}

func TestAllShapes(t *testing.T) {
	r := &Results{
		Total:      &Total{Grids: big.NewInt(1)},
		Heuristics: []Heuristic{{Shape: grid.Shape{R: 4, C: 4}}, {Shape: grid.Shape{R: 3, C: 2}}},
		Estimators: []Estimator{{Shape: grid.Shape{R: 2, C: 3}}, {Shape: grid.Shape{R: 4, C: 4}}},
	}
	got := r.AllShapes()
	want := []grid.Shape{{R: 2, C: 3}, {R: 3, C: 2}, Classic, {R: 4, C: 4}}
	if len(got) != len(want) {
		t.Fatalf("AllShapes = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("AllShapes = %v, want %v", got, want)
			break
		}
	}
}

// MostPrecise passes over a run whose samples were all equal (its zero
// error is no Monte Carlo result) unless it is the only one, and never
// takes a run that found no grid.
func TestMostPreciseSkipsZeroVariance(t *testing.T) {
	s := grid.Shape{R: 2, C: 2}
	f := big.NewFloat
	hybrid := Estimator{Shape: s, Method: "knuth", Variant: "hybrid", Samples: 10, Estimate: f(288), StdError: f(0), CILow: f(288), CIHigh: f(288)}
	mrv := Estimator{Shape: s, Method: "knuth", Variant: "mrv", Samples: 10, Estimate: f(290), StdError: f(3), RelativeError: 0.01}
	se := Estimator{Shape: s, Method: "knuth", Variant: "se", Samples: 10, Estimate: f(287), StdError: f(1), RelativeError: 0.003}
	failed := Estimator{Shape: s, Method: "knuth", Variant: "random", Samples: 10, Estimate: f(0), StdError: f(0)}
	for _, c := range []struct {
		runs []Estimator
		want string
	}{
		{[]Estimator{hybrid, mrv, se}, "se"},
		{[]Estimator{se, hybrid, mrv}, "se"},
		{[]Estimator{mrv, hybrid}, "mrv"},
		{[]Estimator{failed, hybrid}, "hybrid"},
		{[]Estimator{failed}, ""},
	} {
		r := &Results{Estimators: c.runs}
		got, ok := r.MostPrecise(s)
		if (c.want == "") == ok || (ok && got.Variant != c.want) {
			t.Errorf("%v: got %q (%v), want %q", c.runs, got.Variant, ok, c.want)
		}
	}
	if !hybrid.ZeroVariance() || mrv.ZeroVariance() || failed.ZeroVariance() || !failed.NoSuccess() || mrv.NoSuccess() {
		t.Error("ZeroVariance or NoSuccess misjudges a run")
	}
	if z, ok := mrv.Z(big.NewInt(288)); !ok || math.Abs(z-2.0/3) > 1e-12 {
		t.Errorf("z of 290 ± 3 against 288 = %v, %v; want 2/3", z, ok)
	}
	if _, ok := hybrid.Z(big.NewInt(288)); ok {
		t.Error("a zero-variance run has a z-score")
	}
}

// MostPrecise takes a shape's long run (knuth.long) over its default
// runs, even a more precise one, but not an unreliable long run over a
// trusted default run (over an unreliable one, yes); the sort puts a long run after its variant's
// default run, and Label tells them apart.
func TestMostPreciseTakesTheLongRun(t *testing.T) {
	s := grid.Shape{R: 4, C: 4}
	f := big.NewFloat
	long := &LongRun{Units: 2, CPUSeconds: 100}
	se := Estimator{Shape: s, Method: "knuth", Variant: "se", Samples: 10, Estimate: f(6e98), StdError: f(1e96), RelativeError: 0.002}
	seLong := Estimator{Shape: s, Method: "knuth", Variant: "se", Samples: 20, Estimate: f(5.9e98), StdError: f(3e96), RelativeError: 0.005, Long: long}
	mrvLong := seLong
	mrvLong.Variant, mrvLong.Unreliable = "mrv", true
	seHeavy := se // a short run whose k̂ is over its (lower) threshold too
	seHeavy.Unreliable = true
	for _, c := range []struct {
		runs     []Estimator
		want     string
		wantLong bool
	}{
		{[]Estimator{se, seLong}, "se", true},
		{[]Estimator{seLong, se}, "se", true},
		{[]Estimator{se, mrvLong}, "se", false},
		{[]Estimator{mrvLong}, "mrv", true},
		{[]Estimator{seHeavy, mrvLong}, "mrv", true},
	} {
		r := &Results{Estimators: c.runs}
		got, ok := r.MostPrecise(s)
		if !ok || got.Variant != c.want || (got.Long != nil) != c.wantLong {
			t.Errorf("%v: got %s (%v)", c.runs, got.Label(), ok)
		}
	}
	r := &Results{Estimators: []Estimator{seLong, se}}
	r.sort()
	if r.Estimators[0].Long != nil || r.Estimators[1].Label() != "knuth/se long" || r.Estimators[0].Label() != "knuth/se" {
		t.Errorf("sorted: %s, %s", r.Estimators[0].Label(), r.Estimators[1].Label())
	}
}

// The coverage study counts the intervals that hold the known count (288
// for 2×2, from the literature here) and those wholly below it; a variant
// whose Wilson interval lies below 95% is not trusted, nor is an
// unreliable estimate, and MostPrecise passes over both when a trusted
// estimate exists.
func TestCoverageStatsAndTrusted(t *testing.T) {
	s, _ := grid.ParseShape("2x2")
	f := func(x float64) *big.Float { return big.NewFloat(x) }
	r := &Results{}
	for i := range 100 {
		good := CoverageRun{Method: "knuth", Shape: s, Variant: "good", Samples: 10, CILow: f(280), CIHigh: f(290)}
		if i < 5 {
			good.CIHigh = f(287) // wholly below 288
		}
		r.Coverage = append(r.Coverage, good)
	}
	for range 100 {
		// Wholly above: covers never, below never.
		r.Coverage = append(r.Coverage, CoverageRun{Method: "knuth", Shape: s, Variant: "bad", Samples: 10, CILow: f(289), CIHigh: f(300)})
	}
	// Slices of a long run of "good": a study of their own (another size),
	// the tail gate flagging 3 of the 4 missing runs and 1 covering one.
	for i := range 40 {
		run := CoverageRun{Method: "knuth", Shape: s, Variant: "good", Samples: 1000, Long: true, CILow: f(287), CIHigh: f(289), Gated: i == 0}
		if i >= 36 {
			run.CIHigh, run.Gated = f(287.5), i != 36
		}
		r.Coverage = append(r.Coverage, run)
	}
	stats := r.CoverageStats()
	if len(stats) != 3 || stats[0].Variant != "good" || stats[0].Runs != 100 || stats[0].Covered != 95 || stats[0].Below != 5 ||
		stats[1].Covered != 0 || stats[1].Below != 0 || !(stats[0].High > 0.95) || !(stats[1].High < 0.95) || stats[0].Long {
		t.Fatalf("coverage stats %+v", stats)
	}
	if l := stats[2]; !l.Long || l.Samples != 1000 || l.Runs != 40 || l.Covered != 36 || l.Below != 4 || l.GatedMissed != 3 || l.GatedCovered != 1 {
		t.Errorf("long slices' stats %+v", l)
	}
	r.Coverage = r.Coverage[:200]
	est := func(variant string, re float64, unreliable bool) Estimator {
		return Estimator{Method: "knuth", Shape: s, Variant: variant, Estimate: f(288), StdError: f(288 * re), RelativeError: re, Unreliable: unreliable}
	}
	r.Estimators = []Estimator{est("bad", 0.001, false), est("heavy", 0.002, true), est("good", 0.01, false), est("good", 0.0015, false)}
	// The headline rule: a tail of infinite variance (k̂ ≥ 1/2) gives no
	// headline, though not marked unreliable; a NaN k̂ (no tail) does.
	r.Estimators[3].ParetoK = 0.6
	r.Estimators[2].ParetoK = math.NaN()
	if r.Trusted(r.Estimators[0]) || r.Trusted(r.Estimators[1]) || !r.Trusted(r.Estimators[2]) || r.Trusted(r.Estimators[3]) {
		t.Errorf("trusted: bad %v, heavy %v, good %v, k̂ 0.6 %v", r.Trusted(r.Estimators[0]), r.Trusted(r.Estimators[1]), r.Trusted(r.Estimators[2]), r.Trusted(r.Estimators[3]))
	}
	if best, ok := r.MostPrecise(s); !ok || best.Variant != "good" {
		t.Errorf("most precise: %s, want the trusted good", best.Variant)
	}
}

// A variant with candidate draws (stackshybrid@8) is trusted only where a
// coverage study of that same variant, on a shape with a known count (2×2
// here), has runs whose relative variance of the mean is within a factor 2
// of the headline run's and covers there: not with the k = 1 study of the
// same size, not with its own study at another size, not with a study
// clearly below 95%; the rule of the variants without draws is unchanged
// (no study needed on a shape whose count is unknown).
func TestTrustedNeedsCoverageWithItsDraws(t *testing.T) {
	known, _ := grid.ParseShape("2x2")
	unknown, _ := grid.ParseShape("6x5")
	f := func(x float64) *big.Float { return big.NewFloat(x) }
	study := func(variant string, re float64, covered int) []CoverageRun {
		var runs []CoverageRun
		for i := range 300 {
			run := CoverageRun{Method: "knuth", Shape: known, Variant: variant, Samples: int64(32000 + covered), Long: true, CILow: f(280), CIHigh: f(290), RelativeError: re}
			if i >= covered {
				run.CIHigh = f(287)
			}
			runs = append(runs, run)
		}
		return runs
	}
	headline := Estimator{Method: "knuth", Shape: unknown, Variant: "stackshybrid@8", Estimate: f(1e9), StdError: f(5e6), RelativeError: 0.005, ParetoK: 0.2}
	plain := headline
	plain.Variant = "stackshybrid"
	for _, c := range []struct {
		name     string
		coverage []CoverageRun
		want     bool
	}{
		{"no study", nil, false},
		{"only the k = 1 study", study("stackshybrid", 0.005, 290), false},
		{"a study of 16 draws", study("stackshybrid@16", 0.005, 290), false},
		{"its study, relvar of the mean 2.2 times the run's", study("stackshybrid@8", 0.0075, 290), false},
		{"its study, a third of the run's", study("stackshybrid@8", 0.0029, 290), false},
		{"its study at size, 96.7%", study("stackshybrid@8", 0.006, 290), true},
		{"its study at size, 90%", study("stackshybrid@8", 0.004, 270), false},
		{"at size 90% beside another at size 96.7%", append(study("stackshybrid@8", 0.004, 270), study("stackshybrid@8", 0.006, 290)...), false},
	} {
		r := &Results{Coverage: c.coverage}
		if got := r.Trusted(headline); got != c.want {
			t.Errorf("%s: trusted %v, want %v", c.name, got, c.want)
		}
		if !r.Trusted(plain) {
			t.Errorf("%s: stackshybrid without draws on a shape of unknown count not trusted", c.name)
		}
	}
	if st := (&Results{Coverage: study("stackshybrid@8", 0.006, 290)}).CoverageStats(); len(st) != 1 || math.Abs(st[0].RelVarOfMean-3.6e-5) > 1e-12 {
		t.Errorf("coverage stats %+v, want one study with relvar of the mean 3.6e-5", st)
	}
}

// The ends of a printed interval differ, with the width in about two
// digits, also for a narrow interval, past the float64 range and for
// negative ends; a zero-width interval keeps the least digits.
func TestIntervalTeX(t *testing.T) {
	f := func(s string) *big.Float {
		x, _, err := big.ParseFloat(s, 10, 200, big.ToNearestEven)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	for _, c := range []struct {
		lo, hi string
		least  int
		want   string
	}{
		// The 9×9 long run, ±0.045%: three significant digits print both ends as 6.67e21.
		{"6.66899e21", "6.67499e21", 3, `[6.6690\times 10^{21}, 6.6750\times 10^{21}]`},
		{"6.627e21", "6.682e21", 3, `[6.627\times 10^{21}, 6.682\times 10^{21}]`},
		{"6.403e21", "6.958e21", 3, `[6.40\times 10^{21}, 6.96\times 10^{21}]`},
		// 25×25, past float64: ±1%.
		{"4.3245e308", "4.4091e308", 3, `[4.325\times 10^{308}, 4.409\times 10^{308}]`},
		{"-1.5e3", "4.5e3", 3, `[-1.50\times 10^{3}, 4.50\times 10^{3}]`},
		{"288", "288", 3, `2.88\times 10^{2}`}, // zero width: the one value
		// A width below float64's precision: capped at 16 digits.
		{"1", "1.0000000000000000001", 3, `[1.000000000000000, 1.000000000000000]`},
	} {
		if got := IntervalTeX(f(c.lo), f(c.hi), c.least); got != c.want {
			t.Errorf("IntervalTeX(%s, %s, %d) = %s, want %s", c.lo, c.hi, c.least, got, c.want)
		}
	}
}

// TestCheckedShare: the share is Σ|class|·F of the classes whose second
// count names the method over that of every class but the identity, of
// the one shape asked.
func TestCheckedShare(t *testing.T) {
	s25, s33 := grid.Shape{R: 2, C: 5}, grid.Shape{R: 3, C: 3}
	class := func(s grid.Shape, order int, size, fixed int64, method string) SymmetryClass {
		return SymmetryClass{Shape: s, Order: order, Size: big.NewInt(size), Fixed: big.NewInt(fixed), CheckMethod: method}
	}
	classes := []SymmetryClass{
		class(s25, 1, 1, 1000, "multisets"), // the identity: not in the sum
		class(s25, 2, 3, 10, "stackjoin+multisets"),
		class(s25, 2, 5, 4, "stackjoin"),
		class(s25, 4, 2, 15, ""),
		class(s33, 2, 7, 10, "multisets"), // another shape
	}
	share, n, ok := CheckedShare(classes, s25, "multisets")
	if !ok || n != 1 || share.Cmp(big.NewRat(30, 80)) != 0 {
		t.Errorf("multisets on 2x5: %v of %d classes (%v), want 3/8 of 1", share, n, ok)
	}
	if share, n, _ := CheckedShare(classes, s25, "stackjoin"); n != 2 || share.Cmp(big.NewRat(50, 80)) != 0 {
		t.Errorf("stackjoin on 2x5: %v of %d classes, want 5/8 of 2", share, n)
	}
	if _, _, ok := CheckedShare(classes[:1], s25, "multisets"); ok {
		t.Error("a shape with the identity alone has no share")
	}
}

// A 6×6 long run (36×36 grids, one beyond the text form's side, from the
// stack estimators) reads like any other and reaches the long-run, tails
// and shapes tables beside the sampled heuristic, with a count of 10^767
// far beyond float64.
func TestSixBySixLongRun(t *testing.T) {
	cols := sampling.Columns{Samples: 12000, Estimate: "2.81e+767", StdError: "7e+765", CILow: "2.79628e+767", CIHigh: "2.82372e+767",
		RelativeError: 0.0025, ParetoK: 0.3}
	e, err := estimator(knuth.Stage.Name, knuth.LongSummary.Output, "6x6", "stackshybrid", cols, sampling.RelVarColumns{RelVarLow: 6, RelVarHigh: 9})
	if err != nil {
		t.Fatal(err)
	}
	if e.Shape != (grid.Shape{R: 6, C: 6}) || e.Shape.N() != 36 {
		t.Fatalf("estimator = %+v", e)
	}
	e.Long = &LongRun{Units: 3, CPUSeconds: 36000}
	h, _ := new(big.Rat).SetString("2.8e767")
	r := &Results{Estimators: []Estimator{e}, Heuristics: []Heuristic{{Shape: e.Shape, Estimate: h, Low: h, High: h, Sampled: true, RelHalfWidth: 0.002}}}
	for i, tab := range []typeset.Table{LongRunsTable(r), ShapesTable(r), TailsTable(r)} {
		tex := string(tab.TeX())
		if !strings.Contains(tex, `6$\times$6 & 36$\times$36 &`) || i < 2 && !strings.Contains(tex, `2.810\times 10^{767}`) && !strings.Contains(tex, `2.81\times 10^{767}`) {
			t.Errorf("a table without the 6×6 long run:\n%s", tex)
		}
	}
	if _, err := estimator(knuth.Stage.Name, knuth.LongSummary.Output, "6x7", "stackshybrid", cols, sampling.RelVarColumns{}); err == nil {
		t.Error("a 6x7 row accepted")
	}
}

// TestCorrectionTable: the appendix's table lists the classes of the shape
// whose count differs from the literature only when a second count equals
// the whole non-identity sum, each class with both counts and the identity
// with a dash, then the sum, |G|, the count, the literature and the
// difference.
func TestCorrectionTable(t *testing.T) {
	s25, s52 := grid.Shape{R: 2, C: 5}, grid.Shape{R: 5, C: 2}
	ed := func(s grid.Shape, share string) EssentiallyDifferent {
		return EssentiallyDifferent{Shape: s, GroupOrder: big.NewInt(4), BurnsideSum: big.NewInt(40), Count: big.NewInt(10),
			Literature: big.NewInt(12), LiteratureSource: "OEIS A291188", VerifiedShare: share}
	}
	classes := []SymmetryClass{
		{Shape: s25, Class: 0, Order: 1, Size: big.NewInt(1), Fixed: big.NewInt(30), Method: "identity"},
		{Shape: s25, Class: 6, Order: 2, Size: big.NewInt(2), Fixed: big.NewInt(5), Method: "stacks", CheckMethod: "stackjoin+multisets", CheckFixed: big.NewInt(5)},
		{Shape: s52, Class: 6, Order: 2, Size: big.NewInt(2), Fixed: big.NewInt(5), Method: "stacks", CheckMethod: "stackjoin", CheckFixed: big.NewInt(5)},
	}
	r := &Results{Symmetry: []EssentiallyDifferent{ed(s25, FullShare), ed(s52, FullShare)}, SymmetryClasses: classes}
	tab := CorrectionTable(r)
	if len(tab.Rows) != 2+1+5 || tab.Rows[2] != nil {
		t.Fatalf("%d rows, want 2 classes of 2x5, a rule and 5 totals", len(tab.Rows))
	}
	tex := string(tab.TeX())
	for _, want := range []string{`$0$ & $1$ & $1$ & $30$ & \texttt{identity} & -- & --`,
		`$6$ & $2$ & $2$ & $5$ & \texttt{stacks} & $5$ & \texttt{stackjoin}, \texttt{multisets}`, `OEIS A291188} & $12$`, `{difference} & $-2$`} {
		if !strings.Contains(tex, want) {
			t.Errorf("table lacks %q:\n%s", want, tex)
		}
	}
	r.Symmetry = []EssentiallyDifferent{ed(s25, "0.999999"), ed(s52, "0.999999")}
	if rows := CorrectionTable(r).Rows; len(rows) != 0 {
		t.Errorf("share 0.999999: %d rows, want none", len(rows))
	}
}

// TestVerifiedPercent checks that the share is printed rounded down,
// exactly, so that no printed share exceeds the stage's.
func TestVerifiedPercent(t *testing.T) {
	for share, want := range map[string]string{"0.486276": "48.62", "1.000000": "100.00", "0.999999": "99.99",
		"0.000715": "0.07", "0.290000": "29.00", "0": "0.00", "": "", "x": "", "1.000001": "", "-0.1": ""} {
		got, ok := EssentiallyDifferent{VerifiedShare: share}.VerifiedPercent()
		if got != want || ok != (want != "") {
			t.Errorf("VerifiedPercent(%q) = %q, %v; want %q", share, got, ok, want)
		}
	}
}
