//go:build linux

package pair

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/sudoku-census/sudoku-census/pipeline/pipelinetest"
	"github.com/sudoku-census/sudoku-census/stages/maths/pairstacks"
)

// processCPU returns the CPU time (user + system) of the whole process: the
// plan's workers run on goroutines of their own.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// bundle2x6CPUSeconds is the sum of the cpu_seconds of the 1,975 sum units
// of data/bundles/shapes-2x6.parquet (3.650 CPU-hours; sd 36.5 s a unit,
// largest 963 s; the units' largest peak_rss_bytes is 13.79 GB): the whole
// 2×6 count by the split-and-join kernel with a 6 GiB cache, as measured.
const bundle2x6CPUSeconds = 13141

// wideMultisets returns the number of pattern multisets of c ≤ 7 fixed by
// the element p ↦ perm[p] ⊕ m of B_c (perm over the 2^c patterns): the
// dynamic programme over the element's cycles of fixedMultisets, whose
// arrays stop at MaxC = 6. States are (patterns so far, ones per bit), the
// ones in base 8; a state's digits are kept spread over nibbles, offset by
// 7 - c, so that "every bit at most c ones" is one mask test.
func wideMultisets(ctx context.Context, c int, perm []uint8, m uint8) (uint64, error) {
	n := 2 * c
	stride := 1 << (3 * c) // states per value of the size digit
	var full uint32        // the nibbles in use
	for i := range c {
		full |= 8 << (4 * i)
	}
	spread := make([]uint32, stride)
	for s := range spread {
		var v uint32
		for i := range c {
			v |= uint32(s>>(3*i)&7+7-c) << (4 * i)
		}
		spread[s] = v
	}
	type cycle struct {
		length int
		ones   uint32 // nibble-spread ones per bit
		delta  int    // index step
	}
	var cycles []cycle
	done := make([]bool, 1<<c)
	for p := range 1 << c {
		if done[p] {
			continue
		}
		var cy cycle
		ones := make([]int, c)
		for q := uint8(p); !done[q]; q = perm[q] ^ m {
			done[q] = true
			cy.length++
			for i := range c {
				ones[i] += int(q >> i & 1)
			}
		}
		fits := cy.length <= n
		for i := range c {
			fits = fits && ones[i] <= c
			cy.ones |= uint32(min(ones[i], 7)) << (4 * i)
			cy.delta += ones[i] << (3 * i)
		}
		if fits { // a cycle that does not fit can only have multiplicity 0
			cy.delta += cy.length * stride
			cycles = append(cycles, cy)
		}
	}
	dp := make([]uint64, (n+1)*stride)
	dp[0] = 1
	for _, cy := range cycles {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		// Upwards, so that dp[s+δ] += dp[s] takes multiplicities 1, 2, …
		for size := 0; size+cy.length <= n; size++ {
			base := size * stride
			for s, v := range dp[base : base+stride] {
				if v == 0 || (spread[s]+cy.ones)&full != 0 {
					continue
				}
				sum, carry := bits.Add64(dp[base+s+cy.delta], v, 0)
				if carry != 0 {
					return 0, fmt.Errorf("c = %d: a fixed-multiset count exceeds 2^64", c)
				}
				dp[base+s+cy.delta] = sum
			}
		}
	}
	// Every bit at exactly c ones: all digits c at size 2c.
	last := 0
	for i := range c {
		last |= c << (3 * i)
	}
	return dp[n*stride+last], nil
}

// wideOrbits returns the number of orbits of B_c (order c!·2^c) on the
// pattern multisets of c ≤ 7 by Burnside's lemma, one element per signed
// cycle type as burnside does, and the number of multisets (the identity's
// term); with identityOnly it stops after the identity (orbits nil).
func wideOrbits(ctx context.Context, c int, identityOnly bool) (orbits *big.Int, multisets uint64, err error) {
	type class struct {
		perm []uint8
		m    uint8
		size uint64
	}
	classes := map[string]*class{}
	var keys []string
	for _, pi := range permutations(c) { // the identity first
		for m := range uint8(1) << c {
			var typ []int
			var seen uint
			for i := range c {
				if seen>>i&1 == 1 {
					continue
				}
				length, parity := 0, 0
				for j := i; seen>>j&1 == 0; j = pi[j] {
					seen |= 1 << j
					length++
					parity ^= int(m >> j & 1)
				}
				typ = append(typ, 2*length+parity)
			}
			slices.Sort(typ)
			key := fmt.Sprint(typ)
			cl, ok := classes[key]
			if !ok {
				perm := make([]uint8, 1<<c)
				for p := range perm {
					var q uint8
					for i := range c {
						q |= uint8(p>>i&1) << pi[i]
					}
					perm[p] = q
				}
				cl = &class{perm: perm, m: m}
				classes[key] = cl
				keys = append(keys, key)
			}
			cl.size++
		}
	}
	total := new(big.Int)
	for k, key := range keys {
		cl := classes[key]
		f, err := wideMultisets(ctx, c, cl.perm, cl.m)
		if err != nil {
			return nil, 0, err
		}
		if k == 0 {
			multisets = f
			if identityOnly {
				return nil, f, nil
			}
		}
		total.Add(total, new(big.Int).Mul(new(big.Int).SetUint64(f), new(big.Int).SetUint64(cl.size)))
	}
	order := new(big.Int).Lsh(new(big.Int).SetUint64(pairstacks.Factorial(c)), uint(c))
	q, r := new(big.Int).QuoRem(total, order, new(big.Int))
	if r.Sign() != 0 {
		return nil, 0, fmt.Errorf("c = %d: Burnside sum %v not divisible by |B_c| = %v", c, total, order)
	}
	return q, multisets, nil
}

// TestWideOrbitsSix checks the c = 7 orbit counter on c = 4, 5, 6, where
// the orbits are listed (26, 355, 63,199) and the multisets counted by
// NumMultisets.
func TestWideOrbitsSix(t *testing.T) {
	ctx := context.Background()
	for c, want := range map[int]int64{4: 26, 5: 355, 6: 63199} {
		orbits, multisets, err := wideOrbits(ctx, c, false)
		if err != nil {
			t.Fatal(err)
		}
		m, err := NumMultisets(ctx, c)
		if err != nil {
			t.Fatal(err)
		}
		if orbits.Int64() != want || multisets != m {
			t.Errorf("c = %d: %v orbits and %d multisets, want %d and %d", c, orbits, multisets, want, m)
		}
	}
}

// TestProject2x7 projects the cost of the 2×7 count (14×14, boxes of 2 rows
// and 7 columns) by the pair method with the split-and-join kernel, which
// counted 2×6 in 3.65 CPU-hours (bundle2x6CPUSeconds). The kernel stops at
// c = 6 (pairstacks.MaxC: states keyed in 60 bits, counts in 64), so no
// E(T) of c = 7 can be timed; the test measures what the projection rests
// on and extrapolates the rest:
//
//   - the number of c = 7 orbits, by Burnside's lemma (exact; with
//     SURVEY_2X7_BURNSIDE=identity only the multisets, whose number over
//     |B_7| is a lower bound);
//   - for c = 3, 4, 5, every half class's table (states, mean and
//     largest) and the plan's whole sum (process CPU time, for show: the
//     small widths take milliseconds);
//   - for c = 6, the bundle's CPU time per orbit and SURVEY_2X7_TABLES
//     (default 40) half classes drawn uniformly (seed SURVEY_2X7_SEED,
//     default 1), each built on one thread and timed, for the mean table
//     size with its 95% interval; their ratio κ is the kernel's time per
//     orbit per state of a mean table;
//   - c = 7's mean and largest table, extrapolated from c = 4, 5, 6 in
//     logarithms (log-linearly from the last step and log-quadratically
//     through the three: the projection's range), times κ and the orbits.
//
// It runs only when SURVEY_2X7 is set:
//
//	SURVEY_2X7=1 GOMAXPROCS=1 go test -run TestProject2x7 -v -timeout 2h ./stages/maths/pair
func TestProject2x7(t *testing.T) {
	if pipelinetest.EnvInt(t, "SURVEY_2X7", 0) == 0 {
		t.Skip("set SURVEY_2X7=1 to run")
	}
	ctx := context.Background()
	ident := false
	switch v := os.Getenv("SURVEY_2X7_BURNSIDE"); v {
	case "", "full":
	case "identity":
		ident = true
	default:
		t.Fatalf("SURVEY_2X7_BURNSIDE=%q: want full or identity", v)
	}
	c0 := processCPU()
	orbits, multisets, err := wideOrbits(ctx, 7, ident)
	if err != nil {
		t.Fatal(err)
	}
	lower := float64(multisets) / 645120
	t.Logf("c = 7 by Burnside (%.1f CPU-s): %d pattern multisets; |B_7| = 645,120, so at least %.4g orbits", (processCPU() - c0).Seconds(), multisets, lower)
	orbits7f := lower
	if orbits != nil {
		orbits7f, _ = new(big.Float).SetInt(orbits).Float64()
		t.Logf("c = 7: %v orbits", orbits)
	}

	type width struct {
		c                int
		orbits, classes  int
		cpuPerOrbit      float64 // CPU-s
		meanStates, half float64 // a half table's states, mean and 95% half-width
		maxStates        int
	}
	var ws []width
	for c := 3; c <= 5; c++ {
		p, err := NewPlan(ctx, c, 1, math.MaxInt64)
		if err != nil {
			t.Fatal(err)
		}
		c0 := processCPU()
		if _, err := p.Sum(ctx, 0, len(p.Orbits), 1); err != nil {
			t.Fatal(err)
		}
		cpu := (processCPU() - c0).Seconds()
		var s pairstacks.StackCounter
		var sum, mx int
		for _, h := range p.halves {
			tab, err := pairstacks.BuildHalf(ctx, &s, c, h)
			if err != nil {
				t.Fatal(err)
			}
			sum += tab.Len()
			mx = max(mx, tab.Len())
		}
		ws = append(ws, width{c: c, orbits: len(p.Orbits), classes: p.NumHalves(), cpuPerOrbit: cpu / float64(len(p.Orbits)),
			meanStates: float64(sum) / float64(p.NumHalves()), maxStates: mx})
	}
	// c = 6: sampled half classes.
	p, err := NewPlan(ctx, 6, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	k := pipelinetest.EnvInt(t, "SURVEY_2X7_TABLES", 40)
	if k < 2 {
		t.Fatal("SURVEY_2X7_TABLES: want at least 2")
	}
	rng := rand.New(rand.NewPCG(uint64(pipelinetest.EnvInt(t, "SURVEY_2X7_SEED", 1)), 0x2707))
	runtime.LockOSThread()
	var s pairstacks.StackCounter
	var sum, sumSq, cpuSum float64
	mx := 0
	for j := range k {
		id := rng.IntN(p.NumHalves())
		c0 := threadCPU()
		tab, err := pairstacks.BuildHalf(ctx, &s, 6, p.halves[id])
		if err != nil {
			t.Fatal(err)
		}
		dt := (threadCPU() - c0).Seconds()
		x := float64(tab.Len())
		sum, sumSq, cpuSum = sum+x, sumSq+x*x, cpuSum+dt
		mx = max(mx, tab.Len())
		t.Logf("%2d: c = 6 half class %4d: %d states, %.2f CPU-s", j, id, tab.Len(), dt)
	}
	runtime.UnlockOSThread()
	n := float64(k)
	mean := sum / n
	sd := math.Sqrt(max(0, (sumSq-n*mean*mean)/(n-1)))
	ws = append(ws, width{c: 6, orbits: len(p.Orbits), classes: p.NumHalves(), cpuPerOrbit: bundle2x6CPUSeconds / float64(len(p.Orbits)),
		meanStates: mean, half: 1.96 * sd / math.Sqrt(n), maxStates: mx})
	t.Logf("c = 6: %d sampled classes built in %.1f CPU-s (%.2f s each)", k, cpuSum, cpuSum/n)

	t.Logf("%2s %12s %8s %14s %22s %12s", "c", "orbits", "classes", "CPU-s/orbit", "states/table (mean)", "max seen")
	for _, w := range ws {
		t.Logf("%2d %12d %8d %14.3g %13.4g ± %-6.2g %12d", w.c, w.orbits, w.classes, w.cpuPerOrbit, w.meanStates, w.half, w.maxStates)
	}
	// The model: at c = 6 the kernel's time per orbit (table builds and
	// joins) is κ per state of a mean half table; c = 7 keeps κ, and its
	// mean (and largest) table is extrapolated from c = 4, 5, 6 in
	// logarithms, log-linearly from the last step and log-quadratically
	// through the three (the two ends of the range), with c = 6's mean at
	// the ends of its 95% interval for the interval.
	ext := func(s4, s5, s6 float64) (linear, quadratic float64) {
		a, b, c := math.Log(s4), math.Log(s5), math.Log(s6)
		return math.Exp(2*c - b), math.Exp(3*c - 3*b + a)
	}
	w4, w5, w6 := ws[1], ws[2], ws[3]
	kappa := w6.cpuPerOrbit / w6.meanStates
	t.Logf("c = 6: %.3g CPU-s an orbit (the bundle) over a mean table of %.4g states: κ = %.0f ns a state", w6.cpuPerOrbit, w6.meanStates, kappa*1e9)
	lin, quad := ext(w4.meanStates, w5.meanStates, w6.meanStates)
	linLo, quadLo := ext(w4.meanStates, w5.meanStates, max(w6.meanStates-w6.half, w5.meanStates))
	linHi, quadHi := ext(w4.meanStates, w5.meanStates, w6.meanStates+w6.half)
	maxLin, maxQuad := ext(float64(w4.maxStates), float64(w5.maxStates), float64(w6.maxStates))
	// A state at c = 7 is 6 row sets of 14 bits (84 bits: two words) and a
	// count: 24 bytes, against 16 at c = 6.
	const bytesPerState = 24
	year := 3600 * 24 * 365.25
	for _, m := range []struct {
		name           string
		states, lo, hi float64
		largest        float64
	}{{"log-linear", lin, linLo, linHi, maxLin}, {"log-quadratic", quad, quadLo, quadHi, maxQuad}} {
		// κ is the bundle's time over c = 6's mean, so a c = 6 mean at an
		// end of its interval changes κ too.
		cost := kappa * m.states * orbits7f
		lo := w6.cpuPerOrbit / max(w6.meanStates-w6.half, w5.meanStates) * m.lo * orbits7f
		hi := w6.cpuPerOrbit / (w6.meanStates + w6.half) * m.hi * orbits7f
		t.Logf("2×7 (%s): mean table %.3g states [%.3g, %.3g]; %.3g CPU-s an orbit; %.3g CPU-hours [%.3g, %.3g]; wall %.3g years on 2 cores, %.3g years on 1,000; largest table ≈ %.3g states, %.3g GB",
			m.name, m.states, m.lo, m.hi, kappa*m.states, cost/3600, lo/3600, hi/3600, cost/2/year, cost/1000/year, m.largest, m.largest*bytesPerState/1e9)
	}
}
