package stackjoin

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/search"
)

// BenchmarkFixedWorkers3x4 counts 3×4 class 11 (every stack's columns
// (1 2)(3 4), the search's heaviest plan; about 2,000 first-cycle
// configurations) and class 141 (the rows of every band cycled; 18,270)
// on one worker and on two.
func BenchmarkFixedWorkers3x4(b *testing.B) {
	s := symmetry.Shape{R: 3, C: 4}
	g, err := symmetry.NewGroup(s, false)
	if err != nil {
		b.Fatal(err)
	}
	for _, class := range []int{11, 141} {
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("class%d/workers%d", class, workers), func(b *testing.B) {
				for range b.N {
					if _, err := FixedWorkers(context.Background(), s, g.Classes[class].Rep, workers); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkCheckPart5x2 counts one part of 64 of a heavy 5×2 class, as a
// check unit of the symmetry stage does (check.5x2.class081.part03of64),
// on one worker, from a cold process (the stack counts are kept for the
// process: run one part, -benchtime 1x, to profile it). It logs the part's
// sums, which no change of speed may change, and reports the process's
// CPU time (cpu-s/op). The part: class 81 part 3 (every stack kept, the
// bands exchanged; 88 CPU-s before the memo of the later cycles and
// RowNormal's sorted bands, 8.8 after, 4.0 with the memo pointer-free and
// keyed up to the row swaps; 83.3 8.5 → 4.9), or the list STACKJOIN_BENCH_PARTS
// ("class.part,…", e.g. "83.3,47.40"), run in one process.
func BenchmarkCheckPart5x2(b *testing.B) {
	benchCheckParts(b, symmetry.Shape{R: 5, C: 2}, 64, [][2]int{{81, 3}})
}

// BenchmarkCheckPart6x2 is BenchmarkCheckPart5x2 on 6×2, the units of the
// 2×6 recount: class 172 (the bands exchanged, every stack's columns
// exchanged; 49% of the non-identity 2×6 sum) part 0 of
// STACKJOIN_BENCH_OF parts (default 256), or STACKJOIN_BENCH_PARTS; with
// STACKJOIN_BENCH_CPU=60s it profiles the first minute.
func BenchmarkCheckPart6x2(b *testing.B) {
	of := 256
	if v := os.Getenv("STACKJOIN_BENCH_OF"); v != "" {
		var err error
		if of, err = strconv.Atoi(v); err != nil || of < 1 {
			b.Fatalf("STACKJOIN_BENCH_OF=%q: want a positive integer", v)
		}
	}
	benchCheckParts(b, symmetry.Shape{R: 6, C: 2}, of, [][2]int{{172, 0}})
}

func benchCheckParts(b *testing.B, s symmetry.Shape, of int, pairs [][2]int) {
	g, err := symmetry.NewGroup(s, false)
	if err != nil {
		b.Fatal(err)
	}
	if v := os.Getenv("STACKJOIN_BENCH_PARTS"); v != "" {
		pairs = nil
		for _, f := range strings.Split(v, ",") {
			cs, ps, _ := strings.Cut(f, ".")
			class, err1 := strconv.Atoi(cs)
			part, err2 := strconv.Atoi(ps)
			if err1 != nil || err2 != nil || class < 0 || class >= len(g.Classes) || part < 0 || part >= of {
				b.Fatalf("STACKJOIN_BENCH_PARTS: %q is not class.part (a %v class, a part below %d)", f, s, of)
			}
			pairs = append(pairs, [2]int{class, part})
		}
	}
	// STACKJOIN_BENCH_CPU (a duration) stops each part at that much of the
	// process's CPU time, for a profile of a bounded piece of a part too
	// long to finish; STACKJOIN_BENCH_BY_FIRST_ROWS=1 runs FixedPartByFirstRows's parts.
	var limit time.Duration
	if v := os.Getenv("STACKJOIN_BENCH_CPU"); v != "" {
		if limit, err = time.ParseDuration(v); err != nil || limit <= 0 {
			b.Fatalf("STACKJOIN_BENCH_CPU=%q: want a positive duration", v)
		}
	}
	partOf := FixedPart
	if os.Getenv("STACKJOIN_BENCH_BY_FIRST_ROWS") == "1" {
		partOf = FixedPartByFirstRows
	}
	for _, cp := range pairs {
		b.Run(fmt.Sprintf("class%d/part%d", cp[0], cp[1]), func(b *testing.B) {
			for range b.N {
				ctx, cancel := context.Background(), context.CancelFunc(func() {})
				if limit > 0 {
					ctx, cancel = CPULimit(ctx, limit)
				}
				cpu0 := pipeline.ProcessCPU()
				sums, err := partOf(ctx, s, g.Classes[cp[0]].Rep, cp[1], of, 1)
				cancel()
				if limit > 0 && errors.Is(err, context.Canceled) {
					b.Logf("%v class %d part %d of %d: stopped at %v, %.2f CPU-s", s, cp[0], cp[1], of, limit, (pipeline.ProcessCPU() - cpu0).Seconds())
					continue
				}
				if err != nil {
					b.Fatal(err)
				}
				cpu := pipeline.ProcessCPU() - cpu0
				b.ReportMetric(cpu.Seconds(), "cpu-s/op")
				b.Logf("%v class %d part %d of %d: sums %v, %.2f CPU-s", s, cp[0], cp[1], of, sums, cpu.Seconds())
			}
		})
	}
}

// BenchmarkFirstRows6x2 lists the first-row orbits (computeFirstRows, not
// the process's cache) of 6×2 class 172 for each of its 7 relabelling
// types: 7,484,400 ordered partitions each, the whole of the first
// minutes of every part of the heavy 6×2 classes before the count starts.
func BenchmarkFirstRows6x2(b *testing.B) {
	s := symmetry.Shape{R: 6, C: 2}
	g, err := symmetry.NewGroup(s, false)
	if err != nil {
		b.Fatal(err)
	}
	e := g.Classes[172].Rep
	p := newProblem(s, e)
	for _, lam := range search.SigmaTypes(s, e) {
		b.Run(fmt.Sprint(lam), func(b *testing.B) {
			var st Stats
			w := newWalker(context.Background(), p, lam, 0, &st)
			for range b.N {
				reps, _ := w.computeFirstRows()
				b.ReportMetric(float64(len(reps)), "orbits")
			}
		})
	}
}

// CPULimit returns ctx cancelled once the process has spent d more CPU
// time (looked at every 50 ms): on a loaded machine a wall-clock limit
// stops a count after a varying share of its work.
func CPULimit(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	end := pipeline.ProcessCPU() + d
	go func() {
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				if pipeline.ProcessCPU() >= end {
					cancel()
					return
				}
			}
		}
	}()
	return ctx, cancel
}
