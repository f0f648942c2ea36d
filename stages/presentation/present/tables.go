package present

import (
	"fmt"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/sudoku-census/sudoku-census/stages/classes"
	"github.com/sudoku-census/sudoku-census/stages/exact"
	"github.com/sudoku-census/sudoku-census/stages/importance"
	"github.com/sudoku-census/sudoku-census/stages/kilfoil"
	"github.com/sudoku-census/sudoku-census/stages/knuth"
	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
	"github.com/sudoku-census/sudoku-census/stages/maths/montecarlo"
	"github.com/sudoku-census/sudoku-census/stages/presentation/typeset"
	"github.com/sudoku-census/sudoku-census/stages/shapes"
	"github.com/sudoku-census/sudoku-census/stages/symmetry"
)

// The tables of results, shared by the paper (report stage, as TeX) and
// the HTML report (htmlreport stage). Each names the stages whose
// artifacts it shows (NamedTable.Sources), and each cell with a number
// the artifact rows it is read from (typeset.Cell.From, set by sourced),
// for the HTML's provenance.

// NamedTable is a table of results with its name (the paper's file name
// without .tex), a caption for the HTML report, the names of the stages
// whose artifacts it shows, the function that makes it, and whether the
// paper sets it over pages.
type NamedTable struct {
	Name    string
	Caption string
	Sources []string
	Make    func(*Results) typeset.Table
	Long    bool // longer than a page: the paper sets it as a longtable
}

// TeX prints the table for the paper: a longtable when it is Long, else a
// tabular.
func (n NamedTable) TeX(r *Results) []byte {
	if n.Long {
		return n.Make(r).LongTeX()
	}
	return n.Make(r).TeX()
}

// Tables are the tables of results, in the paper's order.
var Tables = []NamedTable{
	{"funnel", "The reduction funnel of first bands: classes left after each step, here and in Felgenhauer and Jarvis (F&J).",
		[]string{classes.Stage.Name}, FunnelTable, false},
	{"classes", "The classes of first bands: members, first bands, compatible second bands and completions of each band.",
		[]string{classes.Stage.Name, exact.Stage.Name}, ClassesTable, false},
	{"estimators", "The Monte Carlo estimators, under a heading per box shape with its exact count where known: estimate, 95% interval, relative error (RE), z-score against the count, the 95% bootstrap interval of the relative variance per sample, for a long run the 95% interval of its efficiency 1/(relvar × CPU seconds per sample) in s⁻¹, and for importance sampling Ridder's RAT; a run with no successful sample shows the 95% upper bound on its chance of success instead of an interval, and a run whose samples were all equal is marked †.",
		[]string{knuth.Stage.Name, importance.Stage.Name}, EstimatorsTable, true},
	{"shapes", "Box shapes: the exact count (in full up to 22 digits, with the published source it agrees with), Kilfoil's heuristic, their ratio, and the most precise Monte Carlo estimate with its 95% half-width, its z-score against the count and whether its interval holds the count.",
		[]string{shapes.Stage.Name, exact.Stage.Name, kilfoil.Stage.Name, knuth.Stage.Name, importance.Stage.Name}, ShapesTable, false},
	{"symmetry", "Essentially different grids per box shape, by Burnside's lemma.",
		[]string{symmetry.Stage.Name}, SymmetryTable, false},
	{"fixing", "The conjugacy classes of the 9×9 symmetry group that fix a grid up to relabelling.",
		[]string{symmetry.Stage.Name}, FixingTable, false},
	{"correction", "The conjugacy classes that fix a grid, of the shape whose count corrects the published one: size, order, F by the first method and by the second, and the Burnside sum.",
		[]string{symmetry.Stage.Name}, CorrectionTable, true},
	{"coverage", "Empirical coverage of the nominal 95% intervals: independent short runs per box shape and variant, the intervals that hold the known count and those wholly below it, with a Wilson 95% interval for the coverage.",
		[]string{knuth.Stage.Name, shapes.Stage.Name, exact.Stage.Name}, CoverageTable, false},
	{"tails", "Tail diagnostics of the estimates for grids of side 15 and more: effective sample size, the largest sample's share of the sum, and the Pareto tail index k̂ (above 0.7 the interval is not to be trusted).",
		[]string{knuth.Stage.Name, importance.Stage.Name}, TailsTable, false},
	{"longruns", "Every long run (knuth.long, units in the committed bundle): samples, units, CPU-hours, the estimate with its 95% half-width, and the Pareto tail index k̂.",
		[]string{knuth.Stage.Name}, LongRunsTable, false},
}

// LongRunsTable lists every long run, in the order of r.Estimators: box
// shape, estimator, samples, units, CPU-hours, the estimate with its 95%
// half-width (for a run without a success, the bound on its chance of
// success) and k̂, marked as in TailsTable.
func LongRunsTable(r *Results) typeset.Table {
	var rows [][]typeset.Cell
	for _, e := range r.LongRuns() {
		k := typeset.DashCell()
		if !math.IsNaN(e.ParetoK) {
			k = typeset.MathCell(typeset.Fixed(e.ParetoK, 2) + tailMark(e))
		}
		// A run that never succeeded has no interval ("0 (±∞%)" would say
		// nothing): the bound on its chance of success, as in the
		// estimators' table.
		estimate := typeset.MathCell(SciFloat(e.Estimate, 4) + `\ (\pm ` + typeset.Percent(e.RelativeError*montecarlo.Z95, 2) + `\%)`)
		if e.NoSuccess() {
			estimate = typeset.Cells(typeset.Piece{Kind: typeset.Text, S: "no success; "}, typeset.Piece{Kind: typeset.Math, S: "p<" + typeset.Sig(montecarlo.NoSuccessUpper95(e.Samples), 2)})
		}
		rows = append(rows, sourced([]typeset.Cell{typeset.TextCell(fmt.Sprintf("%d×%d", e.Shape.R, e.Shape.C)), typeset.TextCell(fmt.Sprintf("%d×%d", e.Shape.N(), e.Shape.N())),
			typeset.Cells(typeset.Piece{Kind: typeset.Code, S: e.Variant}), typeset.MathCell(typeset.Int64(e.Samples)),
			typeset.MathCell(typeset.Int64(int64(e.Long.Units))), typeset.MathCell(CPUHours(e.Long.CPUSeconds)),
			estimate, k}, e.From))
	}
	head := texts("boxes", "grid", "estimator", "samples", "units", "CPU-hours", "estimate (95%)", "")
	head[7] = typeset.MathCell(`\hat k`)
	return typeset.Table{Spec: "lllrrrrr", Head: head, Rows: rows}
}

// TailSide is the smallest grid side whose estimates the tails table
// shows with their tail diagnostics: from 15×15 on no count is known, and
// the intervals stand on the normal approximation alone.
const TailSide = 15

// TailEstimators returns the estimators with a positive estimate on grids
// of side TailSide or more, in the order of r.Estimators.
func (r *Results) TailEstimators() []Estimator {
	var out []Estimator
	for _, e := range r.Estimators {
		if e.Shape.N() >= TailSide && e.Estimate.Sign() > 0 {
			out = append(out, e)
		}
	}
	return out
}

// TailsTable lists, for every estimate of a grid of side TailSide or more,
// the diagnostics of its samples as weights: the effective sample size
// (Σw)²/Σw², as a count and as a share of the samples, the largest
// sample's share of the sum, and the Pareto tail index k̂ (marked ‡ above
// montecarlo.UnreliableAbove(samples), otherwise † from montecarlo.HeadlineK
// on, where the headline rule takes no figure), beside the relative error
// they qualify.
func TailsTable(r *Results) typeset.Table {
	var rows [][]typeset.Cell
	var last grid.Shape
	es := r.TailEstimators()
	for i, e := range es {
		if i > 0 && e.Shape != last {
			rows = append(rows, nil)
		}
		last = e.Shape
		k := typeset.DashCell() // no tail to fit
		if !math.IsNaN(e.ParetoK) {
			k = typeset.MathCell(typeset.Fixed(e.ParetoK, 2) + tailMark(e))
		}
		rows = append(rows, sourced([]typeset.Cell{typeset.TextCell(fmt.Sprintf("%d×%d", e.Shape.R, e.Shape.C)), typeset.TextCell(fmt.Sprintf("%d×%d", e.Shape.N(), e.Shape.N())),
			typeset.Cells(typeset.Piece{Kind: typeset.Code, S: e.Label()}), typeset.MathCell(typeset.Int64(e.Samples)),
			typeset.MathCell(typeset.Percent(e.RelativeError, 2)), typeset.MathCell(typeset.Count(e.ESS)),
			typeset.MathCell(typeset.Percent(e.ESS/float64(e.Samples), 2)), typeset.MathCell(typeset.Percent(e.MaxShare, 2)), k}, e.From))
	}
	rows = appendTailNotes(rows, es, 9)
	head := texts("boxes", "grid", "estimator", "samples", "RE (%)", "ESS", "ESS/n (%)", "largest share (%)", "")
	head[8] = typeset.MathCell(`\hat k`)
	return typeset.Table{Spec: "lllrrrrrr", Head: head, Rows: rows}
}

// SciFloat prints a statistic that may pass the float64 range.
func SciFloat(x *big.Float, sig int) string {
	if x.IsInf() {
		return `\infty`
	}
	q, _ := x.Rat(nil)
	return typeset.SciRat(q, sig)
}

// IntervalDigits is the number of significant digits, at least least,
// that prints the interval [lo, hi] with ends that differ: the last digit
// printed is one place below the leading digit of the width hi − lo, so
// the width shows in about two digits ([6.6690, 6.6750]·10²¹ rather than
// [6.67, 6.67]·10²¹), up to the 16 digits a statistic computed in float64
// carries. An interval of zero or no finite width gets least.
func IntervalDigits(lo, hi *big.Float, least int) int {
	if lo.IsInf() || hi.IsInf() || hi.Cmp(lo) <= 0 {
		return least
	}
	end := new(big.Float).Abs(hi)
	if a := new(big.Float).Abs(lo); a.Cmp(end) > 0 {
		end = a
	}
	width := new(big.Float).Sub(hi, lo)
	d := int(math.Floor(log10Abs(end))-math.Floor(log10Abs(width))) + 2
	return min(max(d, least), 16)
}

// log10Abs is log₁₀|x| for a finite nonzero x, also past the float64 range.
func log10Abs(x *big.Float) float64 {
	var mant big.Float
	exp := x.MantExp(&mant)
	m, _ := mant.Float64()
	return math.Log10(math.Abs(m)) + float64(exp)*math.Log10(2)
}

// IntervalTeX prints the interval [lo, hi] (TeX math, without $) with
// IntervalDigits(lo, hi, least) significant digits at each end, and an
// interval of zero width (every sample equal) as its one value, as
// IntervalCell does, not as two equal ends.
func IntervalTeX(lo, hi *big.Float, least int) string {
	if lo.Cmp(hi) == 0 {
		return SciFloat(lo, least)
	}
	d := IntervalDigits(lo, hi, least)
	return "[" + SciFloat(lo, d) + ", " + SciFloat(hi, d) + "]"
}

// sourced sets the sources of every cell of row that holds math (a
// number; a cell of text or an estimator's name has none) and has no
// sources yet, and returns row.
func sourced(row []typeset.Cell, from ...typeset.Source) []typeset.Cell {
	for i, c := range row {
		if c.From == nil && slices.ContainsFunc(c.Pieces, func(p typeset.Piece) bool { return p.Kind == typeset.Math }) {
			row[i].From = from
		}
	}
	return row
}

// withFrom returns c with the sources from.
func withFrom(c typeset.Cell, from ...typeset.Source) typeset.Cell {
	c.From = from
	return c
}

func texts(heads ...string) []typeset.Cell {
	out := make([]typeset.Cell, len(heads))
	for i, h := range heads {
		out[i] = typeset.TextCell(h)
	}
	return out
}

// FunnelTable lists each reduction step with the classes this pipeline
// found and those Felgenhauer and Jarvis report.
func FunnelTable(r *Results) typeset.Table {
	var rows [][]typeset.Cell
	for i, lv := range r.Funnel {
		paper := typeset.DashCell()
		if lv.PaperClasses > 0 {
			paper = typeset.MathCell(typeset.Int64(lv.PaperClasses))
		}
		rows = append(rows, sourced([]typeset.Cell{typeset.TextCell(fmt.Sprint(i)), typeset.TextCell(lv.Name), typeset.TextCell(lv.Operations),
			typeset.MathCell(typeset.Int64(lv.Classes)), paper}, lv.From))
	}
	return typeset.Table{Spec: `r>{\raggedright\arraybackslash}p{0.2\linewidth}>{\raggedright\arraybackslash}p{0.4\linewidth}rr`,
		Head: texts("step", "classes of", "operations", "here", "F&J"), Rows: rows}
}

// ClassesTable lists the classes of first bands: size, first bands,
// compatible second bands and completions of each band, with the sum
// Σ first_bands·completions = N/9! as the last row.
func ClassesTable(r *Results) typeset.Table {
	var rows [][]typeset.Cell
	sum := new(big.Int)
	var size, first int64
	for _, c := range r.Classes {
		check := typeset.Cells()
		if c.Crosschecked {
			check = typeset.Cells(typeset.Piece{Kind: typeset.Check})
		}
		rows = append(rows, sourced([]typeset.Cell{typeset.TextCell(fmt.Sprint(c.Class)), typeset.MathCell(typeset.Int64(c.Size)), typeset.MathCell(typeset.Int64(c.FirstBands)),
			typeset.MathCell(typeset.Int64(c.SecondBands)), typeset.MathCell(typeset.Int(c.Completions)), withFrom(check, c.From)}, c.From))
		sum.Add(sum, new(big.Int).Mul(big.NewInt(c.FirstBands), c.Completions))
		size += c.Size
		first += c.FirstBands
	}
	total := typeset.MathCell(`\textstyle\sum = ` + typeset.Int(sum))
	total.Span, total.Align = 2, "r"
	// The sums are of every row.
	all := typeset.Source{}
	if len(r.Classes) > 0 {
		all.Artifact = r.Classes[0].From.Artifact
	}
	rows = append(rows, nil, sourced([]typeset.Cell{typeset.TextCell("all"), typeset.MathCell(typeset.Int64(size)), typeset.MathCell(typeset.Int64(first)), typeset.Cells(), total}, all))
	return typeset.Table{Spec: "rrrrrc", Head: texts("class", "reduced bands", "first bands", "second bands", "completions", "checked"), Rows: rows}
}

// EstimatorsTable compares the Monte Carlo estimators shape by shape.
// Each shape opens with a heading naming its boxes and grid (two shapes
// share a side: 2×6 and 3×4) and its exact count where one is known; each
// estimator has its estimate with its 95% interval, relative error, the
// z-score against the count, the 95% bootstrap interval of its relative
// variance per sample, for a long run the 95% interval of its efficiency
// 1/(relvar × CPU seconds per sample) in s⁻¹ (the default runs' CPU time
// is the machine's, not an artifact's: a dash), and for importance
// sampling Ridder's RAT. A run with no successful sample gets, instead of
// the estimate 0 and the interval [0, 0], the upper bound on its chance
// of success; a run whose samples were all equal is marked † and
// explained in a last row.
func EstimatorsTable(r *Results) typeset.Table {
	const cols = 9
	var rows [][]typeset.Cell
	var last grid.Shape
	zeroVariance := false
	for i, e := range r.Estimators {
		if i == 0 || e.Shape != last {
			if i > 0 {
				rows = append(rows, nil)
			}
			heading := span(cols, shapeHeading(r, e.Shape)...)
			if _, _, known := r.KnownGrids(e.Shape); known {
				heading.From = []typeset.Source{r.KnownFrom(e.Shape)}
			}
			rows = append(rows, []typeset.Cell{heading})
			last = e.Shape
		}
		label := typeset.Cells(typeset.Piece{Kind: typeset.Code, S: e.Label()})
		if e.Settings != "" {
			label.Pieces = append(label.Pieces, typeset.Piece{Kind: typeset.Text, S: " (" + e.Settings + ")"})
		}
		if e.ZeroVariance() {
			label.Pieces = append(label.Pieces, typeset.Piece{Kind: typeset.Math, S: zeroVarianceMark})
			zeroVariance = true
		}
		rat, eff := typeset.DashCell(), typeset.DashCell()
		if e.HasRatEff && !e.NoSuccess() {
			rat = typeset.MathCell(typeset.Fixed(e.RAT, 3))
		}
		if e.EfficiencyKnown() {
			eff = IntervalCell(e.Long.EfficiencyLow, e.Long.EfficiencyHigh, 2)
		}
		samples := typeset.MathCell(typeset.Int64(e.Samples))
		if e.NoSuccess() {
			rows = append(rows, sourced([]typeset.Cell{label, samples,
				span(4, typeset.Piece{Kind: typeset.Text, S: "no success; "}, typeset.Piece{Kind: typeset.Math, S: "p<" + typeset.Sig(montecarlo.NoSuccessUpper95(e.Samples), 2)}),
				typeset.DashCell(), eff, rat}, e.From))
			continue
		}
		z := typeset.DashCell()
		if n, _, known := r.KnownGrids(e.Shape); known {
			if v, ok := e.Z(n); ok {
				z = withFrom(typeset.MathCell(typeset.Fixed(v, 2)), e.From, r.KnownFrom(e.Shape))
			}
		}
		// The estimate gets at least the digits that tell its interval's ends apart.
		rows = append(rows, sourced([]typeset.Cell{label, samples, typeset.MathCell(SciFloat(e.Estimate, IntervalDigits(e.CILow, e.CIHigh, 4))),
			typeset.MathCell(IntervalTeX(e.CILow, e.CIHigh, 3) + tailMark(e)),
			typeset.MathCell(typeset.Percent(e.RelativeError, 2)), z, IntervalCell(e.RelVarLow, e.RelVarHigh, 2), eff, rat}, e.From))
	}
	if zeroVariance {
		rows = append(rows, nil, []typeset.Cell{span(cols, typeset.Piece{Kind: typeset.Math, S: zeroVarianceMark},
			typeset.Piece{Kind: typeset.Text, S: "Every sample was the same number, so the interval has zero width: the row checks the arithmetic, not the Monte Carlo method."})})
	}
	rows = appendTailNotes(rows, r.Estimators, cols)
	head := texts("estimator", "samples", "estimate", "95% interval", "RE (%)", "", "relvar, 95%", "", "RAT")
	head[5] = typeset.MathCell("z")
	head[7] = typeset.Cells(typeset.Piece{Kind: typeset.Text, S: "efficiency (s"}, typeset.Piece{Kind: typeset.Math, S: "^{-1}"}, typeset.Piece{Kind: typeset.Text, S: "), 95%"})
	return typeset.Table{Spec: "lrrrrrrrr", Head: head, Rows: rows}
}

// IntervalCell prints the interval [lo, hi] of float64 ends as IntervalTeX
// does (at least sig significant digits, enough to tell the ends apart),
// the one value when they are equal (a zero-variance run's relvar, 0), and
// a dash when an end is not a finite number (a run of one block has no
// bootstrap interval).
func IntervalCell(lo, hi float64, sig int) typeset.Cell {
	if math.IsNaN(lo) || math.IsNaN(hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return typeset.DashCell()
	}
	if lo == hi {
		return typeset.MathCell(typeset.Sig(lo, sig))
	}
	l, h := IntervalEnds(lo, hi, sig)
	return typeset.MathCell("[" + l + ", " + h + "]")
}

// IntervalEnds prints the ends of [lo, hi] as IntervalCell does, for the
// text's macros to print what the tables print; an end that is not a
// finite number prints as typeset.Sig prints it.
func IntervalEnds(lo, hi float64, least int) (string, string) {
	if math.IsNaN(lo) || math.IsNaN(hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return typeset.Sig(lo, least), typeset.Sig(hi, least)
	}
	d := IntervalDigits(big.NewFloat(lo), big.NewFloat(hi), least)
	return typeset.Sig(lo, d), typeset.Sig(hi, d)
}

// span makes a cell of pieces spanning n columns, aligned left.
func span(n int, pieces ...typeset.Piece) typeset.Cell {
	c := typeset.Cells(pieces...)
	c.Span, c.Align = n, "l"
	return c
}

// shapeHeading names shape s by its boxes and its grid, with its exact
// count where known: "3×3 boxes, 9×9 grid: 6 670 903 752 021 072 936 960
// grids [cite]".
func shapeHeading(r *Results, s grid.Shape) []typeset.Piece {
	h := []typeset.Piece{{Kind: typeset.Emph, S: fmt.Sprintf("%d×%d boxes, %d×%d grid", s.R, s.C, s.N(), s.N())}}
	n, _, known := r.KnownGrids(s)
	if !known {
		return append(h, typeset.Piece{Kind: typeset.Text, S: ": no count known"})
	}
	h = append(h, typeset.Piece{Kind: typeset.Text, S: ": "}, exactPiece(n), typeset.Piece{Kind: typeset.Text, S: " grids"})
	if cite := PublishedCite(s); cite != "" {
		h = append(h, typeset.Piece{Kind: typeset.Cite, S: cite})
	}
	return h
}

// fullDigits is the longest exact count the tables print in full; longer
// ones (2×5 and up) are printed to 6 significant digits, and in full in
// the text.
const fullDigits = 22

// exactPiece prints an exact count in full up to fullDigits digits, else
// to 6 significant digits.
func exactPiece(n *big.Int) typeset.Piece {
	if len(n.String()) <= fullDigits {
		return typeset.Piece{Kind: typeset.Math, S: typeset.Int(n)}
	}
	return typeset.Piece{Kind: typeset.Math, S: typeset.SciInt(n, 6)}
}

// The marks of the Monte Carlo tables, one per meaning: the paper's
// captions and text use the same.
const (
	// unreliableMarkTeX: k̂ above montecarlo.UnreliableAbove(samples).
	unreliableMarkTeX = `^{\ddagger}`
	// noHeadlineMark: not unreliable, but k̂ ≥ montecarlo.HeadlineK, an
	// infinite-variance tail, so no headline figure.
	noHeadlineMark = `^{\P}`
	// zeroVarianceMark: every sample was the same number.
	zeroVarianceMark = `^{\circ}`
)

// tailMark is the mark (TeX math) of an interval by its Pareto k̂:
// unreliableMarkTeX, noHeadlineMark, or "" for the others.
func tailMark(e Estimator) string {
	switch {
	case e.Unreliable:
		return unreliableMarkTeX
	case e.ParetoK >= montecarlo.HeadlineK:
		return noHeadlineMark
	}
	return ""
}

// appendTailNotes appends to rows, when an estimator of es carries a tail
// mark, a note row spanning cols columns that explains each mark used.
func appendTailNotes(rows [][]typeset.Cell, es []Estimator, cols int) [][]typeset.Cell {
	text := func(s string) typeset.Piece { return typeset.Piece{Kind: typeset.Text, S: s} }
	khat := typeset.Piece{Kind: typeset.Math, S: `\hat k`}
	// The threshold, min(1 − 1/log₁₀ n, UnreliableK), in words (the
	// appendix gives the formula): its constants are the code's, not an
	// artifact's, so they stay text.
	notes := map[string][]typeset.Piece{
		unreliableMarkTeX: {text(" unreliable: the Pareto tail index "), khat, text(fmt.Sprintf(
			" exceeds %g, or a lower threshold for runs of fewer than %s samples, so the normal interval cannot be trusted",
			montecarlo.UnreliableK, typeset.Group(strconv.FormatInt(montecarlo.UnreliableKFullFrom(), 10), ",")))},
		noHeadlineMark: {text(" "), khat, text(fmt.Sprintf(" at least %g: an infinite-variance tail, so no headline figure (the headline rule)", montecarlo.HeadlineK))},
	}
	for _, mark := range []string{unreliableMarkTeX, noHeadlineMark} {
		if slices.ContainsFunc(es, func(e Estimator) bool { return tailMark(e) == mark }) {
			note := typeset.Cells(append([]typeset.Piece{{Kind: typeset.Math, S: mark}}, notes[mark]...)...)
			note.Span, note.Align = cols, "l"
			rows = append(rows, nil, []typeset.Cell{note})
		}
	}
	return rows
}

// CoverageTable is the coverage study: per shape with a known count,
// variant (stackshybrid@k, k candidates, an estimator of its own) and run
// size (a long run's slices marked "long"), the samples per
// run, the runs, how many 95% intervals hold the count and how many lie
// wholly below it, how many of the missing and of the covering runs the
// tail gate flags (unreliable or k̂ ≥ 1/2), the coverage with its Wilson
// 95% interval, and "yes" where that interval lies wholly below 95%
// (Trusted then keeps the variant from the shape's headline figures).
func CoverageTable(r *Results) typeset.Table {
	var rows [][]typeset.Cell
	var last string
	for _, st := range r.CoverageStats() {
		// By box shape: 2×6 and 3×4 boxes both make 12×12 grids.
		shape := fmt.Sprintf("%d×%d", st.Shape.R, st.Shape.C)
		if last != "" && shape != last {
			rows = append(rows, nil)
		}
		last = shape
		below := typeset.Cells()
		if st.High < NominalCoverage {
			below = typeset.TextCell("yes")
		}
		estimator := typeset.Cells(typeset.Piece{Kind: typeset.Code, S: st.Method + "/" + st.Variant})
		if st.Long {
			estimator.Pieces = append(estimator.Pieces, typeset.Piece{Kind: typeset.Text, S: " (long)"})
		}
		missed := st.Runs - st.Covered
		// The counts and the coverage are of the study's runs; whether
		// an interval holds the count depends on the count too.
		known := r.KnownFrom(st.Shape)
		rows = append(rows, sourced([]typeset.Cell{typeset.TextCell(shape), typeset.TextCell(fmt.Sprintf("%d×%d", st.Shape.N(), st.Shape.N())), estimator,
			withFrom(typeset.MathCell(typeset.Int64(st.Samples)), st.From), withFrom(typeset.MathCell(typeset.Int64(st.Runs)), st.From), typeset.MathCell(typeset.Int64(st.Covered)), typeset.MathCell(typeset.Int64(st.Below)),
			typeset.MathCell(typeset.Int64(st.GatedMissed) + "/" + typeset.Int64(missed) + ", " + typeset.Int64(st.GatedCovered) + "/" + typeset.Int64(st.Covered)),
			typeset.MathCell(typeset.Percent(float64(st.Covered)/float64(st.Runs), 1)),
			typeset.MathCell("[" + typeset.Percent(st.Low, 1) + ", " + typeset.Percent(st.High, 1) + "]"), withFrom(below, st.From, known)}, st.From, known))
	}
	return typeset.Table{Spec: "lllrrrrrrrc", Head: texts("boxes", "grid", "estimator", "samples/run", "runs", "cover", "below", "gated: miss, cover", "coverage (%)", "Wilson 95%", "below 95%"), Rows: rows}
}

// ShapesTable lists every box shape with a count, a heuristic or an
// estimate: the exact count (in full up to fullDigits digits), where it
// comes from (counted here, agreeing with the published source, or quoted
// from it), Kilfoil's estimate (marked *, with its 95% half-width in a
// note, where its six-row bands are sampled), their ratio (where no count is known, the
// estimate's, ± its 95% half-width, marked § when the interval excludes
// the heuristic, with a note giving its tail diagnostics), the most
// precise Monte Carlo estimate with the half-width of its 95% interval,
// its z-score against the count and whether its interval holds the count.
func ShapesTable(r *Results) typeset.Table {
	const cols = 9
	var rows [][]typeset.Cell
	var shown, excluding []Estimator
	var sampled []Heuristic
	for _, s := range r.AllShapes() {
		exactCell, sourceCell, heurCell, ratioCell, mcCell, zCell, coverCell := typeset.DashCell(), typeset.DashCell(), typeset.DashCell(), typeset.DashCell(), typeset.DashCell(), typeset.DashCell(), typeset.DashCell()
		n, _, known := r.KnownGrids(s)
		var knownFrom typeset.Source
		if known {
			knownFrom = r.KnownFrom(s)
			exactCell = withFrom(typeset.Cells(exactPiece(n)), knownFrom)
			_, computed := r.ExactGrids(s)
			source := map[bool]string{true: "here", false: "quoted"}[computed]
			sourceCell = typeset.TextCell(source)
			if cite := PublishedCite(s); cite != "" {
				sourceCell.Pieces = append(sourceCell.Pieces, typeset.Piece{Kind: typeset.Cite, S: cite})
			}
		}
		best, haveMC := r.MostPrecise(s)
		if h, ok := r.HeuristicFor(s); ok {
			heurCell = withFrom(typeset.MathCell(typeset.SciRat(h.Estimate, 4)), h.From)
			if h.Sampled {
				// The half-width goes to a note: in the cell it would
				// widen the whole column.
				heurCell.Pieces = append(heurCell.Pieces, typeset.Piece{Kind: typeset.Math, S: `^{*}`})
				sampled = append(sampled, h)
			}
			switch {
			case known:
				ratioCell = withFrom(typeset.MathCell(typeset.Decimal(new(big.Rat).Quo(new(big.Rat).SetInt(n), h.Estimate), 4)), knownFrom, h.From)
			case haveMC:
				// No count: the estimate's ratio, with its 95% half-width.
				hf := new(big.Float).SetRat(h.Estimate)
				ratio := Float64(new(big.Float).Quo(best.Estimate, hf))
				mark := ""
				if !best.Holds(hf) {
					mark = `^{\S}`
					excluding = append(excluding, best)
				}
				// A sampled heuristic's own half-width adds in quadrature
				// (the two estimates are independent).
				half := ratio * math.Hypot(best.RelativeError*montecarlo.Z95, h.RelHalfWidth)
				ratioCell = withFrom(typeset.MathCell(typeset.Fixed(ratio, 3)+`\pm`+typeset.Fixed(half, 3)+mark), best.From, h.From)
			}
		}
		if haveMC {
			mcCell = withFrom(typeset.MathCell(SciFloat(best.Estimate, 3)+`\ (\pm `+typeset.Percent(best.RelativeError*montecarlo.Z95, 2)+`\%)`+tailMark(best)), best.From)
			shown = append(shown, best)
			if known {
				coverCell = withFrom(typeset.TextCell(map[bool]string{true: "yes", false: "no"}[best.Covers(n)]), best.From, knownFrom)
				if z, ok := best.Z(n); ok {
					zCell = withFrom(typeset.MathCell(typeset.Fixed(z, 2)), best.From, knownFrom)
				}
			}
		}
		rows = append(rows, []typeset.Cell{typeset.TextCell(fmt.Sprintf("%d×%d", s.R, s.C)), typeset.TextCell(fmt.Sprintf("%d×%d", s.N(), s.N())),
			exactCell, sourceCell, heurCell, ratioCell, mcCell, zCell, coverCell})
	}
	rows = appendTailNotes(rows, shown, cols)
	if len(sampled) > 0 {
		note := typeset.Cells(typeset.Piece{Kind: typeset.Math, S: `^{*}`}, typeset.Piece{Kind: typeset.Text, S: " six-row bands sampled, 95% half-width "})
		for i, h := range sampled {
			note.From = append(note.From, h.From)
			if i > 0 {
				note.Pieces = append(note.Pieces, typeset.Piece{Kind: typeset.Text, S: ", "})
			}
			note.Pieces = append(note.Pieces, typeset.Piece{Kind: typeset.Math, S: `\pm ` + typeset.Percent(h.RelHalfWidth, 2) + `\%`},
				typeset.Piece{Kind: typeset.Text, S: fmt.Sprintf(" (%d×%d)", h.Shape.R, h.Shape.C)})
		}
		note.Span, note.Align = cols, "l"
		rows = append(rows, nil, []typeset.Cell{note})
	}
	if len(excluding) > 0 {
		// The claim "the count differs from the heuristic" needs its
		// qualification beside it: the tail diagnostics of the samples.
		note := typeset.Cells(typeset.Piece{Kind: typeset.Math, S: `^{\S}`}, typeset.Piece{Kind: typeset.Text, S: " the 95% interval excludes the heuristic; the samples' tail diagnostics: "})
		for i, e := range excluding {
			note.From = append(note.From, e.From)
			if i > 0 {
				note.Pieces = append(note.Pieces, typeset.Piece{Kind: typeset.Text, S: "; "})
			}
			note.Pieces = append(note.Pieces, typeset.Piece{Kind: typeset.Text, S: fmt.Sprintf("%d×%d: ", e.Shape.R, e.Shape.C)})
			note.Pieces = append(note.Pieces, tailPieces(e)...)
		}
		note.Span, note.Align = cols, "l"
		rows = append(rows, nil, []typeset.Cell{note})
	}
	head := texts("boxes", "grid", "exact count", "source", "heuristic", "count/heuristic", "Monte Carlo (95%)", "", "covers")
	head[7] = typeset.MathCell("z")
	return typeset.Table{Spec: "llrlrrrrc", Head: head, Rows: rows}
}

// tailPieces states e's tail diagnostics in words: "ESS 12.3 of 1,000
// samples, largest share 4.5%, k̂ = 0.81".
func tailPieces(e Estimator) []typeset.Piece {
	out := []typeset.Piece{
		{Kind: typeset.Text, S: "ESS "}, {Kind: typeset.Math, S: typeset.Count(e.ESS)},
		{Kind: typeset.Text, S: " of "}, {Kind: typeset.Math, S: typeset.Int64(e.Samples)},
		{Kind: typeset.Text, S: " samples, largest share "}, {Kind: typeset.Math, S: typeset.Percent(e.MaxShare, 1) + `\%`},
	}
	if !math.IsNaN(e.ParetoK) {
		out = append(out, typeset.Piece{Kind: typeset.Text, S: ", "}, typeset.Piece{Kind: typeset.Math, S: `\hat k = ` + typeset.Fixed(e.ParetoK, 2)})
	}
	return out
}

// SymmetryTable lists, per box shape, the symmetry group's order and
// classes, the Burnside sum, the essentially different grids and the share
// of the non-identity sum that a second count equals.
func SymmetryTable(r *Results) typeset.Table {
	var rows [][]typeset.Cell
	for _, e := range r.Symmetry {
		group := "rows, columns"
		if strings.Contains(e.Group, "transposition") {
			group += ", transposition"
		}
		rows = append(rows, sourced([]typeset.Cell{typeset.TextCell(fmt.Sprintf("%d×%d", e.Shape.R, e.Shape.C)), typeset.TextCell(group),
			typeset.MathCell(typeset.Int(e.GroupOrder)), typeset.MathCell(fmt.Sprintf("%d/%d", e.ClassesFixing, e.Classes)),
			typeset.MathCell(typeset.Int(e.BurnsideSum)), typeset.MathCell(typeset.Int(e.Count) + literatureMark(e)), recountedCell(e)}, e.From))
	}
	var notes [][]typeset.Cell
	for _, e := range r.Symmetry {
		if e.DiffersFromLiterature() {
			note := typeset.Cells(typeset.Piece{Kind: typeset.Math, S: `^{*}`},
				typeset.Piece{Kind: typeset.Text, S: " differs from the published count (" + e.LiteratureSource + "); see the text"})
			note.Span, note.Align = 7, "l"
			notes = append(notes, []typeset.Cell{note})
			break
		}
	}
	if slices.ContainsFunc(r.Symmetry, EssentiallyDifferent.New) {
		note := typeset.Cells(typeset.Piece{Kind: typeset.Math, S: `^{\dagger}`},
			typeset.Piece{Kind: typeset.Text, S: " new: no count has been published; see the text for its checks"})
		var quoted []string
		for _, e := range r.Symmetry {
			if _, computed := r.ExactGrids(e.Shape); e.New() && !computed {
				quoted = append(quoted, fmt.Sprintf("%d×%d", e.Shape.R, e.Shape.C))
			}
		}
		if len(quoted) > 0 {
			note.Pieces = append(note.Pieces, typeset.Piece{Kind: typeset.Text,
				S: "; the " + strings.Join(quoted, " and ") + " counts rest on the published count of the grids, which enters the identity's term"})
		}
		note.Span, note.Align = 7, "l"
		notes = append(notes, []typeset.Cell{note})
	}
	if len(notes) > 0 {
		rows = append(append(rows, nil), notes...)
	}
	head := texts("boxes", "group", "", "classes fixing", "Burnside sum", "essentially different", "recounted")
	head[2] = typeset.MathCell("|G|")
	return typeset.Table{Spec: "llrrrrr", Head: head, Rows: rows}
}

// recountedCell is the share of the shape's non-identity Burnside sum that
// a second count equals, in per cent rounded down (VerifiedPercent), for a
// count that is new or differs from the published one; a dash for a count
// that equals the literature (its evidence is that agreement, and for
// sides up to 6 the count of canonical forms) or when the stage wrote none.
func recountedCell(e EssentiallyDifferent) typeset.Cell {
	if !e.New() && !e.DiffersFromLiterature() {
		return typeset.DashCell()
	}
	if pct, ok := e.VerifiedPercent(); ok {
		return typeset.MathCell(pct + `\%`)
	}
	return typeset.DashCell()
}

// literatureMark is the mark (TeX math) of a count that differs from the
// published one (*) or that nobody has published (†), "" for the others.
func literatureMark(e EssentiallyDifferent) string {
	switch {
	case e.DiffersFromLiterature():
		return `^{*}`
	case e.New():
		return `^{\dagger}`
	}
	return ""
}

// CorrectionTable lists every class that fixes a grid of the shape of
// r.Correction (empty when there is none): class, size, order, F by the
// first method and its name, F by the second count and its name (a dash
// for the identity, whose F is the grid count over N!); then the Burnside
// sum, |G|, their quotient and the published count with the difference.
func CorrectionTable(r *Results) typeset.Table {
	head := texts("class", "size", "order", "", "method", "", "second method")
	head[3] = typeset.MathCell("F(g)")
	head[5] = typeset.Cells(typeset.Piece{Kind: typeset.Math, S: "F(g)"}, typeset.Piece{Kind: typeset.Text, S: ", second count"})
	t := typeset.Table{Spec: "rrrrlrl", Head: head}
	e, ok := r.Correction()
	if !ok {
		return t
	}
	for _, c := range r.SymmetryClasses {
		if c.Shape != e.Shape {
			continue
		}
		second, secondMethod := typeset.DashCell(), typeset.DashCell()
		if c.CheckFixed != nil {
			second, secondMethod = typeset.MathCell(typeset.Int(c.CheckFixed)), methodsCell(c.CheckMethod)
		}
		t.Rows = append(t.Rows, sourced([]typeset.Cell{typeset.MathCell(strconv.Itoa(c.Class)), typeset.MathCell(typeset.Int(c.Size)),
			typeset.MathCell(strconv.Itoa(c.Order)), typeset.MathCell(typeset.Int(c.Fixed)), methodsCell(c.Method), second, secondMethod}, c.From))
	}
	total := func(label []typeset.Piece, value *big.Int) []typeset.Cell {
		l := typeset.Cells(label...)
		l.Span, l.Align = 3, "l"
		return sourced([]typeset.Cell{l, typeset.MathCell(typeset.Int(value)), typeset.Cells(), typeset.Cells(), typeset.Cells()}, e.From)
	}
	diff := new(big.Int).Sub(e.Count, e.Literature)
	t.Rows = append(t.Rows, nil,
		total([]typeset.Piece{{Kind: typeset.Text, S: "Burnside sum "}, {Kind: typeset.Math, S: `\sum|g^G|\,F(g)`}}, e.BurnsideSum),
		total([]typeset.Piece{{Kind: typeset.Text, S: "group order "}, {Kind: typeset.Math, S: "|G|"}}, e.GroupOrder),
		total([]typeset.Piece{{Kind: typeset.Text, S: "essentially different"}}, e.Count),
		total([]typeset.Piece{{Kind: typeset.Text, S: e.LiteratureSource}}, e.Literature),
		total([]typeset.Piece{{Kind: typeset.Text, S: "difference"}}, diff))
	return t
}

// methodsCell names the counting methods of a class, "stackjoin+multisets"
// as two names.
func methodsCell(methods string) typeset.Cell {
	var pieces []typeset.Piece
	for i, m := range strings.Split(methods, "+") {
		if i > 0 {
			pieces = append(pieces, typeset.Piece{Kind: typeset.Text, S: ", "})
		}
		pieces = append(pieces, typeset.Piece{Kind: typeset.Code, S: m})
	}
	return typeset.Cells(pieces...)
}

// FixingTable lists the conjugacy classes of the 9×9 group that fix at
// least one grid up to relabelling: size, order, a representative and the
// grids it fixes divided by 9!.
func FixingTable(r *Results) typeset.Table {
	var rows [][]typeset.Cell
	for _, c := range r.SymmetryClasses {
		if c.Shape != Classic {
			continue
		}
		rows = append(rows, sourced([]typeset.Cell{typeset.MathCell(strconv.Itoa(c.Class)), typeset.MathCell(typeset.Int(c.Size)), typeset.MathCell(strconv.Itoa(c.Order)),
			withFrom(typeset.TextCell(c.Representative), c.From), typeset.MathCell(typeset.Int(c.Fixed))}, c.From))
	}
	head := texts("class", "size", "order", "representative", "")
	head[4] = typeset.Cells(typeset.Piece{Kind: typeset.Text, S: "fixed grids"}, typeset.Piece{Kind: typeset.Math, S: "/9!"})
	return typeset.Table{Spec: "rrrp{0.5\\linewidth}r", Head: head, Rows: rows}
}
