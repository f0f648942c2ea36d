//go:build linux

package pair

import (
	"context"
	"math"
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

// TestProject2x6 measures E(T) on a fixed-seed uniform sample of the c = 6
// orbits (with replacement) and projects the CPU time of the whole 2×6 count
// and of a work unit of 32 orbits (the default shapes.orbits_per_unit). It
// runs only when PAIR_PROJECT_SAMPLES is set (the number of orbits to
// sample, e.g. 60; PAIR_PROJECT_SEED picks the sample):
//
//	PAIR_PROJECT_SAMPLES=60 go test -run TestProject2x6 -v -timeout 2h ./stages/maths/pair
//
// The time is the CPU time of the thread doing the count (the goroutine is
// locked to it), which other load on the machine inflates less than the wall
// time. The ± is 1.96 standard errors of the mean.
func TestProject2x6(t *testing.T) {
	env := os.Getenv("PAIR_PROJECT_SAMPLES")
	if env == "" {
		t.Skip("set PAIR_PROJECT_SAMPLES to run")
	}
	k, err := strconv.Atoi(env)
	if err != nil || k < 2 {
		t.Fatalf("PAIR_PROJECT_SAMPLES=%q: want an integer ≥ 2", env)
	}
	seed := uint64(1)
	if s := os.Getenv("PAIR_PROJECT_SEED"); s != "" {
		if seed, err = strconv.ParseUint(s, 10, 64); err != nil {
			t.Fatal(err)
		}
	}
	orbits := sampleOrbits(t, 6, k, seed)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var s pairstacks.StackCounter
	var sum, sumSq, sumWall float64
	for j, o := range orbits {
		wall := time.Now()
		cpu := threadCPU()
		e, err := s.Count(context.Background(), 6, o.Rep)
		if err != nil {
			t.Fatal(err)
		}
		dt := (threadCPU() - cpu).Seconds()
		dw := time.Since(wall).Seconds()
		sum += dt
		sumSq += dt * dt
		sumWall += dw
		t.Logf("%2d %s W=%d E=%d cpu %.2fs wall %.2fs", j, o, o.Weight, e, dt, dw)
	}
	n := float64(k)
	mean := sum / n
	half := 1.96 * math.Sqrt((sumSq/n-mean*mean)/(n-1))
	const orbits6, perUnit = 63199, 32
	t.Logf("%d samples (seed %d): %.2f ± %.2f CPU-seconds per orbit (%.2f s wall)", k, seed, mean, half, sumWall/n)
	t.Logf("projection: a unit of %d orbits %.0f ± %.0f CPU-seconds; %d orbits %.0f ± %.0f CPU-hours",
		perUnit, perUnit*mean, perUnit*half, orbits6, orbits6*mean/3600, orbits6*half/3600)
}
