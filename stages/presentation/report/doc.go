// Package report is the stage that writes the paper's generated TeX: a macro
// for every number the paper quotes, the tables, and the list of artifacts
// the numbers come from. The paper's text, paper/main.tex, only \input's
// these, so no number in it is typed by hand.
//
// It requires the stages the figures stage reads (classes, exact, shapes,
// symmetry, kilfoil, knuth, importance, through package present) and figures
// itself: it learns which figures exist from data/figures.parquet
// (figures.Index) and draws nothing.
//
// The knuth stage's long runs (data/knuth_long.parquet, knuth.long) are
// estimators like the default runs, labelled "knuth/<variant> long": on a
// shape with a long run, the headline figures (the \Mc<R>X<C>… macros, the
// shapes table, the heuristic figure) take the long run's interval (a
// trusted one beats any other; see present.Results.MostPrecise), and say
// what it cost (\Mc<R>X<C>LongUnits, \Mc<R>X<C>LongCPUHours, the flag
// \ifHaveMc<R>X<C>Long); \ifHaveLongRuns, \LongRunList, \LongUnits,
// \LongCPUHours and \LongBundle describe them all. The 9×9 comparison of
// the variants (\KnuthBest…) and the figures of the traces stay on the
// default runs. With knuth.long empty the paper shows the default runs'
// intervals and leaves the long-run text out.
//
// Exact values are printed in full with {,} grouping; rounding of exact values is exact (big.Rat, halves away
// from zero). The tables are made once by package present (present.Tables),
// as cells that this stage prints as TeX and the htmlreport stage as HTML.
//
// # Artifacts
//
//	paper/generated/numbers.tex
//	    one macro per quoted number (\GridsExact, \ReducedCount,
//	    \KilfoilEstimate, \KilfoilGapPercent, \FunnelZero…\FunnelSix,
//	    \Grids<R>X<C>, \<Method><R>X<C><Variant>Estimate, CILow, CIHigh,
//	    RelErrPercent, RelVar, RelVarLow, RelVarHigh…, for a long run
//	    \<Method><R>X<C><Variant>Long… with its Units, CPUHours,
//	    CPUSecondsPerSample, Efficiency, EfficiencyLow and EfficiencyHigh;
//	    \<Method>Best…, the 9×9 long run with the highest efficiency per
//	    CPU second among those the headline rule trusts
//	    (\ifHaveKnuthBestMeasured; without one, the most precise
//	    run and no comparison), with its interval and the runner-up's
//	    (the other long run whose interval reaches highest),
//	    \ifHaveKnuthBestRanked only when the two lie apart by more than
//	    present.CPUTimeSpread (no macro compares estimators by cells
//	    visited: the paper compares CPU time alone); \LongEfficiencyRanked,
//	    one sentence per shape giving the partial order of its trusted long
//	    runs by efficiency as grouped covering pairs, "(a, b) > c" ranking
//	    each run of the left group above each of the right (the intervals
//	    are the estimators table's), and \ifHave… flags for each part that
//	    ran: \ifHaveTable<Name> for each table written, \ifHaveFig<Name> for
//	    each figure that data/figures.parquet marks as drawn from data
//	paper/generated/funnel.tex
//	    the funnel table
//	paper/generated/classes.tex
//	    the 44 classes: size, first bands, compatible second bands,
//	    completions, cross-checked
//	paper/generated/estimators.tex
//	    a longtable (as correction.tex: its first row is \censuslongcaption,
//	    which main.tex defines as caption and label before the \input, and
//	    every later page repeats the head under "Table n (continued)"):
//	    the estimators compared, under a heading per box shape (R×C boxes,
//	    N×N grid, the exact count and its source where known): estimate, 95%
//	    interval, RE, z-score against the count, the 95% bootstrap
//	    interval of the relative variance per sample, for a long run the
//	    95% interval of its efficiency 1/(relvar × CPU s per sample) in
//	    s⁻¹ (a dash for the default runs, whose CPU time is the machine's
//	    and no artifact's), RAT; a run with no successful sample shows
//	    "no success" and the exact 95% upper bound on its chance of success
//	    (1 − 0.025^(1/n)) instead of the interval [0, 0]; a run whose samples
//	    were all equal is marked † and explained in a last row; an unreliable
//	    interval (Pareto k̂ > 0.7) is marked ‡
//	paper/generated/shapes.tex
//	    the box shapes: exact count (in full up to 22 digits), its source
//	    ("here": computed by the pipeline, with the published source it
//	    agrees with; "quoted": only published), heuristic, exact/heuristic
//	    (without a count, estimate/heuristic ± its half-width, marked § when
//	    the interval excludes the heuristic, with a note giving the samples'
//	    ESS, largest share and k̂), the most precise Monte Carlo estimate (a
//	    zero-variance run only when there is no other), its z-score and
//	    whether its interval holds the count
//	paper/generated/symmetry.tex
//	    essentially different grids per shape: group, |G|, classes fixing a
//	    grid, Burnside sum, count (macros \Essentially<R>X<C>, \SymmetryNine…)
//	paper/generated/fixing.tex
//	    the conjugacy classes of the 9×9 group that fix a grid: size, order,
//	    representative, F
//	paper/generated/correction.tex
//	    a longtable, as estimators.tex: the classes that fix a grid of the first shape whose count differs
//	    from the literature and is counted twice in full (2×5): size, order,
//	    F and its method, the second count and its method, then the Burnside
//	    sum, |G|, the count, the published one and the difference; empty
//	    when there is no such shape
//	paper/generated/coverage.tex
//	    the coverage study (data/knuth_coverage.parquet) on shapes with known
//	    counts: per box shape (and its grid) and variant the samples per
//	    run, the runs, how many
//	    95% intervals hold the count and how many lie wholly below it, the
//	    coverage with its Wilson 95% interval, and whether that interval lies
//	    wholly below 95% (the variant then gives no headline figure for the
//	    shape)
//	paper/generated/tails.tex
//	    every estimate of a grid of side 15 or more (present.TailSide), long runs
//	    after the default run of their variant, with
//	    its relative error and the diagnostics of its samples as weights:
//	    ESS, ESS/n, the largest sample's share of the sum and the Pareto k̂
//	    (‡ unreliable: above min(1 − 1/log10 n, 0.7); otherwise † from 1/2,
//	    where the headline rule takes no figure)
//	paper/generated/longruns.tex
//	    every long run (present.LongRuns): box shape, estimator, samples,
//	    units, CPU-hours, the estimate with its 95% half-width and k̂ (‡
//	    unreliable, † k̂ ≥ 1/2)
//	paper/generated/artifacts.tex
//	    every artifact the paper's numbers come from, with stage, size, rows,
//	    SHA-256, and each stage's fingerprint
//
// # Configuration
//
// None.
package report
