package kilfoil

import (
	"math"
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
	row := e.Row(40)
	if !row.EstimateExact || row.Estimate != "6657084616885512582463.488" {
		t.Errorf("3×3 row estimate %q (exact %v), want 6657084616885512582463.488 (exact)", row.Estimate, row.EstimateExact)
	}
	if row.EstimateDen != "125" || row.EstimateNum != "832135577110689072807936" {
		t.Errorf("3×3 fraction %s/%s, want 832135577110689072807936/125", row.EstimateNum, row.EstimateDen)
	}
	if math.Abs(row.Log10Estimate-math.Log10(6657084616885512582463.488)) > 1e-12 {
		t.Errorf("3×3 log10 = %v", row.Log10Estimate)
	}
}

// TestEstimateAgainstExactCounts compares the estimate with the exact grid
// counts of the literature: 288 for 4×4 grids (ratio exactly 9/8),
// 28200960 for 6×6 grids (ratio 17/16), 6670903752021072936960 for 9×9
// grids (ratio 1.002076 to six decimals, the 0.2% of Felgenhauer and
// Jarvis). Rows and columns play symmetric roles, so R×C and C×R share the
// estimate.
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
	if got := Scientific(e.Value, 5); got != "5.9584e+98" {
		t.Errorf("4×4 estimate %s, want 5.9584e+98", got)
	}
	row := e.Row(40)
	if row.EstimateExact || len(row.Estimate) != len("5.")+39+len("e+98") {
		t.Errorf("4×4 row estimate %q (exact %v): want 40 significant digits, not exact", row.Estimate, row.EstimateExact)
	}
	if math.Abs(row.Log10Estimate-(98+math.Log10(5.9584))) > 1e-4 {
		t.Errorf("4×4 log10 = %v", row.Log10Estimate)
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

func TestDecimalFormats(t *testing.T) {
	for _, tc := range []struct {
		q     string
		term  bool
		exact string
		sci4  string
	}{
		{"1/8", true, "0.125", "1.250e-01"},
		{"5/2", true, "2.5", "2.500e+00"},
		{"3", true, "3", "3.000e+00"},
		{"1/400", true, "0.0025", "2.500e-03"},
		{"2/3", false, "", "6.667e-01"},
		{"99999/10000", true, "9.9999", "1.000e+01"},
		{"1/7", false, "", "1.429e-01"},
		{"7/3", false, "", "2.333e+00"},
	} {
		q := rat(t, tc.q)
		if got := Terminates(q); got != tc.term {
			t.Errorf("Terminates(%s) = %v", tc.q, got)
		}
		if tc.term {
			if got := ExactDecimal(q); got != tc.exact {
				t.Errorf("ExactDecimal(%s) = %q, want %q", tc.q, got, tc.exact)
			}
		}
		if got := Scientific(q, 4); got != tc.sci4 {
			t.Errorf("Scientific(%s, 4) = %q, want %q", tc.q, got, tc.sci4)
		}
	}
	if got := Scientific(rat(t, "123456"), 1); got != "1e+05" {
		t.Errorf("Scientific(123456, 1) = %q", got)
	}
	huge := new(big.Rat).SetFrac(new(big.Int).Exp(big.NewInt(10), big.NewInt(400), nil), big.NewInt(3))
	if got := Scientific(huge, 3); got != "3.33e+399" {
		t.Errorf("Scientific(10^400/3, 3) = %q", got)
	}
	if got := Log10(huge); math.Abs(got-(400-math.Log10(3))) > 1e-12 {
		t.Errorf("Log10(10^400/3) = %v", got)
	}
}
