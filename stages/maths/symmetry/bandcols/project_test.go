package bandcols

import (
	"context"
	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/pipeline/pipelinetest"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry"
)

// TestProjectLastLayer projects the cost of Fixed on 2×6 class
// BANDCOLS_PROJECT (2×6 numbering; skipped when unset): for each involution
// σ_k (k 2-cycles) and each half that is computed (one when the halves are
// alike), it runs the half's programme up to its last band orbit, then
// times that orbit's expansion of BANDCOLS_SAMPLE (default 30) of the
// states before it, drawn with seed 1 (CPU time, run with GOMAXPROCS=1),
// and projects that layer as the number of states times the sample's mean,
// with its 95% interval (Student's t from 2 to 9 degrees of freedom, then
// 2). The layers before are timed whole; the join (one canon and
// stabilizer per state of the last layer) is not included.
func TestProjectLastLayer(t *testing.T) {
	v := os.Getenv("BANDCOLS_PROJECT")
	if v == "" {
		t.Skip("set BANDCOLS_PROJECT to a 2×6 class")
	}
	cls, err := strconv.Atoi(v)
	if err != nil {
		t.Fatal(err)
	}
	sample := pipelinetest.EnvInt(t, "BANDCOLS_SAMPLE", 30)
	s := symmetry.Shape{R: 2, C: 6}
	g, err := symmetry.NewGroup(s, false)
	if err != nil {
		t.Fatal(err)
	}
	x, err := newExchange(s, g.Classes[cls].Rep)
	if err != nil {
		t.Fatal(err)
	}
	a, b := x.halves()
	halves := [][][]int{pairsFirst(a)}
	if !x.alike(a, b) {
		halves = append(halves, pairsFirst(b))
	}
	ks := pipelinetest.EnvInts(t, "BANDCOLS_KS")
	if len(ks) == 0 {
		ks = []int{0, 1, 2, 3, 4, 5, 6}
	}
	var total, lo, hi float64
	for _, k := range ks {
		for h, gs := range halves {
			cn := x.newCounter(k)
			c0 := pipeline.ProcessCPU()
			before, err := cn.forward(context.Background(), gs[:len(gs)-1])
			if err != nil {
				t.Fatal(err)
			}
			head := (pipeline.ProcessCPU() - c0).Seconds()
			var keys []state
			before.each(func(key state, _ grid.Uint128) error {
				keys = append(keys, key)
				return nil
			})
			slices.SortFunc(keys, func(p, q state) int {
				if less(p, q) {
					return -1
				}
				if p == q {
					return 0
				}
				return 1
			})
			rng := rand.New(rand.NewPCG(1, uint64(k)))
			idx := rng.Perm(len(keys))[:min(sample, len(keys))]
			var secs []float64
			for _, i := range idx {
				one := newStateTable(cn.n)
				if err := one.add(keys[i], grid.Uint128{Lo: 1}, 1); err != nil {
					t.Fatal(err)
				}
				c1 := pipeline.ProcessCPU()
				if _, err := cn.layer(context.Background(), one, gs[len(gs)-1], wholeOrbit); err != nil {
					t.Fatal(err)
				}
				secs = append(secs, (pipeline.ProcessCPU() - c1).Seconds())
			}
			mean, half := pipelinetest.MeanInterval(secs)
			n := float64(len(keys))
			total += head + n*mean
			lo += head + n*max(mean-half, 0)
			hi += head + n*(mean+half)
			t.Logf("2x6 class %d σ with %d 2-cycles, half %d %v: orbits before the last %.1f CPU-s, %d states; last orbit sampled %d: mean %.3f ± %.3f CPU-s, max %.3f: projected %.3g CPU-s [%.3g, %.3g]",
				cls, k, h, gs, head, len(keys), len(secs), mean, half, slices.Max(secs), head+n*mean, head+n*max(mean-half, 0), head+n*(mean+half))
		}
	}
	t.Logf("2x6 class %d: projected %.3g CPU-h [%.3g, %.3g]", cls, total/3600, lo/3600, hi/3600)
}
