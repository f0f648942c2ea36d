package symchecks

import (
	"context"
	"math/big"
	"slices"

	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/multisets"
	"github.com/sudoku-census/sudoku-census/stages/shared/symunits"
)

// methodMultisets names the second count of package multisets.
const methodMultisets = "multisets"

// maxMultisetsC is the widest 2×c whose stack exchanges the run recounts by
// package multisets: its walk of the pattern multisets takes seconds for
// c = 5 and hours for c = 6.
const maxMultisetsC = 5

// MultisetCounts returns, for each width c ≤ 5 of the shapes with boxes of
// two rows or two columns among shapes, the F of every class of the 2×c
// group (without transposition) that exchanges the stacks by an involution,
// by package multisets: c → class index → F. These are second counts that
// share no counting code with the stack method or the R-stack method.
func MultisetCounts(ctx context.Context, shapes []symmetry.Shape) (map[int]map[int]*big.Int, error) {
	var widths []int
	for _, s := range shapes {
		if c, ok := multisetWidth(s); ok && !slices.Contains(widths, c) {
			widths = append(widths, c)
		}
	}
	out := map[int]map[int]*big.Int{}
	for _, c := range widths {
		g, err := symunits.Group(symmetry.Shape{R: 2, C: c}, false)
		if err != nil {
			return nil, err
		}
		var es []symmetry.Element
		var classes []int
		for _, cl := range g.Classes {
			if multisets.Applies(c, cl.Rep) {
				es, classes = append(es, cl.Rep), append(classes, cl.Index)
			}
		}
		fs, err := multisets.Fixed(ctx, c, es)
		if err != nil {
			return nil, err
		}
		out[c] = map[int]*big.Int{}
		for k, i := range classes {
			out[c][i] = fs[k]
		}
	}
	return out, nil
}

// multisetWidth returns c when s is 2×c or c×2 with 2 ≤ c ≤ maxMultisetsC.
func multisetWidth(s symmetry.Shape) (int, bool) {
	c := s.C
	if s.R != 2 {
		c = s.R
		if s.C != 2 {
			return 0, false
		}
	}
	return c, c >= 2 && c <= maxMultisetsC
}

// multisetSecond returns the multisets recount of class c of s (a 2×c
// class, or the 2×c class of the transpose of a c×2 one), nil when there
// is none.
func multisetSecond(s symmetry.Shape, transpose bool, c symmetry.Class, counts map[int]map[int]*big.Int) (*Second, error) {
	w, ok := multisetWidth(s)
	if !ok || c.Rep.Transpose || counts[w] == nil {
		return nil, nil
	}
	i, err := checkClassOf(s, transpose, symmetry.Shape{R: 2, C: w}, c)
	if err != nil {
		return nil, err
	}
	f, ok := counts[w][i]
	if !ok {
		return nil, nil
	}
	return &Second{Method: methodMultisets, Fixed: f}, nil
}
