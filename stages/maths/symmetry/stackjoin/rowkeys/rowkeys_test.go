package rowkeys

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/perm"
)

// TestRelabelKeyCanonical checks relabelKey on random 3×4 stacks: a
// relabelling of the symbols gives the same key, and so does any
// permutation of the rows within bands and of the bands when every row
// order is allowed; the key's own stack (relabelKeyRows) has the key; and
// random stacks, almost never relabellings of each other, get distinct
// keys (TestReducedEMatchesPlain of package stackjoin checks that a key's
// stack has the same E).
func TestRelabelKeyCanonical(t *testing.T) {
	const n, r = 12, 3
	rng := rand.New(rand.NewPCG(3, 4))
	randomStack := func() []uint16 { return randomStack3x4(rng) }
	keys := map[[16]uint16]bool{}
	for range 300 {
		rows := randomStack()
		for _, anyRows := range []bool{false, true} {
			k := RelabelKey(rows, r, anyRows)
			if got := RelabelKey(RelabelKeyRows(k, n, r), r, anyRows); got != k {
				t.Fatalf("rows %x: key %v, its own stack's %v", rows, k, got)
			}
			z := rng.Perm(n)
			img := make([]uint16, n)
			bandPerm := rng.Perm(n / r)
			for i, m := range rows {
				var zm uint16
				for x := range n {
					if m>>x&1 != 0 {
						zm |= 1 << z[x]
					}
				}
				dst := i
				if anyRows {
					dst = bandPerm[i/r]*r + (i%r+i/r)%r // a band permutation and a rotation of each band's rows
				}
				img[dst] = zm
			}
			if got := RelabelKey(img, r, anyRows); got != k {
				t.Fatalf("rows %x, anyRows %v: key %v, an image's %v", rows, anyRows, k, got)
			}
		}
		keys[RelabelKey(rows, r, true)] = true
	}
	if len(keys) < 290 {
		t.Errorf("300 random stacks gave %d keys", len(keys))
	}
}

// TestTwoBandKeyCanonical checks RelabelKey on random stacks of two
// columns (R×2, R = 2…8, the 5×2 check units' exchanged pairs): a
// relabelling with any permutation of the rows within bands and of the two
// bands gives the same key, the key's own stack (RelabelKeyRows) has the
// key and is an image of the stack (the same cycle sizes, counted here by
// joining rows through shared symbols), and the keys met are as many as
// the cycle-size multisets met, all p(R) of them for R ≤ 5 (2, 3, 5, 7).
func TestTwoBandKeyCanonical(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for r := 2; r <= 8; r++ {
		n := 2 * r
		keys := map[[16]uint16]string{}
		types := map[string]bool{}
		for i := range 400 {
			rows := make([]uint16, n)
			for b := range 2 {
				p := rng.Perm(n)
				for j := range r {
					rows[b*r+j] = 1<<p[2*j] | 1<<p[2*j+1]
				}
			}
			if i == 0 {
				copy(rows[r:], rows[:r]) // every cycle of size 1, rare at random
			}
			k := RelabelKey(rows, r, true)
			if _, ok := twoBandKey(rows, r); !ok {
				t.Fatalf("R=%d rows %x: not taken as a stack of two columns", r, rows)
			}
			typ := fmt.Sprint(cycleSizes(rows, r))
			types[typ] = true
			if old, ok := keys[k]; ok && old != typ {
				t.Fatalf("R=%d: key %v for cycle sizes %s and %s", r, k, old, typ)
			}
			keys[k] = typ
			own := RelabelKeyRows(k, n, r)
			if got := RelabelKey(own, r, true); got != k {
				t.Fatalf("R=%d rows %x: key %v, its own stack's %v", r, rows, k, got)
			}
			if got := fmt.Sprint(cycleSizes(own, r)); got != typ {
				t.Fatalf("R=%d rows %x: cycle sizes %s, its key's stack's %s", r, rows, typ, got)
			}
			z := rng.Perm(n)
			swap := rng.IntN(2)
			inner := [2][]int{rng.Perm(r), rng.Perm(r)}
			img := make([]uint16, n)
			for i, m := range rows {
				var zm uint16
				for x := range n {
					if m>>x&1 != 0 {
						zm |= 1 << z[x]
					}
				}
				b := i / r
				img[(b^swap)*r+inner[b][i%r]] = zm
			}
			if got := RelabelKey(img, r, true); got != k {
				t.Fatalf("R=%d rows %x: key %v, an image's %v", r, rows, k, got)
			}
		}
		if len(keys) != len(types) {
			t.Errorf("R=%d: %d keys for %d cycle-size multisets", r, len(keys), len(types))
		}
		if want := map[int]int{2: 2, 3: 3, 4: 5, 5: 7}[r]; want > 0 && len(types) != want {
			t.Errorf("R=%d: 400 random stacks met %d cycle-size multisets, want all %d", r, len(types), want)
		}
	}
}

// cycleSizes returns the sorted sizes of the components of the graph on
// the rows of a stack of two columns joining rows that share a symbol,
// counted in band-0 rows (a union-find, independent of twoBandKey's walk).
func cycleSizes(rows []uint16, r int) []int {
	n := len(rows)
	parent := make([]int, n)
	for i := range parent {
		parent[i] = i
	}
	var find func(i int) int
	find = func(i int) int {
		if parent[i] != i {
			parent[i] = find(parent[i])
		}
		return parent[i]
	}
	for i := range n {
		for j := range n {
			if rows[i]&rows[j] != 0 {
				parent[find(i)] = find(j)
			}
		}
	}
	size := map[int]int{}
	for i := range r {
		size[find(i)]++
	}
	var out []int
	for _, k := range size {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// TestCycleKey checks cycleKey on random 3×4 stacks and σ of every type
// with cycles of length 1, 2 and 3: a relabelling that commutes with σ
// gives the same key, the key's own stack (cycleKeyRows) has the key, the
// packed words give the lists' key (cycleKeyLists), and random stacks get
// distinct keys.
func TestCycleKey(t *testing.T) {
	const n, r = 12, 3
	rng := rand.New(rand.NewPCG(5, 6))
	for _, lam := range [][]int{{2, 2, 2, 2, 2, 2}, {2, 2, 1, 1, 1, 1, 1, 1, 1, 1}, {3, 3, 3, 3}, {3, 2, 2, 1, 1, 1, 1, 1}} {
		sigma := perm.WithCycleType(lam)
		cycles := perm.Cycles(sigma)
		keys := map[[16]uint16]bool{}
		for range 200 {
			rows := randomStack3x4(rng)
			k := CycleKey(rows, r, cycles)
			keys[k] = true
			if got := CycleKey(CycleKeyRows(k, n, r, cycles), r, cycles); got != k {
				t.Fatalf("σ %v, rows %x: key %v, its own stack's %v", lam, rows, k, got)
			}
			var sig [16]uint16
			for i, m := range rows {
				for x := range n {
					if m>>x&1 != 0 {
						sig[x] += uint16(i%r) * uint16(pow(r, i/r))
					}
				}
			}
			if got := cycleKeyLists(sig, cycles); got != k {
				t.Fatalf("σ %v, rows %x: packed key %v, lists %v", lam, rows, k, got)
			}
			// z commuting with σ: cycles of equal length exchanged, each
			// rotated at random
			z := make([]int, n)
			byLen := map[int][][]int{}
			for _, c := range cycles {
				byLen[len(c)] = append(byLen[len(c)], c)
			}
			for _, cs := range byLen {
				dst := rng.Perm(len(cs))
				for i, c := range cs {
					d := cs[dst[i]]
					rot := rng.IntN(len(c))
					for j, x := range c {
						z[x] = d[(j+rot)%len(c)]
					}
				}
			}
			if !slices.Equal(perm.Compose(z, sigma), perm.Compose(sigma, z)) {
				t.Fatal("z does not commute with σ")
			}
			img := make([]uint16, n)
			for i, m := range rows {
				for x := range n {
					if m>>x&1 != 0 {
						img[i] |= 1 << z[x]
					}
				}
			}
			if got := CycleKey(img, r, cycles); got != k {
				t.Fatalf("σ %v, rows %x: key %v, a relabelling's %v", lam, rows, k, got)
			}
		}
		if len(keys) < 190 {
			t.Errorf("σ %v: 200 random stacks gave %d keys", lam, len(keys))
		}
	}
}

// randomStack3x4 returns the row sets of a random 3×4 stack: each band's
// three rows a random partition of the 12 symbols into sets of 4.
func randomStack3x4(rng *rand.Rand) []uint16 {
	const n, r = 12, 3
	rows := make([]uint16, n)
	for b := range n / r {
		p := rng.Perm(n)
		for j := range r {
			for _, x := range p[j*4 : j*4+4] {
				rows[b*r+j] |= 1 << x
			}
		}
	}
	return rows
}

// BenchmarkRelabelKey keys random 3×4 stacks up to relabelling and row
// permutations, the memo key of every stack count of a stack exchange with
// an involution (3×4 class 116's pair: 7–8·10⁶ keys a part).
func BenchmarkRelabelKey(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	stacks := make([][]uint16, 1024)
	for i := range stacks {
		stacks[i] = randomStack3x4(rng)
	}
	b.ResetTimer()
	for i := range b.N {
		RelabelKey(stacks[i%len(stacks)], 3, true)
	}
}

// TestRowNormalImage checks RowNormal.Key on random stacks of 5×2 and 3×4
// under row maps ρ' of every kind its orbits take: the key is an image
// P∘y⁻¹ under a row permutation y that keeps every band's rows together
// and commutes with ρ' (found by trying every such y), and where every
// orbit of bands lets every permutation of its first band's rows extend
// (sortLines) the key is the same for every such image of the stack that
// keeps each band in place (the least image, canonical).
func TestRowNormalImage(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	cases := []struct {
		name string
		n, r int
		rho  []int
		free bool // every orbit's y are every permutation of its first band
	}{
		{"5x2 id", 10, 5, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, true},
		{"5x2 bands exchanged", 10, 5, []int{5, 6, 7, 8, 9, 0, 1, 2, 3, 4}, true},
		{"5x2 bands exchanged, rows (0 1) on the way back", 10, 5, []int{5, 6, 7, 8, 9, 1, 0, 2, 3, 4}, false},
		{"5x2 rows (1 2) in band 1", 10, 5, []int{0, 1, 2, 3, 4, 5, 7, 6, 8, 9}, false},
		{"3x4 bands (0 1 2)", 12, 3, []int{3, 4, 5, 6, 7, 8, 0, 1, 2, 9, 10, 11}, true},
		{"3x4 bands (0 1), rows (1 2) in band 3", 12, 3, []int{3, 4, 5, 0, 1, 2, 6, 7, 8, 9, 11, 10}, false},
	}
	for _, tc := range cases {
		n, r := tc.n, tc.r
		c := n / r
		rn := NewRowNormal(n, r, tc.rho)
		// every y of S_R wr S_C commuting with ρ', and those keeping each band
		var ys, inBand [][]int
		for _, bp := range perm.All(c) {
			for _, y := range wreathWith(bp, r) {
				if slices.Equal(perm.Compose(y, tc.rho), perm.Compose(tc.rho, y)) {
					ys = append(ys, y)
					if perm.IsIdentity(bp) {
						inBand = append(inBand, y)
					}
				}
			}
		}
		image := func(rows []uint16, y []int) []uint16 {
			img := make([]uint16, n)
			for x := range n {
				img[y[x]] = rows[x]
			}
			return img
		}
		for range 30 {
			rows := randomStack(rng, n, r)
			k := rn.Key(rows)
			found := false
			for _, y := range ys {
				if slices.Equal(image(rows, y), k[:n]) {
					found = true
					break
				}
			}
			if !found {
				t.Fatalf("%s: rows %x: key %x is no image under a y commuting with ρ'", tc.name, rows, k[:n])
			}
			if tc.free {
				for range 10 {
					y := inBand[rng.IntN(len(inBand))]
					if got := rn.Key(image(rows, y)); got != k {
						t.Fatalf("%s: rows %x: key %x, an image's %x", tc.name, rows, k[:n], got[:n])
					}
				}
			}
		}
	}
}

// wreathWith returns the row permutations of S_R wr S_C that move band b
// to band bp[b], every permutation of the rows within each band.
func wreathWith(bp []int, r int) [][]int {
	c := len(bp)
	out := [][]int{make([]int, c*r)}
	for b := range c {
		var next [][]int
		for _, y := range out {
			for _, in := range perm.All(r) {
				y2 := slices.Clone(y)
				for i := range r {
					y2[b*r+i] = bp[b]*r + in[i]
				}
				next = append(next, y2)
			}
		}
		out = next
	}
	return out
}

// randomStack returns the row sets of a random stack of n rows in bands of
// r: each band's rows a random partition of the n symbols into sets of n/r.
func randomStack(rng *rand.Rand, n, r int) []uint16 {
	c := n / r
	rows := make([]uint16, n)
	for b := range c {
		p := rng.Perm(n)
		for j := range r {
			for _, x := range p[j*c : j*c+c] {
				rows[b*r+j] |= 1 << x
			}
		}
	}
	return rows
}
