// Package htmlreport is the stage that writes paper/report.html (artifact
// html_report), beside the paper: the run's results as one self-contained
// HTML page. Send the file; a colleague opens it in any browser (double
// click, or xdg-open paper/report.html), without the repository and
// without a network: it loads nothing (no script, no font, no stylesheet
// from elsewhere; the figures are PNGs in data: URIs). It holds
//
//   - the key results (the 9×9 count, essentially different grids, the most
//     precise 9×9 Monte Carlo estimate with its 95% interval, and Kilfoil's
//     heuristic for 9×9);
//   - the paper's tables (present.Tables: funnel, classes, Monte Carlo
//     estimators under a heading per box shape with interval, RE, z-score,
//     relative variance × work, RAT, EFF and diagnostics, "no success" with
//     its bound and the † of a zero-variance run as in the paper, box shapes
//     with exact counts and where they come from, z-scores, Kilfoil's
//     heuristic and estimates, essentially different grids, fixing classes,
//     coverage by box shape, tail diagnostics of the estimates of side 15
//     and more);
//   - every figure of the figures stage, its PNG embedded as a data: URI;
//   - every number the paper quotes (the macros of numbers.tex, by name);
//   - provenance: each table, figure and block of numbers names the
//     artifacts it comes from, and the last section lists every input
//     artifact with its SHA-256, size and rows (as the manifest has them),
//     and every stage with its version, configuration (from its Parquet
//     artifacts' footers) and fingerprint, and the tool's version.
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
// TestPage builds the smoke pipeline and opens the page from a file: URL in
// headless Chromium (github.com/chromedp/chromedp): no console error,
// exception or failed load, no request other than the page and data: URIs,
// every figure decoded and laid out with a non-zero size, the 9×9 count
// visible as 6,670,903,752,021,072,936,960, and the SHA-256 shown for every
// input artifact equal to the manifest's. Broken copies of the page (a
// script error, a console.error, a damaged image, a request to the network,
// one wrong hash digit, the count changed) must each fail those checks. It
// skips without a browser (Debian's chromium) unless
// SUDOKU_CENSUS_REQUIRE_BROWSER=1, which .ci/run sets.
//
// Smoke run: 708 KB (the PNGs are most of it); a forced rerun of the stage
// took 0.3 s (1.4 s with the machine's two cores busy), measured by
// TestPage. On the smoke run the test checked 6 figures and 40 hashes shown
// (the 34 input artifacts; the PNGs' twice); loading and checking the page
// took 4-6 s, the six broken copies 25-33 s, the test as a whole about 2
// minutes with the upstream stages (2 busy cores).
package htmlreport
