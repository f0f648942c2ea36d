package literature

import (
	"math/big"
	"strings"
	"testing"

	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
)

// TestCheck: a count equal to the published one is named with
// its source, one that differs is an error naming both, and a shape the
// literature lacks is left alone.
func TestCheck(t *testing.T) {
	s := grid.Shape{R: 5, C: 2}
	right, _ := new(big.Int).SetString("1903816047972624930994913280000", 10)
	if got, err := Check(s, right); err != nil || got != "published: Pettersen, 2005: 355 classes of first bands, about 10 hours" {
		t.Errorf("right 5x2 count: %q, %v", got, err)
	}
	wrong := new(big.Int).Add(right, big.NewInt(1))
	if _, err := Check(s, wrong); err == nil || !strings.Contains(err.Error(), "Pettersen, 2005") || !strings.Contains(err.Error(), wrong.String()) {
		t.Errorf("wrong 5x2 count: %v", err)
	}
	if got, err := Check(grid.Shape{R: 2, C: 1}, big.NewInt(2)); err != nil || got != "" {
		t.Errorf("2x1, which the literature lacks: %q, %v", got, err)
	}
}
