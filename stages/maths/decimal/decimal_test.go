package decimal

import (
	"math"
	"math/big"
	"testing"
)

func TestSci(t *testing.T) {
	grids, _ := new(big.Rat).SetString("6670903752021072936960")
	for _, tc := range []struct {
		q        string
		sig      int
		mantissa string
		exp      int
	}{
		{"6670903752021072936960", 4, "6.671", 21},
		{"6670903752021072936960", 1, "7", 21},
		{"6657084616885512582463.488", 7, "6.657085", 21},
		{"99995/10", 4, "1.000", 4},   // 9999.5 carries
		{"12345/1000", 4, "1.235", 1}, // a half rounds away from zero
		{"-12345/1000", 4, "1.235", 1},
		{"1/3", 3, "3.33", -1},
		{"1/1000", 2, "1.0", -3},
		{"0", 5, "0", 0},
		{"288", 3, "2.88", 2},
	} {
		q, _ := new(big.Rat).SetString(tc.q)
		m, e := Sci(q, tc.sig)
		if m != tc.mantissa || e != tc.exp {
			t.Errorf("Sci(%s, %d) = %s, %d; want %s, %d", tc.q, tc.sig, m, e, tc.mantissa, tc.exp)
		}
	}
	if l := Log10(grids); math.Abs(l-21.824185) > 1e-6 {
		t.Errorf("Log10(N) = %v", l)
	}
	huge := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(400), nil))
	if m, e := Sci(huge, 3); m != "1.00" || e != 400 {
		t.Errorf("Sci(1e400) = %s, %d", m, e)
	}
	if l := Log10(huge); math.Abs(l-400) > 1e-9 {
		t.Errorf("Log10(1e400) = %v", l)
	}
}

func TestExactDecimal(t *testing.T) {
	for _, tc := range []struct {
		q     string
		term  bool
		exact string
	}{
		{"1/8", true, "0.125"},
		{"5/2", true, "2.5"},
		{"3", true, "3"},
		{"1/400", true, "0.0025"},
		{"2/3", false, ""},
		{"99999/10000", true, "9.9999"},
		{"1/7", false, ""},
		{"832571850925698289/125", true, "6660574807405586.312"},
	} {
		q, _ := new(big.Rat).SetString(tc.q)
		if got := Terminates(q); got != tc.term {
			t.Errorf("Terminates(%s) = %v", tc.q, got)
		}
		if tc.term {
			if got := ExactDecimal(q); got != tc.exact {
				t.Errorf("ExactDecimal(%s) = %q, want %q", tc.q, got, tc.exact)
			}
		}
	}
	huge := new(big.Rat).SetFrac(new(big.Int).Exp(big.NewInt(10), big.NewInt(400), nil), big.NewInt(3))
	if got := Log10(huge); math.Abs(got-(400-math.Log10(3))) > 1e-12 {
		t.Errorf("Log10(10^400/3) = %v", got)
	}
}
