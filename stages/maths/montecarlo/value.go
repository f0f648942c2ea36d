package montecarlo

import (
	"math"
	"math/big"
)

// Value is the nonnegative number Frac·2^Exp. The zero Value is 0. Frac need
// not be normalised; walks multiply integers into Frac and move its binary
// exponent into Exp now and then (see Value.MulInt).
type Value struct {
	Frac float64
	Exp  int
}

// One is the Value 1.
var One = Value{Frac: 1}

// renormAbove is where MulInt moves Frac's exponent into Exp: far below
// the float64 limit 2^1024, so one more factor (at most 2^64) never overflows.
const renormAbove = 0x1p512

// MulInt returns v·k for an integer k ≥ 0; integer products stay exact while
// below 2^53 and are rounded to float64 precision beyond.
func (v Value) MulInt(k uint64) Value {
	v.Frac *= float64(k)
	if v.Frac > renormAbove {
		f, e := math.Frexp(v.Frac)
		v.Frac, v.Exp = f, v.Exp+e
	}
	return v
}

// Mul returns v·w.
func (v Value) Mul(w Value) Value {
	f, e := math.Frexp(v.Frac * w.Frac)
	return Value{Frac: f, Exp: e + v.Exp + w.Exp}
}

// Add returns v + w, rounded to float64 precision: the smaller term is
// scaled to the larger one's exponent, so sums of any magnitude (Knuth's
// tree-size estimator) neither overflow nor lose more than rounding.
func (v Value) Add(w Value) Value {
	if v.Frac == 0 {
		return w
	}
	if w.Frac == 0 {
		return v
	}
	fv, ev := math.Frexp(v.Frac)
	fw, ew := math.Frexp(w.Frac)
	ev += v.Exp
	ew += w.Exp
	if ev < ew {
		fv, ev, fw, ew = fw, ew, fv, ev
	}
	f, e := math.Frexp(fv + math.Ldexp(fw, ew-ev))
	return Value{Frac: f, Exp: e + ev}
}

// Div returns v/w for w ≠ 0.
func (v Value) Div(w Value) Value {
	f, e := math.Frexp(v.Frac / w.Frac)
	return Value{Frac: f, Exp: e + v.Exp - w.Exp}
}

// IsZero reports whether v is 0.
func (v Value) IsZero() bool { return v.Frac == 0 }

// Float returns v as a big.Float (53-bit precision, any exponent).
func (v Value) Float() *big.Float {
	f := new(big.Float).SetFloat64(v.Frac)
	return f.SetMantExp(f, v.Exp)
}

// Log10 returns log10(v), -Inf for 0.
func (v Value) Log10() float64 {
	if v.Frac == 0 {
		return math.Inf(-1)
	}
	return math.Log10(v.Frac) + float64(v.Exp)*math.Log10(2)
}

// ValueOfInt returns the Value nearest to x ≥ 0.
func ValueOfInt(x *big.Int) Value {
	if x.Sign() == 0 {
		return Value{}
	}
	f := new(big.Float).SetInt(x)
	mant := new(big.Float)
	exp := f.MantExp(mant) // f = mant·2^exp, mant in [0.5, 1)
	m, _ := mant.Float64()
	return Value{Frac: m, Exp: exp}
}

// Decimal writes x in scientific notation with 15 significant digits, the
// representation of huge estimates in artifacts ("6.67090375202107e+21").
func Decimal(x *big.Float) string {
	return x.Text('e', 14)
}
