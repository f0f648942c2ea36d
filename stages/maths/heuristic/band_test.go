package heuristic

import (
	"math/big"
	"testing"
	"time"

	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
)

// region is a rectangle of cells to fill with symbols 0..n−1 such that
// every unit (a set of n cells: a row, a column or a box) holds each
// symbol once.
type region struct {
	n      int
	cells  int
	units  [][]int // units[u] lists its cells
	unitOf [][]int // unitOf[cell] lists the units holding it
}

func newRegion(n, cells int, units [][]int) *region {
	g := &region{n: n, cells: cells, units: units, unitOf: make([][]int, cells)}
	for u, unit := range units {
		for _, cell := range unit {
			g.unitOf[cell] = append(g.unitOf[cell], u)
		}
	}
	return g
}

// bandRegion is the band of shape s: R rows of N cells, R boxes.
func bandRegion(s grid.Shape) *region {
	n := s.N()
	var units [][]int
	for r := 0; r < s.R; r++ {
		var row []int
		for c := 0; c < n; c++ {
			row = append(row, r*n+c)
		}
		units = append(units, row)
	}
	for b := 0; b < s.R; b++ {
		var box []int
		for r := 0; r < s.R; r++ {
			for c := b * s.C; c < (b+1)*s.C; c++ {
				box = append(box, r*n+c)
			}
		}
		units = append(units, box)
	}
	return newRegion(n, s.R*n, units)
}

// stackRegion is the stack of shape s: N rows of C cells, C boxes of R×C
// stacked vertically; every column is a unit.
func stackRegion(s grid.Shape) *region {
	n := s.N()
	var units [][]int
	for c := 0; c < s.C; c++ {
		var col []int
		for r := 0; r < n; r++ {
			col = append(col, r*s.C+c)
		}
		units = append(units, col)
	}
	for b := 0; b < s.C; b++ {
		var box []int
		for r := b * s.R; r < (b+1)*s.R; r++ {
			for c := 0; c < s.C; c++ {
				box = append(box, r*s.C+c)
			}
		}
		units = append(units, box)
	}
	return newRegion(n, n*s.C, units)
}

// count fills the cells not in fixed by backtracking, in order, with the
// cells in fixed already set, and returns the number of fillings. When
// after[cell] is a cell (not −1), cell must hold a larger symbol than it.
func (g *region) count(fixed map[int]int, after []int) int64 {
	used := make([]uint64, len(g.units))
	for cell, sym := range fixed {
		for _, u := range g.unitOf[cell] {
			used[u] |= 1 << sym
		}
	}
	var free []int
	for cell := 0; cell < g.cells; cell++ {
		if _, ok := fixed[cell]; !ok {
			free = append(free, cell)
		}
	}
	value := make([]int, g.cells)
	for cell, sym := range fixed {
		value[cell] = sym
	}
	var fill func(k int) int64
	fill = func(k int) int64 {
		if k == len(free) {
			return 1
		}
		cell := free[k]
		units := g.unitOf[cell]
		var taken uint64
		for _, u := range units {
			taken |= used[u]
		}
		least := 0
		if after != nil && after[cell] >= 0 {
			least = value[after[cell]] + 1
		}
		var total int64
		for sym := least; sym < g.n; sym++ {
			if taken&(1<<sym) != 0 {
				continue
			}
			for _, u := range units {
				used[u] |= 1 << sym
			}
			value[cell] = sym
			total += fill(k + 1)
			for _, u := range units {
				used[u] &^= 1 << sym
			}
		}
		return total
	}
	return fill(0)
}

// firstBox fixes the first box of a band to 0..N−1 in reading order.
func firstBox(s grid.Shape) map[int]int {
	fixed := map[int]int{}
	for r := 0; r < s.R; r++ {
		for c := 0; c < s.C; c++ {
			fixed[r*s.N()+c] = r*s.C + c
		}
	}
	return fixed
}

func mustBandCount(t testing.TB, s grid.Shape) *big.Int {
	t.Helper()
	b, err := BandCount(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestBandCountBruteForce compares b(R,C) with a plain backtracking count
// of whole bands, and of stacks, which must give b(C,R).
func TestBandCountBruteForce(t *testing.T) {
	for _, s := range []grid.Shape{
		{R: 1, C: 1}, {R: 1, C: 4}, {R: 2, C: 1}, {R: 3, C: 1}, {R: 4, C: 1}, {R: 5, C: 1},
		{R: 2, C: 2}, {R: 2, C: 3}, {R: 3, C: 2},
	} {
		want := bandRegion(s).count(nil, nil)
		if got := mustBandCount(t, s); got.Cmp(big.NewInt(want)) != 0 {
			t.Errorf("b(%d,%d) = %v, brute force %d", s.R, s.C, got, want)
		}
		stacks := stackRegion(s).count(nil, nil)
		if got := mustBandCount(t, grid.Shape{R: s.C, C: s.R}); got.Cmp(big.NewInt(stacks)) != 0 {
			t.Errorf("stacks of %v: b(%d,%d) = %v, brute force %d", s, s.C, s.R, got, stacks)
		}
	}
}

// increasing makes every row of every box but the first increasing, so
// that a filling of the band stands for the array of sets A(i,j) alone.
func increasing(s grid.Shape) []int {
	after := make([]int, s.R*s.N())
	for cell := range after {
		after[cell] = -1
		if col := cell % s.N(); col >= s.C && col%s.C != 0 {
			after[cell] = cell - 1
		}
	}
	return after
}

// TestBandCompletionsBruteForce counts M by backtracking over bands with
// the first box fixed and the other boxes' rows increasing, and checks the
// factor (C!)^(R(R−1)) by counting 3×3 completions without that order.
// (4×3, M = 2180544, agrees as well but takes ten seconds by brute force.)
func TestBandCompletionsBruteForce(t *testing.T) {
	for _, s := range []grid.Shape{
		{R: 2, C: 4}, {R: 3, C: 3}, {R: 3, C: 2}, {R: 4, C: 1}, {R: 4, C: 2},
		{R: 3, C: 4}, {R: 2, C: 5}, {R: 5, C: 1}, {R: 3, C: 5},
	} {
		want := bandRegion(s).count(firstBox(s), increasing(s))
		m, err := BandCompletions(s)
		if err != nil {
			t.Fatal(err)
		}
		if m.Cmp(big.NewInt(want)) != 0 {
			t.Errorf("M(%d,%d) = %v, brute force %d", s.R, s.C, m, want)
		}
	}
	s := grid.Shape{R: 3, C: 3}
	if got, want := bandRegion(s).count(firstBox(s), nil), int64(56*6*6*6*6*6*6); got != want {
		t.Errorf("3×3 completions of a first box: brute force %d, want 56·(3!)^6 = %d", got, want)
	}
}

// TestBandCountKnown checks counts the literature gives: 56 completions and
// 948109639680 bands for 3×3 (Felgenhauer and Jarvis), and, since an R×1
// band is a Latin square of order R, the Latin square counts 1, 2, 12,
// 576, 161280, 812851200.
func TestBandCountKnown(t *testing.T) {
	m, err := BandCompletions(grid.Shape{R: 3, C: 3})
	if err != nil {
		t.Fatal(err)
	}
	if m.Cmp(big.NewInt(56)) != 0 {
		t.Errorf("M(3,3) = %v, want 56", m)
	}
	if got := mustBandCount(t, grid.Shape{R: 3, C: 3}); got.String() != "948109639680" {
		t.Errorf("b(3,3) = %v, want 948109639680", got)
	}
	for r, want := range []int64{1, 1, 2, 12, 576, 161280, 812851200} {
		if r == 0 {
			continue
		}
		if got := mustBandCount(t, grid.Shape{R: r, C: 1}); got.Cmp(big.NewInt(want)) != 0 {
			t.Errorf("b(%d,1) = %v, want L(%d) = %d", r, got, r, want)
		}
	}
	// A band of one row is a permutation; a band of two rows of boxes 2×C
	// is fixed by its first row up to the order inside each box half.
	for c := 1; c <= MaxSide; c++ {
		n := int64(c)
		if got := mustBandCount(t, grid.Shape{R: 1, C: c}); got.Cmp(new(big.Int).MulRange(1, n)) != 0 {
			t.Errorf("b(1,%d) = %v, want %d!", c, got, c)
		}
		cf := new(big.Int).MulRange(1, n)
		want := new(big.Int).MulRange(1, 2*n)
		want.Mul(want, cf).Mul(want, cf)
		if got := mustBandCount(t, grid.Shape{R: 2, C: c}); got.Cmp(want) != 0 {
			t.Errorf("b(2,%d) = %v, want (2C)!·(C!)^2 = %v", c, got, want)
		}
	}
}

func TestBandCountRejectsLargeSides(t *testing.T) {
	for _, s := range []grid.Shape{{R: 7, C: 1}, {R: 1, C: 7}, {R: 0, C: 3}, {R: 3, C: 0}, {R: 7, C: 6}, {R: 6, C: 7}} {
		if _, err := BandCompletions(s); err == nil {
			t.Errorf("BandCompletions(%v) accepted", s)
		}
	}
}

// TestCanonicalIsOrbitMinimum checks that canonical is constant on orbits
// and is the least packed image.
func TestCanonicalIsOrbitMinimum(t *testing.T) {
	l := newSubsetLevel(4, 2, permutations(4))
	counts := []int{5, 0, 3, 1, 4, 2}
	pack := func(img []int) state {
		var v state
		for k, n := range counts {
			v = v.add(img[k], n)
		}
		return v
	}
	want := l.canonical(pack([]int{0, 1, 2, 3, 4, 5}))
	if len(l.perms) != 24 {
		t.Fatalf("%d permutations of 4 rows, want 24", len(l.perms))
	}
	seen := false
	for _, img := range l.perms {
		w := pack(img)
		if got := l.canonical(w); got != want {
			t.Fatalf("canonical(%x) = %x, want %x", w, got, want)
		}
		if w.compare(want) < 0 {
			t.Fatalf("image %x is below canonical %x", w, want)
		}
		seen = seen || w == want
	}
	if !seen {
		t.Errorf("canonical %x is not in the orbit", want)
	}
}

// TestOrbitReductionAgrees runs the dynamic programme once with one state
// per orbit of row relabellings and once with every state kept apart (the
// identity alone): M must not change. 6×1 uses states of 20 counts, packed
// over both words of a state. (6×2 agrees as well, M = 9480675056071680,
// but takes minutes without the reduction: the whole test with it took
// 432 s on 2026-11-26.)
func TestOrbitReductionAgrees(t *testing.T) {
	shapes := []grid.Shape{{R: 3, C: 3}, {R: 4, C: 3}, {R: 5, C: 2}, {R: 6, C: 1}}
	for _, s := range shapes {
		reduced, err := BandCompletions(s)
		if err != nil {
			t.Fatal(err)
		}
		identity := make([]int, s.R)
		for i := range identity {
			identity[i] = i
		}
		start := time.Now()
		plain, err := completions(s, [][]int{identity}, true)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("M(%d,%d) = %v without the orbit reduction in %v", s.R, s.C, plain, time.Since(start))
		if reduced.Cmp(plain) != 0 {
			t.Errorf("M(%d,%d) = %v with the orbit reduction, %v without", s.R, s.C, reduced, plain)
		}
	}
}

// TestMeetAgreesWithFullProgramme checks the meeting at the middle level
// against the programme run to the last box, on shapes of 4, 5 and 6 rows
// (odd R meets two different levels, even R one level with itself).
func TestMeetAgreesWithFullProgramme(t *testing.T) {
	shapes := []grid.Shape{{R: 4, C: 1}, {R: 4, C: 3}, {R: 4, C: 6}, {R: 5, C: 1}, {R: 5, C: 3}, {R: 6, C: 1}}
	if !testing.Short() {
		shapes = append(shapes, grid.Shape{R: 6, C: 2}, grid.Shape{R: 5, C: 4}, grid.Shape{R: 5, C: 5})
	}
	for _, s := range shapes {
		met, err := completions(s, permutations(s.R), true)
		if err != nil {
			t.Fatal(err)
		}
		full, err := completions(s, permutations(s.R), false)
		if err != nil {
			t.Fatal(err)
		}
		if met.Cmp(full) != 0 {
			t.Errorf("M(%d,%d) = %v meeting halfway, %v to the last box", s.R, s.C, met, full)
		}
	}
}

// TestBandCompletions5x6 pins M(5,6), the bands of 30×30 grids with 5×6
// boxes, at the value the programme run to the last box gave on
// 2026-12-06 (17 CPU-seconds), and walkbands' box-by-box count of set
// arrays, which shares no counting code with this package, too (its
// TestBoxSets5x6, 77 CPU-seconds). Meeting halfway it takes 19
// CPU-seconds and 80 MB.
func TestBandCompletions5x6(t *testing.T) {
	if testing.Short() {
		t.Skip("about 20 CPU-seconds")
	}
	m, err := BandCompletions(grid.Shape{R: 5, C: 6})
	if err != nil {
		t.Fatal(err)
	}
	if want := "3261734691836217181002772823310336"; m.String() != want {
		t.Errorf("M(5,6) = %v, want %s", m, want)
	}
}
