package kilfoil

import (
	"math/big"
	"testing"
)

func TestScientific(t *testing.T) {
	for _, tc := range []struct{ q, sci4 string }{
		{"1/8", "1.250e-01"}, {"5/2", "2.500e+00"}, {"3", "3.000e+00"}, {"1/400", "2.500e-03"},
		{"2/3", "6.667e-01"}, {"99999/10000", "1.000e+01"}, {"1/7", "1.429e-01"}, {"7/3", "2.333e+00"},
	} {
		q, _ := new(big.Rat).SetString(tc.q)
		if got := scientific(q, 4); got != tc.sci4 {
			t.Errorf("scientific(%s, 4) = %q, want %q", tc.q, got, tc.sci4)
		}
	}
	if got := scientific(big.NewRat(123456, 1), 1); got != "1e+05" {
		t.Errorf("scientific(123456, 1) = %q", got)
	}
	huge := new(big.Rat).SetFrac(new(big.Int).Exp(big.NewInt(10), big.NewInt(400), nil), big.NewInt(3))
	if got := scientific(huge, 3); got != "3.33e+399" {
		t.Errorf("scientific(10^400/3, 3) = %q", got)
	}
}
