package pair

import (
	"context"
	"errors"
	"github.com/sudoku-census/sudoku-census/stages/maths/pairstacks"
	"github.com/sudoku-census/sudoku-census/stages/maths/parallel"
	"math/big"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

// known holds the grid counts for boxes of 2 rows × c columns from the
// literature (Pettersen 2005 for c = 5).
var known = map[int]string{
	1: "2",
	2: "288",
	3: "28200960",
	4: "29136487207403520",
	5: "1903816047972624930994913280000",
}

func TestCountKnown(t *testing.T) {
	for c := 1; c <= 5; c++ {
		got, err := Count(context.Background(), c, 2)
		if err != nil {
			t.Fatalf("Count(%d): %v", c, err)
		}
		if got.String() != known[c] {
			t.Errorf("Count(%d) = %v, want %s", c, got, known[c])
		}
	}
}

// TestCountWorkers checks that the number of workers does not change the
// result.
func TestCountWorkers(t *testing.T) {
	for _, workers := range []int{0, 1, 3, 7} {
		got, err := Count(context.Background(), 4, workers)
		if err != nil {
			t.Fatal(err)
		}
		if got.String() != known[4] {
			t.Errorf("Count(4, %d workers) = %v", workers, got)
		}
	}
}

// TestOrbitCounts checks the orbits against Burnside's lemma, their sizes
// against the number of multisets and their weights against the number of
// tuples, for every c; and each listed orbit (a sample of 500 for c = 6)
// against NewOrbit, which finds the representative and stabiliser by its own
// search over the group.
func TestOrbitCounts(t *testing.T) {
	wantOrbits := []int{0, 1, 2, 4, 26, 355, 63199}
	wantMultisets := []uint64{0, 1, 3, 28, 1450, 589392, 2284361552}
	rng := rand.New(rand.NewPCG(7, 8))
	for c := 1; c <= MaxC; c++ {
		if c == 6 && testing.Short() {
			continue
		}
		orbits, err := Orbits(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		if len(orbits) != wantOrbits[c] {
			t.Errorf("c=%d: %d orbits, want %d", c, len(orbits), wantOrbits[c])
		}
		nb, err := NumOrbits(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		if nb.Int64() != int64(len(orbits)) {
			t.Errorf("c=%d: NumOrbits %v, listed %d", c, nb, len(orbits))
		}
		nm, err := NumMultisets(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		if nm != wantMultisets[c] {
			t.Errorf("c=%d: NumMultisets %d, want %d", c, nm, wantMultisets[c])
		}
		var size uint64
		weight := new(big.Int)
		for j, o := range orbits {
			size += o.Size
			weight.Add(weight, new(big.Int).SetUint64(o.Weight))
			if j > 0 && slices.Compare(orbits[j-1].Rep, o.Rep) >= 0 {
				t.Errorf("c=%d: orbits %d and %d out of order", c, j-1, j)
			}
			if c == 6 && rng.IntN(len(orbits)) >= 500 {
				continue
			}
			again, err := NewOrbit(c, o.Rep)
			if err != nil || !slices.Equal(again.Rep, o.Rep) || again.Size != o.Size || again.Weight != o.Weight {
				t.Errorf("c=%d: NewOrbit(%s) = %+v, %v; listed %+v", c, o, again, err, o)
			}
		}
		if size != nm {
			t.Errorf("c=%d: orbit sizes add up to %d, want %d multisets", c, size, nm)
		}
		if weight.Cmp(NumTuples(c)) != 0 {
			t.Errorf("c=%d: weights add up to %v, want %v tuples", c, weight, NumTuples(c))
		}
		if c == 6 {
			checkFirstOrbit6(t, orbits[0])
		}
	}
}

// checkFirstOrbit6 checks the first unit of 2×6: the orbit of six patterns 0
// and six all-ones, whose 32 members (complement any bits) each stand for
// C(12, 6) = 924 tuples, and whose stacks are pairs of Latin squares of
// order 6, so its term is 29,568·L(6)⁴ with L(6) = 812,851,200.
func checkFirstOrbit6(t *testing.T, o Orbit) {
	t.Helper()
	if o.String() != "6:0000000000003f3f3f3f3f3f" || o.Size != 32 || o.Weight != 32*924 {
		t.Errorf("first orbit of c=6: %s, size %d, weight %d", o, o.Size, o.Weight)
	}
	got, err := Term(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	want := new(big.Int).Exp(big.NewInt(812851200), big.NewInt(4), nil)
	want.Mul(want, big.NewInt(29568))
	if got.Cmp(want) != 0 {
		t.Errorf("first term of 2×6: %v, want 29,568·L(6)⁴ = %v", got, want)
	}
}

// TestOrbitsMatchWalk compares the orderly generation with walkOrbits,
// which meets every multiset and generates each orbit whole, for c ≤ 5.
func TestOrbitsMatchWalk(t *testing.T) {
	for c := 1; c <= 5; c++ {
		got, err := Orbits(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		want, err := walkOrbits(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) {
			t.Fatalf("c=%d: %d orbits, the walk %d", c, len(got), len(want))
		}
		for j := range want {
			if got[j].String() != want[j].String() || got[j].Size != want[j].Size || got[j].Weight != want[j].Weight {
				t.Errorf("c=%d: orbit %d is %+v, the walk's %+v", c, j, got[j], want[j])
			}
		}
	}
}

func TestNumOrbits6(t *testing.T) {
	if testing.Short() {
		t.Skip("takes several seconds")
	}
	n, err := NumOrbits(context.Background(), 6)
	if err != nil {
		t.Fatal(err)
	}
	if n.Int64() != 63199 {
		t.Errorf("NumOrbits(6) = %v, want 63199", n)
	}
	m, err := NumMultisets(context.Background(), 6)
	if err != nil {
		t.Fatal(err)
	}
	if m != 2284361552 {
		t.Errorf("NumMultisets(6) = %d, want 2284361552", m)
	}
}

// TestOrbitWeightsBruteForce walks every tuple σ of row sets for c = 2, 3, 4,
// tallies the tuples and the distinct multisets per orbit (found by
// NewOrbit), and compares with Orbits.
func TestOrbitWeightsBruteForce(t *testing.T) {
	for c := 2; c <= 4; c++ {
		if c == 4 && testing.Short() {
			continue
		}
		n := 2 * c
		var subsets []uint16
		for m := range uint16(1) << n {
			if bits.OnesCount16(m) == c {
				subsets = append(subsets, m)
			}
		}
		tuples := map[string]uint64{} // sorted patterns -> tuples
		pats := make([]uint8, n)
		var rec func(i int)
		rec = func(i int) {
			if i == c {
				key := slices.Clone(pats)
				slices.Sort(key)
				tuples[string(key)]++
				return
			}
			for _, s := range subsets {
				for x := range n {
					pats[x] = pats[x]&^(1<<i) | uint8(s>>x&1)<<i
				}
				rec(i + 1)
			}
		}
		rec(0)
		type tally struct{ multisets, tuples uint64 }
		byOrbit := map[string]*tally{}
		for k, v := range tuples {
			o, err := NewOrbit(c, []uint8(k))
			if err != nil {
				t.Fatal(err)
			}
			tl := byOrbit[o.String()]
			if tl == nil {
				tl = &tally{}
				byOrbit[o.String()] = tl
			}
			tl.multisets++
			tl.tuples += v
		}
		orbits, err := Orbits(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		if len(orbits) != len(byOrbit) {
			t.Errorf("c=%d: %d orbits listed, %d found by brute force", c, len(orbits), len(byOrbit))
		}
		for _, o := range orbits {
			tl := byOrbit[o.String()]
			if tl == nil {
				t.Errorf("c=%d: orbit %s not met by brute force", c, o)
				continue
			}
			if tl.multisets != o.Size || tl.tuples != o.Weight {
				t.Errorf("c=%d: orbit %s: size %d weight %d, brute force %d and %d", c, o, o.Size, o.Weight, tl.multisets, tl.tuples)
			}
		}
	}
}

// randomMultiset returns the sorted patterns of a random tuple σ.
func randomMultiset(rng *rand.Rand, c int) []uint8 {
	n := 2 * c
	pats := make([]uint8, n)
	for i := range c {
		perm := rng.Perm(n)
		for _, x := range perm[:c] {
			pats[x] |= 1 << i
		}
	}
	slices.Sort(pats)
	return pats
}

// applyGroup returns the sorted image of pats under p ↦ π(p) ⊕ m.
func applyGroup(pats []uint8, pi []int, m uint8) []uint8 {
	out := make([]uint8, len(pats))
	for j, p := range pats {
		var q uint8
		for i, to := range pi {
			q |= (p >> i & 1) << to
		}
		out[j] = q ^ m
	}
	slices.Sort(out)
	return out
}

// TestCanonical checks the representative against the least image over the
// whole group, and its invariance, on random multisets.
func TestCanonical(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for c := 1; c <= MaxC; c++ {
		perms := permutations(c)
		for range 20 {
			pats := randomMultiset(rng, c)
			rep := canonical(c, pats)
			if c <= 4 {
				var least []uint8
				for _, pi := range perms {
					for m := range uint8(1) << c {
						img := applyGroup(pats, pi, m)
						if least == nil || slices.Compare(img, least) < 0 {
							least = img
						}
					}
				}
				if !slices.Equal(rep, least) {
					t.Errorf("c=%d: canonical(%v) = %v, least image %v", c, pats, rep, least)
				}
			}
			pi := perms[rng.IntN(len(perms))]
			img := applyGroup(pats, pi, uint8(rng.IntN(1<<c)))
			if got := canonical(c, img); !slices.Equal(got, rep) {
				t.Errorf("c=%d: canonical of an image %v = %v, want %v", c, img, got, rep)
			}
		}
	}
}

func TestOrbitString(t *testing.T) {
	orbits, err := Orbits(context.Background(), 4)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range orbits {
		back, err := ParseOrbit(o.String())
		if err != nil {
			t.Fatalf("ParseOrbit(%q): %v", o, err)
		}
		if back.String() != o.String() || back.Weight != o.Weight || back.Size != o.Size || back.C != o.C {
			t.Errorf("ParseOrbit(%q) = %+v, want %+v", o, back, o)
		}
	}
	// "2:01010202" is the multiset {1,1,2,2}, valid but not its orbit's
	// least member {0,0,3,3}.
	for _, bad := range []string{"", "4", "x:00", "2:0001020", "2:00010203ff", "2:03020100", "2:00030303", "2:01010202", "7:00", "0:"} {
		if _, err := ParseOrbit(bad); err == nil {
			t.Errorf("ParseOrbit(%q) accepted", bad)
		}
	}
	o, err := NewOrbit(2, []uint8{2, 1, 2, 1})
	if err != nil || o.String() != "2:00000303" || o.Size != 2 || o.Weight != 12 {
		t.Errorf("NewOrbit(2, {2,1,2,1}) = %+v, %v", o, err)
	}
}

func TestCheckC(t *testing.T) {
	ctx := context.Background()
	for _, c := range []int{-1, 0, MaxC + 1, 64} {
		if _, err := Count(ctx, c, 1); err == nil {
			t.Errorf("Count(%d) accepted", c)
		}
		if _, err := NumOrbits(context.Background(), c); err == nil {
			t.Errorf("NumOrbits(%d) accepted", c)
		}
		if _, err := Stacks(ctx, c, make([]uint8, max(0, 2*c))); err == nil {
			t.Errorf("Stacks(%d) accepted", c)
		}
		if _, err := Orbits(ctx, c); err == nil {
			t.Errorf("Orbits(%d) accepted", c)
		}
	}
	for _, pats := range [][]uint8{{0, 1, 2}, {0, 1, 2, 4}, {0, 0, 3, 7}, {1, 1, 2, 3}} {
		if _, err := Stacks(ctx, 2, pats); err == nil {
			t.Errorf("Stacks(2, %v) accepted", pats)
		}
	}
	if _, err := Term(ctx, Orbit{C: 2, Rep: []uint8{3, 3, 0, 0}}); err == nil {
		t.Errorf("Term accepted an unsorted representative")
	}
}

// bruteStacks counts the stacks of patterns by trying every arrangement of
// every band's two rows, checking that no column repeats a symbol.
func bruteStacks(c int, pats []uint8) uint64 {
	n := 2 * c
	perms := permutations(c)
	used := make([]uint, n) // columns used by each symbol
	var count uint64
	var band func(i int)
	band = func(i int) {
		if i == c {
			count++
			return
		}
		var upper, lower []int
		for x, p := range pats {
			if p>>i&1 == 1 {
				upper = append(upper, x)
			} else {
				lower = append(lower, x)
			}
		}
		for _, pu := range perms {
			ok := true
			for k, x := range upper {
				ok = ok && used[x]>>pu[k]&1 == 0
			}
			if !ok {
				continue
			}
			for k, x := range upper {
				used[x] |= 1 << pu[k]
			}
			for _, pl := range perms {
				ok := true
				for k, x := range lower {
					ok = ok && used[x]>>pl[k]&1 == 0
				}
				if !ok {
					continue
				}
				for k, x := range lower {
					used[x] |= 1 << pl[k]
				}
				band(i + 1)
				for k, x := range lower {
					used[x] &^= 1 << pl[k]
				}
			}
			for k, x := range upper {
				used[x] &^= 1 << pu[k]
			}
		}
	}
	band(0)
	return count
}

func TestStacksBruteForce(t *testing.T) {
	ctx := context.Background()
	for c := 1; c <= 3; c++ {
		err := multisets(c, func(pats []uint8) error {
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
	rng := rand.New(rand.NewPCG(3, 4))
	for range 3 {
		pats := randomMultiset(rng, 4)
		got, err := Stacks(ctx, 4, pats)
		if err != nil {
			t.Fatal(err)
		}
		if want := bruteStacks(4, pats); got != want {
			t.Errorf("c=4 %v: E = %d, brute force %d", pats, got, want)
		}
	}
}

// TestStacksLatin checks E(T) for c copies of pattern 0 and c of the
// all-ones pattern: every upper row then holds the same c symbols, so the
// stack is two Latin squares of order c and E = L(c)².
func TestStacksLatin(t *testing.T) {
	latin := []uint64{1, 1, 2, 12, 576, 161280, 812851200}
	for c := 1; c <= MaxC; c++ {
		pats := make([]uint8, 2*c)
		for x := c; x < 2*c; x++ {
			pats[x] = 1<<c - 1
		}
		got, err := Stacks(context.Background(), c, pats)
		if err != nil {
			t.Fatal(err)
		}
		if want := latin[c] * latin[c]; got != want {
			t.Errorf("c=%d: E = %d, want %d", c, got, want)
		}
	}
}

// TestStacksInvariant checks that E is the same on random members of an
// orbit (the symmetry the orbits rest on), for c = 5.
func TestStacksInvariant(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	perms := permutations(5)
	ctx := context.Background()
	for range 4 {
		pats := randomMultiset(rng, 5)
		want, err := Stacks(ctx, 5, pats)
		if err != nil {
			t.Fatal(err)
		}
		img := applyGroup(pats, perms[rng.IntN(len(perms))], uint8(rng.IntN(32)))
		rng.Shuffle(len(img), func(i, j int) { img[i], img[j] = img[j], img[i] })
		if got, err := Stacks(ctx, 5, img); err != nil || got != want {
			t.Errorf("E(%v) = %d, %v; E(%v) = %d", img, got, err, pats, want)
		}
	}
}

func TestSumBatches(t *testing.T) {
	ctx := context.Background()
	orbits, err := Orbits(ctx, 4)
	if err != nil {
		t.Fatal(err)
	}
	total := new(big.Int)
	for _, b := range Batches(orbits, 7) {
		s, err := Sum(ctx, b, 2)
		if err != nil {
			t.Fatal(err)
		}
		total.Add(total, s)
	}
	byTerm := new(big.Int)
	for _, o := range orbits {
		term, err := Term(ctx, o)
		if err != nil {
			t.Fatal(err)
		}
		byTerm.Add(byTerm, term)
	}
	if total.String() != known[4] || byTerm.String() != known[4] {
		t.Errorf("batches %v, terms %v, want %s", total, byTerm, known[4])
	}
	if n := len(Batches(orbits, 7)); n != 4 {
		t.Errorf("%d batches of 7 for 26 orbits", n)
	}
}

func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Count(ctx, 5, 2); !errors.Is(err, context.Canceled) {
		t.Errorf("Count on a cancelled context: %v", err)
	}
	if testing.Short() {
		return
	}
	// A c = 6 stack count takes seconds; it must stop within one of
	// cancellation.
	o, err := ParseOrbit(slowOrbit6)
	if err != nil {
		t.Fatal(err)
	}
	orbits := []Orbit{o}
	ctx, cancel = context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = Sum(ctx, orbits, 1)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Sum after the deadline: %v", err)
	}
	if d := time.Since(start); d > 1200*time.Millisecond {
		t.Errorf("stopped after %v", d)
	}
}

func TestWorkerPanic(t *testing.T) {
	testHook = func(j int) {
		if j == 5 {
			panic("boom")
		}
	}
	defer func() { testHook = nil }()
	_, err := Count(context.Background(), 4, 2)
	var pe *parallel.PanicError
	if !errors.As(err, &pe) {
		t.Fatalf("Count with a panicking worker: %v", err)
	}
	if !strings.Contains(err.Error(), "boom") || !strings.Contains(string(pe.StackTrace()), "pair_test.go") {
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

// slowOrbit6 is a c = 6 orbit whose stack count takes seconds.
const slowOrbit6 = "6:00010207191e2b2c35373a3c"

// sampleOrbits returns k orbits of c drawn uniformly from Orbits, with
// replacement, by a PCG generator seeded with seed.
func sampleOrbits(tb testing.TB, c, k int, seed uint64) []Orbit {
	all, err := Orbits(context.Background(), c)
	if err != nil {
		tb.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 0x5ad0c0de))
	out := make([]Orbit, k)
	for j := range out {
		out[j] = all[rng.IntN(len(all))]
	}
	return out
}

// BenchmarkE times E(T) on 8 c = 6 orbits drawn uniformly (seed 1), one per
// iteration in turn (run with -benchtime Nx).
func BenchmarkE(b *testing.B) {
	orbits := sampleOrbits(b, 6, 8, 1)
	var s pairstacks.StackCounter
	j := 0
	for b.Loop() {
		if _, err := s.Count(context.Background(), 6, orbits[j%len(orbits)].Rep); err != nil {
			b.Fatal(err)
		}
		j++
	}
}

// TestOrbitsParallel: the orderly generation split among workers lists the
// serial one's orbits in the same order, for every c up to 5 (the plan, and
// so every 2x6 unit, depends on that order).
func TestOrbitsParallel(t *testing.T) {
	for c := 1; c <= 5; c++ {
		want, err := orderlyOrbits(context.Background(), c, 1)
		if err != nil {
			t.Fatal(err)
		}
		for _, workers := range []int{2, 3, 7} {
			got, err := orderlyOrbits(context.Background(), c, workers)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(want) {
				t.Fatalf("c=%d, %d workers: %d orbits, serially %d", c, workers, len(got), len(want))
			}
			for j := range want {
				if got[j].String() != want[j].String() || got[j].Size != want[j].Size || got[j].Weight != want[j].Weight {
					t.Fatalf("c=%d, %d workers: orbit %d is %+v, serially %+v", c, workers, j, got[j], want[j])
				}
			}
		}
	}
}
