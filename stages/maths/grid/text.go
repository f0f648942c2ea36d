package grid

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/big"
	"strings"
	"unicode"
)

// The text form of a grid is either one line of N² cells or N lines of N
// cells, row by row. A cell is '.' or '0' when empty, else a symbol: the
// digits 1-9 for symbols 1-9, then the letters A-Z (either case) for 10-35.
// Blank lines and spaces or tabs between cells are ignored; columns in
// error messages count every character of the line from 1.

// MaxTextN is the largest side the text form can write: 9 digits + 26
// letters.
const MaxTextN = 35

// SymbolRune is the character for symbol v (1..35), '.' for 0.
func SymbolRune(v uint8) rune {
	switch {
	case v == 0:
		return '.'
	case v <= 9:
		return rune('0' + v)
	case v <= MaxTextN:
		return rune('A' + v - 10)
	}
	return '?'
}

// symbolValue reads one cell character: 0 for empty, else the symbol, and
// false when the character is no symbol at all.
func symbolValue(r rune) (uint8, bool) {
	switch {
	case r == '.' || r == '0':
		return 0, true
	case r >= '1' && r <= '9':
		return uint8(r - '0'), true
	case r >= 'A' && r <= 'Z':
		return uint8(r-'A') + 10, true
	case r >= 'a' && r <= 'z':
		return uint8(r-'a') + 10, true
	}
	return 0, false
}

// token is one cell character with its place in the text.
type token struct {
	r         rune
	line, col int
}

// textLines splits text into its non-blank lines of cell characters.
func textLines(text string) [][]token {
	var lines [][]token
	for i, line := range strings.Split(text, "\n") {
		var cells []token
		for j, r := range []rune(strings.TrimRight(line, "\r")) {
			if r == ' ' || r == '\t' {
				continue
			}
			cells = append(cells, token{r: r, line: i + 1, col: j + 1})
		}
		if len(cells) > 0 {
			lines = append(lines, cells)
		}
	}
	return lines
}

// Parse reads a partial grid of the given shape from its text form. Errors
// name the line and column: a line of the wrong length, too many or too few
// lines, a character that is not a symbol or a symbol above N. Givens that
// clash are not checked here (Count reports them).
func Parse(text string, shape Shape) (Grid, error) {
	n := shape.N()
	if n > MaxTextN {
		return Grid{}, fmt.Errorf("box shape %s: a grid of side %d needs more symbols than the text form has (1-9, A-Z: side ≤ %d)", shape, n, MaxTextN)
	}
	lines := textLines(text)
	if err := checkLayout(lines, n); err != nil {
		return Grid{}, err
	}
	g := Grid{Shape: shape, Cells: make([]uint8, 0, n*n)}
	for _, line := range lines {
		for _, t := range line {
			v, ok := symbolValue(t.r)
			if !ok {
				return Grid{}, fmt.Errorf("line %d, column %d: %q is not a cell: want . or 0 (empty) or a symbol %s",
					t.line, t.col, t.r, symbolRange(n))
			}
			if int(v) > n {
				return Grid{}, fmt.Errorf("line %d, column %d: symbol %q is out of range for a %d×%d grid: want %s",
					t.line, t.col, t.r, n, n, symbolRange(n))
			}
			g.Cells = append(g.Cells, v)
		}
	}
	return g, nil
}

// symbolRange says which symbols a grid of side n uses.
func symbolRange(n int) string {
	if n <= 9 {
		return fmt.Sprintf("1-%d", n)
	}
	return fmt.Sprintf("1-9 or A-%c", SymbolRune(uint8(n)))
}

// checkLayout accepts one line of n² cells or n lines of n cells.
func checkLayout(lines [][]token, n int) error {
	switch {
	case len(lines) == 0:
		return fmt.Errorf("line 1: no cells: want one line of %d cells or %d lines of %d", n*n, n, n)
	case len(lines) == 1 && n > 1:
		if len(lines[0]) != n*n {
			return fmt.Errorf("line %d: %d cells, want %d (a %d×%d grid on one line)",
				lines[0][0].line, len(lines[0]), n*n, n, n)
		}
		return nil
	}
	for i, line := range lines {
		if i == n {
			return fmt.Errorf("line %d: more than %d lines of cells, want %d lines of %d", line[0].line, n, n, n)
		}
		if len(line) != n {
			return fmt.Errorf("line %d: %d cells, want %d (row %d of a %d×%d grid)", line[0].line, len(line), n, i+1, n, n)
		}
	}
	if len(lines) < n {
		last := lines[len(lines)-1][0].line
		return fmt.Errorf("line %d: the grid ends after %d rows, want %d", last, len(lines), n)
	}
	return nil
}

// InferShape returns the box shape for text with no shape given: the side n
// is the square root of the cell count of a one-line grid, or the number of
// lines; the boxes are then √n×√n, so 81 cells give the classic 3x3. A side
// that is not a square (6, 8, 10, …) has several box shapes and needs one
// named explicitly.
func InferShape(text string) (Shape, error) {
	lines := textLines(text)
	n := len(lines)
	if n == 0 {
		return Shape{}, errors.New("line 1: no cells")
	}
	if n == 1 {
		n = isqrt(len(lines[0]))
		if n*n != len(lines[0]) {
			return Shape{}, fmt.Errorf("line %d: %d cells is not a square number: want n² cells on one line or n lines of n", lines[0][0].line, len(lines[0]))
		}
	}
	if r := isqrt(n); r*r == n && r > 1 {
		return Shape{R: r, C: r}, nil
	}
	var options []string
	for r := 2; r < n; r++ {
		if n%r == 0 {
			options = append(options, Shape{R: r, C: n / r}.String())
		}
	}
	if len(options) == 0 {
		return Shape{}, fmt.Errorf("a grid of side %d has no box shape other than 1x%d or %dx1: name one with --box", n, n, n)
	}
	return Shape{}, fmt.Errorf("a grid of side %d has boxes %s: name one with --box", n, strings.Join(options, " or "))
}

func isqrt(x int) int {
	r := 0
	for (r+1)*(r+1) <= x {
		r++
	}
	return r
}

// CountText reads a partial grid in text form from r and counts its
// completions with workers goroutines. box is "RxC" or "" to infer the
// shape (see InferShape). Bad input gives a one-line error naming the line
// and column, and no count. Clashing givens give a count of 0 together with
// an error wrapping ErrClash that names the two cells.
func CountText(ctx context.Context, r io.Reader, box string, workers int) (Grid, *big.Int, error) {
	g, err := ReadText(r, box)
	if err != nil {
		return Grid{}, nil, err
	}
	count, err := g.Count(ctx, workers)
	if errors.Is(err, ErrClash) {
		return g, new(big.Int), err
	}
	return g, count, err
}

// ReadText reads a partial grid in text form from r, as CountText does,
// without counting it.
func ReadText(r io.Reader, box string) (Grid, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxTextBytes+1))
	if err != nil {
		return Grid{}, err
	}
	if len(data) > MaxTextBytes {
		return Grid{}, fmt.Errorf("more than %d bytes: a grid has at most 35² cells", MaxTextBytes)
	}
	text := string(data)
	var shape Shape
	if strings.TrimFunc(box, unicode.IsSpace) == "" {
		shape, err = InferShape(text)
	} else {
		// A command line may say 3X3 or " 3x3"; configs may not.
		shape, err = ParseShape(strings.ToLower(strings.TrimSpace(box)))
	}
	if err != nil {
		return Grid{}, err
	}
	return Parse(text, shape)
}

// MaxTextBytes bounds what ReadText reads: a grid of the largest side, 35,
// is 1225 cells, a few KiB however spaced, and anything longer (a wrong
// file, /dev/zero) is refused before it fills memory.
const MaxTextBytes = 64 << 10

// String writes the grid in text form, one line per row.
func (g Grid) String() string {
	n := g.Shape.N()
	var b strings.Builder
	for i, v := range g.Cells {
		b.WriteRune(SymbolRune(v))
		if i%n == n-1 {
			b.WriteByte('\n')
		}
	}
	return b.String()
}
