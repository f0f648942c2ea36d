// Package present is what the presenting stages, figures, report and
// htmlreport, share: the readers that turn the computing stages' artifacts
// into plain Go values (Results, from Gather), each value with the
// artifact rows it is read from (its From, which the HTML report links
// every number to; Results.KnownFrom for a count that may be quoted from
// the literature), the printing of numbers for the paper (format.go: exact
// counts in full with grouped digits, statistics in scientific notation,
// exact rationals rounded exactly), and the tables of results (tables.go),
// made once as cells (table.go) that report prints as TeX and htmlreport
// as HTML (MathHTML: the same number strings, as HTML).
//
// No presenting stage owns it. Each lists Requires() in its own
// Requires, so every artifact Gather reads is an input of theirs and its
// SHA-256 enters their fingerprints. Each computing stage's artifacts are
// converted in a file of their own (classes.go, exact.go, …) and listed in
// sources.
package present

import (
	"fmt"
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/classes"
	"github.com/sudoku-census/sudoku-census/stages/exact"
	"github.com/sudoku-census/sudoku-census/stages/importance"
	"github.com/sudoku-census/sudoku-census/stages/kilfoil"
	"github.com/sudoku-census/sudoku-census/stages/knuth"
	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
	"github.com/sudoku-census/sudoku-census/stages/maths/montecarlo"
	"github.com/sudoku-census/sudoku-census/stages/presentation/typeset"
	"github.com/sudoku-census/sudoku-census/stages/shapes"
	"github.com/sudoku-census/sudoku-census/stages/shared/sampling"
	"github.com/sudoku-census/sudoku-census/stages/symmetry"
)

// FunnelLevel is one step of the Felgenhauer–Jarvis reduction of the
// first-band catalogue.
type FunnelLevel struct {
	Level        int
	Name         string
	Operations   string
	Classes      int64 // classes this pipeline found
	PaperClasses int64 // classes the paper reports
	Note         string
	From         typeset.Source // its row of data/funnel.parquet
}

// Class is one of the equivalence classes of reduced first bands: Size
// members of the 36,288-band catalogue (FirstBands of the 2,612,736 bands
// with the first box canonical), each completing to Completions grids.
type Class struct {
	Class          int
	Size           int64
	FirstBands     int64
	Representative string         // 27 digits, row by row
	SecondBands    int64          // second bands compatible with the representative's columns
	Completions    *big.Int       // grids completing one band of the class
	Crosschecked   bool           // the backtracking counter agreed
	From           typeset.Source // its row of data/completions.parquet
}

// Total is the exact count of 9×9 grids.
type Total struct {
	Grids               *big.Int
	CanonicalGrids      *big.Int       // Grids / 9!: grids with the first box in canonical form
	ReducedCount        *big.Int       // Grids / (9!·72²)
	ReducedCountFactors string         // prime factorisation of ReducedCount, "2^7 × 27704267971"
	CrosscheckedClasses int            // classes whose count the backtracking method repeated
	From                typeset.Source // data/total.parquet, its one row
}

// ShapeCount is the exact number of grids of one box shape.
type ShapeCount struct {
	Shape  grid.Shape
	Grids  *big.Int
	Method string
	From   typeset.Source // its row of data/shapes.parquet
}

// Heuristic is Kilfoil's estimate for one box shape: an exact rational,
// b(R,C)^C·b(C,R)^R/((RC)!)^(RC) from the band count b(R,C) and stack count
// b(C,R).
type Heuristic struct {
	Shape                 grid.Shape
	BandCount, StackCount *big.Int // nil where sampled
	Estimate              *big.Rat
	Log10                 float64
	// Sampled heuristics (data/kilfoil_sampled.parquet: 6-row bands, whose
	// M is estimated) have Estimate at M's estimate, the interval
	// [Low, High] that M's 95% interval maps to, and RelHalfWidth, half
	// its width over Estimate; exact ones have RelHalfWidth 0.
	Sampled      bool
	Low, High    *big.Rat
	RelHalfWidth float64
	From         typeset.Source // its row of data/kilfoil.parquet or data/kilfoil_sampled.parquet
}

// Estimator is the summary of one Monte Carlo run: one estimator variant on
// one box shape. Estimates and their errors are statistics, not exact
// counts; they are big.Float because 25×25 estimates pass the float64
// range.
type Estimator struct {
	Method          string // the stage that ran it: knuth.Stage.Name or importance.Stage.Name
	Shape           grid.Shape
	Variant         string
	Settings        string // the variant's parameters, as "B=30" or "h=60" (h the hybrid depth) ("" for none)
	Samples         int64
	Estimate        *big.Float
	StdError        *big.Float
	CILow, CIHigh   *big.Float // 95% confidence interval
	Log10Estimate   float64
	RelativeError   float64 // std error / estimate
	NonzeroFraction float64
	Work            int64   // total work units spent (cells visited)
	RelVar          float64 // sample variance / estimate², per sample
	RelVarWork      float64 // RelVar × work per sample: lower is better
	// RelVarLow and RelVarHigh are RelVar's 95% bootstrap interval over
	// the run's blocks (NaN for a run of one block).
	RelVarLow, RelVarHigh float64
	RAT, EFF              float64 // importance sampling measures (HasRatEff)
	Log10EFF              float64 // log10 EFF: EFF itself is +Inf when it passes the float64 range
	HasRatEff             bool
	// Importance sampling only: the work with the cells that the uniform
	// completion of dead ends fills (Ridder's accounting; Work counts the
	// cells decided, as Knuth's walk does) and log10 EFF with that cost.
	WorkWithCompletion     int64
	Log10EFFWithCompletion float64
	// The diagnostics of the samples as weights (montecarlo.Diagnostics).
	ESS, MaxShare, ParetoK float64
	Unreliable             bool // k̂ > min(1 − 1/log₁₀ n, 0.7): the tables mark the interval ‡
	// Long is the cost of a long run (data/knuth_long.parquet), nil for
	// the runs of the default configuration.
	Long *LongRun
	// From is the row of the summary it was read from.
	From typeset.Source
}

// LongRun is what a long run (knuth.long) adds to its summary: the units
// of the committed bundle it was computed as and their CPU time.
type LongRun struct {
	Units      int32
	CPUSeconds float64
	Bundle     string // the bundle's path, data/bundles/knuth-long.parquet
	// Efficiency is 1/(relvar × CPU seconds per sample), in s⁻¹, with
	// the 95% interval the relvar's bootstrap interval gives at the
	// bundle's CPU time per sample.
	Efficiency, EfficiencyLow, EfficiencyHigh float64
}

// EfficiencyKnown reports whether the estimator has an efficiency per CPU
// second with an interval: a long run, whose CPU time is the bundle's
// (the default runs' is the machine's, in the run report only).
func (e Estimator) EfficiencyKnown() bool {
	return e.Long != nil && e.Long.EfficiencyLow > 0 && !math.IsInf(e.Long.EfficiencyHigh, 0) && !math.IsNaN(e.Long.EfficiencyHigh)
}

// CPUTimeSpread is the factor by which the CPU time per sample of one
// run's units may differ when they are computed at different times on the
// project's shared two-core machine (measured on the long runs' units;
// the paper's "Measuring efficiency"). The efficiency intervals do not
// include it, so a ranking must clear it.
const CPUTimeSpread = 2

// MoreEfficient reports whether a is more efficient than b beyond doubt:
// both have efficiency intervals and the lower end of a's exceeds the
// upper end of b's by more than CPUTimeSpread. Only then does the paper
// rank two estimators.
func MoreEfficient(a, b Estimator) bool {
	return a.EfficiencyKnown() && b.EfficiencyKnown() && a.Long.EfficiencyLow > CPUTimeSpread*b.Long.EfficiencyHigh
}

// Label names the estimator for legends and tables: "knuth/random", and
// "knuth/se long" for a long run.
func (e Estimator) Label() string {
	if e.Long != nil {
		return e.Method + "/" + e.Variant + " long"
	}
	return e.Method + "/" + e.Variant
}

// TracePoint is the running state of one Monte Carlo run after Samples
// samples.
type TracePoint struct {
	Method        string // as Estimator.Method
	Shape         grid.Shape
	Variant       string
	Samples       int64
	Estimate      *big.Float
	StdError      *big.Float
	CILow, CIHigh *big.Float
	RelativeError float64
}

// Float64 converts a statistic for plotting (±Inf beyond the range).
func Float64(x *big.Float) float64 {
	f, _ := x.Float64()
	return f
}

// Results is everything the presenting stages show. A part is empty when
// the configuration gave its stage nothing to write there (no 9×9 traces,
// say); the presenting stages then leave out what needs it.
type Results struct {
	Funnel  []FunnelLevel
	Classes []Class
	Total   *Total
	Shapes  []ShapeCount
	// Units2x6 is the committed 2×6 computation, unit by unit (empty when
	// the run leaves 2×6 out).
	Units2x6 []UnitCost
	// Symmetry holds the essentially different grids per shape, and
	// SymmetryClasses the conjugacy classes that fix at least one grid.
	Symmetry        []EssentiallyDifferent
	SymmetryClasses []SymmetryClass
	Heuristics      []Heuristic
	Estimators      []Estimator
	Traces          []TracePoint
	Coverage        []CoverageRun
}

// CoverageRun is one short independent run of the coverage study
// (knuth_coverage).
type CoverageRun struct {
	Method        string
	Shape         grid.Shape
	Variant       string
	Samples       int64
	CILow, CIHigh *big.Float
	// Long marks a slice of a long run (knuth.long_coverage).
	Long bool
	// Gated is whether the headline rule's tail gate flags the run:
	// unreliable, or k̂ ≥ montecarlo.HeadlineK.
	Gated bool
	// RelativeError is its standard error over its estimate.
	RelativeError float64
	// From selects the rows of data/knuth_coverage.parquet of its
	// shape, variant, samples and length: its CoverageStat's rows.
	From typeset.Source
}

// CoverageStat is the coverage study of one shape, variant and run size
// with a known count: of Runs intervals, Covered hold the count and Below
// lie wholly below it; [Low, High] is the Wilson 95% interval of the
// coverage; the tail gate (CoverageRun.Gated) flags GatedCovered of the
// covering runs and GatedMissed of the others. Long marks slices of a long
// run.
type CoverageStat struct {
	Method                    string
	Shape                     grid.Shape
	Variant                   string
	Samples                   int64
	Long                      bool
	Runs, Covered, Below      int64
	GatedCovered, GatedMissed int64
	Low, High                 float64
	// RelVarOfMean is the mean of the runs' squared relative errors: the
	// relative variance of the mean of a run of this size (Trusted
	// compares it with a headline run's).
	RelVarOfMean float64
	From         typeset.Source // the rows of its runs
}

// Coverage returns the coverage of the 95% intervals of every shape and
// variant of the coverage study whose count is known (KnownGrids), in the
// study's order.
func (r *Results) CoverageStats() []CoverageStat {
	var out []CoverageStat
	for i := 0; i < len(r.Coverage); {
		c := r.Coverage[i]
		st := CoverageStat{Method: c.Method, Shape: c.Shape, Variant: c.Variant, Samples: c.Samples, Long: c.Long, From: c.From}
		n, _, known := r.KnownGrids(c.Shape)
		var x *big.Float
		if known {
			x = new(big.Float).SetInt(n)
		}
		for ; i < len(r.Coverage) && r.Coverage[i].Shape == c.Shape && r.Coverage[i].Variant == c.Variant && r.Coverage[i].Method == c.Method &&
			r.Coverage[i].Samples == c.Samples && r.Coverage[i].Long == c.Long; i++ {
			if !known {
				continue
			}
			run := r.Coverage[i]
			st.Runs++
			st.RelVarOfMean += run.RelativeError * run.RelativeError
			covered := false
			switch {
			case run.CIHigh.Cmp(x) < 0:
				st.Below++
			case run.CILow.Cmp(x) <= 0:
				st.Covered++
				covered = true
			}
			if run.Gated && covered {
				st.GatedCovered++
			} else if run.Gated {
				st.GatedMissed++
			}
		}
		if known {
			st.Low, st.High = montecarlo.Wilson(st.Covered, st.Runs, montecarlo.Z95)
			st.RelVarOfMean /= float64(max(st.Runs, 1))
			out = append(out, st)
		}
	}
	return out
}

// NominalCoverage is the coverage a 95% interval should have.
const NominalCoverage = 0.95

// Trusted reports whether e may give a headline figure (the paper's headline
// rule): its interval is not unreliable (k̂ ≤ montecarlo.UnreliableAbove(n)),
// its fitted tail has finite variance (k̂ < montecarlo.HeadlineK; a NaN k̂,
// no tail to fit, passes), and its variant's coverage on e's shape is not
// clearly below nominal (the Wilson interval of the coverage study wholly
// below 95%). Coverage is a property of the shape and the run length: the
// study's short runs on 6×6 say nothing about long runs on 9×9.
//
// A variant with candidate draws (stackshybrid@k, longruns.Label) is an
// estimator of its own, newer than the study of the others: it must also
// have been studied at e's size, on some shape with a known count, and
// cover there: a study of it whose runs' relative variance of the mean is
// within a factor coverageSizeFactor of e's (e.RelativeError²), and no
// such study clearly below 95%.
func (r *Results) Trusted(e Estimator) bool {
	if e.Unreliable || e.ParetoK >= montecarlo.HeadlineK {
		return false
	}
	draws := strings.Contains(e.Variant, "@")
	studied := false
	for _, st := range r.CoverageStats() {
		if st.Method != e.Method || st.Variant != e.Variant {
			continue
		}
		if st.Shape == e.Shape && st.High < NominalCoverage {
			return false
		}
		if h := e.RelativeError * e.RelativeError; draws && st.RelVarOfMean <= coverageSizeFactor*h && h <= coverageSizeFactor*st.RelVarOfMean {
			if st.High < NominalCoverage {
				return false
			}
			studied = true
		}
	}
	return studied || !draws
}

// coverageSizeFactor is how far apart, either way, the relative variance of
// the mean of a coverage study's runs and of a headline run may be for the
// study to speak for the run (Trusted).
const coverageSizeFactor = 2

// source is one computing stage and how to convert its artifacts.
type source struct {
	stage *pipeline.Stage
	read  func(p *pipeline.Pass, r *Results) error
}

// sources lists the computing stages whose artifacts are presented, in
// pipeline order.
var sources = []source{
	{classes.Stage, readClasses},
	{exact.Stage, readExact},
	{shapes.Stage, readShapes},
	{symmetry.Stage, readSymmetry},
	{kilfoil.Stage, readKilfoil},
	{knuth.Stage, readKnuth},
	{importance.Stage, readImportance},
}

// Requires returns the stages whose artifacts Gather reads: a presenting
// stage lists them in its Requires.
func Requires() []*pipeline.Stage {
	stages := make([]*pipeline.Stage, len(sources))
	for i, s := range sources {
		stages[i] = s.stage
	}
	return stages
}

// Gather reads every artifact of the stages Requires returns; p's stage
// must require them all. Rows are put in a fixed order (by shape, method,
// variant, samples) so that what is drawn and printed does not depend on
// the order a stage wrote them in.
func Gather(p *pipeline.Pass) (*Results, error) {
	r := &Results{}
	for _, s := range sources {
		if err := s.read(p, r); err != nil {
			return nil, err
		}
	}
	r.sort()
	return r, nil
}

func (r *Results) sort() {
	less := sampling.ShapeLess
	sort.SliceStable(r.Funnel, func(i, j int) bool { return r.Funnel[i].Level < r.Funnel[j].Level })
	sort.SliceStable(r.Classes, func(i, j int) bool { return r.Classes[i].Class < r.Classes[j].Class })
	sort.SliceStable(r.Shapes, func(i, j int) bool { return less(r.Shapes[i].Shape, r.Shapes[j].Shape) })
	sort.SliceStable(r.Symmetry, func(i, j int) bool { return less(r.Symmetry[i].Shape, r.Symmetry[j].Shape) })
	sort.SliceStable(r.SymmetryClasses, func(i, j int) bool {
		a, b := r.SymmetryClasses[i], r.SymmetryClasses[j]
		if a.Shape != b.Shape {
			return less(a.Shape, b.Shape)
		}
		return a.Class < b.Class
	})
	sort.SliceStable(r.Heuristics, func(i, j int) bool { return less(r.Heuristics[i].Shape, r.Heuristics[j].Shape) })
	sort.SliceStable(r.Estimators, func(i, j int) bool {
		a, b := r.Estimators[i], r.Estimators[j]
		if a.Shape != b.Shape {
			return less(a.Shape, b.Shape)
		}
		if a.Method != b.Method {
			return a.Method < b.Method
		}
		if a.Variant != b.Variant {
			return a.Variant < b.Variant
		}
		return a.Long == nil && b.Long != nil // a variant's long run after its default run
	})
	sort.SliceStable(r.Traces, func(i, j int) bool {
		a, b := r.Traces[i], r.Traces[j]
		if a.Shape != b.Shape {
			return less(a.Shape, b.Shape)
		}
		if a.Method != b.Method {
			return a.Method < b.Method
		}
		if a.Variant != b.Variant {
			return a.Variant < b.Variant
		}
		return a.Samples < b.Samples
	})
}

// Classic is the 3×3 box shape of the 9×9 grid.
var Classic = grid.Shape{R: 3, C: 3}

// ExactGrids returns the exact number of grids of shape s, if a stage
// counted it: the shapes stage, or the exact stage for 3×3.
func (r *Results) ExactGrids(s grid.Shape) (*big.Int, bool) {
	n, _, ok := r.exactGrids(s)
	return n, ok
}

// exactGrids is ExactGrids with the row the count is read from.
func (r *Results) exactGrids(s grid.Shape) (*big.Int, typeset.Source, bool) {
	for _, c := range r.Shapes {
		if c.Shape == s && c.Grids != nil {
			return c.Grids, c.From, true
		}
	}
	if s == Classic && r.Total != nil {
		return r.Total.Grids, r.Total.From, true
	}
	return nil, typeset.Source{}, false
}

// HeuristicFor returns Kilfoil's estimate for shape s.
func (r *Results) HeuristicFor(s grid.Shape) (Heuristic, bool) {
	for _, h := range r.Heuristics {
		if h.Shape == s {
			return h, true
		}
	}
	return Heuristic{}, false
}

// Trace returns the trace of one run, in increasing sample count.
func (r *Results) Trace(method string, s grid.Shape, variant string) []TracePoint {
	var pts []TracePoint
	for _, t := range r.Traces {
		if t.Method == method && t.Shape == s && t.Variant == variant {
			pts = append(pts, t)
		}
	}
	return pts
}

// EstimatorsFor returns the summaries for shape s.
func (r *Results) EstimatorsFor(s grid.Shape) []Estimator {
	var es []Estimator
	for _, e := range r.Estimators {
		if e.Shape == s {
			es = append(es, e)
		}
	}
	return es
}

// MostPrecise returns the estimate of shape s, of any method and variant,
// with the smallest relative error among those that found a grid: the one
// the shapes table, the heuristic figure and the paper's headline figures
// show. A trusted estimator (Trusted) beats any other; among those equally
// trusted, a long run (knuth.long, the runs computed for the headline
// intervals) beats the default configuration's runs, and a run whose
// samples were all equal (ZeroVariance: the 4×4 hybrid) is taken only when
// there is no other, since its zero error is no Monte Carlo result.
func (r *Results) MostPrecise(s grid.Shape) (Estimator, bool) {
	var best Estimator
	found, trusted := false, false
	better := func(e Estimator, t bool) bool {
		switch {
		case !found:
			return true
		case t != trusted:
			return t
		case (best.Long != nil) != (e.Long != nil):
			return e.Long != nil
		case best.ZeroVariance() != e.ZeroVariance():
			return best.ZeroVariance()
		}
		return e.RelativeError < best.RelativeError
	}
	for _, e := range r.EstimatorsFor(s) {
		if e.Estimate.Sign() <= 0 {
			continue
		}
		if t := r.Trusted(e); better(e, t) {
			best, found, trusted = e, true, t
		}
	}
	return best, found
}

// Covers reports whether e's 95% interval holds the count n.
func (e Estimator) Covers(n *big.Int) bool { return e.Holds(new(big.Float).SetInt(n)) }

// Holds reports whether e's 95% interval holds x.
func (e Estimator) Holds(x *big.Float) bool {
	return e.CILow.Cmp(x) <= 0 && x.Cmp(e.CIHigh) <= 0
}

// AllShapes returns every box shape with an exact count, a heuristic or a
// Monte Carlo estimate, ordered by sampling.ShapeLess.
func (r *Results) AllShapes() []grid.Shape {
	seen := map[grid.Shape]bool{}
	var shapes []grid.Shape
	add := func(s grid.Shape) {
		if !seen[s] {
			seen[s] = true
			shapes = append(shapes, s)
		}
	}
	for _, s := range r.Shapes {
		add(s.Shape)
	}
	if r.Total != nil {
		add(Classic)
	}
	for _, h := range r.Heuristics {
		add(h.Shape)
	}
	for _, e := range r.Estimators {
		add(e.Shape)
	}
	sort.Slice(shapes, func(i, j int) bool { return sampling.ShapeLess(shapes[i], shapes[j]) })
	return shapes
}

// ParseInt reads a decimal integer an artifact stores as a string; column
// names the column for the error ("total.grids").
func ParseInt(column, text string) (*big.Int, error) {
	n, ok := new(big.Int).SetString(strings.TrimSpace(text), 10)
	if !ok {
		return nil, fmt.Errorf("column %s: %q is not a decimal integer", column, text)
	}
	return n, nil
}

// ParseRat reads an exact decimal or fraction ("6657084616885512582463.488",
// "3/8") an artifact stores as a string.
func ParseRat(column, text string) (*big.Rat, error) {
	q, ok := new(big.Rat).SetString(strings.TrimSpace(text))
	if !ok {
		return nil, fmt.Errorf("column %s: %q is not a decimal number", column, text)
	}
	return q, nil
}

// ParseFloat reads a statistic an artifact stores as a decimal string
// ("6.67090375202107e+21"); the exponent may pass the float64 range.
func ParseFloat(column, text string) (*big.Float, error) {
	x, _, err := big.ParseFloat(strings.TrimSpace(text), 10, 128, big.ToNearestEven)
	if err != nil {
		return nil, fmt.Errorf("column %s: %q is not a decimal number", column, text)
	}
	return x, nil
}

// LongRuns returns the long runs (knuth.long) among r's estimators, in
// their order.
func (r *Results) LongRuns() []Estimator {
	var out []Estimator
	for _, e := range r.Estimators {
		if e.Long != nil {
			out = append(out, e)
		}
	}
	return out
}

// CPUHours prints a CPU time in seconds as hours (TeX math), to 2
// decimals from 1 hour up and to 2 significant digits below, so that a run
// of seconds reads 1.3×10⁻⁴, not 0.000.
func CPUHours(seconds float64) string {
	h := seconds / 3600
	if h >= 1 {
		return strconv.FormatFloat(h, 'f', 2, 64)
	}
	return typeset.Sig(h, 2)
}
