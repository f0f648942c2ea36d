package backtrack

import (
	"context"
	"math/big"
	"testing"

	"github.com/sudoku-census/sudoku-census/stages/maths/bandpair"
	"github.com/sudoku-census/sudoku-census/stages/maths/sudoku"
)

// bandOf parses a band of three rows of nine digits.
func bandOf(t testing.TB, rows ...string) sudoku.Band {
	t.Helper()
	b, err := sudoku.ParseBand(rows[0], rows[1], rows[2])
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestFirstColumns(t *testing.T) {
	b := bandOf(t, "123456789", "456789123", "789123456")
	fcs := FirstColumns(b)
	if len(fcs)*FirstColumnWeight != 720 {
		t.Fatalf("%d first columns of weight %d, want 720 fillings", len(fcs), FirstColumnWeight)
	}
	seen := map[FirstColumn]bool{}
	for _, fc := range fcs {
		var digits uint16
		for r := range 3 {
			digits |= 1<<fc.Upper[r] | 1<<fc.Lower[r]
		}
		if digits != 1<<2|1<<3|1<<5|1<<6|1<<8|1<<9 {
			t.Errorf("%v: digits %b, want {2,3,5,6,8,9}", fc, digits)
		}
		if fc.Upper[0] != 2 || seen[fc] {
			t.Errorf("%v: not a distinct representative with 2 at the top", fc)
		}
		seen[fc] = true
	}
}

// TestMethodsAgree counts a few bands by both methods (TestStage checks
// the first two classes, among them the canonical band, through the
// pipeline).
func TestMethodsAgree(t *testing.T) {
	bands := [][3]string{{"123457689", "456189237", "789236145"}}
	if !testing.Short() {
		bands = append(bands, [3]string{"123468579", "456179238", "789235146"})
	}
	c, err := bandpair.NewCounter(0)
	if err != nil {
		t.Fatal(err)
	}
	for _, rows := range bands {
		b := bandOf(t, rows[:]...)
		pair, _, err := c.Completions(b)
		if err != nil {
			t.Fatal(err)
		}
		back, err := Completions(context.Background(), b, 0)
		if err != nil {
			t.Fatal(err)
		}
		if back.Cmp(new(big.Int).SetUint64(pair)) != 0 {
			t.Errorf("%v: band-pair %d, backtracking %s", rows, pair, back)
		}
		t.Logf("%v: %d", rows, pair)
	}
}

// BenchmarkBacktrackOneClass recounts the canonical band (class 0) by
// backtracking on all CPUs.
func BenchmarkBacktrackOneClass(b *testing.B) {
	band := bandOf(b, "123456789", "456789123", "789123456")
	for b.Loop() {
		if _, err := Completions(context.Background(), band, 0); err != nil {
			b.Fatal(err)
		}
	}
}
