package all

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/pipeline/pipelinetest"
)

// runSmoke runs the whole pipeline with the smoke configuration in a fresh
// root under the given GOMAXPROCS and returns the root.
func runSmoke(t *testing.T, procs int) string {
	return pipelinetest.Run(t, pipelinetest.Options{Stages: Stages, Config: "../../configs/smoke.yaml", Procs: procs})
}

// TestByteIdenticalWhateverTheCores runs the whole smoke pipeline with one
// core and with two and compares every artifact and the manifest byte for
// byte.
func TestByteIdenticalWhateverTheCores(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole smoke pipeline twice")
	}
	one, two := runSmoke(t, 1), runSmoke(t, 2)
	m, err := pipeline.ReadManifest(one)
	if err != nil {
		t.Fatal(err)
	}
	var outputs int
	for _, s := range Stages {
		outputs += len(s.Outputs)
	}
	if len(m.Artifacts) != outputs {
		t.Fatalf("manifest lists %d artifacts, the stages declare %d", len(m.Artifacts), outputs)
	}
	pipelinetest.SameFiles(t, one, two, append([]string{pipeline.ManifestPath}, paths(m)...)...)
}

func paths(m *pipeline.Manifest) []string {
	var out []string
	for _, a := range m.Artifacts {
		out = append(out, a.Path)
	}
	return out
}

// TestRerunRules checks the engine's rules on the real first stages: a
// second run runs nothing, a reduce key reruns reduce only, an interrupted
// bands run publishes nothing.
func TestRerunRules(t *testing.T) {
	root := t.TempDir()
	run := func(ro pipeline.RunOptions, set ...string) ([]string, error) {
		e, err := pipeline.New(pipeline.Options{Root: root, Stages: Stages, ConfigFile: "../../configs/smoke.yaml", Set: set})
		if err != nil {
			t.Fatal(err)
		}
		res, err := e.Run(context.Background(), []string{"reduce"}, ro)
		var ran []string
		for _, r := range res {
			if r.Ran {
				ran = append(ran, r.Stage)
			}
		}
		return ran, err
	}
	// Half the bands, then a failure: nothing is published.
	if _, err := run(pipeline.RunOptions{FailAfterRows: map[string]int64{"bands": 2612736 / 2}}); err == nil {
		t.Fatal("injected failure did not fail")
	}
	if _, err := os.Stat(filepath.Join(root, "data/bands.parquet")); !os.IsNotExist(err) {
		t.Fatalf("interrupted bands stage left data/bands.parquet (%v)", err)
	}
	if ran, err := run(pipeline.RunOptions{}); err != nil || len(ran) != 2 {
		t.Fatalf("first run ran %v, %v", ran, err)
	}
	if ran, err := run(pipeline.RunOptions{}); err != nil || len(ran) != 0 {
		t.Fatalf("second run ran %v, %v", ran, err)
	}
	if ran, err := run(pipeline.RunOptions{}, "reduce.swap_blocks=false"); err != nil || len(ran) != 1 || ran[0] != "reduce" {
		t.Fatalf("--set reduce.swap_blocks=false ran %v, %v", ran, err)
	}
}
