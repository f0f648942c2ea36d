// Package backtrack counts the completions of a first band to a full 9×9
// Sudoku grid by backtracking, cell by cell, with the generic counter of
// package grid. It shares no counting code with package bandpair, whose
// counts it checks.
package backtrack

import (
	"context"
	"fmt"
	"math/big"

	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
	"github.com/sudoku-census/sudoku-census/stages/maths/sudoku"
)

// FirstColumn is one way to fill column 1 of rows 4-9 below a band: Upper
// holds rows 4-6 (block B4) and Lower rows 7-9 (block B7).
type FirstColumn struct {
	Upper, Lower [3]uint8
}

// FirstColumns returns the ten fillings of column 1 of rows 4-9 that the
// backtracking check counts from, for a band whose column 1 holds three
// digits: the six other digits split into two triples, each in increasing
// order, the triple holding the smallest digit in B4. Each stands for
// 3!·3!·2 = 72 of the 6! = 720 fillings: permuting rows 4-6, permuting rows
// 7-9, and exchanging the two lower bands all map the completions of a grid
// one-to-one onto those of the permuted grid and leave the band alone, and
// every filling is reached from exactly one of the ten (the group acts
// freely on fillings).
func FirstColumns(b sudoku.Band) []FirstColumn {
	var rest []uint8
	for d := uint8(1); d <= 9; d++ {
		if d != b[0][0] && d != b[1][0] && d != b[2][0] {
			rest = append(rest, d)
		}
	}
	var out []FirstColumn
	// rest[0] is in the upper triple with two of the other five.
	for i := 1; i < 6; i++ {
		for j := i + 1; j < 6; j++ {
			var fc FirstColumn
			fc.Upper = [3]uint8{rest[0], rest[i], rest[j]}
			k := 0
			for m := 1; m < 6; m++ {
				if m != i && m != j {
					fc.Lower[k] = rest[m]
					k++
				}
			}
			out = append(out, fc)
		}
	}
	return out
}

// FirstColumnWeight is the number of fillings of column 1 of rows 4-9 that
// each of the ten [FirstColumns] stands for.
const FirstColumnWeight = 72

// Completions counts the completions of band b to a full grid
// independently of the band-pair method: for each of the ten
// [FirstColumns] it fills column 1 of rows 4-9 and counts the completions
// cell by cell with the generic backtracking counter of package grid, and
// returns 72 times the sum. workers is passed to the counter (GOMAXPROCS when
// < 1); the result does not depend on it.
func Completions(ctx context.Context, b sudoku.Band, workers int) (*big.Int, error) {
	if !b.Valid() {
		return nil, fmt.Errorf("band %s: a row or block repeats a digit", b)
	}
	shape := grid.Shape{R: 3, C: 3}
	total := new(big.Int)
	for _, fc := range FirstColumns(b) {
		g := grid.Grid{Shape: shape, Cells: make([]uint8, 81)}
		for r := range 3 {
			copy(g.Cells[9*r:9*r+9], b[r][:])
			g.Cells[9*(3+r)] = fc.Upper[r]
			g.Cells[9*(6+r)] = fc.Lower[r]
		}
		n, err := g.Count(ctx, workers)
		if err != nil {
			return nil, fmt.Errorf("band %s, column 1 below %v %v: %w", b, fc.Upper, fc.Lower, err)
		}
		total.Add(total, n)
	}
	return total.Mul(total, big.NewInt(FirstColumnWeight)), nil
}
