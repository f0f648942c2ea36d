package kilfoil

import (
	"math"
	"math/big"
	"strings"

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
	return estimateFrom(s, bandM, stackM), nil
}

// estimateFrom builds the estimate from M(R,C) and M(C,R).
func estimateFrom(s grid.Shape, bandM, stackM *big.Int) *Estimate {
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

// Terminates reports whether q has a finite decimal expansion: whether its
// reduced denominator has no prime factors but 2 and 5.
func Terminates(q *big.Rat) bool {
	d := new(big.Int).Set(q.Denom())
	d.Rsh(d, d.TrailingZeroBits())
	five, rem := big.NewInt(5), new(big.Int)
	for {
		quo, r := new(big.Int).QuoRem(d, five, rem)
		if r.Sign() != 0 {
			break
		}
		d = quo
	}
	return d.Cmp(big.NewInt(1)) == 0
}

// ExactDecimal writes a non-negative q that terminates (see Terminates) in
// full in positional notation, with no trailing zeros after the point:
// 832571850925698289/125 gives "6660574807405586.312".
func ExactDecimal(q *big.Rat) string {
	if q.IsInt() {
		return q.Num().String()
	}
	// A denominator 2^a·5^b divides 10^max(a,b).
	d := q.Denom()
	twos := d.TrailingZeroBits()
	fives := uint(0)
	for r := new(big.Int).Rsh(d, twos); r.Cmp(big.NewInt(1)) != 0; fives++ {
		r.Quo(r, big.NewInt(5))
	}
	places := max(twos, fives)
	scaled := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(places)), nil)
	scaled.Mul(scaled, q.Num())
	scaled.Quo(scaled, d)
	digits := scaled.String()
	if len(digits) <= int(places) {
		digits = strings.Repeat("0", int(places)-len(digits)+1) + digits
	}
	point := len(digits) - int(places)
	return strings.TrimRight(digits[:point]+"."+digits[point:], "0")
}

// Scientific writes a positive q as d.ddd…e±XX with sig significant digits,
// rounded to nearest, halves away from zero (for a q that does not
// terminate, no half ever occurs, so the rounding is exact to nearest).
func Scientific(q *big.Rat, sig int) string {
	num, den := q.Num(), q.Denom()
	// exp = ⌊log10 q⌋: start from the digit counts and correct by one.
	exp := len(num.String()) - len(den.String())
	if compareScaled(num, den, exp) < 0 {
		exp--
	}
	// m = round(q · 10^(sig−1−exp)), an integer of sig digits, or sig+1
	// digits (10^sig) when rounding carries.
	shift := sig - 1 - exp
	n, d := new(big.Int).Set(num), new(big.Int).Set(den)
	if shift >= 0 {
		n.Mul(n, pow10(shift))
	} else {
		d.Mul(d, pow10(-shift))
	}
	m, rem := new(big.Int).QuoRem(n, d, new(big.Int))
	if rem.Lsh(rem, 1).Cmp(d) >= 0 {
		m.Add(m, big.NewInt(1))
	}
	digits := m.String()
	if len(digits) > sig {
		digits, exp = digits[:sig], exp+1
	}
	mant := digits[:1]
	if sig > 1 {
		mant += "." + digits[1:]
	}
	sign := "+"
	if exp < 0 {
		sign, exp = "-", -exp
	}
	e := big.NewInt(int64(exp)).String()
	if len(e) < 2 {
		e = "0" + e
	}
	return mant + "e" + sign + e
}

// compareScaled compares num/den with 10^exp.
func compareScaled(num, den *big.Int, exp int) int {
	if exp >= 0 {
		return num.Cmp(new(big.Int).Mul(den, pow10(exp)))
	}
	return new(big.Int).Mul(num, pow10(-exp)).Cmp(den)
}

func pow10(k int) *big.Int { return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(k)), nil) }

// Log10 returns log10 q for a positive q, to float64 precision: numerator,
// denominator and quotient are rounded to 64-bit mantissas, far finer than
// float64's, and the quotient m·2^e (m in [½, 1)) gives log10 m + e·log10 2.
func Log10(q *big.Rat) float64 {
	f := new(big.Float).SetPrec(64).Quo(
		new(big.Float).SetPrec(64).SetInt(q.Num()),
		new(big.Float).SetPrec(64).SetInt(q.Denom()))
	mant := new(big.Float)
	e := f.MantExp(mant)
	m, _ := mant.Float64()
	return math.Log10(m) + float64(e)*math.Log10(2)
}
