// Package grid holds what every stage knows about Sudoku grids of any box
// shape: the shape itself, cells, candidate sets and the exact completion
// counter.
package grid

import (
	"fmt"
	"strconv"
	"strings"
)

// Shape is the box shape of a grid: boxes of R rows and C columns, so the
// grid has N = R·C rows, columns, boxes and symbols. The classic grid is
// Shape{3, 3}. A band is R rows across the grid, holding N/C = R boxes; a
// stack is C columns down the grid, holding N/R = C boxes.
type Shape struct {
	R, C int
}

// N is the side of the grid: the number of symbols.
func (s Shape) N() int { return s.R * s.C }

// String writes the shape as "RxC", the form configs use.
func (s Shape) String() string { return fmt.Sprintf("%dx%d", s.R, s.C) }

// ParseShape reads "RxC" (for example "2x3") in the form String writes:
// decimal R and C without sign or leading zeros, so that one shape has one
// key in a config; R and C are at least 1 and N at most MaxTextN (symbols
// 1-9 then A-Z).
func ParseShape(text string) (Shape, error) {
	return ParseShapeUpTo(text, MaxTextN)
}

// ParseShapeUpTo is ParseShape with N at most maxN, for what never writes
// a grid as text (the band counts of 6×6 boxes, N = 36).
func ParseShapeUpTo(text string, maxN int) (Shape, error) {
	rs, cs, ok := strings.Cut(text, "x")
	r, err1 := strconv.Atoi(rs)
	c, err2 := strconv.Atoi(cs)
	s := Shape{R: r, C: c}
	if !ok || err1 != nil || err2 != nil || r < 1 || c < 1 || r > maxN || c > maxN || r*c > maxN || s.String() != text {
		return Shape{}, fmt.Errorf("box shape %q: want RxC written as 3x3, with R, C ≥ 1 and R·C ≤ %d", text, maxN)
	}
	return s, nil
}
