package grid

import (
	"math/big"
	"math/bits"
)

// Uint128 is an exact unsigned 128-bit integer, Hi·2⁶⁴ + Lo. The counter
// accumulates completions in it: counts enumerated by search stay far below
// 2¹²⁸, and additions are checked, so no count is ever silently wrapped.
type Uint128 struct {
	Hi, Lo uint64
}

// Add returns a + b and whether the sum overflowed 128 bits.
func (a Uint128) Add(b Uint128) (sum Uint128, overflow bool) {
	lo, carry := bits.Add64(a.Lo, b.Lo, 0)
	hi, carry := bits.Add64(a.Hi, b.Hi, carry)
	return Uint128{Hi: hi, Lo: lo}, carry != 0
}

// add64 adds a small count; callers have bounded it so it cannot overflow.
func (a Uint128) add64(x uint64) Uint128 {
	lo, carry := bits.Add64(a.Lo, x, 0)
	return Uint128{Hi: a.Hi + carry, Lo: lo}
}

// IsZero reports whether a is 0.
func (a Uint128) IsZero() bool { return a.Hi == 0 && a.Lo == 0 }

// Big returns a as a new big.Int.
func (a Uint128) Big() *big.Int {
	z := new(big.Int).SetUint64(a.Hi)
	z.Lsh(z, 64)
	return z.Or(z, new(big.Int).SetUint64(a.Lo))
}

// String writes a in decimal.
func (a Uint128) String() string { return a.Big().String() }

// Mul64 returns a·x and whether the product overflowed 128 bits.
func (a Uint128) Mul64(x uint64) (product Uint128, overflow bool) {
	hiHi, hiLo := bits.Mul64(a.Hi, x)
	loHi, lo := bits.Mul64(a.Lo, x)
	hi, carry := bits.Add64(hiLo, loHi, 0)
	return Uint128{Hi: hi, Lo: lo}, hiHi != 0 || carry != 0
}
