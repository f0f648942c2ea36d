package symmetry

import (
	"math/big"
	"strings"
	"testing"

	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry"
)

// TestCompareLiterature checks the three outcomes of the literature check:
// agreement, a fatal difference and a recorded one.
func TestCompareLiterature(t *testing.T) {
	s := symmetry.Shape{R: 2, C: 5}
	n := big.NewInt(1000)
	if text, err := compareLiterature(s, n, published{}); text != "" || err != nil {
		t.Errorf("nothing published: %q, %v; want nothing", text, err)
	}
	if text, err := compareLiterature(s, n, published{"1000", "OEIS X", ""}); text != "equal to the literature: OEIS X" || err != nil {
		t.Errorf("equal: %q, %v", text, err)
	}
	if _, err := compareLiterature(s, n, published{"1001", "OEIS X", ""}); err == nil || !strings.Contains(err.Error(), "OEIS X") {
		t.Errorf("undisputed difference: %v; want an error naming the source", err)
	}
	text, err := compareLiterature(s, n, published{"1007", "OEIS X", "no method given"})
	if err != nil || text != "differs from the literature (OEIS X: 1007) by -7: no method given" {
		t.Errorf("disputed difference: %q, %v", text, err)
	}
	// Only 2x5 and 5x2 are disputed: every smaller count must agree.
	for k, lit := range literature {
		if lit.disputed != "" && k.s.N() != 10 {
			t.Errorf("%v: disputed; only the 2x5 term of A291188 is", k.s)
		}
	}
}
