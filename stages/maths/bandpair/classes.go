package bandpair

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/sudoku-census/sudoku-census/stages/maths/sudoku"
)

// ReducedBand is one reduced first band: its id, the band, and how many
// bands with canonical B1 it stands for.
type ReducedBand struct {
	ID           int32
	Band         sudoku.Band
	Multiplicity int32
}

// GroupClasses gathers the reduced bands into classes: classOf[i] is the
// class id of reduced[i], which must be the id of a member of the class (its
// representative). Classes come out in ascending id order.
func GroupClasses(reduced []ReducedBand, classOf []int32) ([]Class, error) {
	if len(classOf) != len(reduced) {
		return nil, fmt.Errorf("%d class assignments for %d reduced bands", len(classOf), len(reduced))
	}
	byID := map[int32]int{} // reduced id -> index
	for i, r := range reduced {
		byID[r.ID] = i
	}
	index := map[int32]int{} // class id -> index in out
	var out []Class
	for i, r := range reduced {
		id := classOf[i]
		k, ok := index[id]
		if !ok {
			j, ok := byID[id]
			if !ok {
				return nil, fmt.Errorf("reduced band %d: class %d is not a reduced band id", r.ID, id)
			}
			if classOf[j] != id {
				return nil, fmt.Errorf("class %d: its representative is in class %d", id, classOf[j])
			}
			k = len(out)
			index[id] = k
			out = append(out, Class{ID: id, Representative: reduced[j].Band})
		}
		out[k].Size++
		out[k].FirstBands += int64(r.Multiplicity)
	}
	slices.SortFunc(out, func(a, b Class) int { return cmp.Compare(a.ID, b.ID) })
	return out, nil
}

// CheckMembers returns the count of each class's representative, keyed by
// class id, after checking that every reduced band has the count of its
// class's representative (counts[i] is reduced[i]'s).
func CheckMembers(reduced []ReducedBand, classOf []int32, counts []Count) (map[int32]Count, error) {
	repCount := map[int32]Count{}
	for i, r := range reduced {
		if r.ID == classOf[i] {
			repCount[r.ID] = counts[i]
		}
	}
	for i, r := range reduced {
		rep, ok := repCount[classOf[i]]
		if !ok {
			return nil, fmt.Errorf("reduced band %d: class %d has no representative", r.ID, classOf[i])
		}
		if counts[i] != rep {
			return nil, fmt.Errorf("reduced band %d has %d completions but is in class %d, whose representative has %d",
				r.ID, counts[i].Completions, classOf[i], rep.Completions)
		}
	}
	return repCount, nil
}
