// Package figures is the stage that draws the paper's figures from the
// computing stages' artifacts, with gonum.org/v1/plot, each as PDF (for
// LaTeX) and PNG (150 dpi, for the README and a browser), and lists what it
// drew in data/figures.parquet (Index), which the report stage reads to know
// which figures the paper may show.
//
// It requires classes, exact, shapes, symmetry, kilfoil, knuth and
// importance, read through package present. Drawing is deterministic: the
// same artifacts give byte-identical files (the PDF creation and
// modification dates are fixed at 1970-01-01 and the PDF catalogue is
// sorted). A figure whose data the configuration did not produce is drawn as
// a one-line notice, never with invented data, and its row in
// data/figures.parquet says so.
//
// # Figures
//
// In drawing order, each written to figures/<name>.pdf and figures/<name>.png:
//
//	figures/convergence.pdf, figures/convergence.png
//	    running 9×9 estimate against samples (log x), 95% band, the exact count
//	    dashed; one panel per estimator variant of the default run (a long
//	    run has no trace), three to a row, at most four
//	    labelled powers of ten on each x axis; a run with no successful walk
//	    says so with its bound on the chance of success
//	figures/error_work.pdf, figures/error_work.png
//	    relative standard error of each 9×9 default run's trace against
//	    cumulative CPU seconds: its sample counts times the CPU seconds per
//	    sample of the variant's 9×9 long run (data/knuth_long.parquet, the
//	    time the committed units record; the default runs carry none), so
//	    only the variants with a 9×9 long run are drawn (not the importance
//	    sampler); log-log, each in a colour of its own (at most 12 lines,
//	    or the figure fails) with a dash pattern and a marker at each
//	    decade, the legend beside the plot, with a 1/√n reference slope
//	figures/heuristic.pdf, figures/heuristic.png
//	    per box shape: exact count / Kilfoil heuristic − 1, in per cent, and
//	    the same for the most precise Monte Carlo estimate with its 95%
//	    interval (a long run's, data/knuth_long.parquet, where the shape has
//	    one; see present.Results.MostPrecise; where the heuristic's
//	    six-row bands are sampled, its own half-width joins the bar in
//	    quadrature), on a scale linear within
//	    ±plots.HeuristicLinearWithin per cent and logarithmic beyond (4×4's
//	    12.5% beside the tenths of a per cent of the larger grids), the
//	    legend in a row above the plot
//	figures/classes.pdf, figures/classes.png
//	    the 44 classes: class size against completions per band
//	figures/funnel.pdf, figures/funnel.png
//	    2,612,736 → 36,288 → 2,051 → 416 → 174 → 71 → 44, log axis
//	figures/unit_times.pdf, figures/unit_times.png
//	    CPU time of each committed 2×6 work unit (data/shapes_units.parquet)
//	    against its place in the plan, log scale
//
// The PNGs of the paper's run (configs/default.yaml) are committed, so that
// they show in the README and on any code host; `make all` rewrites them
// byte for byte (configs/default.lock.json covers them), and `make clean`
// leaves them. `make smoke` draws its figures in build/smoke/figures/; a run
// of another configuration in the repository's root (`bin/census run --set
// …`) does overwrite them, and `git checkout figures/` brings the paper's
// back.
//
// # Artifacts
//
// The twelve files above, and data/figures.parquet, one row per figure in
// drawing order:
//
//	column  type    meaning
//	figure  string  the figure's name: convergence, error_work, heuristic, classes,
//	                funnel, unit_times
//	pdf     string  path of its PDF below the project root, figures/<figure>.pdf
//	png     string  path of its PNG, figures/<figure>.png
//	drawn   bool    drawn from data; false: drawn as a one-line notice
//	notice  string  why it was not drawn from data (empty when drawn)
//
// # Configuration
//
// None. `bin/census run --force figures` redraws the figures from the
// current artifacts.
package figures
