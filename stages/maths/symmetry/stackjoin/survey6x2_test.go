package stackjoin_test

import (
	"cmp"
	"context"
	"errors"
	"math/big"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/pipeline/pipelinetest"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/search"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/stackjoin"
	symstage "github.com/sudoku-census/sudoku-census/stages/symmetry"
)

// TestSurvey6x2 asks whether the R-stack method can recount the 2×6
// classes on the transposed shape 6×2 (issue 47). With STACKJOIN_6X2_SURVEY=1
// it reads the stage's data/symmetry_classes.parquet under STACKJOIN_ROOT
// (default the repository root), lists every 6×2 class that fixes a grid
// with its 2×6 class and its share of the non-identity 2×6 Burnside sum
// Σ|class|·F, and then, for the classes STACKJOIN_CLASSES (6×2 numbering;
// default none), tries the whole count on one core within
// STACKJOIN_WHOLE_TIMEOUT (default 30s), comparing F with the stage's, and
// otherwise times parts STACKJOIN_PART_INDICES (default 0) of
// STACKJOIN_PARTS (default 64) within STACKJOIN_PART_TIMEOUT (default 60s)
// of the process's CPU time each (FixedPartByFirstRows's parts with
// STACKJOIN_BY_FIRST_ROWS=1), projecting the class from their mean and its 95%
// interval. The
// classes may also be the STACKJOIN_TOP heaviest after the
// STACKJOIN_SKIP heaviest; STACKJOIN_SAMPLE=m draws m parts with seed
// STACKJOIN_SEED (default 1); STACKJOIN_PAST=1 times the parts after one
// past the limit too (no projection then, the share past it). Times are the process's CPU time (run with
// GOMAXPROCS=1); STACKJOIN_ZERO=1 also counts whole the classes with a
// relabelling type that fix no grid. The stack counts are kept across the parts and classes of
// the process, as in a run of the stage.
func TestSurvey6x2(t *testing.T) {
	if os.Getenv("STACKJOIN_6X2_SURVEY") != "1" {
		t.Skip("set STACKJOIN_6X2_SURVEY=1")
	}
	root := os.Getenv("STACKJOIN_ROOT")
	if root == "" {
		root = filepath.Join("..", "..", "..", "..")
	}
	rows, err := symstage.Classes.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	s6 := symmetry.Shape{R: 6, C: 2}
	fixed := map[string]map[int]*big.Int{"6x2": {}, "2x6": {}}
	transpose26 := false
	for _, r := range rows {
		m, ok := fixed[r.Shape]
		if !ok {
			continue
		}
		f, ok := new(big.Int).SetString(r.Fixed, 10)
		if !ok {
			t.Fatalf("%s class %d: fixed %q is not an integer", r.Shape, r.Class, r.Fixed)
		}
		m[int(r.Class)] = f
		if r.Shape == "2x6" {
			transpose26 = r.Transpose
		}
	}
	g6, err := symmetry.NewGroup(s6, false)
	if err != nil {
		t.Fatal(err)
	}
	g26, err := symmetry.NewGroup(symmetry.Shape{R: 2, C: 6}, transpose26)
	if err != nil {
		t.Fatal(err)
	}
	if len(fixed["6x2"]) != len(g6.Classes) || len(fixed["2x6"]) != len(g26.Classes) {
		t.Fatalf("the artifact has %d 6x2 and %d 2x6 classes, the groups %d and %d",
			len(fixed["6x2"]), len(fixed["2x6"]), len(g6.Classes), len(g26.Classes))
	}
	total := new(big.Int)
	for _, c := range g26.Classes[1:] {
		total.Add(total, new(big.Int).Mul(c.Size, fixed["2x6"][c.Index]))
	}
	type row struct {
		c6, c26 int
		types   int
		f       *big.Int
		share   float64
	}
	var list []row
	// STACKJOIN_ZERO=1: count whole the classes with σ types that fix no
	// grid, which the stage lists as check units too
	zero := os.Getenv("STACKJOIN_ZERO") == "1"
	var zeros []int
	for _, c := range g6.Classes[1:] {
		f := fixed["6x2"][c.Index]
		types := len(search.SigmaTypes(s6, c.Rep))
		j, err := g26.ClassOf(symmetry.Element{Rows: c.Rep.Cols, Cols: c.Rep.Rows})
		if err != nil {
			t.Fatal(err)
		}
		if f.Cmp(fixed["2x6"][j]) != 0 {
			t.Errorf("6x2 class %d: F %v, its 2x6 class %d: %v", c.Index, f, j, fixed["2x6"][j])
		}
		if f.Sign() == 0 {
			if types > 0 {
				t.Logf("6x2 class %d: %d σ types, F = 0", c.Index, types)
				if zero {
					zeros = append(zeros, c.Index)
				}
			}
			continue
		}
		if types == 0 {
			t.Errorf("6x2 class %d: F = %v but no σ type", c.Index, f)
		}
		w, _ := new(big.Rat).SetFrac(new(big.Int).Mul(c.Size, f), total).Float64()
		list = append(list, row{c.Index, j, types, f, w})
	}
	slices.SortFunc(list, func(a, b row) int { return cmp.Compare(b.share, a.share) })
	for _, r := range list {
		c := g6.Classes[r.c6]
		t.Logf("6x2 class %3d = 2x6 class %3d: share %.3e, |class| %v, order %d, %d σ types, F %v [%s]",
			r.c6, r.c26, r.share, c.Size, c.Order, r.types, r.f, c.Desc)
	}
	t.Logf("%d non-identity 6x2 classes fix a grid; non-identity 2x6 sum %v", len(list), total)

	whole := envDuration(t, "STACKJOIN_WHOLE_TIMEOUT", 30*time.Second)
	zeroHours := 0.0
	for _, i := range zeros {
		ctx, cancel := context.WithTimeout(context.Background(), whole)
		cpu0 := pipeline.ProcessCPU()
		f, err := stackjoin.FixedWorkers(ctx, s6, g6.Classes[i].Rep, 1)
		cancel()
		took := pipeline.ProcessCPU() - cpu0
		if err != nil {
			t.Logf("COST class %d F = 0: past %v (%v)", i, whole, err)
			continue
		}
		if f.Sign() != 0 {
			t.Errorf("MISMATCH 6x2 class %d: R-stack F %v, stage F 0", i, f)
		}
		zeroHours += took.Hours()
		t.Logf("COST class %d F = 0: whole %.2f CPU-s", i, took.Seconds())
	}
	if zero {
		t.Logf("COST the %d classes fixing no grid: %.3g CPU-h", len(zeros), zeroHours)
	}
	partTimeout := envDuration(t, "STACKJOIN_PART_TIMEOUT", time.Minute)
	partOf := stackjoin.FixedPart
	if os.Getenv("STACKJOIN_BY_FIRST_ROWS") == "1" {
		partOf = stackjoin.FixedPartByFirstRows
	}
	parts := pipelinetest.EnvInt(t, "STACKJOIN_PARTS", 64)
	indices := pipelinetest.EnvInts(t, "STACKJOIN_PART_INDICES")
	if sample := pipelinetest.EnvInt(t, "STACKJOIN_SAMPLE", 0); sample > 0 {
		// distinct parts drawn with a fixed seed, part 0 (the heaviest as a
		// rule) apart: the mean of a uniform sample projects the class
		rng := rand.New(rand.NewPCG(uint64(pipelinetest.EnvInt(t, "STACKJOIN_SEED", 1)), 47))
		indices = rng.Perm(parts)[:min(sample, parts)]
	}
	if len(indices) == 0 {
		indices = []int{0}
	}
	classes := pipelinetest.EnvInts(t, "STACKJOIN_CLASSES")
	if top := pipelinetest.EnvInt(t, "STACKJOIN_TOP", 0); top > 0 {
		skip := pipelinetest.EnvInt(t, "STACKJOIN_SKIP", 0)
		for _, r := range list[min(skip, len(list)):min(skip+top, len(list))] {
			classes = append(classes, r.c6)
		}
	}
	var totalHours, totalLo, totalHi float64
	for _, i := range classes {
		k := slices.IndexFunc(list, func(r row) bool { return r.c6 == i })
		if k < 0 {
			t.Fatalf("STACKJOIN_CLASSES: 6x2 class %d fixes no grid", i)
		}
		r, c := list[k], g6.Classes[i]
		if whole > 0 {
			ctx, cancel := context.WithTimeout(context.Background(), whole)
			cpu0 := pipeline.ProcessCPU()
			f, err := stackjoin.FixedWorkers(ctx, s6, c.Rep, 1)
			cancel()
			took := pipeline.ProcessCPU() - cpu0
			if err == nil {
				if f.Cmp(r.f) != 0 {
					t.Errorf("MISMATCH 6x2 class %d: R-stack F %v, stage F %v", i, f, r.f)
				}
				h := took.Hours()
				totalHours, totalLo, totalHi = totalHours+h, totalLo+h, totalHi+h
				t.Logf("COST class %d share %.3e whole %.2f CPU-s, F equal %v", i, r.share, took.Seconds(), f.Cmp(r.f) == 0)
				continue
			}
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("class %d: %v", i, err)
			}
		}
		var secs []float64
		over := 0 // parts past the limit: with STACKJOIN_PAST=1 the sample goes on
		goOn := os.Getenv("STACKJOIN_PAST") == "1"
		for _, p := range indices {
			ctx, cancel := stackjoin.CPULimit(context.Background(), partTimeout)
			cpu0 := pipeline.ProcessCPU()
			_, err := partOf(ctx, s6, c.Rep, p, parts, 1)
			cancel()
			took := pipeline.ProcessCPU() - cpu0
			if errors.Is(err, context.Canceled) {
				t.Logf("COST class %d share %.3e: part %d of %d past %v (%.1f CPU-s)", i, r.share, p, parts, partTimeout, took.Seconds())
				if over++; !goOn {
					break
				}
				continue
			}
			if err != nil {
				t.Fatalf("class %d part %d: %v", i, p, err)
			}
			t.Logf("class %d: part %d of %d: %.2f CPU-s", i, p, parts, took.Seconds())
			secs = append(secs, took.Seconds())
		}
		if over > 0 || len(secs) == 0 {
			if len(secs) > 0 {
				mean, _ := pipelinetest.MeanInterval(secs)
				t.Logf("COST class %d: %d of %d parts past %v; the others mean %.2f CPU-s, max %.2f: no projection",
					i, over, over+len(secs), partTimeout, mean, slices.Max(secs))
			}
			continue
		}
		mean, half := pipelinetest.MeanInterval(secs)
		h := func(s float64) float64 { return s * float64(parts) / 3600 }
		totalHours, totalLo, totalHi = totalHours+h(mean), totalLo+h(max(mean-half, 0)), totalHi+h(mean+half)
		t.Logf("COST class %d share %.3e parts %d sampled %d mean %.2f ± %.2f CPU-s max %.2f: projected %.3g CPU-h [%.3g, %.3g]",
			i, r.share, parts, len(secs), mean, half, slices.Max(secs), h(mean), h(max(mean-half, 0)), h(mean+half))
	}
	if len(classes) > 0 {
		t.Logf("COST total of the classes measured: %.3g CPU-h [%.3g, %.3g]", totalHours, totalLo, totalHi)
	}
}

func envDuration(t *testing.T, key string, def time.Duration) time.Duration {
	v := os.Getenv(key)
	if v == "" {
		return def
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		t.Fatalf("%s=%q: want a duration", key, v)
	}
	return d
}
