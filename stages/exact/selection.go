package exact

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/sudoku-census/sudoku-census/pipeline"
)

// selectionAllowed is what exact.crosscheck accepts, for error messages.
const selectionAllowed = `"all", "none", a count N ≥ 1 (the N classes with the smallest ids) or a comma-separated list of class ids such as "0,17"`

// Selection is the set of classes the backtracking check recounts, parsed
// from exact.crosscheck.
type Selection struct {
	All   bool
	First int     // when > 0: the First classes with the smallest ids
	IDs   []int32 // when non-empty: exactly these classes, ascending
}

// ParseSelection reads exact.crosscheck: "all", "none", a count N ≥ 1, or a
// comma-separated list of distinct class ids ≥ 0.
func ParseSelection(text string) (Selection, error) {
	bad := func() (Selection, error) {
		return Selection{}, pipeline.Invalid("exact.crosscheck", strconv.Quote(text), selectionAllowed)
	}
	t := strings.ToLower(strings.TrimSpace(text))
	switch {
	case t == "all":
		return Selection{All: true}, nil
	case t == "none":
		return Selection{}, nil
	case !strings.Contains(t, ","):
		n, err := strconv.Atoi(t)
		if err != nil || n < 1 {
			return bad()
		}
		return Selection{First: n}, nil
	}
	var ids []int32
	for field := range strings.SplitSeq(t, ",") {
		id, err := strconv.ParseInt(strings.TrimSpace(field), 10, 32)
		if err != nil || id < 0 || slices.Contains(ids, int32(id)) {
			return bad()
		}
		ids = append(ids, int32(id))
	}
	slices.Sort(ids)
	return Selection{IDs: ids}, nil
}

// Choose returns, for each of the given class ids (ascending), whether it is
// selected. It fails when the selection names more classes, or a class,
// that does not exist.
func (s Selection) Choose(text string, classIDs []int32) ([]bool, error) {
	chosen := make([]bool, len(classIDs))
	switch {
	case s.All:
		for i := range chosen {
			chosen[i] = true
		}
	case s.First > 0:
		if s.First > len(classIDs) {
			return nil, pipeline.Invalid("exact.crosscheck", strconv.Quote(text),
				fmt.Sprintf("a count of at most %d, the number of classes", len(classIDs)))
		}
		for i := range s.First {
			chosen[i] = true
		}
	default:
		for _, id := range s.IDs {
			i, ok := slices.BinarySearch(classIDs, id)
			if !ok {
				return nil, pipeline.Invalid("exact.crosscheck", strconv.Quote(text),
					fmt.Sprintf("ids of classes (%d is not one; the classes are %v)", id, classIDs))
			}
			chosen[i] = true
		}
	}
	return chosen, nil
}
