package stackjoin

import (
	"context"
	"slices"
	"testing"

	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/perm"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/search"
)

// TestPartitionRank checks that partitionRank numbers the ordered
// partitions of the symbols 0, 1, … in the order computeFirstRows lists
// them, and that the first-row orbit sizes add up to their number.
func TestPartitionRank(t *testing.T) {
	for _, s := range []symmetry.Shape{{R: 2, C: 2}, {R: 3, C: 2}, {R: 2, C: 3}, {R: 3, C: 3}, {R: 4, C: 2}, {R: 3, C: 4}, {R: 5, C: 2}} {
		g, err := symmetry.NewGroup(s, false)
		if err != nil {
			t.Fatal(err)
		}
		e := g.Classes[0].Rep
		p := newProblem(s, e)
		var st Stats
		w := newWalker(context.Background(), p, search.SigmaTypes(s, e)[0], 0, &st)
		i := 0
		eachOrderedPartition(p.r, w.subs, func(cur []uint16) {
			if got := w.partitionRank(cur); got != i {
				t.Fatalf("%v: partition %v has rank %d, listed %d", s, cur, got, i)
			}
			i++
		})
		_, sizes := w.computeFirstRows()
		sum := 0
		for _, z := range sizes {
			sum += z
		}
		if sum != i {
			t.Errorf("%v: first-row orbits hold %d partitions, not %d", s, sum, i)
		}
	}
}

// eachOrderedPartition calls visit with each ordered partition of the
// symbols into r of the C-subsets subs (as masks), in the order
// computeFirstRows lists them; cur is reused between calls.
func eachOrderedPartition(r int, subs []uint16, visit func(cur []uint16)) {
	cur := make([]uint16, r)
	var rec func(k int, used uint16)
	rec = func(k int, used uint16) {
		if k == r {
			visit(cur)
			return
		}
		for _, a := range subs {
			if a&used == 0 {
				cur[k] = a
				rec(k+1, used|a)
			}
		}
	}
	rec(0, 0)
}

// TestFirstRowsMatchOrbitWalk checks that computeFirstRows' invariant
// gives the same representatives, in the same order, with the same orbit
// sizes as walking the orbits, for every σ type of shapes up to 3×3 and every fifth of 3×4, 4×3 and 5×2.
func TestFirstRowsMatchOrbitWalk(t *testing.T) {
	for _, s := range []symmetry.Shape{{R: 2, C: 2}, {R: 3, C: 2}, {R: 2, C: 3}, {R: 4, C: 2}, {R: 2, C: 4}, {R: 3, C: 3}, {R: 3, C: 4}, {R: 4, C: 3}, {R: 5, C: 2}} {
		g, err := symmetry.NewGroup(s, false)
		if err != nil {
			t.Fatal(err)
		}
		p := newProblem(s, g.Classes[0].Rep)
		for i, lam := range perm.Partitions(s.N()) {
			if s.N() > 9 && i%5 != 0 {
				continue // 3×4, 4×3, 5×2: every fifth type, the walk costing seconds
			}
			var st Stats
			w := newWalker(context.Background(), p, lam, 0, &st)
			reps, sizes := w.computeFirstRows()
			wantReps, wantSizes := w.firstRowsByOrbitWalk()
			if !slices.EqualFunc(reps, wantReps, slices.Equal) || !slices.Equal(sizes, wantSizes) {
				t.Errorf("%v σ type %v: %d orbits %v…, the walk %d %v…", s, lam, len(reps), sizes[:min(5, len(sizes))], len(wantReps), wantSizes[:min(5, len(wantSizes))])
			}
		}
	}
}

// firstRowsByOrbitWalk is computeFirstRows' former method, kept as its
// reference: every ordered partition listed, and each orbit walked from
// its least partition by the images under generators of Z(σ), ranked by
// partitionRank.
func (w *walker) firstRowsByOrbitWalk() ([][]uint16, []int) {
	// The ordered partitions, R masks each, flat and in rec's order, which
	// partitionRank inverts: a map from partition to index cost 80% of a
	// light 6×2 class (7,484,400 partitions) and most of its memory.
	r := w.p.r
	var flat []uint16
	eachOrderedPartition(r, w.subs, func(cur []uint16) { flat = append(flat, cur...) })
	total := len(flat) / r
	part := func(i int) []uint16 { return flat[i*r : (i+1)*r] }
	// Generators of Z(σ): rotate one cycle; exchange consecutive cycles of
	// equal length.
	var gens [][]int
	lam := perm.CycleType(w.sigma)
	at := 0
	for i, l := range lam {
		if l > 1 { // a fixed point's rotation is the identity
			rot := perm.Identity(w.n)
			for j := range l {
				rot[at+j] = at + (j+1)%l
			}
			gens = append(gens, rot)
		}
		if i+1 < len(lam) && lam[i+1] == l {
			sw := perm.Identity(w.n)
			for j := range l {
				sw[at+j], sw[at+l+j] = at+l+j, at+j
			}
			gens = append(gens, sw)
		}
		at += l
	}
	// The generators' images of every mask, tabulated: mapping the masks
	// one bit at a time took a quarter of a light 6×2 class.
	images := make([][]uint16, len(gens))
	for gi, g := range gens {
		images[gi] = make([]uint16, 1<<w.n)
		for m := range images[gi] {
			var out uint16
			for v := range w.n {
				if m>>v&1 != 0 {
					out |= 1 << g[v]
				}
			}
			images[gi][m] = out
		}
	}
	comp := make([]int32, total)
	for i := range comp {
		comp[i] = -1
	}
	var reps [][]uint16
	var sizes []int
	k := make([]uint16, r)
	for i := range total {
		if comp[i] >= 0 {
			continue
		}
		comp[i] = int32(len(reps))
		queue := []int{i}
		for len(queue) > 0 {
			x := queue[len(queue)-1]
			queue = queue[:len(queue)-1]
			for _, img := range images {
				for t, m := range part(x) {
					k[t] = img[m]
				}
				y := w.partitionRank(k)
				if comp[y] < 0 {
					comp[y] = int32(len(reps))
					queue = append(queue, y)
				}
			}
		}
		reps = append(reps, append([]uint16(nil), part(i)...))
		sizes = append(sizes, 0)
	}
	for _, c := range comp {
		sizes[c]++
	}
	return reps, sizes
}
