package bandpair

import (
	"math/big"
	"testing"
)

func TestFactorise(t *testing.T) {
	for n, want := range map[int64]string{
		2: "2", 12: "2^2 × 3", 97: "97", 3546146300288: "2^7 × 27704267971", 1 << 40: "2^40",
	} {
		if got, err := Factorise(big.NewInt(n)); err != nil || got != want {
			t.Errorf("Factorise(%d) = %q, %v; want %q", n, got, err, want)
		}
	}
	if _, err := Factorise(big.NewInt(1)); err == nil {
		t.Error("Factorise(1): no error")
	}
}

func TestTallyRejectsNonMultiple(t *testing.T) {
	if _, err := Tally([]Class{{FirstBands: 72, Completions: 71}}); err == nil {
		t.Error("no error for a count that is not a multiple of 72²")
	}
}
