package walkbands

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"
	"testing"
	"time"

	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
	"github.com/sudoku-census/sudoku-census/stages/maths/heuristic"
	"github.com/sudoku-census/sudoku-census/stages/maths/montecarlo"
)

func mustShape(t testing.TB, s string) grid.Shape {
	sh, err := grid.ParseShape(s)
	if err != nil {
		t.Fatal(err)
	}
	return sh
}

// validBand reports whether cells (R rows of N) is a band of shape s: every
// row and every box holds 1…N once.
func validBand(cells []uint8, r, c int) bool {
	n := r * c
	for i := range r {
		var seen uint64
		for k := range n {
			seen |= 1 << cells[i*n+k]
		}
		if seen != (uint64(1)<<n-1)<<1 {
			return false
		}
	}
	for b := range r {
		var seen uint64
		for i := range r {
			for k := b * c; k < b*c+c; k++ {
				seen |= 1 << cells[i*n+k]
			}
		}
		if seen != (uint64(1)<<n-1)<<1 {
			return false
		}
	}
	return true
}

// chiSquare returns Σ (observed − expected)²/expected for equally likely
// categories.
func chiSquare(counts map[string]int, categories, draws int) float64 {
	e := float64(draws) / float64(categories)
	x := 0.0
	for _, o := range counts {
		x += (float64(o) - e) * (float64(o) - e) / e
	}
	return x + float64(categories-len(counts))*e // categories never seen
}

// Draws are valid bands, and uniform: on 2×2, 3×1 and 4×1 boxes every band
// is a category (96, 12 and 576 of them, b(R,C) as package heuristic
// counts them); on 3×2, 3×3, 3×4 and 4×2 boxes, where the bands are too
// many, the set array (which row of each box each symbol of each first-box
// row goes to) is the category, M(3,2) = 10, M(3,3) = 56, M(3,4) = 346 and
// M(4,2) = 5,016 of them (drawn through setArrays), and on 5×1 boxes
// M(5,1) = 1,344 (through boxSets), each to be equally likely. The χ² bounds are about 5 standard deviations above the mean
// (degrees of freedom k − 1, variance 2(k − 1)): a sampler that favoured
// some category by a few per cent fails.
func TestFirstBandUniform(t *testing.T) {
	for _, c := range []struct {
		shape      string
		categories int
		setArray   bool
		perCat     int // draws per category
	}{{"2x2", 96, false, 1000}, {"3x1", 12, false, 1000}, {"4x1", 576, false, 500}, {"3x2", 10, true, 1000}, {"3x3", 56, true, 1000}, {"3x4", 346, true, 1000}, {"4x2", 5016, true, 100}, {"5x1", 1344, true, 50}} {
		if testing.Short() && c.categories > 1000 {
			continue // 4x2 and 5x1: 500,000 and 67,000 draws, 6 s and 30 s
		}
		s := mustShape(t, c.shape)
		f, err := NewFirstBand(context.Background(), s)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := heuristic.BandCount(s)
		m, _ := heuristic.BandCompletions(s)
		if want := map[bool]*big.Int{false: b, true: m}[c.setArray]; want.Int64() != int64(c.categories) {
			t.Fatalf("%s: %v categories by package heuristic, the test expects %d", c.shape, want, c.categories)
		}
		src := montecarlo.Spec{Seed: 5}.Source(0)
		draws := c.perCat * c.categories
		counts := map[string]int{}
		for range draws {
			cells := f.Draw(src)
			if !validBand(cells, s.R, s.C) {
				t.Fatalf("%s: invalid band %v", c.shape, cells)
			}
			key := fmt.Sprint(cells)
			if c.setArray {
				key = setArrayKey(cells, s.R, s.C)
			}
			counts[key]++
		}
		df := float64(c.categories - 1)
		x := chiSquare(counts, c.categories, draws)
		t.Logf("%s: %d categories seen of %d, χ² = %.1f (df %.0f)", c.shape, len(counts), c.categories, x, df)
		if len(counts) != c.categories || x > df+5*math.Sqrt(2*df) {
			t.Errorf("%s: %d of %d categories, χ² = %.1f: not uniform", c.shape, len(counts), c.categories, x)
		}
	}
}

// setArrayKey names the set array of a band: the symbols renamed by their
// cell in the first box (row i, column k: iC + k), then for each box after
// the first and each row, the set of names it holds.
func setArrayKey(cells []uint8, r, c int) string {
	n := r * c
	name := make([]int, n+1)
	for i := range r {
		for k := range c {
			name[cells[i*n+k]] = i*c + k
		}
	}
	var key []int
	for b := 1; b < r; b++ {
		for i := range r {
			var set []int
			for k := b * c; k < b*c+c; k++ {
				set = append(set, name[cells[i*n+k]])
			}
			slices.Sort(set)
			key = append(key, set...)
		}
	}
	return fmt.Sprint(key)
}

// The number of bands, from FirstBand's closed forms (R ≤ 3) and its count
// of set arrays symbol by symbol (R = 4), is package heuristic's general
// count (box by box) for every shape both handle, and the closed form
// b(2,C) = (2C)!·(C!)² beyond them (2×6, 2×7).
func TestFirstBandCount(t *testing.T) {
	shapes := []string{"1x4", "2x2", "2x3", "3x2", "2x5", "3x3", "3x4", "3x5", "2x6", "2x7", "4x1", "4x2", "4x3", "4x4", "4x5", "4x6", "5x1", "5x2", "5x3"}
	if !testing.Short() {
		shapes = append(shapes, "5x4", "5x5") // 4 s and 33 s
	}
	for _, shape := range shapes {
		s := mustShape(t, shape)
		f, err := NewFirstBand(context.Background(), s)
		if err != nil {
			t.Fatal(err)
		}
		want, err := heuristic.BandCount(s)
		if err != nil { // sides beyond package heuristic's range: R = 2
			c := int64(s.C)
			cf := new(big.Int).MulRange(1, c)
			want = new(big.Int).Mul(new(big.Int).MulRange(1, 2*c), new(big.Int).Mul(cf, cf))
		}
		if f.Count().Float().Cmp(montecarlo.ValueOfInt(want).Float()) != 0 {
			t.Errorf("%s: %v bands, want %v", shape, f.Count().Float(), want)
		}
	}
	if _, err := NewFirstBand(context.Background(), mustShape(t, "6x2")); err == nil {
		t.Error("6x2: no error for box height 6")
	}
}

// The two counts of set arrays, symbol by symbol (setArrays) and box by
// box (boxSets), agree on box height 4, and on 3 with the Franel number.
func TestSetArrayCountsAgree(t *testing.T) {
	for r := 3; r <= 4; r++ {
		for c := 1; c <= 5; c++ {
			a, err := newSetArrays(r, c)
			if err != nil {
				t.Fatal(err)
			}
			b, err := newBoxSets(context.Background(), r, c)
			if err != nil {
				t.Fatal(err)
			}
			if a.total.Cmp(b.total) != 0 {
				t.Errorf("%d×%d: %v set arrays symbol by symbol, %v box by box", r, c, a.total, b.total)
			}
		}
	}
}

// TestBoxSets5x6 checks the box-by-box count of set arrays of 5×6 bands
// (30×30 grids) against M(5,6) = 3261734691836217181002772823310336, the
// value package heuristic's programme gives (its TestBandCompletions5x6):
// the two share no counting code. 77 CPU-seconds and 1.5 GB (2026-12-06).
func TestBoxSets5x6(t *testing.T) {
	if testing.Short() {
		t.Skip("77 CPU-seconds, 1.5 GB")
	}
	b, err := newBoxSets(context.Background(), 5, 6)
	if err != nil {
		t.Fatal(err)
	}
	if want := "3261734691836217181002772823310336"; b.total.String() != want {
		t.Errorf("5×6: %v set arrays box by box, want M(5,6) = %s", b.total, want)
	}
}

// TestBoxSetsStops: a cancelled context stops the box-by-box count (the
// 5×5 build would take half a minute), and a stopped build is not kept:
// the next caller builds the counter.
func TestBoxSetsStops(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, err := newBoxSets(ctx, 5, 5); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("5x5 with a deadline of 100 ms: %v, want the deadline's error", err)
	}
	// 5x2 afresh (another test may have built it in this process).
	boxSetsByShape.mu.Lock()
	delete(boxSetsByShape.built, [2]int{5, 2})
	boxSetsByShape.mu.Unlock()
	stopped, cancelNow := context.WithCancel(context.Background())
	cancelNow()
	if _, err := sharedBoxSets(stopped, 5, 2); !errors.Is(err, context.Canceled) {
		t.Fatalf("5x2 cancelled: %v", err)
	}
	b, err := sharedBoxSets(context.Background(), 5, 2)
	if err != nil || b.total.Sign() <= 0 {
		t.Fatalf("5x2 after a cancelled build: %v, %v", b, err)
	}
}
