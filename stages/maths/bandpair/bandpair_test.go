package bandpair

import (
	"math/bits"
	"sync"
	"testing"

	"github.com/sudoku-census/sudoku-census/stages/maths/sudoku"
)

// bandOf parses three rows of nine digits.
func bandOf(t testing.TB, rows ...string) sudoku.Band {
	t.Helper()
	if len(rows) != 3 {
		t.Fatalf("want 3 rows, got %d", len(rows))
	}
	b, err := sudoku.ParseBand(rows[0], rows[1], rows[2])
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// sharedCounter builds one Counter for all tests.
var sharedCounter = sync.OnceValue(func() *Counter {
	c, err := NewCounter(0)
	if err != nil {
		panic(err)
	}
	return c
})

// bruteBands counts bands with column sets s by trying every order of every
// column, keeping rows free of repeats.
func bruteBands(s ColumnSets) uint64 {
	var rows [3]uint16
	var walk func(j int) uint64
	walk = func(j int) uint64 {
		if j == 9 {
			return 1
		}
		var digits []uint16
		for m := s[j]; m != 0; m &= m - 1 {
			digits = append(digits, m&-m)
		}
		if len(digits) != 3 {
			return 0
		}
		var n uint64
		for _, p := range [6][3]int{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}} {
			ok := true
			for r := range 3 {
				ok = ok && rows[r]&digits[p[r]] == 0
			}
			if !ok {
				continue
			}
			for r := range 3 {
				rows[r] |= digits[p[r]]
			}
			n += walk(j + 1)
			for r := range 3 {
				rows[r] &^= digits[p[r]]
			}
		}
		return n
	}
	return walk(0)
}

func TestBandsWithColumnSetsKnown(t *testing.T) {
	// Three copies of the same block partition: three disjoint K3,3, each
	// 3-edge-coloured as a 3×3 Latin square in 12 ways.
	pure := ColumnSets{0b111, 0b111 << 3, 0b111 << 6, 0b111, 0b111 << 3, 0b111 << 6, 0b111, 0b111 << 3, 0b111 << 6}
	if got := BandsWithColumnSets(pure); got != 12*12*12 {
		t.Errorf("N(pure) = %d, want 1728", got)
	}
	// The canonical band's own column sets.
	canon := ColumnSetsOf(bandOf(t, "123456789", "456789123", "789123456"))
	if got, want := BandsWithColumnSets(canon), bruteBands(canon); got != want {
		t.Errorf("N(canonical) = %d, brute force %d", got, want)
	}
	bad := pure
	bad[0] = 0b1011 // {1,2,4} overlaps {4,5,6}
	if got := BandsWithColumnSets(bad); got != 0 {
		t.Errorf("N(invalid) = %d, want 0", got)
	}
}

// TestBandsWithColumnSetsBrute compares N(S) with brute force on every
// standard-form key whose block-2 partition is one of the first few.
func TestBandsWithColumnSetsBrute(t *testing.T) {
	if partitionCount != 280 {
		t.Fatalf("partitionCount = %d, want 280", partitionCount)
	}
	step := 1
	if testing.Short() {
		step = 7
	}
	maxN := uint64(0)
	for p2 := 0; p2 < partitionCount; p2 += 31 {
		for p3 := 0; p3 < partitionCount; p3 += step {
			s := standardSets(p2, p3)
			got, want := BandsWithColumnSets(s), bruteBands(s)
			if got != want {
				t.Fatalf("N(%v) = %d, brute force %d", s, got, want)
			}
			maxN = max(maxN, got)
		}
	}
	if maxN > 3456 || maxN < 1728 {
		t.Errorf("largest N = %d, outside [1728, 3456]", maxN)
	}
	t.Logf("largest N seen: %d", maxN)
}

func TestBlockSplits(t *testing.T) {
	for _, rows := range [][3]string{
		{"123456789", "456789123", "789123456"},
		{"123457689", "456189237", "789236145"},
	} {
		b := bandOf(t, rows[:]...)
		top := ColumnSetsOf(b)
		for k := range 3 {
			var missing [3]uint16
			for c := range 3 {
				missing[c] = allDigits &^ top[3*k+c]
			}
			splits := blockSplits(missing)
			if len(splits) != 56 {
				t.Errorf("band %v block %d: %d splits, want 56", rows, k+1, len(splits))
			}
			for _, s := range splits {
				for c := range 3 {
					if bits.OnesCount16(s[c]) != 3 || s[c]&^missing[c] != 0 {
						t.Fatalf("bad split %v", s)
					}
				}
			}
		}
	}
}

func TestCompletionsInvalidBand(t *testing.T) {
	b := bandOf(t, "123456789", "456789123", "789123456")
	b[2][8] = 5 // row 3 now repeats 5
	if _, _, err := sharedCounter().Completions(b); err == nil {
		t.Error("no error for a band with a repeated digit in a row")
	}
}

func TestCompletionsDivisibleBy72(t *testing.T) {
	c := sharedCounter()
	for _, rows := range [][3]string{
		{"123456789", "456789123", "789123456"},
		{"123457689", "456189237", "789236145"},
		{"123468579", "456179238", "789235146"},
	} {
		n, second, err := c.Completions(bandOf(t, rows[:]...))
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%v: completions %d, second bands %d", rows, n, second)
		if n == 0 || n%72 != 0 {
			t.Errorf("%v: completions %d not a positive multiple of 72", rows, n)
		}
	}
}

func TestCanonicalBandPublished(t *testing.T) {
	n, _, err := sharedCounter().Completions(bandOf(t, "123456789", "456789123", "789123456"))
	if err != nil {
		t.Fatal(err)
	}
	if n != 72*108374976 {
		t.Errorf("canonical band: %d completions, want 72·108374976", n)
	}
}
