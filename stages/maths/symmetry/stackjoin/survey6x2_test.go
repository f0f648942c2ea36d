package stackjoin_test

import (
	"cmp"
	"context"
	"errors"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

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
// each, projecting the class from their mean.
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
	partTimeout := envDuration(t, "STACKJOIN_PART_TIMEOUT", time.Minute)
	parts := pipelinetest.EnvInt(t, "STACKJOIN_PARTS", 64)
	indices := pipelinetest.EnvInts(t, "STACKJOIN_PART_INDICES")
	if len(indices) == 0 {
		indices = []int{0}
	}
	for _, i := range pipelinetest.EnvInts(t, "STACKJOIN_CLASSES") {
		k := slices.IndexFunc(list, func(r row) bool { return r.c6 == i })
		if k < 0 {
			t.Fatalf("STACKJOIN_CLASSES: 6x2 class %d fixes no grid", i)
		}
		r, c := list[k], g6.Classes[i]
		if whole > 0 {
			ctx, cancel := context.WithTimeout(context.Background(), whole)
			t0 := time.Now()
			f, err := stackjoin.FixedWorkers(ctx, s6, c.Rep, 1)
			cancel()
			took := time.Since(t0)
			if err == nil {
				if f.Cmp(r.f) != 0 {
					t.Errorf("MISMATCH 6x2 class %d: R-stack F %v, stage F %v", i, f, r.f)
				}
				t.Logf("class %d (share %.3e): whole in %v, F equal: %v", i, r.share, took.Round(time.Millisecond), f.Cmp(r.f) == 0)
				continue
			}
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("class %d: %v", i, err)
			}
		}
		var sum, lo, hi time.Duration
		n := 0
		for _, p := range indices {
			ctx, cancel := context.WithTimeout(context.Background(), partTimeout)
			t0 := time.Now()
			_, err := stackjoin.FixedPart(ctx, s6, c.Rep, p, parts, 1)
			cancel()
			took := time.Since(t0)
			if errors.Is(err, context.DeadlineExceeded) {
				t.Logf("class %d (share %.3e): part %d of %d past %v: class over %.3g CPU-h", i, r.share, p, parts, partTimeout, (partTimeout * time.Duration(parts)).Hours())
				n = -1
				break
			}
			if err != nil {
				t.Fatalf("class %d part %d: %v", i, p, err)
			}
			t.Logf("class %d: part %d of %d: %v", i, p, parts, took.Round(time.Millisecond))
			if n == 0 || took < lo {
				lo = took
			}
			hi = max(hi, took)
			sum += took
			n++
		}
		if n > 0 {
			h := func(d time.Duration) float64 { return (d * time.Duration(parts)).Hours() }
			t.Logf("class %d (share %.3e): %d parts timed, projected %.3g CPU-h (parts' range %.3g–%.3g)", i, r.share, n, h(sum/time.Duration(n)), h(lo), h(hi))
		}
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
