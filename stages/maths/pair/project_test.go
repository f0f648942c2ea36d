//go:build linux

package pair

import (
	"context"
	"fmt"
	"math/big"
	"os"
	"runtime"
	"strconv"
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

// TestProject2x6 measures E(T) on a fixed-seed sample of c = 6 orbits and
// projects the CPU time of the whole 2×6 count. It runs only when
// PAIR_PROJECT_SAMPLES is set (the number of orbits to sample, e.g. 40):
//
//	PAIR_PROJECT_SAMPLES=40 go test -run TestProject2x6 -v -timeout 1h ./stages/maths/pair
//
// SampleOrbits draws an orbit O with probability W(O)/NumTuples, so the
// uniform mean over orbits of the time t is estimated by the ratio
// Σ t/W / Σ 1/W, and the projection is that mean times NumOrbits(6). The
// time is the CPU time of the thread doing the count (the goroutine is
// locked to it), which other load on the machine inflates less than the
// wall time.
func TestProject2x6(t *testing.T) {
	env := os.Getenv("PAIR_PROJECT_SAMPLES")
	if env == "" {
		t.Skip("set PAIR_PROJECT_SAMPLES to run")
	}
	k, err := strconv.Atoi(env)
	if err != nil || k < 1 {
		t.Fatalf("PAIR_PROJECT_SAMPLES=%q", env)
	}
	seed := uint64(1)
	if s := os.Getenv("PAIR_PROJECT_SEED"); s != "" {
		if seed, err = strconv.ParseUint(s, 10, 64); err != nil {
			t.Fatal(err)
		}
	}
	orbits, err := SampleOrbits(6, k, seed)
	if err != nil {
		t.Fatal(err)
	}
	numOrbits, err := NumOrbits(context.Background(), 6)
	if err != nil {
		t.Fatal(err)
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var s stackCounter
	var sumTW, sumW, sumT, sumWall float64
	for j, o := range orbits {
		wall := time.Now()
		cpu := threadCPU()
		e, err := s.count(context.Background(), 6, o.Rep)
		if err != nil {
			t.Fatal(err)
		}
		dt := (threadCPU() - cpu).Seconds()
		dw := time.Since(wall).Seconds()
		w := float64(o.Weight)
		sumTW += dt / w
		sumW += 1 / w
		sumT += dt
		sumWall += dw
		t.Logf("%2d %s W=%d E=%d cpu %.2fs wall %.2fs", j, o, o.Weight, e, dt, dw)
	}
	mean := sumTW / sumW
	n, _ := new(big.Float).SetInt(numOrbits).Float64()
	t.Logf("%d samples (seed %d): raw mean %.2f s cpu (%.2f s wall); weight-corrected mean %.2f s cpu per orbit",
		k, seed, sumT/float64(k), sumWall/float64(k), mean)
	t.Log(fmt.Sprintf("projection: %v orbits × %.2f s = %.0f CPU-hours", numOrbits, mean, n*mean/3600))
}
