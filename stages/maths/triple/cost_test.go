//go:build linux

package triple

import (
	"context"
	"hash/maphash"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/sudoku-census/sudoku-census/pipeline/pipelinetest"
)

// TestReuse3x4 measures how often the rows kernel's dot products and rows
// repeat within TRIPLE_REUSE sampled sub-units (seed 7): a dot product's key
// is its two rows and its alignment (the band-3 position paired with each
// band-2 position, hashed). It runs only when TRIPLE_REUSE is set:
//
//	TRIPLE_TABLES4=/tmp/triple/tables4.bin TRIPLE_REUSE=6 GOMAXPROCS=1 \
//	  go test -p 1 -run TestReuse3x4 -v -timeout 60m ./stages/maths/triple
func TestReuse3x4(t *testing.T) {
	k := pipelinetest.EnvInt(t, "TRIPLE_REUSE", 0)
	if k == 0 {
		t.Skip("set TRIPLE_REUSE to run")
	}
	tab := loadTables4(t)
	w := newRows(t, tab)
	s := tab.s
	rng := rand.New(rand.NewPCG(7, 1))
	seed := maphash.MakeSeed()
	for range k {
		gi := rng.IntN(len(tab.Gangsters))
		g := tab.Gangsters[gi]
		pl, err := tab.NewPlan(g)
		if err != nil {
			t.Fatal(err)
		}
		pairs := pl.Part(rng.IntN(tab.Parts()), tab.Parts())
		sp, last := tab.gangsterSplits(g)
		nl := len(sp[3])
		p2, p3 := make([]int32, nl), make([]int32, nl)
		var k2, k3 side
		keys := map[[3]uint64]bool{}
		rows := map[int64]bool{}
		align := make([]int32, w.stride)
		dots := 0
		for _, pr := range pairs {
			ci2, ci3 := w.framePair(&k2, &k3, &sp[0][pr.B0], &sp[1][pr.B1], last, sp[3], p2, p3)
			for _, q := range sp[2] {
				x := s.Index(k2.r.Mask(q.S[0]), k2.r.Mask(q.S[1]))
				y := s.Index(k3.r.Mask(q.B[0]), k3.r.Mask(q.B[1]))
				r2, v2 := ci2.rowOf[x], ci2.nuOf[x]
				r3, v3 := ci3.rowOf[y], ci3.nuOf[y]
				// The alignment as a set of (band-2, band-3) position
				// pairs: its sorted form, position by position (the
				// second split at a position overwrites the first, which
				// keeps the key a function of the pairs).
				for i := range align {
					align[i] = -1
				}
				for j := range nl {
					align[ci2.nuPos[v2][p2[j]]] = int32(ci3.nuPos[v3][p3[j]])
				}
				var h maphash.Hash
				h.SetSeed(seed)
				for _, v := range align {
					h.WriteByte(byte(v))
					h.WriteByte(byte(v >> 8))
				}
				keys[[3]uint64{uint64(r2), uint64(r3), h.Sum64()}] = true
				rows[int64(r2)] = true
				rows[int64(r3)+1<<32] = true
				dots++
			}
		}
		t.Logf("gangster %d, %d pairs: %d dot products, %d distinct keys (%.3f), %d distinct rows of %d read (%.3f)",
			gi, len(pairs), dots, len(keys), float64(len(keys))/float64(dots), len(rows), 2*dots, float64(len(rows))/float64(2*dots))
	}
}

// TestBreakdown3x4 splits the CountRows kernel's cost on TRIPLE_BREAKDOWN
// sampled sub-units (the projection's sample, seed 1) by switching its
// parts off: dot products, prefetching, and the rows (folded into 64 rows
// that stay in cache). It runs only when TRIPLE_BREAKDOWN is set:
//
//	TRIPLE_TABLES4=/tmp/triple/tables4.bin TRIPLE_BREAKDOWN=40 GOMAXPROCS=1 \
//	  go test -p 1 -run TestBreakdown3x4 -v -timeout 60m ./stages/maths/triple
func TestBreakdown3x4(t *testing.T) {
	k := pipelinetest.EnvInt(t, "TRIPLE_BREAKDOWN", 0)
	if k == 0 {
		t.Skip("set TRIPLE_BREAKDOWN to run")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	ctx := context.Background()
	cr := newCountRows(t, newRows(t, loadTables4(t)))
	tab := cr.w.t
	for _, p := range []probe{{}, {noDot: true}, {noPre: true}, {rowMod: 64}, {rowMod: 64, noDot: true, noPre: true}, {noDot: true, noPre: true}, {}} {
		cr.probe = p
		rng := rand.New(rand.NewPCG(1, 0x3b4))
		var sum float64
		for range k {
			g := tab.Gangsters[rng.IntN(len(tab.Gangsters))]
			part := rng.IntN(tab.Parts())
			pl, err := tab.NewPlan(g)
			if err != nil {
				t.Fatal(err)
			}
			c0 := threadCPU()
			if _, _, err := cr.Completions(ctx, g, pl.Part(part, tab.Parts())); err != nil {
				t.Fatal(err)
			}
			sum += (threadCPU() - c0).Seconds()
		}
		t.Logf("%+v: mean %.4f CPU-s a sub-unit", p, sum/float64(k))
	}
}

// BenchmarkDotPerm times the permuted dot product of F(4) = 346 terms on
// rows in the first-level cache; it reports the thread's CPU time a term.
func BenchmarkDotPerm(b *testing.B) {
	var x, y [512]uint32
	for i := range x {
		x[i], y[i] = uint32(i*7919)%5000, uint32(i*104729)%7000
	}
	perm := make([]uint16, 346)
	for i, v := range rand.New(rand.NewPCG(1, 2)).Perm(346) {
		perm[i] = uint16(v)
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var sum uint64
	c0 := threadCPU()
	for b.Loop() {
		sum += dotPerm(&x, &y, perm)
	}
	b.ReportMetric((threadCPU()-c0).Seconds()*1e9/float64(b.N)/346, "cpu-ns/term")
	if sum == 0 {
		b.Fatal("zero sum")
	}
}
