// Package sudoku holds the combinatorics of the classic 9×9 grid that the
// Felgenhauer–Jarvis stages share: bands, canonical relabelling and the
// lexicographic reduction.
//
// A band is the top three rows of a grid, blocks B1, B2 and B3. Relabelling
// the nine digits maps the completions of one band one-to-one onto those of
// the relabelled band, so every band is studied with B1 in the canonical form
//
//	1 2 3
//	4 5 6
//	7 8 9
//
// There are 56·6^6 = 2,612,736 such bands. Permuting the columns inside B2
// and inside B3, and exchanging B2 with B3, also preserves the number of
// completions; the lexicographic reduction picks one band out of every 72 so
// related, leaving 2,612,736/72 = 36,288 reduced bands.
package sudoku

// Band is the top three rows of a grid (blocks B1, B2, B3): Band[r][c] is
// the digit 1-9 in row r, column c.
type Band [3][9]uint8
