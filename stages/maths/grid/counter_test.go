package grid

import (
	"context"
	"errors"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

func empty(shape Shape) Grid {
	return Grid{Shape: shape, Cells: make([]uint8, shape.N()*shape.N())}
}

// TestCountEmpty checks the counts of whole grids known from the
// literature: 288 grids of side 4 and 28,200,960 of side 6, for both box
// shapes of side 6.
func TestCountEmpty(t *testing.T) {
	for _, tc := range []struct {
		shape Shape
		want  string
	}{
		{Shape{2, 2}, "288"},
		{Shape{2, 3}, "28200960"},
		{Shape{3, 2}, "28200960"},
		{Shape{1, 3}, "12"}, // Latin squares of order 3 (boxes are rows)
		{Shape{1, 1}, "1"},
	} {
		got, err := empty(tc.shape).Count(context.Background(), 0)
		if err != nil || got.String() != tc.want {
			t.Errorf("empty %s: %v, %v; want %s", tc.shape, got, err, tc.want)
		}
	}
}

// patternGrid is a full valid grid of any shape: the symbol at (r, k) is
// (C·(r mod R) + r div R + k) mod N, plus one.
func patternGrid(s Shape) Grid {
	g := empty(s)
	n := s.N()
	for r := range n {
		for k := range n {
			g.Cells[r*n+k] = uint8((s.C*(r%s.R)+r/s.R+k)%n + 1)
		}
	}
	return g
}

// scrambled relabels the symbols of g and permutes its rows within bands,
// bands, columns within stacks and stacks: the result is again a valid
// grid, a different one for each seed.
func scrambled(g Grid, rng *rand.Rand) Grid {
	s, n := g.Shape, g.Shape.N()
	perm := func(size, block int) []int {
		p := make([]int, 0, size)
		for _, b := range rng.Perm(size / block) {
			for _, i := range rng.Perm(block) {
				p = append(p, b*block+i)
			}
		}
		return p
	}
	rows, cols, relabel := perm(n, s.R), perm(n, s.C), rng.Perm(n)
	out := empty(s)
	for r := range n {
		for k := range n {
			out.Cells[r*n+k] = uint8(relabel[g.Cells[rows[r]*n+cols[k]]-1] + 1)
		}
	}
	return out
}

// naiveCount counts completions one leaf at a time, filling cells in
// row-major order: slow but obviously right.
func naiveCount(g Grid) uint64 {
	n := g.Shape.N()
	cells := append([]uint8(nil), g.Cells...)
	ok := func(cell int, v uint8) bool {
		r, k := cell/n, cell%n
		for i := range n {
			if cells[r*n+i] == v || cells[i*n+k] == v {
				return false
			}
		}
		br, bk := r/g.Shape.R*g.Shape.R, k/g.Shape.C*g.Shape.C
		for i := range g.Shape.R {
			for j := range g.Shape.C {
				if cells[(br+i)*n+bk+j] == v {
					return false
				}
			}
		}
		return true
	}
	var rec func(cell int) uint64
	rec = func(cell int) uint64 {
		for cell < n*n && cells[cell] != 0 {
			cell++
		}
		if cell == n*n {
			return 1
		}
		var total uint64
		for v := uint8(1); int(v) <= n; v++ {
			if ok(cell, v) {
				cells[cell] = v
				total += rec(cell + 1)
				cells[cell] = 0
			}
		}
		return total
	}
	return rec(0)
}

// TestCountMatchesNaive compares the counter with one-leaf-at-a-time
// enumeration on random partial grids: full grids with cells blanked at
// random, and random givens (which may clash or have no completion).
func TestCountMatchesNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	cases := []struct {
		shape  Shape
		blanks int
		trials int
	}{
		{Shape{2, 2}, 16, 3}, {Shape{2, 2}, 10, 20}, {Shape{2, 3}, 24, 20}, {Shape{3, 2}, 26, 20},
		{Shape{3, 3}, 50, 20}, {Shape{2, 4}, 40, 10}, {Shape{4, 2}, 40, 10}, {Shape{1, 4}, 10, 5},
	}
	nonzero := 0
	for _, tc := range cases {
		for range tc.trials {
			g := scrambled(patternGrid(tc.shape), rng)
			for _, cell := range rng.Perm(len(g.Cells))[:tc.blanks] {
				g.Cells[cell] = 0
			}
			want := naiveCount(g)
			for _, workers := range []int{1, 2, 3} {
				got, err := g.Count(context.Background(), workers)
				if err != nil || !got.IsUint64() || got.Uint64() != want {
					t.Fatalf("%s, %d workers:\n%s counter %v (%v), naive %d", tc.shape, workers, g, got, err, want)
				}
			}
			if want > 1 {
				nonzero++
			}
		}
	}
	if nonzero < 50 {
		t.Errorf("only %d cases with several completions: the comparison is too weak", nonzero)
	}
}

// TestCountFull checks that a full valid grid has exactly one completion,
// for several shapes.
func TestCountFull(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, s := range []Shape{{2, 2}, {2, 3}, {3, 3}, {2, 5}, {4, 4}, {5, 5}, {6, 6}} {
		got, err := scrambled(patternGrid(s), rng).Count(context.Background(), 2)
		if err != nil || got.String() != "1" {
			t.Errorf("full %s grid: %v, %v; want 1", s, got, err)
		}
	}
}

// seventeen is the first puzzle of Gordon Royle's collection of 17-clue
// Sudoku puzzles, every one of which has a unique solution; 17 is the
// fewest clues a proper puzzle can have (McGuire, Tugemann and Civario).
const seventeen = "000000010400000000020000000000050407008000300001090000300400200050100000000806000"

func TestCountSeventeenClues(t *testing.T) {
	g, err := Parse(seventeen, Shape{3, 3})
	if err != nil {
		t.Fatal(err)
	}
	givens := 0
	for _, v := range g.Cells {
		if v != 0 {
			givens++
		}
	}
	got, err := g.Count(context.Background(), 2)
	if err != nil || got.String() != "1" || givens != 17 {
		t.Errorf("17-clue puzzle (%d givens): %v, %v; want 1", givens, got, err)
	}
	// One clue fewer, the puzzle has many solutions.
	for i, v := range g.Cells {
		if v != 0 {
			g.Cells[i] = 0
			break
		}
	}
	if got, err := g.Count(context.Background(), 2); err != nil || got.Cmp(bigOne) <= 0 {
		t.Errorf("16 of its clues: %v, %v; want several completions", got, err)
	}
}

func TestCountClash(t *testing.T) {
	for _, tc := range []struct {
		text string
		want string
	}{
		{"1..1............", "r1c1 and r1c4 both hold 1 in one row"},
		{"2.......2.......", "r1c1 and r3c1 both hold 2 in one column"},
		{"3....3..........", "r1c1 and r2c2 both hold 3 in one box"},
	} {
		g, err := Parse(tc.text, Shape{2, 2})
		if err != nil {
			t.Fatal(err)
		}
		_, err = g.Count(context.Background(), 1)
		if !errors.Is(err, ErrClash) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want ErrClash naming %q", tc.text, err, tc.want)
		}
	}
}

// TestCounterReuse counts several grids with one Counter, whose memo
// outlives each count, and checks Place and Unplace leave it consistent.
func TestCounterReuse(t *testing.T) {
	c, err := NewCounter(Shape{3, 3})
	if err != nil {
		t.Fatal(err)
	}
	g, _ := Parse(bandColumnGrid, Shape{3, 3})
	rng := rand.New(rand.NewPCG(5, 6))
	for range 5 {
		h := scrambled(patternGrid(Shape{3, 3}), rng)
		for _, cell := range rng.Perm(81)[:45] {
			h.Cells[cell] = 0
		}
		for _, grid := range []Grid{h, g} {
			if err := c.Load(grid.Cells); err != nil {
				t.Fatal(err)
			}
			got, err := c.Count()
			want, _ := grid.Count(context.Background(), 1)
			if err != nil || got.Big().Cmp(want) != 0 {
				t.Fatalf("reused counter: %v (%v), fresh %v", got, err, want)
			}
		}
	}
	// Place narrows the candidates of the cell's units and Unplace undoes it.
	c.Reset()
	before := c.Candidates(1)
	c.Place(0, 5)
	if c.Candidates(1)&(1<<4) != 0 || c.Value(0) != 5 {
		t.Error("Place(0, 5) left 5 a candidate of r1c2")
	}
	c.Unplace(0)
	if c.Candidates(1) != before || c.Value(0) != 0 {
		t.Error("Unplace did not undo Place")
	}
}

func TestUint128(t *testing.T) {
	a := Uint128{Hi: 1, Lo: ^uint64(0)}
	s, over := a.Add(Uint128{Lo: 1})
	if over || s.String() != "36893488147419103232" { // 2^65
		t.Errorf("2^65-1 + 1 = %v (overflow %v)", s, over)
	}
	if _, over := (Uint128{Hi: ^uint64(0)}).Add(Uint128{Hi: 1}); !over {
		t.Error("no overflow reported past 2^128")
	}
	// (2^65 − 1)·(2^64 − 1) = 2^129 − 2^65 − 2^64 + 1 overflows; 5^27·5^9 = 5^36 does not.
	if _, over := a.Mul64(^uint64(0)); !over {
		t.Error("no overflow reported for (2^65-1)(2^64-1)")
	}
	p, over := Uint128{Lo: 7450580596923828125}.Mul64(1953125)
	if want := new(big.Int).Exp(big.NewInt(5), big.NewInt(36), nil); over || p.Big().Cmp(want) != 0 {
		t.Errorf("5^27·5^9 = %v (overflow %v), want %v", p, over, want)
	}
	if _, over := (Uint128{Hi: 1 << 62}).Mul64(4); !over {
		t.Error("no overflow reported for 2^126·4")
	}
}

var bigOne = big.NewInt(1)

// TestCounterNoAllocation checks that a warm Counter counts without
// allocating, as the Knuth estimator's inner loop needs.
func TestCounterNoAllocation(t *testing.T) {
	g, err := Parse(seventeen, Shape{3, 3})
	if err != nil {
		t.Fatal(err)
	}
	c, _ := NewCounter(g.Shape)
	count := func() {
		if err := c.Load(g.Cells); err != nil {
			t.Fatal(err)
		}
		if n, err := c.Count(); err != nil || n != (Uint128{Lo: 1}) {
			t.Fatalf("count %v, %v", n, err)
		}
	}
	count()
	if allocs := testing.AllocsPerRun(20, count); allocs != 0 {
		t.Errorf("%v allocations per Load and Count, want 0", allocs)
	}
}

// TestCountStops: counting an empty 9×9 grid (hours of work) stops within
// a second of the context's end, with its error, on one worker and on two.
func TestCountStops(t *testing.T) {
	for _, workers := range []int{1, 2} {
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		start := time.Now()
		n, err := Grid{Shape: Shape{R: 3, C: 3}, Cells: make([]uint8, 81)}.Count(ctx, workers)
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) || n != nil {
			t.Errorf("workers %d: count %v, error %v; want no count and the context's error", workers, n, err)
		}
		if d := time.Since(start); d > time.Second {
			t.Errorf("workers %d: stopped after %v, want within a second", workers, d)
		}
	}
}
