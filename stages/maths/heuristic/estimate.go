package heuristic

import (
	"math/big"

	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
)

// Estimate is Kilfoil's heuristic count of the grids of one box shape.
type Estimate struct {
	Shape grid.Shape
	// Bands is b(R,C), the number of bands; Stacks is b(C,R), the number
	// of stacks (a stack, turned on its side, is a band of shape C×R).
	Bands, Stacks *big.Int
	// BandCompletions and StackCompletions are M(R,C) and M(C,R).
	BandCompletions, StackCompletions *big.Int
	// Value is b(R,C)^C · b(C,R)^R / (N!)^N, in lowest terms.
	Value *big.Rat
}

// NewEstimate computes the heuristic for shape s from exact band counts.
func NewEstimate(s grid.Shape) (*Estimate, error) {
	bandM, err := BandCompletions(s)
	if err != nil {
		return nil, err
	}
	t := grid.Shape{R: s.C, C: s.R}
	stackM, err := BandCompletions(t)
	if err != nil {
		return nil, err
	}
	return FromCompletions(s, bandM, stackM), nil
}

// FromCompletions builds the estimate of shape s from M(R,C) and M(C,R)
// (see BandCompletions), when the caller has them already.
func FromCompletions(s grid.Shape, bandM, stackM *big.Int) *Estimate {
	bands := bandsFrom(s, bandM)
	stacks := bandsFrom(grid.Shape{R: s.C, C: s.R}, stackM)
	n := int64(s.N())
	num := new(big.Int).Exp(bands, big.NewInt(int64(s.C)), nil)
	num.Mul(num, new(big.Int).Exp(stacks, big.NewInt(int64(s.R)), nil))
	den := new(big.Int).Exp(new(big.Int).MulRange(1, n), big.NewInt(n), nil)
	return &Estimate{
		Shape: s, Bands: bands, Stacks: stacks,
		BandCompletions: bandM, StackCompletions: stackM,
		Value: new(big.Rat).SetFrac(num, den),
	}
}
