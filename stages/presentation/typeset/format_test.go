package typeset

import (
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestGroupDigits(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"0", "0"},
		{"999", "999"},
		{"1000", "1{,}000"},
		{"36288", "36{,}288"},
		{"2612736", "2{,}612{,}736"},
		{"6670903752021072936960", "6{,}670{,}903{,}752{,}021{,}072{,}936{,}960"},
		{"-1234567.891", "-1{,}234{,}567.891"},
		{"6657084616885512582463.488", "6{,}657{,}084{,}616{,}885{,}512{,}582{,}463.488"},
		{"0.125", "0.125"},
	} {
		if got := GroupDigits(c.in); got != c.want {
			t.Errorf("GroupDigits(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func mustRat(t *testing.T, s string) *big.Rat {
	t.Helper()
	q, ok := new(big.Rat).SetString(s)
	if !ok {
		t.Fatalf("bad rational %q", s)
	}
	return q
}

func TestSciRat(t *testing.T) {
	for _, c := range []struct {
		in   string
		sig  int
		want string
	}{
		{"6670903752021072936960", 4, `6.671\times 10^{21}`},
		{"6670903752021072936960", 1, `7\times 10^{21}`},
		{"6657084616885512582463.488", 4, `6.657\times 10^{21}`},
		{"5524751496156892842531225600", 4, `5.525\times 10^{27}`},
		{"99995", 4, `1.000\times 10^{5}`},      // rounds up into the next decade
		{"99994", 4, `9.999\times 10^{4}`},      // and not when it does not
		{"1000", 3, `1.00\times 10^{3}`},        // exact power of ten
		{"0.00125", 2, `1.3\times 10^{-3}`},     // half away from zero
		{"-288", 2, `-2.9\times 10^{2}`},        // sign kept
		{"3.14159", 3, `3.14`},                  // no ×10^0
		{"1/3", 3, `3.33\times 10^{-1}`},        // a true fraction
		{"4.123e308", 3, `4.12\times 10^{308}`}, // past the float64 range (25×25 counts)
		{"1e-400", 2, `1.0\times 10^{-400}`},    // below it
	} {
		if got := SciRat(mustRat(t, c.in), c.sig); got != c.want {
			t.Errorf("SciRat(%s, %d) = %q, want %q", c.in, c.sig, got, c.want)
		}
	}
}

// sciRatReference is SciRat as it was before it called decimal.Sci: the
// exponent from a binary float, corrected exactly, and the mantissa rounded
// by big.Rat.FloatString (halves away from zero).
func sciRatReference(q *big.Rat, sig int) string {
	if q.Sign() == 0 {
		return "0"
	}
	sign := ""
	a := new(big.Rat).Abs(q)
	if q.Sign() < 0 {
		sign = "-"
	}
	frac := new(big.Float)
	exp2 := new(big.Float).SetRat(a).MantExp(frac)
	mf, _ := frac.Float64()
	e := int(math.Floor(math.Log10(mf) + float64(exp2)*math.Log10(2)))
	pow := func(e int) *big.Rat {
		p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(max(e, -e))), nil)
		if e < 0 {
			return new(big.Rat).SetFrac(big.NewInt(1), p)
		}
		return new(big.Rat).SetInt(p)
	}
	m := new(big.Rat).Quo(a, pow(e))
	for m.Cmp(big.NewRat(10, 1)) >= 0 {
		e++
		m.Quo(a, pow(e))
	}
	for m.Cmp(big.NewRat(1, 1)) < 0 {
		e--
		m.Quo(a, pow(e))
	}
	mant := m.FloatString(sig - 1)
	if strings.HasPrefix(mant, "10") {
		e++
		m.Quo(a, pow(e))
		mant = m.FloatString(sig - 1)
	}
	return sign + sci(mant, e)
}

// TestSciRatAsBefore checks that SciRat prints what it printed before it
// called decimal.Sci, on rationals near roundings and decade boundaries.
func TestSciRatAsBefore(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		num := new(big.Int)
		for range 4 {
			num.Lsh(num, 64).Or(num, new(big.Int).SetUint64(rng.Uint64()))
		}
		num.Rsh(num, uint(rng.IntN(256))) // 0 to 256 bits
		// A third are halfway or decade cases: d·10^k plus or minus a little.
		if rng.IntN(3) == 0 {
			num.SetInt64(int64(rng.IntN(100000)))
			num.Mul(num, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(rng.IntN(30))), nil))
			num.Add(num, big.NewInt(int64(rng.IntN(11)-5)))
		}
		den := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(rng.IntN(40))), nil)
		if rng.IntN(2) == 0 {
			den.SetInt64(int64(1 + rng.IntN(1000000)))
		}
		q := new(big.Rat).SetFrac(num, den)
		if rng.IntN(4) == 0 {
			q.Neg(q)
		}
		sig := 1 + rng.IntN(8)
		if got, want := SciRat(q, sig), sciRatReference(q, sig); got != want {
			t.Fatalf("SciRat(%s, %d) = %q, before %q", q.RatString(), sig, got, want)
		}
	}
}

func TestSig(t *testing.T) {
	for _, c := range []struct {
		in   float64
		sig  int
		want string
	}{
		{6.675149464993393541120e21, 4, `6.675\times 10^{21}`},
		{6.24e-29, 3, `6.24\times 10^{-29}`},
		{1.091e50, 4, `1.091\times 10^{50}`},
		{288, 3, `288`},
		{5, 2, `5.0`},
		{16.62, 3, `16.6`},
		{0.72814, 3, `0.728`},
		{0.0123, 2, `0.012`},
		{0.00999, 2, `0.010`},
		{0.00949, 2, `9.5\times 10^{-3}`},
		{999.6, 3, `1.00\times 10^{3}`},
		{530.2, 2, `530`},
		{-16.62, 3, `-16.6`},
		{0, 3, `0`},
		{math.Inf(1), 3, `\infty`},
	} {
		if got := Sig(c.in, c.sig); got != c.want {
			t.Errorf("Sig(%g, %d) = %q, want %q", c.in, c.sig, got, c.want)
		}
	}
}

func TestDecimalPercentFixed(t *testing.T) {
	// Kilfoil's estimate from the thesis: 948109639680^6 / (9!)^9.
	num := new(big.Int).Exp(big.NewInt(948109639680), big.NewInt(6), nil)
	den := new(big.Int).Exp(big.NewInt(362880), big.NewInt(9), nil)
	kilfoil := new(big.Rat).SetFrac(num, den)
	if got, want := Decimal(kilfoil, 3), "6{,}657{,}084{,}616{,}885{,}512{,}582{,}463.488"; got != want {
		t.Errorf("Decimal(Kilfoil) = %q, want %q", got, want)
	}
	if got, want := Decimal(big.NewRat(5, 2), 0), "3"; got != want { // half away from zero
		t.Errorf("Decimal(5/2, 0) = %q, want %q", got, want)
	}
	if got, want := Percent(0.0020715, 2), "0.21"; got != want {
		t.Errorf("Percent = %q, want %q", got, want)
	}
	if got, want := Percent(math.Inf(1), 2), `\infty`; got != want {
		t.Errorf("Percent(+Inf) = %q, want %q", got, want)
	}
	if got, want := Fixed(12345.678, 1), "12{,}345.7"; got != want {
		t.Errorf("Fixed = %q, want %q", got, want)
	}
	if got, want := Group("2612736", ","), "2,612,736"; got != want {
		t.Errorf("Group = %q, want %q", got, want)
	}
	if got, want := Int64(-2612736), "-2{,}612{,}736"; got != want {
		t.Errorf("Int64 = %q, want %q", got, want)
	}
}

func TestMacroName(t *testing.T) {
	for _, c := range []struct {
		in   []string
		want string
	}{
		{[]string{"grids", "exact"}, "GridsExact"},
		{[]string{"knuth", "3x3", "ci-low"}, "KnuthThreeXThreeCiLow"},
		{[]string{"importance", "ridder_row", "RAT"}, "ImportanceRidderRowRAT"},
		{[]string{"funnel", "level 6"}, "FunnelLevelSix"},
	} {
		if got := MacroName(c.in...); got != c.want {
			t.Errorf("MacroName(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestTeXEscape(t *testing.T) {
	if got, want := TeXEscape(`2×2 rectangles & 50% of {a_b}`), `2$\times$2 rectangles \& 50\% of \{a\_b\}`; got != want {
		t.Errorf("TeXEscape = %q, want %q", got, want)
	}
}

func TestFactors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"2^7 × 27704267971", `2^{7}\times 27{,}704{,}267{,}971`},
		{"3", "3"},
		{"2^2 × 3 × 5^3", `2^{2}\times 3\times 5^{3}`},
	} {
		if got := Factors(c.in); got != c.want {
			t.Errorf("Factors(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestSciLog10(t *testing.T) {
	for _, c := range []struct {
		l    float64
		sig  int
		want string
	}{{400.5, 3, `3.16\times 10^{400}`}, {2, 2, `1.0\times 10^{2}`}, {-1.5, 2, `3.2\times 10^{-2}`}, {0.99999, 3, `1.00\times 10^{1}`}} {
		if got := SciLog10(c.l, c.sig); got != c.want {
			t.Errorf("SciLog10(%g, %d) = %q, want %q", c.l, c.sig, got, c.want)
		}
	}
}

// TestCount prints large real counts whole, small ones with a decimal.
func TestCount(t *testing.T) {
	for _, c := range []struct {
		in   float64
		want string
	}{{2778873.7, "2{,}778{,}874"}, {99.94, "99.9"}, {12.34, "12.3"}, {100, "100"}} {
		if got := Count(c.in); got != c.want {
			t.Errorf("Count(%g) = %q, want %q", c.in, got, c.want)
		}
	}
}
