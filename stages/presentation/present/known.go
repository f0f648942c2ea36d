package present

import (
	"math/big"

	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
	"github.com/sudoku-census/sudoku-census/stages/shared/literature"
)

// KnownGrids returns the number of grids of shape s that the paper holds
// estimates against: this pipeline's exact count (ExactGrids) if it has
// one, else the literature's (cite is then its BibTeX key, else "").
func (r *Results) KnownGrids(s grid.Shape) (n *big.Int, cite string, ok bool) {
	if n, ok := r.ExactGrids(s); ok {
		return n, "", true
	}
	if p, ok := literature.Grids(s); ok {
		return p.Grids, p.Cite, true
	}
	return nil, "", false
}
