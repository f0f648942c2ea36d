package shapes

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/bands"
	"github.com/sudoku-census/sudoku-census/stages/classes"
	"github.com/sudoku-census/sudoku-census/stages/exact"
	"github.com/sudoku-census/sudoku-census/stages/reduce"
	"go.yaml.in/yaml/v3"
)

var stages = []*pipeline.Stage{bands.Stage, reduce.Stage, classes.Stage, exact.Stage, Stage}

// smokeConfig writes the smoke configuration's subtrees of stages (and the
// globals) to a file: the engine rejects the keys of stages it is not given.
func smokeConfig(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("../../configs/smoke.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var tree map[string]any
	if err := yaml.Unmarshal(data, &tree); err != nil {
		t.Fatal(err)
	}
	keep := map[string]any{"seed": tree["seed"]}
	for _, s := range stages {
		if sub, ok := tree[s.Name]; ok {
			keep[s.Name] = sub
		}
	}
	out, err := yaml.Marshal(keep)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "smoke.yaml")
	if err := os.WriteFile(file, out, 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

func runShapes(t *testing.T, root string, set ...string) error {
	t.Helper()
	eng, err := pipeline.New(pipeline.Options{Root: root, Stages: stages,
		ConfigFile: smokeConfig(t), Set: set})
	if err != nil {
		return err
	}
	_, err = eng.Run(context.Background(), []string{"shapes"}, pipeline.RunOptions{})
	return err
}

// TestStage runs the smoke configuration and checks every row against the
// counts in the literature.
func TestStage(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the exact stage")
	}
	root := t.TempDir()
	if err := runShapes(t, root); err != nil {
		t.Fatal(err)
	}
	rows, err := Table.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	known := map[[2]int32]string{
		{2, 2}: "288", {2, 3}: "28200960", {3, 2}: "28200960",
		{2, 4}: "29136487207403520", {4, 2}: "29136487207403520",
		{3, 3}: "6670903752021072936960",
	}
	if len(rows) != 5 {
		t.Fatalf("%d rows, want the 5 shapes of the smoke config", len(rows))
	}
	for _, r := range rows {
		if want := known[[2]int32{r.Rows, r.Cols}]; r.Grids != want || r.Method == "" {
			t.Errorf("%dx%d: %s grids by %q, want %s", r.Rows, r.Cols, r.Grids, r.Method, want)
		}
	}
}

func TestConfigErrors(t *testing.T) {
	for _, tc := range []struct {
		shapes string
		want   string
	}{
		{"shapes.shapes=3x4", `config key shapes.shapes: value "3x4" is not allowed: box shapes RxC among`},
		{"shapes.shapes=2x2,banana", `value "banana"`},
		{"shapes.shapes=2x2,2X2", `value "2X2" is not allowed: each box shape once`},
	} {
		cfg := &Config{Shapes: strings.Split(strings.TrimPrefix(tc.shapes, "shapes.shapes="), ",")}
		err := cfg.Validate()
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line containing %q", tc.shapes, err, tc.want)
		}
	}
	if err := (&Config{}).Validate(); err == nil {
		t.Error("empty shape list accepted")
	}
	if err := Stage.NewConfig().Validate(); err != nil {
		t.Errorf("default config: %v", err)
	}
}
