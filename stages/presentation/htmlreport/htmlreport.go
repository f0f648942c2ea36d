// Package htmlreport is the stage that writes paper/report.html (artifact
// html_report), beside the paper: the run's results as one self-contained
// HTML page. Send the file; a colleague opens it in any browser (double
// click, or xdg-open paper/report.html), without the repository and
// without a network: it loads nothing (no script, no font, no stylesheet
// from elsewhere). It holds
//
//   - the key results (the 9×9 count, essentially different grids, the most
//     precise Monte Carlo estimate and Kilfoil's heuristic for 9×9);
//   - the paper's tables (present.Tables: funnel, classes, Monte Carlo
//     estimators with their intervals, z-scores and diagnostics, box
//     shapes with exact counts, Kilfoil's heuristic and estimates, essentially
//     different grids, fixing classes);
//   - every figure of the figures stage, its PNG embedded as a data: URI;
//   - every number the paper quotes (the macros of numbers.tex, by name);
//   - provenance: each table, figure and block of numbers names the
//     artifacts it comes from, and the last section lists every input
//     artifact with its SHA-256, size and rows, and every stage with its
//     version, configuration (from its Parquet artifacts' footers) and
//     fingerprint, and the tool's version.
//
// The numbers are the paper's strings: the tables come from package
// present and the numbers from numbers.Macros, which also write the paper's
// TeX; typeset.MathHTML prints their TeX math as HTML and fails on any
// construct it does not know, so the two cannot drift apart unnoticed.
//
// The page is a pure function of the inputs: no clock, no host name, no
// commit (the commit of the code is kept in data/manifest.json, never in
// an artifact, so that the lock of a run is the same at every commit; the
// fingerprints the page shows identify each stage's version, config and
// inputs). No configuration.
//
// Smoke run: 708 KB (the six PNGs are most of it); a forced rerun of the
// stage took 0.3 s (1.4 s with the machine's two cores busy), measured by
// TestPage. TestPage also opens the page in headless Chromium and checks
// it (see its doc); it skips without a browser unless
// SUDOKU_CENSUS_REQUIRE_BROWSER=1, which .ci/run sets.
package htmlreport

import (
	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/presentation/figures"
	"github.com/sudoku-census/sudoku-census/stages/presentation/htmlpage"
	"github.com/sudoku-census/sudoku-census/stages/presentation/present"
	"github.com/sudoku-census/sudoku-census/stages/presentation/report"
)

// Page is the HTML report.
var Page = pipeline.NewFile("html_report", "paper/report.html",
	"the results as one self-contained HTML page: tables, figures embedded, every number the paper quotes, and their provenance")

// Stage writes the HTML report.
var Stage = &pipeline.Stage{
	Name:    "htmlreport",
	Doc:     "writes paper/report.html: the results tables, the figures embedded and every number's provenance, in one self-contained page",
	Version: 2,
	// The report stage's TeX is not read, but listed with its hash: it holds
	// the same numbers, for the paper.
	Requires: append(present.Requires(), figures.Stage, report.Stage),
	Outputs:  []pipeline.Output{Page.Output},
	Run:      run,
}

func run(p *pipeline.Pass) error {
	r, err := present.Gather(p)
	if err != nil {
		return err
	}
	figs, err := figures.Index.Read(p)
	if err != nil {
		return err
	}
	in := htmlpage.Inputs{Entries: p.Inputs(), Read: func(e pipeline.ArtifactEntry) ([]byte, error) {
		return pipeline.File{Output: pipeline.Output{Name: e.Name, Path: e.Path}}.Read(p)
	}}
	page, err := htmlpage.Write(p.Stage, r, figs, in, requiredStages(p.Stage))
	if err != nil {
		return err
	}
	p.Report("html_bytes", len(page))
	return Page.Write(p, page)
}

// requiredStages returns every stage s depends on, directly or not.
func requiredStages(s *pipeline.Stage) map[string]*pipeline.Stage {
	out := map[string]*pipeline.Stage{}
	var walk func(*pipeline.Stage)
	walk = func(s *pipeline.Stage) {
		for _, r := range s.Requires {
			if out[r.Name] == nil {
				out[r.Name] = r
				walk(r)
			}
		}
	}
	walk(s)
	return out
}
