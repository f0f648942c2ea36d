// Package decimal writes exact rationals in scientific notation without any
// floating-point rounding, so that a count printed to a few significant
// digits is the count rounded, not a float near it.
//
// For q ≠ 0 and sig ≥ 1, Sci finds the exponent e = ⌊log10 |q|⌋ and the
// integer m = round(|q|·10^(sig−1−e)) (halves away from zero), so that
//
//	|q| ≈ m·10^(e−sig+1),  10^(sig−1) ≤ m < 10^sig,
//
// where a rounding carry to 10^sig moves e up by one.
package decimal

import (
	"math"
	"math/big"
	"strings"
)

// Sci returns |q| rounded to sig ≥ 1 significant digits as a mantissa
// "d.ddd" (sig digits, no point when sig = 1) and an exponent: |q| ≈
// mantissa × 10^exp. Sci(0, sig) is ("0", 0). The sign is the caller's.
func Sci(q *big.Rat, sig int) (mantissa string, exp int) {
	if q.Sign() == 0 {
		return "0", 0
	}
	sig = max(sig, 1)
	num, den := new(big.Int).Abs(q.Num()), q.Denom()
	// exp = ⌊log10 |q|⌋: start from the digit counts and correct by one.
	exp = len(num.String()) - len(den.String())
	if compareScaled(num, den, exp) < 0 {
		exp--
	}
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
	if len(digits) > sig { // 9.99…5 rounded up to 10.0…
		digits, exp = digits[:sig], exp+1
	}
	mantissa = digits[:1]
	if sig > 1 {
		mantissa += "." + digits[1:]
	}
	return mantissa, exp
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
