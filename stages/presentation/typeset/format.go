// Package typeset is how the presentation writes numbers and tables: exact
// counts with grouped digits, statistics in scientific notation, and tables
// of results kept as neutral cells (text, math, code, citations) that print
// as TeX for the paper and as HTML for the report from the same strings.
package typeset

// Number formatting for the paper: exact counts in full with grouped
// digits, statistics in scientific notation, and exact rationals rounded
// exactly (by package decimal) so that no float rounding touches a count.

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode"

	"github.com/sudoku-census/sudoku-census/stages/maths/decimal"
)

// groupSep separates groups of three digits in print. The braces keep TeX
// from adding the space that follows a punctuation comma in math mode.
const groupSep = "{,}"

// GroupDigits inserts the TeX separator {,} between groups of three digits
// of the integer part of a decimal numeral ("-1234567.891" gives
// "-1{,}234{,}567.891"). Integer parts of four digits are grouped too, so
// that every number in a column looks alike.
func GroupDigits(numeral string) string { return Group(numeral, groupSep) }

// Group is GroupDigits with the separator sep: Group("2612736", ",") is
// "2,612,736", for plain-text labels.
func Group(numeral, sep string) string {
	sign := ""
	if strings.HasPrefix(numeral, "-") || strings.HasPrefix(numeral, "+") {
		sign, numeral = numeral[:1], numeral[1:]
	}
	intPart, frac, hasFrac := strings.Cut(numeral, ".")
	var b strings.Builder
	b.WriteString(sign)
	for i, d := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteString(sep)
		}
		b.WriteRune(d)
	}
	if hasFrac {
		b.WriteString(".")
		b.WriteString(frac)
	}
	return b.String()
}

// Int prints an exact integer in full with grouped digits.
func Int(n *big.Int) string { return GroupDigits(n.String()) }

// Int64 prints an integer in full with grouped digits.
func Int64(n int64) string { return GroupDigits(strconv.FormatInt(n, 10)) }

// Decimal prints an exact rational rounded to places decimal places
// (halves away from zero), with grouped digits.
func Decimal(q *big.Rat, places int) string { return GroupDigits(q.FloatString(places)) }

// Fixed prints x with places decimal places, grouped.
func Fixed(x float64, places int) string {
	if special, ok := nonFinite(x); ok {
		return special
	}
	return GroupDigits(strconv.FormatFloat(x, 'f', places, 64))
}

// nonFinite prints infinities as TeX and NaN as a dash.
func nonFinite(x float64) (string, bool) {
	switch {
	case math.IsInf(x, 1):
		return `\infty`, true
	case math.IsInf(x, -1):
		return `-\infty`, true
	case math.IsNaN(x):
		return "--", true
	}
	return "", false
}

// Percent prints the fraction x as a percentage with places decimal places
// and no sign: 0.00207 with 2 places gives "0.21".
func Percent(x float64, places int) string { return Fixed(100*x, places) }

// sci writes mantissa × 10^exp for TeX math mode.
func sci(mantissa string, exp int) string {
	if exp == 0 {
		return mantissa
	}
	return mantissa + `\times 10^{` + strconv.Itoa(exp) + `}`
}

// Count prints a count that is a real number, such as an effective sample
// size (Σw)²/Σw²: whole from 100 up (2,778,874, not 2,778,873.7), with one
// decimal below.
func Count(x float64) string {
	if x >= 100 && x < 1<<62 {
		return Int64(int64(math.Round(x)))
	}
	return Fixed(x, 1)
}

// Sig prints the statistic x with sig significant digits, rounded to
// nearest: in plain decimals when 0.01 ≤ |x| < 1000 (Sig(16.62, 3) is
// "16.6", Sig(0.7281, 3) is "0.728"), so that a table's column of relative
// variances reads 0.73, 16.6, 120 rather than mixing powers of ten into
// small numbers, and in scientific notation otherwise (Sig(6.6709e21, 4)
// is `6.671\times 10^{21}`). Exact values go through SciRat.
func Sig(x float64, sig int) string {
	if special, ok := nonFinite(x); ok {
		return special
	}
	if x == 0 {
		return "0"
	}
	s := strconv.FormatFloat(x, 'e', sig-1, 64)
	mant, exp, _ := strings.Cut(s, "e")
	e, _ := strconv.Atoi(exp)
	if e >= -2 && e <= 2 {
		// Reformat the rounded value, so the digits are those of s.
		rounded, _ := strconv.ParseFloat(s, 64)
		return strconv.FormatFloat(rounded, 'f', max(sig-1-e, 0), 64)
	}
	return sci(mant, e)
}

// SciRat prints the exact value q in scientific notation with sig
// significant digits, rounded exactly (halves away from zero, by
// decimal.Sci), so that no float rounding touches a count:
// SciRat(6670903752021072936960, 4) is `6.671\times 10^{21}`.
func SciRat(q *big.Rat, sig int) string {
	sign := ""
	if q.Sign() < 0 {
		sign = "-"
	}
	mant, exp := decimal.Sci(q, sig)
	return sign + sci(mant, exp)
}

// SciInt is SciRat for an integer.
func SciInt(n *big.Int, sig int) string { return SciRat(new(big.Rat).SetInt(n), sig) }

var digitWords = [...]string{"Zero", "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine"}

// MacroName joins parts into a TeX control word, which may hold letters
// only: each run of letters is capitalised, each digit spelled out, and
// anything else dropped. MacroName("knuth", "3x3", "ci-low") is
// "KnuthThreeXThreeCiLow".
func MacroName(parts ...string) string {
	var b strings.Builder
	for _, part := range parts {
		startWord := true
		for _, r := range part {
			switch {
			case r >= '0' && r <= '9':
				b.WriteString(digitWords[r-'0'])
				startWord = true
			case r < unicode.MaxASCII && unicode.IsLetter(r):
				if startWord {
					r = unicode.ToUpper(r)
				}
				b.WriteRune(r)
				startWord = false
			default:
				startWord = true
			}
		}
	}
	return b.String()
}

// TeXEscape escapes text for TeX's text mode.
func TeXEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '\\':
			b.WriteString(`\textbackslash{}`)
		case '&', '%', '$', '#', '_', '{', '}':
			b.WriteRune('\\')
			b.WriteRune(r)
		case '~':
			b.WriteString(`\textasciitilde{}`)
		case '^':
			b.WriteString(`\textasciicircum{}`)
		case '×':
			b.WriteString(`$\times$`)
		case '→':
			b.WriteString(`$\to$`)
		case '·':
			b.WriteString(`$\cdot$`)
		case 'α':
			b.WriteString(`$\alpha$`)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Factors prints a prime factorisation written "2^7 × 27704267971" in
// TeX math: `2^{7}\times 27{,}704{,}267{,}971`.
func Factors(text string) string {
	var parts []string
	for _, factor := range strings.Split(text, "×") {
		base, exp, hasExp := strings.Cut(strings.TrimSpace(factor), "^")
		part := GroupDigits(base)
		if hasExp {
			part += "^{" + exp + "}"
		}
		parts = append(parts, part)
	}
	return strings.Join(parts, `\times `)
}

// SciLog10 prints 10^l in scientific notation with sig significant digits,
// for values known only by their logarithm because they pass the float64
// range: SciLog10(400.5, 3) is `3.16\times 10^{400}`.
func SciLog10(l float64, sig int) string {
	e := math.Floor(l)
	m := math.Pow(10, l-e)
	mant := strconv.FormatFloat(m, 'f', sig-1, 64)
	if strings.HasPrefix(mant, "10") { // rounded up into the next decade
		e++
		mant = strconv.FormatFloat(m/10, 'f', sig-1, 64)
	}
	return sci(mant, int(e))
}
