package report_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sudoku-census/sudoku-census/pipeline/pipelinetest"
	"github.com/sudoku-census/sudoku-census/stages/all"
	"github.com/sudoku-census/sudoku-census/stages/figures"
	"github.com/sudoku-census/sudoku-census/stages/report"
)

// TestPipelineToPaper runs the smoke pipeline through figures and report,
// checks the generated TeX carries the exact count from the artifacts,
// then reruns figures and report on one processor over a copy of the root
// and checks every file comes out byte-identical.
func TestPipelineToPaper(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the upstream stages (about 15 s); the pipeline's own run covers it")
	}
	o := pipelinetest.Options{Stages: all.Stages, Config: "../../configs/smoke.yaml",
		Set: []string{"exact.crosscheck=none"}, Targets: []string{"report"}}
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
	if arts := read("paper/generated/artifacts.tex"); !strings.Contains(arts, "data/total.parquet") || !strings.Contains(arts, "figures/funnel.pdf") {
		t.Errorf("artifacts.tex lacks inputs:\n%s", arts)
	}

	o.Root, o.Force, o.Procs = pipelinetest.Copy(t, root), []string{"figures"}, 1
	pipelinetest.SameOutputs(t, root, pipelinetest.Run(t, o), figures.Stage, report.Stage)
}
