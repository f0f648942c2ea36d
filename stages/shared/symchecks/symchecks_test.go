package symchecks

import (
	"math/big"
	"strings"
	"testing"

	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/multisets"
	"github.com/sudoku-census/sudoku-census/stages/shared/symunits"
)

// TestChecksBundleHolds checks which ids the checks bundle holds: the 5×2
// check units of the 85 classes with a relabelling type, the 21 heavy
// ones in 64 parts, and nothing of the 12×12 bundle.
func TestChecksBundleHolds(t *testing.T) {
	for id, want := range map[string]bool{
		"check.5x2.class009":             true,
		"check.5x2.class057":             true,
		"check.5x2.class081.part00of64":  true,
		"check.5x2.class081.part63of64":  true,
		"check.5x2.class081":             false, // split
		"check.5x2.class009.part00of64":  false, // whole
		"check.5x2.class081.part064of64": false,
		"check.5x2.class081.part64of64":  false,
		"check.5x2.class001":             false, // no relabelling type
		"check.2x5.class009":             false, // 2×5 takes 5×2's units
		"check.3x2.class004":             false, // computed in the run
		"5x2.class009":                   false,
		"check.2x6.class0010":            false,
	} {
		if got := Bundle.Holds(id); got != want {
			t.Errorf("Bundle.Holds(%q) = %v, want %v", id, got, want)
		}
		if symunits.Bundle.Holds(id) {
			t.Errorf("the 12×12 bundle holds %q", id)
		}
	}
	n := 0
	g, err := symunits.Group(checkBundleShape, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range g.Classes[1:] {
		ids := checkUnitIDs(checkBundleShape, c.Index)
		if Bundle.Holds(ids[0]) {
			n++
			if _, heavy := checkHeavyCPUHours[c.Index]; heavy != (len(ids) == checkParts) {
				t.Errorf("class %d: %d units", c.Index, len(ids))
			}
		}
	}
	if n != 85 || len(checkHeavyCPUHours) != 21 || len(checkWeightOrder5x2) != 21 {
		t.Errorf("%d classes held, %d heavy, %d in weight order; want 85, 21, 21", n, len(checkHeavyCPUHours), len(checkWeightOrder5x2))
	}
	g25, err := symunits.Group(symmetry.Shape{R: 2, C: 5}, false)
	if err != nil {
		t.Fatal(err)
	}
	recounted := false // a class the multisets recount has come
	for _, i := range checkWeightOrder5x2 {
		if _, ok := checkHeavyCPUHours[i]; !ok {
			t.Errorf("class %d in the weight order is not heavy", i)
		}
		// The classes no other method recounts come first.
		j, err := checkClassOf(checkBundleShape, false, symmetry.Shape{R: 2, C: 5}, g.Classes[i])
		if err != nil {
			t.Fatal(err)
		}
		applies := multisets.Applies(5, g25.Classes[j].Rep)
		if recounted && !applies {
			t.Errorf("class %d, which only the R-stack method recounts, comes after one the multisets recount", i)
		}
		recounted = recounted || applies
	}
}

// TestCompareLiterature checks the three outcomes of the literature check:
// agreement, a fatal difference and a recorded one.
func TestCompareLiterature(t *testing.T) {
	s := symmetry.Shape{R: 2, C: 5}
	n := big.NewInt(1000)
	if text, err := compareLiterature(s, n, Published{}); text != "" || err != nil {
		t.Errorf("nothing Published: %q, %v; want nothing", text, err)
	}
	if text, err := compareLiterature(s, n, Published{"1000", "OEIS X", ""}); text != "equal to the literature: OEIS X" || err != nil {
		t.Errorf("equal: %q, %v", text, err)
	}
	if _, err := compareLiterature(s, n, Published{"1001", "OEIS X", ""}); err == nil || !strings.Contains(err.Error(), "OEIS X") {
		t.Errorf("undisputed difference: %v; want an error naming the source", err)
	}
	text, err := compareLiterature(s, n, Published{"1007", "OEIS X", "no method given"})
	if err != nil || text != "differs from the literature (OEIS X: 1007) by -7: no method given" {
		t.Errorf("disputed difference: %q, %v", text, err)
	}
	// Only 2x5 and 5x2 are disputed: every smaller count must agree.
	for k, lit := range literature {
		if lit.Disputed != "" && k.s.N() != 10 {
			t.Errorf("%v: disputed; only the 2x5 term of A291188 is", k.s)
		}
	}
}
