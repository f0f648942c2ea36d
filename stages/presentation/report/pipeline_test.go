package report_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sudoku-census/sudoku-census/pipeline/pipelinetest"
	"github.com/sudoku-census/sudoku-census/stages/presentation/figures"
	"github.com/sudoku-census/sudoku-census/stages/presentation/report"
	"github.com/sudoku-census/sudoku-census/stages/presentation/typeset"
)

// TestPipelineToPaper runs the smoke pipeline through figures and report
// (the stages report requires, and theirs), checks the figure index lists
// every figure the smoke config feeds as drawn and the generated TeX carries the exact count and
// flags every figure, then reruns figures and report on one processor over
// a copy of the root and checks every file comes out byte-identical.
func TestPipelineToPaper(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the upstream stages (about 15 s); the pipeline's own run covers it")
	}
	o := pipelinetest.Options{Stages: pipelinetest.Closure(report.Stage), Config: "../../../configs/smoke.yaml",
		Set: []string{"exact.crosscheck=none"}, Targets: []string{report.Stage.Name}}
	root := pipelinetest.Run(t, o)
	read := func(path string) string {
		data, err := os.ReadFile(filepath.Join(root, path))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	numbers := read("paper/generated/numbers.tex")
	if !strings.Contains(numbers, `\newcommand{\GridsExact}{\ensuremath{6{,}670{,}903{,}752{,}021{,}072{,}936{,}960}}`) {
		t.Errorf("numbers.tex lacks the exact count:\n%s", numbers)
	}
	if arts := read("paper/generated/artifacts.tex"); !strings.Contains(arts, "data/total.parquet") || !strings.Contains(arts, "figures/funnel.pdf") ||
		!strings.Contains(arts, "data/figures.parquet") {
		t.Errorf("artifacts.tex lacks inputs:\n%s", arts)
	}
	figs, err := figures.Index.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(figs) != (len(figures.Stage.Outputs)-1)/2 {
		t.Errorf("figure index has %d rows for %d figure files", len(figs), len(figures.Stage.Outputs)-1)
	}
	// The smoke config does not count 2×6, so unit_times, and only it, is a
	// notice there; its flag must then stay unset so the paper leaves it out.
	notices := map[string]string{"unit_times": "this run did not count 2×6"}
	for _, f := range figs {
		flag := `\HaveFig` + typeset.MacroName(f.Figure)
		if want, ok := notices[f.Figure]; ok {
			if f.Drawn || !strings.Contains(f.Notice, want) {
				t.Errorf("figure %s in the smoke run: drawn %v, notice %q; want a notice containing %q", f.Figure, f.Drawn, f.Notice, want)
			}
			if strings.Contains(numbers, flag+"true") {
				t.Errorf("numbers.tex sets %strue for a figure not drawn", flag)
			}
			continue
		}
		if !f.Drawn {
			t.Errorf("figure %s drawn as a notice in the smoke run: %s", f.Figure, f.Notice)
		}
		if !strings.Contains(numbers, flag+"true") {
			t.Errorf("numbers.tex lacks %strue", flag)
		}
	}

	o.Root, o.Force, o.Procs = pipelinetest.Copy(t, root), []string{figures.Stage.Name}, 1
	pipelinetest.SameOutputs(t, root, pipelinetest.Run(t, o), figures.Stage, report.Stage)
}
