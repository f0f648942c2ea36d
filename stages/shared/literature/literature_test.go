package literature

import (
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
)

// The literature's counts parse, have their number of digits, are the
// same for transposed shapes and are multiples of N!.
func TestPublished(t *testing.T) {
	for _, c := range []struct {
		r, c   int
		digits int
	}{{2, 2, 3}, {2, 3, 8}, {2, 4, 17}, {3, 3, 22}, {2, 5, 31}, {2, 6, 50}, {3, 4, 47}} {
		a, ok1 := Grids(grid.Shape{R: c.r, C: c.c})
		b, ok2 := Grids(grid.Shape{R: c.c, C: c.r})
		if !ok1 || !ok2 || a.Grids == nil || a.Grids.Cmp(b.Grids) != 0 || len(a.Grids.String()) != c.digits {
			t.Errorf("%dx%d: %v %v", c.r, c.c, a.Grids, b.Grids)
		}
	}
	if _, ok := Grids(grid.Shape{R: 4, C: 4}); ok {
		t.Error("4x4 has no published count")
	}
	// Relabelling the symbols acts freely on grids, so N! divides every
	// count: a check on the digits copied.
	for _, s := range []grid.Shape{{R: 2, C: 6}, {R: 3, C: 4}, {R: 2, C: 5}} {
		p, _ := Grids(s)
		f := new(big.Int).MulRange(1, int64(s.N()))
		if new(big.Int).Mod(p.Grids, f).Sign() != 0 {
			t.Errorf("%s: %s is not a multiple of %d!", s, p.Grids, s.N())
		}
	}
}

// File is this file's path from the repository's root, and names each
// count's cite key: the HTML report links quoted counts to it by that key.
func TestFile(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "..", File))
	if err != nil {
		t.Fatalf("File %s: %v", File, err)
	}
	for _, p := range published {
		if !strings.Contains(string(src), `"`+p.cite+`"`) {
			t.Errorf("%s does not name the cite key %s", File, p.cite)
		}
	}
}
