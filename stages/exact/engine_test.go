package exact

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/bands"
	"github.com/sudoku-census/sudoku-census/stages/classes"
	"github.com/sudoku-census/sudoku-census/stages/reduce"
	"go.yaml.in/yaml/v3"
)

var pipelineStages = []*pipeline.Stage{bands.Stage, reduce.Stage, classes.Stage, Stage}

// smokeConfig writes the smoke configuration's global keys and the subtrees
// of pipelineStages to a file in dir: the engine rejects keys of stages it
// does not know, and this test runs only the stages up to exact.
func smokeConfig(t *testing.T, dir string) string {
	t.Helper()
	raw, err := os.ReadFile("../../configs/smoke.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var tree map[string]any
	if err := yaml.Unmarshal(raw, &tree); err != nil {
		t.Fatal(err)
	}
	keep := map[string]any{"seed": tree["seed"]}
	for _, s := range pipelineStages {
		if sub, ok := tree[s.Name]; ok {
			keep[s.Name] = sub
		}
	}
	out, err := yaml.Marshal(keep)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "smoke.yaml")
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func runExact(t *testing.T, root string, set []string, ro pipeline.RunOptions) {
	t.Helper()
	eng, err := pipeline.New(pipeline.Options{Root: root, Stages: pipelineStages,
		ConfigFile: smokeConfig(t, t.TempDir()), Set: set})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := eng.Run(context.Background(), []string{"exact"}, ro); err != nil {
		t.Fatal(err)
	}
}

// TestStage runs the pipeline up to exact with the smoke config (two
// classes cross-checked) and checks the published figures.
func TestStage(t *testing.T) {
	root := t.TempDir()
	runExact(t, root, nil, pipeline.RunOptions{})
	rows, err := Completions.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 44 {
		t.Fatalf("%d classes, want 44", len(rows))
	}
	size, checked := 0, 0
	for i, r := range rows {
		size += int(r.Size)
		if r.FirstBands != 72*int64(r.Size) {
			t.Errorf("class %d: first_bands %d, want 72·%d", r.Class, r.FirstBands, r.Size)
		}
		if r.Crosschecked {
			checked++
			if i >= 2 {
				t.Errorf("class %d cross-checked; the smoke config checks the first two", r.Class)
			}
		}
	}
	if size != 36288 || checked != 2 {
		t.Errorf("sizes sum to %d (want 36288), %d cross-checked (want 2)", size, checked)
	}
	if rows[0].Class != 0 || rows[0].Representative != "123456789456789123789123456" ||
		rows[0].Completions != "7802998272" {
		t.Errorf("first class %+v, want class 0, the canonical band, 72·108374976 completions", rows[0])
	}
	total, err := Total.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	want := TotalRow{
		Grids:               "6670903752021072936960",
		CanonicalGrids:      "18383222420692992",
		ReducedCount:        "3546146300288",
		ReducedCountFactors: "2^7 × 27704267971",
		Classes:             44,
		CrosscheckedClasses: 2,
	}
	if len(total) != 1 || total[0] != want {
		t.Errorf("total %+v, want %+v", total, want)
	}
}

// TestStageReproducible reruns exact on one and on two CPUs and compares
// the bytes.
func TestStageReproducible(t *testing.T) {
	root := t.TempDir()
	set := []string{"exact.crosscheck=none"}
	runExact(t, root, set, pipeline.RunOptions{})
	read := func() []byte {
		var all []byte
		for _, o := range Stage.Outputs {
			b, err := os.ReadFile(filepath.Join(root, o.Path))
			if err != nil {
				t.Fatal(err)
			}
			all = append(all, b...)
		}
		return all
	}
	first := read()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	runExact(t, root, set, pipeline.RunOptions{Force: []string{"exact"}})
	if !bytes.Equal(first, read()) {
		t.Error("artifacts differ between GOMAXPROCS 1 and the default")
	}
}

func TestStageBadConfig(t *testing.T) {
	for _, v := range []string{"exact.crosscheck=some", "exact.crosscheck=0", "exact.crosscheck=3,3"} {
		_, err := pipeline.New(pipeline.Options{Root: t.TempDir(), Stages: pipelineStages,
			ConfigFile: smokeConfig(t, t.TempDir()), Set: []string{v}})
		if err == nil || !strings.Contains(err.Error(), "exact.crosscheck") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %v, want one line naming exact.crosscheck", v, err)
		}
	}
}

func TestCheckMembers(t *testing.T) {
	rows := []reduce.Row{{ID: 0}, {ID: 1}, {ID: 2}}
	counts := []Count{{72, 1}, {72, 1}, {144, 1}}
	if _, err := CheckMembers(rows, []int32{0, 0, 2}, counts); err != nil {
		t.Error(err)
	}
	if _, err := CheckMembers(rows, []int32{0, 0, 0}, counts); err == nil {
		t.Error("no error for a member whose count differs from its representative's")
	}
}
