// Package htmlreport is the stage that writes paper/report.html (artifact
// html_report), beside the paper: the run's results as one self-contained
// HTML page. Send the file; a colleague opens it in any browser (double
// click, or xdg-open paper/report.html), without the repository and
// without a network: it loads nothing (no script, no font, no stylesheet
// from elsewhere; the figures are PNGs in data: URIs). It holds
//
//   - the key results, first what this census adds (the 2×6 count, the
//     essentially different 12×12 grids, the disputed 2×5 count, the first
//     error bars beyond 16×16, each with its evidence), then the 9×9 ones
//     (the count, essentially different grids, the most precise Monte Carlo
//     estimate with its 95% interval, Kilfoil's heuristic), each when the
//     run has it;
//   - the paper's tables (present.Tables: funnel, classes, Monte Carlo
//     estimators under a heading per box shape with interval, RE, z-score,
//     relvar and efficiency intervals, RAT and diagnostics, "no success" with
//     its bound and the † of a zero-variance run as in the paper, box shapes
//     with exact counts and where they come from, z-scores, Kilfoil's
//     heuristic and estimates, essentially different grids, fixing classes,
//     coverage by box shape, tail diagnostics of the estimates of side 15
//     and more);
//   - every figure of the figures stage, its PNG embedded as a data: URI;
//   - every number the paper quotes (the macros of numbers.tex, by name);
//   - provenance, per number: each number of the key results, of the
//     tables and of the paper's macros is a link (dotted underline) to the
//     artifact it is read from, relative to the page in the repository
//     (href="../data/knuth.parquet"), titled with the artifact and the
//     rows as column=value pairs of that artifact, as a reader would
//     select them ("data/knuth.parquet where shape=3x3 variant=se"; "every
//     row" for a one-row artifact or a sum over all rows; the coverage
//     study's numbers are of the rows of one shape, variant and run size).
//     A number derived from several rows (a z-score, a ratio to the
//     heuristic, whether an interval holds the count) names each, its link
//     the first. A count quoted from the literature links to
//     stages/shared/literature/literature.go, by its cite key. Only the
//     code's constants (UnreliableK, TailSide, OmegaSizeSci,
//     HeuristicFigureLinearPercent) have none.
//     The rows are set once, where package present reads each artifact row
//     into a value (its From), and carried to the cells (typeset.Cell.From)
//     and macros (numbers.Macro.From) printed from it; the TeX of the paper
//     does not print them. Each table, figure and block of numbers also
//     names the artifacts it comes from, and the last section lists every
//     input artifact with its SHA-256, size and rows (as the manifest has
//     them), and every stage with its version, configuration (from its
//     Parquet artifacts' footers) and fingerprint, and the tool's version.
//
// Package htmlpage writes the page. The numbers are the paper's strings:
// the tables come from package present and the numbers from
// numbers.Macros, which also write the paper's TeX; typeset.MathHTML
// prints their TeX math as HTML and fails on any construct it does not
// know, so the two cannot drift apart unnoticed.
//
// The page is a pure function of the inputs: no clock, no host name, no
// commit (the commit of the code is kept in data/manifest.json, never in
// an artifact, so that the lock of a run is the same at every commit; the
// fingerprints the page shows identify each stage's version, config and
// inputs). It requires the stages the report stage requires and report (its
// TeX is listed with its hash, not read).
//
// # Artifact
//
// paper/report.html, the page. `make htmlreport` (or `bin/census run
// htmlreport`) rebuilds it.
//
// # Configuration
//
// None.
//
// # Tests and cost
//
// TestPage builds the smoke pipeline. Its subtest Provenance (no browser)
// reads the page: every number (a digit in a number's span) of the results
// tables, the key results and the macros but the constants must be inside
// a link; each link must point at its first source's artifact, each
// artifact be one the run wrote (its manifest) or the literature's file,
// and each row selection select rows of it (read back from the Parquet
// file): at least one, and exactly one but for "every row" and the
// coverage study. A 3×3 estimate of the estimators table must link to its
// row of data/knuth.parquet and the 9×9 count of the key results to
// data/total.parquet, and five broken copies (a table number's or a
// macro's link removed, a row or an artifact that is not there, a link to
// another artifact than its title's) must be caught. On the smoke run it
// checked 1,133 linked numbers naming 140 distinct artifact row
// selections, in 0.4 s.
//
// TestPage then opens the page from a file: URL in
// headless Chromium (github.com/chromedp/chromedp): no console error,
// exception or failed load, no request other than the page and data: URIs,
// every figure decoded and laid out with a non-zero size, the 9×9 count
// visible as 6,670,903,752,021,072,936,960, and the SHA-256 shown for every
// input artifact equal to the manifest's. Broken copies of the page (a
// script error, a console.error, a damaged image, a request to the network,
// one wrong hash digit, the count changed) must each fail those checks; at
// a 400 px wide window every table fits or scrolls sideways within the
// page, and a copy whose tables do not scroll must fail. It skips (after
// Provenance) without a browser (Debian's chromium) unless
// SUDOKU_CENSUS_REQUIRE_BROWSER=1, which .ci/run sets.
//
// Smoke run: 849 KB (the PNGs are most of it; the links to the sources
// of its 1,133 numbers 140 KB); a forced rerun of the stage
// took 0.3 s (1.4 s with the machine's two cores busy), measured by
// TestPage. On the smoke run the test checked 6 figures and 40 hashes shown
// (the 34 input artifacts; the PNGs' twice); loading and checking the page
// took 4-6 s, the six broken copies 25-33 s, the test as a whole about 2
// minutes with the upstream stages (2 busy cores).
package htmlreport
