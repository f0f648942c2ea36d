//go:build linux

package triple

import (
	"context"
	"github.com/sudoku-census/sudoku-census/pipeline/pipelinetest"
	"math"
	"math/bits"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"syscall"
	"testing"
	"time"
)

// threadCPU returns the CPU time (user + system) of the calling OS thread.
func threadCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// loadTables4 loads the 3×4 tables from $TRIPLE_TABLES4, building and
// saving them there first if the file does not exist (about 6 CPU-minutes).
func loadTables4(t *testing.T) *Tables {
	path := os.Getenv("TRIPLE_TABLES4")
	if path == "" {
		t.Skip("set TRIPLE_TABLES4 to the tables file (built on first use)")
	}
	if _, err := os.Stat(path); err != nil {
		start := threadCPU()
		tab, err := BuildTables(context.Background(), 4)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("tables built: %.0f CPU-s, %d key orbits, %d gangsters", (threadCPU() - start).Seconds(), tab.Orbits, len(tab.Gangsters))
		if err := tab.Save(path); err != nil {
			t.Fatal(err)
		}
		return tab
	}
	tab, err := LoadTables(path)
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// TestProject3x4 measures a seeded uniform sample (with replacement) of the
// 3×4 sub-units — a gangster and one of the 173 equal slices of its plan —
// with the permuted kernel of CountRows, and projects the CPU time of the
// whole count:
// gangsters × 173 × the mean sub-unit cost (the kernel on the slice plus
// 1/173 of the gangster's plan), ± 1.96 standard errors. It runs only when
// TRIPLE_PROJECT_SAMPLES is set:
//
//	TRIPLE_TABLES4=/tmp/triple/tables4.bin TRIPLE_PROJECT_SAMPLES=400 \
//	  GOMAXPROCS=1 go test -p 1 -run TestProject3x4 -v -timeout 2h ./stages/maths/triple
//
// TRIPLE_PROJECT_SEED picks the sample (default 1). Before the sample,
// TRIPLE_PROJECT_CHECK sub-units (default 2) of the plain tables kernel are
// recomputed by the rows kernel and by CountRows and compared, and
// TRIPLE_PROJECT_FULL whole gangsters of the sample (default 0; about 20 s
// each) are computed both with their plan (CountRows) and with the exchange
// of stacks alone (the rows kernel), and compared. TRIPLE_PROJECT_PLAIN
// sub-units (default 0) are timed with the plain tables kernel, for
// comparison; TRIPLE_PROJECT_PAIRED=1 also times the rows kernel on every
// sub-unit of the sample and checks that its sum is the same. Times are the
// CPU time of the thread doing the count.
func TestProject3x4(t *testing.T) {
	k := pipelinetest.EnvInt(t, "TRIPLE_PROJECT_SAMPLES", 0)
	if k == 0 {
		t.Skip("set TRIPLE_PROJECT_SAMPLES to run")
	}
	if k < 2 {
		t.Fatal("TRIPLE_PROJECT_SAMPLES: want at least 2")
	}
	seed := uint64(pipelinetest.EnvInt(t, "TRIPLE_PROJECT_SEED", 1))
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	ctx := context.Background()
	tab := loadTables4(t)
	start := threadCPU()
	w, err := NewRows(ctx, tab)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("rows built: %.1f CPU-s, %d rows, %.2f GB; tables %.2f GB", (threadCPU() - start).Seconds(), w.rows, float64(w.Bytes())/1e9, float64(len(tab.E)*len(tab.E[0])*4)/1e9)
	start = threadCPU()
	cr, err := NewCountRows(ctx, w)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("rows of counts built: %.1f CPU-s, %.2f GB", (threadCPU() - start).Seconds(), float64(cr.Bytes())/1e9)
	G, parts := len(tab.Gangsters), tab.Parts()
	rng := rand.New(rand.NewPCG(seed, 0x3b4))
	type unit struct{ g, part int }
	sample := make([]unit, k)
	for i := range sample {
		sample[i] = unit{rng.IntN(G), rng.IntN(parts)}
	}
	add := func(h, l, h2, l2 uint64) (uint64, uint64) {
		l, c := bits.Add64(l, l2, 0)
		return h + h2 + c, l
	}
	for i := range min(pipelinetest.EnvInt(t, "TRIPLE_PROJECT_CHECK", 2), k) {
		u := sample[i]
		g := tab.Gangsters[u.g]
		c0 := threadCPU()
		h1, l1, err := tab.Completions(ctx, g, u.part)
		if err != nil {
			t.Fatal(err)
		}
		plain := threadCPU() - c0
		h2, l2, err := w.Completions(ctx, g, tab.PlainPart(g, u.part))
		if err != nil {
			t.Fatal(err)
		}
		h3, l3, err := cr.Completions(ctx, g, tab.PlainPart(g, u.part))
		if err != nil {
			t.Fatal(err)
		}
		if h1 != h2 || l1 != l2 || h1 != h3 || l1 != l3 {
			t.Fatalf("gangster %d part %d: tables %d:%d, rows %d:%d, rows of counts %d:%d", u.g, u.part, h1, l1, h2, l2, h3, l3)
		}
		t.Logf("check gangster %d plain part %d: the three kernels give %d:%d (plain kernel %.2f CPU-s)", u.g, u.part, h1, l1, plain.Seconds())
	}
	// The whole-gangster checks take the sample's first gangsters whose plan
	// uses a symmetry besides the exchange of stacks, then any.
	var full []int
	for pass := range 2 {
		for i := range sample {
			if len(full) == pipelinetest.EnvInt(t, "TRIPLE_PROJECT_FULL", 0) || slices.Contains(full, i) {
				continue
			}
			pl, err := tab.NewPlan(tab.Gangsters[sample[i].g])
			if err != nil {
				t.Fatal(err)
			}
			if pass == 1 || 2*len(pl.Pairs) < parts*2*len(tab.PlainPart(tab.Gangsters[sample[i].g], 0)) {
				full = append(full, i)
			}
		}
	}
	for _, i := range full {
		g := tab.Gangsters[sample[i].g]
		pl, err := tab.NewPlan(g)
		if err != nil {
			t.Fatal(err)
		}
		c0 := threadCPU()
		h1, l1, err := cr.Completions(ctx, g, pl.Pairs)
		if err != nil {
			t.Fatal(err)
		}
		withPlan := threadCPU() - c0
		var h2, l2 uint64
		c0 = threadCPU()
		for part := range parts {
			h, l, err := w.Completions(ctx, g, tab.PlainPart(g, part))
			if err != nil {
				t.Fatal(err)
			}
			h2, l2 = add(h2, l2, h, l)
		}
		h2, l2 = h2<<1|l2>>63, l2<<1
		halves := threadCPU() - c0
		if h1 != h2 || l1 != l2 {
			t.Fatalf("gangster %d: plan %d:%d, halves %d:%d", sample[i].g, h1, l1, h2, l2)
		}
		t.Logf("whole gangster %d: F = %d:%d by its plan (rows of counts, %d pairs, %.1f CPU-s) and by halves (rows kernel, %.1f CPU-s)", sample[i].g, h1, l1, len(pl.Pairs), withPlan.Seconds(), halves.Seconds())
	}
	if n := min(pipelinetest.EnvInt(t, "TRIPLE_PROJECT_PLAIN", 0), k); n > 0 {
		var sum float64
		for _, u := range sample[:n] {
			c0 := threadCPU()
			if _, _, err := tab.Completions(ctx, tab.Gangsters[u.g], u.part); err != nil {
				t.Fatal(err)
			}
			sum += (threadCPU() - c0).Seconds()
		}
		m := sum / float64(n)
		t.Logf("plain tables kernel (no plan): %d sub-units, mean %.3f CPU-s, projection %.0f CPU-hours", n, m, float64(G*parts)*m/3600)
	}
	paired := pipelinetest.EnvInt(t, "TRIPLE_PROJECT_PAIRED", 0) != 0
	var sum, sumSq, wall, planSum, rowsSum, rowsSumSq float64
	for i, u := range sample {
		g := tab.Gangsters[u.g]
		w0 := time.Now()
		c0 := threadCPU()
		pl, err := tab.NewPlan(g)
		if err != nil {
			t.Fatal(err)
		}
		c1 := threadCPU()
		h1, l1, err := cr.Completions(ctx, g, pl.Part(u.part, parts))
		if err != nil {
			t.Fatal(err)
		}
		c2 := threadCPU()
		planCPU := (c1 - c0).Seconds()
		dt := (c2 - c1).Seconds() + planCPU/float64(parts)
		wall += time.Since(w0).Seconds()
		if paired {
			c3 := threadCPU()
			h2, l2, err := w.Completions(ctx, g, pl.Part(u.part, parts))
			if err != nil {
				t.Fatal(err)
			}
			rt := (threadCPU() - c3).Seconds() + planCPU/float64(parts)
			rowsSum += rt
			rowsSumSq += rt * rt
			if h1 != h2 || l1 != l2 {
				t.Fatalf("gangster %d part %d: rows of counts %d:%d, rows %d:%d", u.g, u.part, h1, l1, h2, l2)
			}
		}
		planSum += planCPU
		sum += dt
		sumSq += dt * dt
		if i < 5 || i%100 == 0 {
			t.Logf("%4d gangster %6d part %3d: %d of %d pairs, kernel %.3f CPU-s, plan %.3f CPU-s", i, u.g, u.part, len(pl.Part(u.part, parts)), len(pl.Pairs), (c2 - c1).Seconds(), planCPU)
		}
	}
	n := float64(k)
	mean := sum / n
	sd := math.Sqrt((sumSq - n*mean*mean) / (n - 1))
	half := 1.96 * sd / math.Sqrt(n)
	units := float64(G * parts)
	t.Logf("%d sub-units (seed %d): mean %.4f CPU-s, sd %.4f, 95%% CI of the mean ±%.4f (wall mean %.4f s; plan mean %.3f CPU-s per gangster)", k, seed, mean, sd, half, wall/n, planSum/n)
	if paired {
		rm := rowsSum / n
		rsd := math.Sqrt((rowsSumSq - n*rm*rm) / (n - 1))
		t.Logf("rows kernel on the same sub-units (equal sums): mean %.4f CPU-s, sd %.4f; projection %.0f ± %.0f CPU-hours; ratio of means %.2f", rm, rsd, units*rm/3600, units*1.96*rsd/math.Sqrt(n)/3600, rm/mean)
	}
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err == nil {
		t.Logf("peak RSS %.2f GB (tables, rows and rows of counts all kept)", float64(ru.Maxrss)*1024/1e9)
	}
	t.Logf("projection: %d gangsters × %d sub-units = %.0f sub-units; a gangster %.1f ± %.1f CPU-s; total %.0f ± %.0f CPU-hours (95%%)",
		G, parts, units, float64(parts)*mean, float64(parts)*half, units*mean/3600, units*half/3600)
}
