package present

import (
	"math/big"

	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
	"github.com/sudoku-census/sudoku-census/stages/presentation/typeset"
	"github.com/sudoku-census/sudoku-census/stages/shared/literature"
)

// KnownGrids returns the number of grids of shape s that the paper holds
// estimates against: this pipeline's exact count (ExactGrids) if it has
// one, else the literature's (cite is then its BibTeX key, else "").
func (r *Results) KnownGrids(s grid.Shape) (n *big.Int, cite string, ok bool) {
	n, cite, _, ok = r.knownGrids(s)
	return n, cite, ok
}

// KnownFrom returns where KnownGrids(s) is read from: the row of the
// count, or the literature's entry (by its cite key) in the source file
// of package literature; the zero Source when no count is known.
func (r *Results) KnownFrom(s grid.Shape) typeset.Source {
	_, _, from, _ := r.knownGrids(s)
	return from
}

func (r *Results) knownGrids(s grid.Shape) (n *big.Int, cite string, from typeset.Source, ok bool) {
	if n, from, ok := r.exactGrids(s); ok {
		return n, "", from, true
	}
	if p, ok := literature.Grids(s); ok {
		return p.Grids, p.Cite, typeset.Row(literature.File, "cite", p.Cite), true
	}
	return nil, "", typeset.Source{}, false
}
