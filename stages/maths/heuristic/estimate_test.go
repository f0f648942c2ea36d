package heuristic

import (
	"github.com/sudoku-census/sudoku-census/stages/maths/decimal"
	"math/big"
	"testing"

	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
)

func mustEstimate(t testing.TB, s grid.Shape) *Estimate {
	t.Helper()
	e, err := NewEstimate(s)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func rat(t testing.TB, text string) *big.Rat {
	t.Helper()
	q, ok := new(big.Rat).SetString(text)
	if !ok {
		t.Fatalf("bad rational %q", text)
	}
	return q
}

// TestEstimate9x9 checks the value in the thesis (chapter 2.2):
// 948109639680^6 / (9!)^9 = 6657084616885512582463.488 exactly.
func TestEstimate9x9(t *testing.T) {
	e := mustEstimate(t, grid.Shape{R: 3, C: 3})
	want := rat(t, "6657084616885512582463.488")
	if e.Value.Cmp(want) != 0 {
		t.Fatalf("3×3 estimate = %v, want %v", e.Value, want)
	}
	if e.Bands.String() != "948109639680" || e.Stacks.String() != "948109639680" {
		t.Errorf("3×3 bands %v, stacks %v, want 948109639680 each", e.Bands, e.Stacks)
	}
	if e.Value.Denom().String() != "125" || e.Value.Num().String() != "832135577110689072807936" {
		t.Errorf("3×3 fraction %v, want 832135577110689072807936/125", e.Value)
	}
}

// TestEstimateAgainstExactCounts compares the estimate with the exact grid
// counts of the literature: 288 for 4×4 grids (ratio exactly 9/8),
// 28200960 for 6×6 grids (ratio 17/16), 6670903752021072936960 for 9×9
// grids (ratio 1.002076 to six decimals, the 0.2% of Felgenhauer and
// Jarvis), and the 12×12 counts of Pettersen (2×6 boxes) and Pettersen and
// Silver (3×4 boxes), 0.24% and 0.13% above the estimate. Rows and columns
// play symmetric roles, so R×C and C×R share the estimate.
func TestEstimateAgainstExactCounts(t *testing.T) {
	for _, tc := range []struct {
		shape grid.Shape
		exact string
		ratio string // exact / estimate, rounded to places
		place int
	}{
		{grid.Shape{R: 2, C: 2}, "288", "1.125", 3},
		{grid.Shape{R: 2, C: 3}, "28200960", "1.0625", 4},
		{grid.Shape{R: 3, C: 2}, "28200960", "1.0625", 4},
		{grid.Shape{R: 3, C: 3}, "6670903752021072936960", "1.002076", 6},
		{grid.Shape{R: 3, C: 4}, "81171437193104932746936103027318645818654720000", "1.001323", 6},
		{grid.Shape{R: 2, C: 6}, "38296278920738107863746324732012492486187417600000", "1.002389", 6},
	} {
		e := mustEstimate(t, tc.shape)
		ratio := new(big.Rat).Quo(rat(t, tc.exact), e.Value)
		if got := ratio.FloatString(tc.place); got != tc.ratio {
			t.Errorf("%v: exact/estimate = %s (%v), want %s", tc.shape, got, ratio, tc.ratio)
		}
	}
	// The ratios of the small shapes are exact: the estimates are 256 and
	// 26542080.
	if e := mustEstimate(t, grid.Shape{R: 2, C: 2}); e.Value.Cmp(rat(t, "256")) != 0 {
		t.Errorf("2×2 estimate = %v, want 256", e.Value)
	}
	if e := mustEstimate(t, grid.Shape{R: 2, C: 3}); e.Value.Cmp(rat(t, "26542080")) != 0 {
		t.Errorf("2×3 estimate = %v, want 26542080", e.Value)
	}
}

// TestEstimate16x16 checks 4×4 boxes against the published ≈ 5.9584·10^98.
func TestEstimate16x16(t *testing.T) {
	e := mustEstimate(t, grid.Shape{R: 4, C: 4})
	if m, exp := decimal.Sci(e.Value, 5); m != "5.9584" || exp != 98 {
		t.Errorf("4×4 estimate %s·10^%d, want 5.9584·10^98", m, exp)
	}
	if decimal.Terminates(e.Value) {
		t.Errorf("4×4 estimate %v has a finite decimal expansion", e.Value)
	}
}

// TestEstimateTransposeSymmetric: swapping R and C swaps bands and stacks
// and leaves the estimate unchanged.
func TestEstimateTransposeSymmetric(t *testing.T) {
	for _, s := range []grid.Shape{{R: 2, C: 4}, {R: 3, C: 4}, {R: 1, C: 5}} {
		a, b := mustEstimate(t, s), mustEstimate(t, grid.Shape{R: s.C, C: s.R})
		if a.Value.Cmp(b.Value) != 0 || a.Bands.Cmp(b.Stacks) != 0 || a.Stacks.Cmp(b.Bands) != 0 {
			t.Errorf("%v and its transpose differ: %v vs %v", s, a.Value, b.Value)
		}
	}
}

// TestEstimateLatinSquares: with 1×C boxes every box is a row, so the
// column rule is all that is left to guess and the estimate
// b(1,C)^C·b(C,1)/(N!)^N = (N!)^N·L(N)/(N!)^N is exactly L(N), the number
// of Latin squares of order N.
func TestEstimateLatinSquares(t *testing.T) {
	for c, want := range []int64{0, 1, 2, 12, 576, 161280} {
		if c == 0 {
			continue
		}
		if e := mustEstimate(t, grid.Shape{R: 1, C: c}); e.Value.Cmp(new(big.Rat).SetInt64(want)) != 0 {
			t.Errorf("1×%d estimate = %v, want L(%d) = %d", c, e.Value, c, want)
		}
	}
}
