package shapes_test

import (
	"strings"
	"testing"

	"github.com/sudoku-census/sudoku-census/pipeline/pipelinetest"
	"github.com/sudoku-census/sudoku-census/stages/all"
	"github.com/sudoku-census/sudoku-census/stages/shapes"
)

var smoke = pipelinetest.Options{Stages: all.Stages, Config: "../../configs/smoke.yaml"}

// TestStage runs the smoke configuration and checks every row against the
// counts in the literature.
func TestStage(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the exact stage")
	}
	o := smoke
	o.Targets = []string{"shapes"}
	rows, err := shapes.Table.Load(pipelinetest.Run(t, o))
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
		cfg := &shapes.Config{Shapes: strings.Split(strings.TrimPrefix(tc.shapes, "shapes.shapes="), ",")}
		err := cfg.Validate()
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line containing %q", tc.shapes, err, tc.want)
		}
	}
	if err := (&shapes.Config{}).Validate(); err == nil {
		t.Error("empty shape list accepted")
	}
	if err := shapes.Stage.NewConfig().Validate(); err != nil {
		t.Errorf("default config: %v", err)
	}
}
