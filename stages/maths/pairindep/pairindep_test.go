package pairindep

import (
	"context"
	"errors"
	"github.com/sudoku-census/sudoku-census/stages/maths/parallel"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

var known = map[int]string{
	1: "2",
	2: "288",
	3: "28200960",
	4: "29136487207403520",
	5: "1903816047972624930994913280000",
}

func TestCountSmall(t *testing.T) {
	for c := 1; c <= 4; c++ {
		for _, workers := range []int{1, 2, 5} {
			got, err := Count(context.Background(), c, workers)
			if err != nil {
				t.Fatal(err)
			}
			if got.String() != known[c] {
				t.Errorf("Count(%d, %d workers) = %v, want %s", c, workers, got, known[c])
			}
		}
	}
}

// TestCount5 takes a few seconds (about 5 s of CPU).
func TestCount5(t *testing.T) {
	got, err := Count(context.Background(), 5, 2)
	if err != nil {
		t.Fatal(err)
	}
	if got.String() != known[5] {
		t.Errorf("Count(5) = %v, want %s", got, known[5])
	}
}

func TestWalkMultisets(t *testing.T) {
	want := []int{0, 1, 3, 28, 1450, 589392}
	for c := 1; c <= MaxC; c++ {
		n := 2 * c
		fact := factorials(n)
		count := 0
		tuples := new(big.Int)
		prev := ""
		err := walkMultisets(c, func(counts []int) error {
			count++
			w := fact[n]
			size := 0
			ones := make([]int, c)
			var b strings.Builder
			for p, m := range counts {
				w /= fact[m]
				size += m
				for i := range ones {
					ones[i] += m * (p >> i & 1)
				}
				b.WriteByte(byte('0' + m))
			}
			if size != n {
				t.Fatalf("c=%d: multiset of size %d", c, size)
			}
			for i, o := range ones {
				if o != c {
					t.Fatalf("c=%d: bit %d set %d times", c, i, o)
				}
			}
			if b.String() == prev {
				t.Fatalf("c=%d: multiset repeated", c)
			}
			prev = b.String()
			tuples.Add(tuples, new(big.Int).SetUint64(w))
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if count != want[c] {
			t.Errorf("c=%d: %d multisets, want %d", c, count, want[c])
		}
		// Σ n!/Π m_p! = C(2c, c)^c, the number of tuples of row sets.
		b := new(big.Int).Binomial(int64(n), int64(c))
		if b.Exp(b, big.NewInt(int64(c)), nil); tuples.Cmp(b) != 0 {
			t.Errorf("c=%d: multinomials add up to %v, want %v", c, tuples, b)
		}
	}
}

// bruteStacks fills the stack cell by cell, row after row, and counts the
// fillings in which each row holds its set and no column repeats a symbol.
func bruteStacks(c int, pats []uint8) uint64 {
	n := 2 * c
	rowSet := make([]uint, n)
	for x, p := range pats {
		for i := 0; i < c; i++ {
			if p>>i&1 == 1 {
				rowSet[2*i] |= 1 << x
			} else {
				rowSet[2*i+1] |= 1 << x
			}
		}
	}
	colUsed := make([]uint, c)
	var fill func(cell int, rowLeft uint) uint64
	fill = func(cell int, rowLeft uint) uint64 {
		if cell == n*c {
			return 1
		}
		r, col := cell/c, cell%c
		if col == 0 {
			rowLeft = rowSet[r]
		}
		var total uint64
		for x := 0; x < n; x++ {
			if rowLeft>>x&1 == 1 && colUsed[col]>>x&1 == 0 {
				colUsed[col] |= 1 << x
				total += fill(cell+1, rowLeft&^(1<<x))
				colUsed[col] &^= 1 << x
			}
		}
		return total
	}
	return fill(0, 0)
}

func patternsOf(counts []int) []uint8 {
	var pats []uint8
	for p, m := range counts {
		for range m {
			pats = append(pats, uint8(p))
		}
	}
	return pats
}

func TestStacksBruteForce(t *testing.T) {
	ctx := context.Background()
	for c := 1; c <= 3; c++ {
		err := walkMultisets(c, func(counts []int) error {
			pats := patternsOf(counts)
			got, err := Stacks(ctx, c, pats)
			if err != nil {
				return err
			}
			if want := bruteStacks(c, pats); got != want {
				t.Errorf("c=%d %v: E = %d, brute force %d", c, pats, got, want)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	// A few c = 4 multisets (brute force takes a moment each).
	rng := rand.New(rand.NewPCG(7, 8))
	for range 3 {
		pats := randomPatterns(rng, 4)
		got, err := Stacks(ctx, 4, pats)
		if err != nil {
			t.Fatal(err)
		}
		if want := bruteStacks(4, pats); got != want {
			t.Errorf("c=4 %v: E = %d, brute force %d", pats, got, want)
		}
	}
}

// randomPatterns returns the patterns of a random tuple of row sets.
func randomPatterns(rng *rand.Rand, c int) []uint8 {
	n := 2 * c
	pats := make([]uint8, n)
	for i := 0; i < c; i++ {
		for _, x := range rng.Perm(n)[:c] {
			pats[x] |= 1 << i
		}
	}
	return pats
}

// TestLeastImage checks that the class keys are invariant under the
// symmetries they stand for.
func TestLeastImage(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for c := 2; c <= MaxC; c++ {
		perms := bandPermutations(c)
		for range 50 {
			pats := randomPatterns(rng, c)
			t1 := perms[rng.IntN(len(perms))]
			m := uint8(rng.IntN(1 << c))
			img := make([]uint8, len(pats))
			for j, p := range pats {
				img[j] = t1[p] ^ m
			}
			rng.Shuffle(len(img), func(a, b int) { img[a], img[b] = img[b], img[a] })
			if a, b := leastImage(pats, perms), leastImage(img, perms); a != b {
				t.Errorf("c=%d: leastImage %x of %v, %x of its image %v", c, a, pats, b, img)
			}
			for j, p := range pats {
				img[j] = t1[p]
			}
			if a, b := leastBandImage(pats, perms), leastBandImage(img, perms); a != b {
				t.Errorf("c=%d: leastBandImage %x of %v, %x of its image %v", c, a, pats, b, img)
			}
		}
	}
}

func TestBadInput(t *testing.T) {
	ctx := context.Background()
	for _, c := range []int{-1, 0, MaxC + 1, 100} {
		if _, err := Count(ctx, c, 1); err == nil {
			t.Errorf("Count(%d) accepted", c)
		}
	}
	for _, c := range []int{-1, 0, MaxStacksC + 1, 100} {
		// Every pattern 0 except, for c > 0, the last c all-ones: valid
		// but for c.
		pats := make([]uint8, max(0, 2*c))
		for x := max(0, c); x < len(pats); x++ {
			pats[x] = uint8(1<<min(c, 8) - 1)
		}
		if _, err := Stacks(ctx, c, pats); err == nil || !strings.Contains(err.Error(), "want 1 ≤ c ≤") {
			t.Errorf("Stacks(%d): %v", c, err)
		}
	}
	for _, pats := range [][]uint8{{0, 1, 2}, {0, 1, 2, 4}, {0, 0, 3, 7}, {1, 1, 2, 3}} {
		if _, err := Stacks(ctx, 2, pats); err == nil {
			t.Errorf("Stacks(2, %v) accepted", pats)
		}
	}
}

func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Count(ctx, 5, 2); !errors.Is(err, context.Canceled) {
		t.Errorf("Count on a cancelled context: %v", err)
	}
	ctx, cancel = context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := Count(ctx, 5, 2)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Count after the deadline: %v", err)
	}
	if d := time.Since(start); d > 1300*time.Millisecond {
		t.Errorf("stopped after %v", d)
	}
}

func TestWorkerPanic(t *testing.T) {
	hook = func(i int) {
		if i == 3 {
			panic("boom")
		}
	}
	defer func() { hook = nil }()
	_, err := Count(context.Background(), 4, 2)
	var pe *parallel.PanicError
	if !errors.As(err, &pe) {
		t.Fatalf("Count with a panicking worker: %v", err)
	}
	if !strings.Contains(err.Error(), "boom") || !strings.Contains(string(pe.StackTrace()), "pairindep_test.go") {
		t.Errorf("panic error %q, stack:\n%s", err, pe.Stack)
	}
}

func BenchmarkCount2x5(b *testing.B) {
	for b.Loop() {
		got, err := Count(context.Background(), 5, 2)
		if err != nil || got.String() != known[5] {
			b.Fatal(got, err)
		}
	}
}
