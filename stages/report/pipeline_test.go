package report_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/all"
	"github.com/sudoku-census/sudoku-census/stages/figures"
	"github.com/sudoku-census/sudoku-census/stages/report"
)

// TestPipelineToPaper runs the smoke pipeline through figures and report,
// checks the generated TeX carries the exact count from the artifacts,
// then reruns figures and report on one processor and checks every file
// comes out byte-identical.
func TestPipelineToPaper(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the upstream stages (about 15 s); the pipeline's own run covers it")
	}
	root := t.TempDir()
	eng, err := pipeline.New(pipeline.Options{Root: root, Stages: all.Stages,
		ConfigFile: "../../configs/smoke.yaml", Set: []string{"exact.crosscheck=none"}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := eng.Run(ctx, []string{"report"}, pipeline.RunOptions{}); err != nil {
		t.Fatal(err)
	}
	var outputs []pipeline.Output
	outputs = append(outputs, figures.Stage.Outputs...)
	outputs = append(outputs, report.Stage.Outputs...)
	first := map[string][]byte{}
	for _, o := range outputs {
		data, err := os.ReadFile(filepath.Join(root, o.Path))
		if err != nil {
			t.Fatal(err)
		}
		first[o.Path] = data
	}
	numbers := string(first["paper/generated/numbers.tex"])
	if !strings.Contains(numbers, `\newcommand{\GridsExact}{\ensuremath{6{,}670{,}903{,}752{,}021{,}072{,}936{,}960}}`) {
		t.Errorf("numbers.tex lacks the exact count:\n%s", numbers)
	}
	if arts := string(first["paper/generated/artifacts.tex"]); !strings.Contains(arts, "data/total.parquet") || !strings.Contains(arts, "figures/funnel.pdf") {
		t.Errorf("artifacts.tex lacks inputs:\n%s", arts)
	}

	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	if _, err := eng.Run(ctx, []string{"report"}, pipeline.RunOptions{Force: []string{"figures"}}); err != nil {
		t.Fatal(err)
	}
	for _, o := range outputs {
		data, err := os.ReadFile(filepath.Join(root, o.Path))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(data, first[o.Path]) {
			t.Errorf("%s differs between runs", o.Path)
		}
	}
}
