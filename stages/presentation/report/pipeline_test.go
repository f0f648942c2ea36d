package report_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sudoku-census/sudoku-census/pipeline/pipelinetest"
	"github.com/sudoku-census/sudoku-census/stages/knuth"
	"github.com/sudoku-census/sudoku-census/stages/presentation/figures"
	"github.com/sudoku-census/sudoku-census/stages/presentation/present"
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
	// The paper compares estimators by CPU time alone (issue 51): no
	// generated TeX speaks of cells visited.
	generated, err := filepath.Glob(filepath.Join(root, "paper/generated/*.tex"))
	if err != nil || len(generated) == 0 {
		t.Fatalf("no generated TeX: %v", err)
	}
	for _, path := range generated {
		if data, err := os.ReadFile(path); err != nil || strings.Contains(string(data), "cells visited") {
			t.Errorf("%s says \"cells visited\" (or cannot be read: %v)", path, err)
		}
	}
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
	// The smoke config does not count 2×6 and has no long run, so
	// unit_times and error_work (CPU time per sample from the 9×9 long
	// runs), and only they, are notices there; their flags must then stay
	// unset so the paper leaves them out.
	notices := map[string]string{"unit_times": "this run did not count 2×6", "error_work": "no 9×9 trace of a variant with a 9×9 long run"}
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

// TestLongRunToPaper runs the smoke pipeline through report with a
// smoke-sized long run (knuth.long: one unit of 2×3 bandse, a variant the
// smoke coverage study does not reject on 2×3) and checks that the
// paper's macros give 2×3 the long run's interval, samples and CPU
// time (from data/knuth_long.parquet), and name it among the long runs.
func TestLongRunToPaper(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the upstream stages (about 15 s)")
	}
	o := pipelinetest.Options{Stages: pipelinetest.Closure(report.Stage), Config: "../../../configs/smoke.yaml",
		Set: []string{"exact.crosscheck=none", "knuth.long={2x3/bandse: 64000}"}, Targets: []string{report.Stage.Name}}
	root := pipelinetest.Run(t, o)
	rows, err := knuth.LongSummary.Load(root)
	if err != nil || len(rows) != 1 || !(rows[0].CPUSeconds > 0) {
		t.Fatalf("long rows %+v, %v", rows, err)
	}
	data, err := os.ReadFile(filepath.Join(root, "paper/generated/numbers.tex"))
	if err != nil {
		t.Fatal(err)
	}
	numbers := string(data)
	lo, err := present.ParseFloat("ci_low", rows[0].CILow)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`\HaveLongRunstrue`, `\HaveMcTwoXThreeLongtrue`,
		`\newcommand{\McTwoXThreeEstimator}{\texttt{knuth/bandse long}}`,
		`\newcommand{\McTwoXThreeSamples}{\ensuremath{64{,}000}}`,
		`\newcommand{\McTwoXThreeCILow}{\ensuremath{` + present.SciFloat(lo, 4) + `}}`,
		`\newcommand{\McTwoXThreeLongCPUHours}{\ensuremath{` + typeset.Sig(rows[0].CPUSeconds/3600, 2) + `}}`,
		`\newcommand{\LongBundle}{\texttt{data/bundles/knuth-long.parquet}}`,
		`\texttt{bandse} on $2\times3$ boxes ($64{,}000$ samples, $1$ unit,`,
	} {
		if !strings.Contains(numbers, want) {
			t.Errorf("numbers.tex lacks %s", want)
		}
	}
	if t.Failed() {
		for _, line := range strings.Split(numbers, "\n") {
			if strings.Contains(line, "TwoXThree") || strings.Contains(line, "Long") || strings.Contains(line, "Coverage") {
				t.Log(line)
			}
		}
	}
}
