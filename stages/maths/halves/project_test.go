//go:build linux

package halves

import (
	"context"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/sudoku-census/sudoku-census/stages/maths/pairstacks"
)

// threadCPU returns the CPU time (user + system) of the calling OS thread.
func threadCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// stackSigs4 returns the number of ordered stack signatures of two bands
// for C = 4 (each symbol in 2 of the 4 columns, 6 per column): the column
// pairs form a 6-regular multigraph on 4 vertices, whose opposite edges
// have equal multiplicities x, y, z with x + y + z = 6, so there are
// Σ 12!/(x!·x!·y!·y!·z!·z!) of them; weights[i] is the term of types[i].
func stackSigs4() (total uint64, types [][3]int, weights []uint64) {
	f12 := pairstacks.Factorial(12)
	for x := 0; x <= 6; x++ {
		for y := 0; x+y <= 6; y++ {
			z := 6 - x - y
			d := pairstacks.Factorial(x) * pairstacks.Factorial(y) * pairstacks.Factorial(z)
			w := f12 / (d * d)
			types = append(types, [3]int{x, y, z})
			weights = append(weights, w)
			total += w
		}
	}
	return total, types, weights
}

// randomStack4 draws a uniform ordered 2-band stack signature for C = 4.
func randomStack4(r *rand.Rand, types [][3]int, weights []uint64, total uint64) [4]uint16 {
	u := r.Uint64N(total)
	i := 0
	for u >= weights[i] {
		u -= weights[i]
		i++
	}
	x, y, z := types[i][0], types[i][1], types[i][2]
	var slots [][2]int
	add := func(n int, a, b int) {
		for range n {
			slots = append(slots, [2]int{a, b})
		}
	}
	add(x, 0, 1)
	add(x, 2, 3)
	add(y, 0, 2)
	add(y, 1, 3)
	add(z, 0, 3)
	add(z, 1, 2)
	r.Shuffle(len(slots), func(i, j int) { slots[i], slots[j] = slots[j], slots[i] })
	var cols [4]uint16
	for s, e := range slots {
		cols[e[0]] |= 1 << s
		cols[e[1]] |= 1 << s
	}
	return cols
}

// TestStackSigs4Formula checks the multigraph formula against the
// enumeration for the 3 × 3 analogue (9 symbols, 3 columns, 2 per symbol:
// the complements are ordered partitions into triples, 1,680) and checks
// that random C = 4 stacks are valid.
func TestStackSigs4Formula(t *testing.T) {
	var n uint64
	for _, s := range StackSigs(3, 2) {
		n += s.weight
	}
	if n != 1680 {
		t.Fatalf("3×3: %d ordered stack signatures, want 1680", n)
	}
	total, types, weights := stackSigs4()
	if total != 32496156 {
		t.Fatalf("3×4: %d ordered stack signatures", total)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 1000 {
		cols := randomStack4(r, types, weights, total)
		var twice, once uint16
		for _, m := range cols {
			if popcount(m) != 6 {
				t.Fatalf("column of %d symbols: %v", popcount(m), cols)
			}
			twice |= once & m
			once ^= m
		}
		if twice != 0xfff || once != 0 {
			t.Fatalf("not every symbol in exactly 2 columns: %v", cols)
		}
	}
}

func popcount(m uint16) int {
	n := 0
	for ; m != 0; m &= m - 1 {
		n++
	}
	return n
}

// TestProject3x4 measures the half-join on a seeded uniform sample of 3×4
// signatures (each drawn as three uniform ordered stacks) and projects the
// cost of computing H_2 once for every class of signatures. A sample's unit
// is one first-band triple choice a of stack 0 (uniform among the
// signature's |L_0|) with all the stack-1 and stack-2 choices under it; the
// signature's cost is estimated by |L_0| × the unit's thread CPU time, and
// the whole by classes × the mean, ± 1.96 standard errors, where classes
// is Burnside's lower bound (ordered signatures / |G|, G the relabellings,
// column permutations in stacks and stack permutations). Runs only when
// HALVES_PROJECT_SAMPLES is set (HALVES_PROJECT_SEED, default 1).
func TestProject3x4(t *testing.T) {
	samples, _ := strconv.Atoi(os.Getenv("HALVES_PROJECT_SAMPLES"))
	if samples <= 0 {
		t.Skip("set HALVES_PROJECT_SAMPLES")
	}
	seed := uint64(1)
	if s := os.Getenv("HALVES_PROJECT_SEED"); s != "" {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("HALVES_PROJECT_SEED=%q: %v", s, err)
		}
		seed = v
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	total, types, weights := stackSigs4()
	group := new(big.Int).SetUint64(pairstacks.Factorial(12) * 24 * 24 * 24 * 6)
	ordered := new(big.Int).SetUint64(total)
	ordered.Exp(ordered, big.NewInt(3), nil)
	classes, _ := new(big.Float).Quo(new(big.Float).SetInt(ordered), new(big.Float).SetInt(group)).Float64()
	t.Logf("ordered stack signatures %d, ordered signatures %v, |G| %v, classes ≥ %.4g", total, ordered, group, classes)

	h, err := NewCounter(4)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(seed, 48))
	ctx := context.Background()
	var sum, sum2, splitsSum, unitSum float64
	var l0Sum, wsum, wsum2 float64
	sig := make([]uint16, 12)
	for i := range samples {
		for s := range 3 {
			cols := randomStack4(r, types, weights, total)
			copy(sig[4*s:], cols[:])
		}
		var sp [3][][]uint16
		for s := range 3 {
			sp[s] = h.StackSplits(sig[4*s : 4*s+4])
		}
		a := sp[0][r.IntN(len(sp[0]))]
		start := threadCPU()
		_, _, err := h.halfCountWith(ctx, 2, sig, [][]uint16{a}, sp[1], sp[2])
		if err != nil {
			t.Fatal(err)
		}
		sec := (threadCPU() - start).Seconds()
		// The same unit again, every band count now in the memo: the cost
		// of the sum itself with B a hash-table lookup, a floor for any
		// faster band count on this representation.
		start = threadCPU()
		if _, _, err := h.halfCountWith(ctx, 2, sig, [][]uint16{a}, sp[1], sp[2]); err != nil {
			t.Fatal(err)
		}
		warm := float64(len(sp[0])) * (threadCPU() - start).Seconds()
		wsum += warm
		wsum2 += warm * warm
		x := float64(len(sp[0])) * sec
		sum += x
		sum2 += x * x
		unitSum += sec
		l0Sum += float64(len(sp[0]))
		splitsSum += float64(len(sp[0])) * float64(len(sp[1])) * float64(len(sp[2]))
		if i < 5 || (i+1)%10 == 0 {
			t.Logf("sample %d: |L| %d·%d·%d, unit %.3f CPU-s, signature ≈ %.1f CPU-s (warm %.1f)", i+1, len(sp[0]), len(sp[1]), len(sp[2]), sec, x, warm)
		}
	}
	n := float64(samples)
	mean := sum / n
	sd := math.Sqrt(max(0, (sum2-n*mean*mean)/(n-1)))
	se := sd / math.Sqrt(n)
	wmean := wsum / n
	wse := math.Sqrt(max(0, (wsum2-n*wmean*wmean)/(n-1))) / math.Sqrt(n)
	t.Logf("warm (every B memoised): %.2f ± %.2f CPU-s per class, every class once: %.4g ± %.2g CPU-hours (95%%)",
		wmean, 1.96*wse, classes*wmean/3600, classes*1.96*wse/3600)
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	t.Logf("%d samples (seed %d): mean unit %.4f CPU-s, mean |L_0| %.1f, mean splits per signature %.4g, B memo hits %d of %d entries",
		samples, seed, unitSum/n, l0Sum/n, splitsSum/n, h.band.hits, len(h.band.memo))
	t.Logf("H_2 per signature class: %.2f ± %.2f CPU-s (sd %.2f); every class once: %.4g ± %.2g CPU-hours (95%%); peak RSS %d MiB",
		mean, 1.96*se, sd, classes*mean/3600, classes*1.96*se/3600, ru.Maxrss/1024)
}
