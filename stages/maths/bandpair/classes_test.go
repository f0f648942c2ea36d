package bandpair

import (
	"testing"

	"github.com/sudoku-census/sudoku-census/stages/maths/sudoku"
)

// reducedBand parses a band's three rows for the class tests.
func reducedBand(t *testing.T, id int32, r1, r2, r3 string) ReducedBand {
	t.Helper()
	b, err := sudoku.ParseBand(r1, r2, r3)
	if err != nil {
		t.Fatal(err)
	}
	return ReducedBand{ID: id, Band: b, Multiplicity: 72}
}

func TestGroupClasses(t *testing.T) {
	reduced := []ReducedBand{
		reducedBand(t, 0, "123456789", "456789123", "789123456"),
		reducedBand(t, 1, "123456789", "456789132", "789123465"),
		reducedBand(t, 2, "123457689", "456189237", "789236145"),
	}
	got, err := GroupClasses(reduced, []int32{0, 0, 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].ID != 0 || got[0].Size != 2 || got[0].FirstBands != 144 ||
		got[1].ID != 2 || got[1].Size != 1 || got[1].Representative != reduced[2].Band {
		t.Errorf("got %+v", got)
	}
	if _, err := GroupClasses(reduced, []int32{0, 2, 1}); err == nil {
		t.Error("no error when a class's representative is in another class")
	}
	if _, err := GroupClasses(reduced, []int32{0, 7, 0}); err == nil {
		t.Error("no error for a class id that is no band")
	}
}

func TestCheckMembers(t *testing.T) {
	reduced := []ReducedBand{{ID: 0}, {ID: 1}, {ID: 2}}
	counts := []Count{{Completions: 72, SecondBands: 1}, {Completions: 72, SecondBands: 1}, {Completions: 144, SecondBands: 1}}
	if _, err := CheckMembers(reduced, []int32{0, 0, 2}, counts); err != nil {
		t.Error(err)
	}
	if _, err := CheckMembers(reduced, []int32{0, 0, 0}, counts); err == nil {
		t.Error("no error for a member whose count differs from its representative's")
	}
}
