package bands_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sudoku-census/sudoku-census/pipeline/pipelinetest"
	"github.com/sudoku-census/sudoku-census/stages/bands"
	"github.com/sudoku-census/sudoku-census/stages/maths/sudoku"
)

func TestStage(t *testing.T) {
	root := pipelinetest.Run(t, pipelinetest.Options{Stages: pipelinetest.Closure(bands.Stage)})
	rows, err := bands.Table.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2_612_736 {
		t.Fatalf("%d rows, want 2,612,736", len(rows))
	}
	var perCase [21]int
	kinds := map[string]int{}
	prev := ""
	for i, r := range rows {
		b, err := r.Band()
		if err != nil {
			t.Fatalf("row %d: %v", i, err)
		}
		// Strictly increasing rows are distinct.
		if s := r.Row1 + r.Row2 + r.Row3; s <= prev {
			t.Fatalf("row %d %s does not come after %s", i, s, prev)
		} else {
			prev = s
		}
		if int(r.TopRowCase) != b.TopRowCase() || r.Kind != sudoku.Kind(b.TopRowCase()) {
			t.Fatalf("row %d %s: case %d %s, want %d %s", i, b, r.TopRowCase, r.Kind, b.TopRowCase(), sudoku.Kind(b.TopRowCase()))
		}
		perCase[r.TopRowCase]++
		kinds[r.Kind]++
	}
	for c := 1; c <= 20; c++ {
		if want := map[bool]int{true: 46656, false: 3 * 46656}[c == 1 || c == 20]; perCase[c] != want {
			t.Errorf("case %d: %d rows, want %d", c, perCase[c], want)
		}
	}
	if kinds["pure"] != 2*46656 || kinds["mixed"] != 18*3*46656 || len(kinds) != 2 {
		t.Errorf("kinds %v, want pure 93,312 and mixed 2,519,424", kinds)
	}
	if fi, err := os.Stat(filepath.Join(root, bands.Table.Path)); err == nil {
		t.Logf("%s: %d bytes", bands.Table.Path, fi.Size())
	}
}

func BenchmarkRows(b *testing.B) {
	for b.Loop() {
		bands.Rows()
	}
}
