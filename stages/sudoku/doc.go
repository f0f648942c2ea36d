// Package sudoku holds the combinatorics of the classic 9×9 grid that the
// Felgenhauer–Jarvis stages share: bands, canonical relabelling and the
// lexicographic reduction.
package sudoku

// Band is the top three rows of a grid (blocks B1, B2, B3): Band[r][c] is
// the digit 1-9 in row r, column c.
type Band [3][9]uint8
