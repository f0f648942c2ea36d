package stacks

import (
	"context"
	"math/big"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/perm"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/search"
)

// cpuSeconds is the CPU time (user and system) of the process so far.
func cpuSeconds(t *testing.T) float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

// TestTermTimes2x6 is exploratory (it runs only with STACKS_TERMS set): it
// times the terms of the 2×6 classes STACKS_TERMS lists, as CLASS or
// CLASS/STRIDE (every STRIDE-th class of assignments of each σ type, on one
// goroutine, so that the CPU time is the terms'), and projects the class's
// CPU time from the sample. Run it niced, with -cpuprofile for a profile.
func TestTermTimes2x6(t *testing.T) {
	spec := os.Getenv("STACKS_TERMS")
	if spec == "" {
		t.Skip("exploratory: set STACKS_TERMS=CLASS[/STRIDE],...")
	}
	ctx := context.Background()
	s := symmetry.Shape{R: 2, C: 6}
	g, err := symmetry.NewGroup(s, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, item := range strings.Split(spec, ",") {
		idx, strideText, _ := strings.Cut(item, "/")
		i, err := strconv.Atoi(idx)
		if err != nil {
			t.Fatalf("STACKS_TERMS: %q is not CLASS[/STRIDE]", item)
		}
		stride := 1
		if strideText != "" {
			if stride, err = strconv.Atoi(strideText); err != nil || stride < 1 {
				t.Fatalf("STACKS_TERMS: stride %q is not a positive integer", strideText)
			}
		}
		cl, err := g.Class(i)
		if err != nil {
			t.Fatal(err)
		}
		p := newStackProblem(s.C, cl.Rep)
		var projected, measured float64
		sampled, all := 0, 0
		sum := new(big.Int)
		for _, lam := range search.SigmaTypes(s, cl.Rep) {
			sigma := perm.WithCycleType(lam)
			classes, err := p.assignmentClasses(ctx, lam)
			if err != nil {
				t.Fatal(err)
			}
			var cpu float64
			n := 0
			for k := 0; k < len(classes); k += stride {
				c0, w0 := cpuSeconds(t), time.Now()
				a, err := p.term(ctx, sigma, classes[k].rows)
				if err != nil {
					t.Fatal(err)
				}
				d := cpuSeconds(t) - c0
				cpu += d
				n++
				sum.Add(sum, new(big.Int).Mul(a, classes[k].weight))
				if os.Getenv("STACKS_TERMS_VERBOSE") != "" {
					t.Logf("class %d σ %v term %d: %v, %.3f CPU-s, %v wall", i, lam, k, a, d, time.Since(w0).Round(time.Millisecond))
				}
			}
			sampled += n
			all += len(classes)
			measured += cpu
			projected += cpu * float64(len(classes)) / float64(max(n, 1))
		}
		t.Logf("2x6 class %d (%s): %d of %d term classes, %.2f CPU-s measured, %.1f CPU-s projected; sampled Σ term·weight = %v",
			i, cl.Desc, sampled, all, measured, projected, sum)
	}
}

// TestFixedTimes2x6 is exploratory (it runs only with STACKS_FIXED set):
// it computes Fixed for the 2×6 classes STACKS_FIXED lists (comma
// separated, in one process, so that later classes find the half tables
// earlier ones left in the cache) and logs each count with its CPU time.
func TestFixedTimes2x6(t *testing.T) {
	spec := os.Getenv("STACKS_FIXED")
	if spec == "" {
		t.Skip("exploratory: set STACKS_FIXED=CLASS,...")
	}
	s := symmetry.Shape{R: 2, C: 6}
	g, err := symmetry.NewGroup(s, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, item := range strings.Split(spec, ",") {
		i, err := strconv.Atoi(item)
		if err != nil {
			t.Fatalf("STACKS_FIXED: %q is not a class number", item)
		}
		cl, err := g.Class(i)
		if err != nil {
			t.Fatal(err)
		}
		c0, w0 := cpuSeconds(t), time.Now()
		f, err := Fixed(context.Background(), s, cl.Rep)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("2x6 class %d (%s): F = %v, %.0f CPU-s, %v wall", i, cl.Desc, f, cpuSeconds(t)-c0, time.Since(w0).Round(time.Second))
	}
}
