package funnel

import (
	"math/bits"
	"sync"
	"testing"

	"github.com/sudoku-census/sudoku-census/stages/maths/sudoku"
)

var (
	catalogueOnce sync.Once
	testReduced   []sudoku.Band
	testClasses   *Classes
	testErr       error
)

// fixture returns the 36,288 reduced bands and their classes.
func fixture(t testing.TB) ([]sudoku.Band, *Classes) {
	catalogueOnce.Do(func() {
		var bs []sudoku.Band
		for b := range sudoku.AllBands() {
			bs = append(bs, b)
		}
		testReduced, _, testErr = Reduce(bs, true)
		if testErr != nil {
			return
		}
		testClasses, testErr = Compute(testReduced)
	})
	if testErr != nil {
		t.Fatal(testErr)
	}
	return testReduced, testClasses
}

func TestFunnel(t *testing.T) {
	_, c := fixture(t)
	if err := c.check(); err != nil {
		t.Fatal(err)
	}
	want := []int{2051, 416, 174, 71, 44}
	for l, w := range want {
		if got := c.Count(l + 1); got != w {
			t.Errorf("level %d (%s): %d classes, want %d", l+1, Levels[l].Name, got, w)
		}
	}
	if len(c.Class[0]) != sudoku.ReducedCount {
		t.Errorf("%d reduced bands classified, want %d", len(c.Class[0]), sudoku.ReducedCount)
	}
}

// TestRepresentatives checks, independently of check, that every class's
// representative is its smallest member and that sizes sum to 36,288.
func TestRepresentatives(t *testing.T) {
	_, c := fixture(t)
	for l := range Levels {
		smallest := map[int32]int32{}
		members := map[int32]int{}
		for i, rep := range c.Class[l] {
			if _, ok := smallest[rep]; !ok {
				smallest[rep] = int32(i) // ids are visited in increasing order
			}
			members[rep]++
		}
		sum := 0
		for rep, n := range members {
			if smallest[rep] != rep {
				t.Errorf("level %d: class of %d has smallest member %d", l+1, rep, smallest[rep])
			}
			sum += n
		}
		if sum != 36_288 {
			t.Errorf("level %d: class sizes sum to %d", l+1, sum)
		}
	}
	// Felgenhauer and Jarvis: most level-1 classes hold 6^4/72 = 18 bands,
	// none more.
	n18 := 0
	for _, n := range sizes(c.Class[0]) {
		if n > 18 {
			t.Fatalf("a level-1 class has %d members, more than 18", n)
		}
		if n == 18 {
			n18++
		}
	}
	if n18 <= 2051/2 {
		t.Errorf("only %d of 2,051 level-1 classes have 18 members", n18)
	}
}

// orbit returns the ids of every reduced band reachable from id by the
// given operations, applied to every member found (a breadth-first search
// with no use of cosets or of union-find).
func orbit(t *testing.T, reduced []sudoku.Band, id int, ops func(sudoku.Band, func(sudoku.Band))) map[int32]bool {
	index := make(map[sudoku.Key]int32, len(reduced))
	for i, b := range reduced {
		index[b.Key()] = int32(i)
	}
	seen := map[int32]bool{int32(id): true}
	queue := []int32{int32(id)}
	for len(queue) > 0 {
		x := reduced[queue[0]]
		queue = queue[1:]
		ops(x, func(y sudoku.Band) {
			j, ok := index[y.Reduce().Key()]
			if !ok {
				t.Fatalf("%s reduces outside the catalogue", y)
			}
			if !seen[j] {
				seen[j] = true
				queue = append(queue, j)
			}
		})
	}
	return seen
}

// allBlockColumnPermutations applies all 6 × 6^3 permutations of the
// blocks and of the columns inside each block.
func allBlockColumnPermutations(b sudoku.Band, yield func(sudoku.Band)) {
	for _, blocks := range sudoku.Permutations3 {
		for _, p0 := range sudoku.Permutations3 {
			for _, p1 := range sudoku.Permutations3 {
				for _, p2 := range sudoku.Permutations3 {
					var cols [9]int
					for k, p := range [3][3]int{p0, p1, p2} {
						for j := range 3 {
							cols[3*k+j] = 3*blocks[k] + p[j]
						}
					}
					yield(b.PermuteColumns(cols))
				}
			}
		}
	}
}

func TestOrbitsByBruteForce(t *testing.T) {
	reduced, c := fixture(t)
	withRows := func(b sudoku.Band, yield func(sudoku.Band)) {
		for _, p := range sudoku.Permutations3 {
			allBlockColumnPermutations(b.PermuteRows(p), yield)
		}
	}
	for _, id := range []int{0, 1, 4321, 20000, 36287} {
		for l, ops := range []func(sudoku.Band, func(sudoku.Band)){allBlockColumnPermutations, withRows} {
			got := orbit(t, reduced, id, ops)
			rep := c.Class[l][id]
			n := 0
			for i, r := range c.Class[l] {
				if r == rep {
					n++
					if !got[int32(i)] {
						t.Errorf("level %d: band %d is in the class of %d but not in its orbit", l+1, i, id)
					}
				}
			}
			if n != len(got) {
				t.Errorf("level %d: orbit of %d has %d bands, its class %d", l+1, id, len(got), n)
			}
		}
	}
}

// TestMovesKeepColumnSets checks that every subrectangle move gives a valid
// band with the same column sets (so the same completions), and that the
// moves are really there: the 2×2 example of Felgenhauer and Jarvis admits
// three.
func TestMovesKeepColumnSets(t *testing.T) {
	reduced, _ := fixture(t)
	moves := 0
	for _, b := range reduced {
		for _, wide := range []bool{false, true} {
			rectangleMoves(wide)(b, func(x sudoku.Band) {
				moves++
				if !x.Valid() || x.ColumnSets() != b.ColumnSets() || x == b {
					t.Fatalf("move %s -> %s breaks the band or its column sets", b, x)
				}
			})
		}
	}
	if moves == 0 {
		t.Fatal("no moves at all")
	}
	example := sudoku.Band{{1, 2, 3, 4, 5, 8, 6, 7, 9}, {4, 5, 6, 1, 7, 9, 2, 3, 8}, {7, 8, 9, 2, 3, 6, 1, 4, 5}}
	// The paper names the three pairs that meet B1 (1/4, 5/8, 6/9); 8/9
	// (columns 6 and 9) and 1/2 (columns 4 and 7) join B2 and B3.
	n := 0
	rectangleMoves(false)(example, func(sudoku.Band) { n++ })
	if n != 5 {
		t.Errorf("example admits %d 2×2 moves, want 5", n)
	}
	six := sudoku.Band{{1, 2, 3, 4, 6, 9, 5, 7, 8}, {4, 5, 6, 1, 8, 7, 2, 3, 9}, {7, 8, 9, 2, 5, 3, 4, 1, 6}}
	n = 0
	rectangleMoves(false)(six, func(sudoku.Band) { n++ })
	if n != 6 {
		t.Errorf("second example admits %d 2×2 moves, want 6", n)
	}
}

// TestLongCyclesRedundant checks the claim that row swaps along cycles of
// five or more columns add nothing to level 4.
func TestLongCyclesRedundant(t *testing.T) {
	reduced, c := fixture(t)
	cat := &catalogue{bands: reduced, id: map[sudoku.Key]int32{}}
	for i, b := range reduced {
		cat.id[b.Key()] = int32(i)
	}
	uf := newUnionFind(len(reduced))
	copy(uf.parent, c.Class[3])
	long := func(b sudoku.Band, yield func(sudoku.Band)) {
		for _, pair := range [3][2]int{{0, 1}, {0, 2}, {1, 2}} {
			for _, cycle := range rowCycles(b, pair[0], pair[1]) {
				if bits.OnesCount16(cycle) >= 5 {
					x := b
					for col := range 9 {
						if cycle&(1<<col) != 0 {
							x[pair[0]][col], x[pair[1]][col] = x[pair[1]][col], x[pair[0]][col]
						}
					}
					yield(x)
				}
			}
		}
	}
	if err := cat.join(uf, long); err != nil {
		t.Fatal(err)
	}
	roots := uf.roots()
	for i := range roots {
		if roots[i] != c.Class[3][i] {
			t.Fatalf("a long cycle joins band %d to another level-4 class", i)
		}
	}
}

func TestComputeRejects(t *testing.T) {
	reduced, _ := fixture(t)
	if _, err := Compute(reduced[:100]); err == nil {
		t.Error("Compute accepted part of the catalogue")
	}
	bad := append([]sudoku.Band(nil), reduced...)
	bad[5], bad[6] = bad[6], bad[5]
	if _, err := Compute(bad); err == nil {
		t.Error("Compute accepted bands out of order")
	}
}

func BenchmarkCompute(b *testing.B) {
	reduced, _ := fixture(b)
	for b.Loop() {
		if _, err := Compute(reduced); err != nil {
			b.Fatal(err)
		}
	}
}
