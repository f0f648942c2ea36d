//go:build linux

package triple

import (
	"context"
	"hash/maphash"
	"math/rand/v2"
	"os"
	"runtime"
	"testing"

	"github.com/sudoku-census/sudoku-census/pipeline/pipelinetest"
	"github.com/sudoku-census/sudoku-census/stages/maths/triplestacks"
)

// TestExpDedup measures reuse of the rows kernel's dot products.
func TestExpDedup(t *testing.T) {
	k := pipelinetest.EnvInt(t, "EXP_SAMPLES", 0)
	if k == 0 {
		t.Skip()
	}
	runtime.LockOSThread()
	ctx := context.Background()
	tab := loadTables4(t)
	w, err := NewRows(ctx, tab)
	if err != nil {
		t.Fatal(err)
	}
	s := tab.s
	rng := rand.New(rand.NewPCG(7, 1))
	var seed = maphash.MakeSeed()
	nonInj, short := 0, 0
	for _, ci := range w.c {
		if len(ci.compat) < s.NumSplits() {
			short++
		}
	}
	t.Logf("combos %d, with compat shorter than splits %d", len(w.c), short)
	globalKeys := map[[3]uint64]bool{}
	globalDots := 0
	for range k {
		gi := rng.IntN(len(tab.Gangsters))
		g := tab.Gangsters[gi]
		pl, _ := tab.NewPlan(g)
		pairs := pl.Pairs
		if len(os.Getenv("EXP_PART")) > 0 {
			pairs = pl.Part(rng.IntN(tab.Parts()), tab.Parts())
		}
		bands := tab.bands(g.Base, g.Key)
		sp := make([][]triplestacks.Split, 4)
		for i := range 4 {
			sp[i] = s.SplitsOf(bands[i])
		}
		last := (*triplestacks.Partition)(&bands[3])
		nl := len(sp[3])
		p2, p3 := make([]int32, nl), make([]int32, nl)
		var k2, k3 side
		keys := map[[3]uint64]bool{}
		aligns := map[uint64]bool{}
		rows := map[int32]bool{}
		combos := map[[2]*comboInfo]bool{}
		dots := 0
		inv := make([]int32, w.stride)
		for _, pr := range pairs {
			s0, s1 := &sp[0][pr.B0], &sp[1][pr.B1]
			ci2 := w.frame(&k2, &s0.S, &s1.S, last)
			ci3 := w.frame(&k3, &s0.B, &s1.B, last)
			combos[[2]*comboInfo{ci2, ci3}] = true
			for kk, q := range sp[3] {
				p2[kk] = int32(ci2.pos[s.Index(k2.r.Mask(q.S[0]), k2.r.Mask(q.S[1]))])
				p3[kk] = int32(ci3.pos[s.Index(k3.r.Mask(q.B[0]), k3.r.Mask(q.B[1]))])
			}
			for _, q := range sp[2] {
				x := s.Index(k2.r.Mask(q.S[0]), k2.r.Mask(q.S[1]))
				y := s.Index(k3.r.Mask(q.B[0]), k3.r.Mask(q.B[1]))
				r2, n2 := ci2.rowOf[x], ci2.nuOf[x]
				r3, n3 := ci3.rowOf[y], ci3.nuOf[y]
				for i := range inv {
					inv[i] = -1
				}
				for j := range nl {
					a := int32(ci2.nuPos[n2][p2[j]])
					if inv[a] >= 0 {
						nonInj++
					}
					inv[a] = int32(ci3.nuPos[n3][p3[j]])
				}
				var h maphash.Hash
				h.SetSeed(seed)
				for _, v := range inv {
					h.WriteByte(byte(v))
					h.WriteByte(byte(v >> 8))
				}
				al := h.Sum64()
				aligns[al] = true
				key := [3]uint64{uint64(r2), uint64(r3), al}
				keys[key] = true
				globalKeys[key] = true
				rows[r2] = true
				rows[r3+1<<30] = true
				dots++
			}
		}
		globalDots += dots
		t.Logf("gangster %d: %d pairs, %d combos, %d dots, %d distinct keys (%.3f), %d alignments, %d distinct rows (%.1f MB)", gi, len(pairs), len(combos), dots, len(keys), float64(len(keys))/float64(dots), len(aligns), len(rows), float64(len(rows))*float64(w.stride)*2/1e6)
	}
	t.Logf("global: %d dots, %d keys, non-injective %d", globalDots, len(globalKeys), nonInj)
}

// TestExpPerm compares the rows kernel with the permuted kernel on sampled
// sub-units.
func TestExpPerm(t *testing.T) {
	k := pipelinetest.EnvInt(t, "EXP_PERM", 0)
	if k == 0 {
		t.Skip()
	}
	runtime.LockOSThread()
	ctx := context.Background()
	tab := loadTables4(t)
	w, err := NewRows(ctx, tab)
	if err != nil {
		t.Fatal(err)
	}
	c0 := threadCPU()
	pr := newPermRows(w)
	t.Logf("perm rows built %.1f CPU-s", (threadCPU() - c0).Seconds())
	rng := rand.New(rand.NewPCG(1, 0x3b4))
	var tOld, tNew float64
	for i := range k {
		g := tab.Gangsters[rng.IntN(len(tab.Gangsters))]
		part := rng.IntN(tab.Parts())
		pl, _ := tab.NewPlan(g)
		pairs := pl.Part(part, tab.Parts())
		c0 := threadCPU()
		h1, l1, err := w.Completions(ctx, g, pairs)
		if err != nil {
			t.Fatal(err)
		}
		c1 := threadCPU()
		h2, l2, err := pr.Completions(ctx, g, pairs)
		if err != nil {
			t.Fatal(err)
		}
		c2 := threadCPU()
		if h1 != h2 || l1 != l2 {
			t.Fatalf("sub-unit %d: rows %d:%d perm %d:%d", i, h1, l1, h2, l2)
		}
		tOld += (c1 - c0).Seconds()
		tNew += (c2 - c1).Seconds()
	}
	for _, v := range []struct {
		ahead  int
		narrow bool
	}{{3, false}, {8, false}, {3, true}, {8, true}, {16, true}}[:pipelinetest.EnvInt(t, "EXP_VARIANTS", 5)] {
		ahead, pr.narrow = v.ahead, v.narrow
		rng := rand.New(rand.NewPCG(1, 0x3b4))
		var tv float64
		for i := range k {
			g := tab.Gangsters[rng.IntN(len(tab.Gangsters))]
			part := rng.IntN(tab.Parts())
			pl, _ := tab.NewPlan(g)
			pairs := pl.Part(part, tab.Parts())
			c0 := threadCPU()
			h2, l2, err := pr.Completions(ctx, g, pairs)
			tv += (threadCPU() - c0).Seconds()
			if err != nil {
				t.Fatal(err)
			}
			if i < 3 {
				h1, l1, _ := w.Completions(ctx, g, pairs)
				if h1 != h2 || l1 != l2 {
					t.Fatalf("variant %+v differs", v)
				}
			}
		}
		t.Logf("variant ahead %d narrow %v: mean %.4f CPU-s", v.ahead, v.narrow, tv/float64(k))
	}
	ahead, pr.narrow = 3, false
	for _, v := range []struct {
		mod          int32
		noDot, noPre bool
	}{{0, false, false}, {0, true, false}, {0, false, true}, {64, false, false}, {64, true, true}, {0, true, true}, {0, false, false}}[:pipelinetest.EnvInt(t, "EXP_BREAKDOWN", 0)] {
		pr.rowMod, pr.noDot, pr.noPre = v.mod, v.noDot, v.noPre
		rng := rand.New(rand.NewPCG(1, 0x3b4))
		var tv float64
		for range k {
			g := tab.Gangsters[rng.IntN(len(tab.Gangsters))]
			part := rng.IntN(tab.Parts())
			pl, _ := tab.NewPlan(g)
			c0 := threadCPU()
			pr.Completions(ctx, g, pl.Part(part, tab.Parts()))
			tv += (threadCPU() - c0).Seconds()
		}
		t.Logf("breakdown %+v: mean %.4f CPU-s", v, tv/float64(k))
	}
	pr.rowMod, pr.noDot, pr.noPre = 0, false, false
	if m := pipelinetest.EnvInt(t, "EXP_ROWMOD", 0); m > 0 {
		pr.rowMod = int32(m)
		rng := rand.New(rand.NewPCG(1, 0x3b4))
		var tMod float64
		for range k {
			g := tab.Gangsters[rng.IntN(len(tab.Gangsters))]
			part := rng.IntN(tab.Parts())
			pl, _ := tab.NewPlan(g)
			c0 := threadCPU()
			pr.Completions(ctx, g, pl.Part(part, tab.Parts()))
			tMod += (threadCPU() - c0).Seconds()
		}
		t.Logf("rows folded into %d: perm kernel mean %.4f CPU-s", m, tMod/float64(k))
	}
	t.Logf("%d sub-units: rows kernel mean %.4f CPU-s, perm kernel mean %.4f CPU-s (ratio %.2f)", k, tOld/float64(k), tNew/float64(k), tOld/tNew)
}
