package rowkeys

import (
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
