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
	Version: 27,
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
