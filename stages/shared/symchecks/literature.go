package symchecks

import (
	"fmt"
	"log/slog"
	"math/big"

	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry"
)

// groupKey is a group's shape and whether it has transposition.
type groupKey struct {
	s         symmetry.Shape
	transpose bool
}

// literatureOf returns the published count of essentially different grids of
// s (with transposition in the group when transpose), the zero value when
// none is known.
func literatureOf(s symmetry.Shape, transpose bool) Published {
	return literature[groupKey{s, transpose}]
}

// literature is the published count of essentially different grids, by
// shape and transposition in the group (see the symmetry stage's package doc). A count
// that differs from it stops the stage, unless the entry is disputed: then
// the difference is recorded in checked_by and the literature columns, and
// the paper states it.
var literature = map[groupKey]Published{
	{symmetry.Shape{R: 2, C: 2}, true}:  {"2", "OEIS A109741", ""},
	{symmetry.Shape{R: 2, C: 3}, false}: {"49", "OEIS A291188", ""},
	{symmetry.Shape{R: 3, C: 2}, false}: {"49", "OEIS A291188", ""},
	{symmetry.Shape{R: 2, C: 4}, false}: {"1673187", "OEIS A291188", ""},
	{symmetry.Shape{R: 4, C: 2}, false}: {"1673187", "OEIS A291188", ""},
	{symmetry.Shape{R: 2, C: 5}, false}: {"4743933602050718", "OEIS A291188", a291188Disputed},
	{symmetry.Shape{R: 5, C: 2}, false}: {"4743933602050718", "OEIS A291188", a291188Disputed},
	{symmetry.Shape{R: 3, C: 3}, true}:  {"5472730538", "Russell and Jarvis (2006)", ""},
}

// Published is a count from the literature: the decimal count, its source
// and, for a disputed count, why a difference is recorded rather than fatal.
type Published struct{ Count, Source, Disputed string }

// compareLiterature compares orbits, the stage's count for shape s, with
// lit (the zero value: nothing Published) and returns the checked_by text:
// "" when nothing is Published, the agreement, or for a disputed count the
// signed difference; a difference from an undisputed count is an error.
func compareLiterature(s symmetry.Shape, orbits *big.Int, lit Published) (string, error) {
	switch {
	case lit.Count == "":
		return "", nil
	case orbits.String() == lit.Count:
		return "equal to the literature: " + lit.Source, nil
	case lit.Disputed == "":
		return "", fmt.Errorf("%v: Burnside's lemma gives %v essentially different grids, the literature (%s) %s", s, orbits, lit.Source, lit.Count)
	}
	want, ok := new(big.Int).SetString(lit.Count, 10)
	if !ok {
		return "", fmt.Errorf("%v: the literature's count %q is not an integer", s, lit.Count)
	}
	return fmt.Sprintf("differs from the literature (%s: %s) by %v: %s", lit.Source, lit.Count, new(big.Int).Sub(orbits, want), lit.Disputed), nil
}

// a291188Disputed is why a 2×5 count that differs from A291188 is recorded
// rather than fatal: the sequence gives its 2×5 term without a method or
// program, while every check of this stage holds (Burnside's lemma on every
// cyclic subgroup, CheckPowers) and the share of the sum a second count
// verified is recorded beside it (verified_share), not claimed as all.
const a291188Disputed = "the sequence gives no method or program for this term; Burnside's lemma holds on every cyclic subgroup, and verified_share is the part of the sum recounted by a second method"

// CheckLiterature compares orbits, the stage's count for s (with
// transposition in the group when transpose), with the literature
// (compareLiterature), logs a disputed difference, and returns the
// checked_by text and the published count.
func CheckLiterature(log *slog.Logger, s symmetry.Shape, transpose bool, orbits *big.Int) (string, Published, error) {
	lit := literatureOf(s, transpose)
	text, err := compareLiterature(s, orbits, lit)
	if err != nil {
		return "", lit, err
	}
	if lit.Disputed != "" && lit.Count != orbits.String() {
		log.Warn("essentially different grids differ from the literature", "shape", s.String(), "count", orbits,
			"literature", lit.Count, "source", lit.Source)
	}
	return text, lit, nil
}
