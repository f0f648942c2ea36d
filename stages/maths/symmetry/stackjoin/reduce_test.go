package stackjoin

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/sudoku-census/sudoku-census/pipeline/pipelinetest"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/perm"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/search"
)

// compareOptions runs fixedStats with opt on the classes of s without
// transposition (all of them, or those in only) that finish within budget,
// and with the reference options ref, and fails on any difference; it
// returns the number of classes compared.
func compareOptions(t *testing.T, s symmetry.Shape, only []int, budget uint64, opt, ref options) int {
	t.Helper()
	g, err := symmetry.NewGroup(s, s.R == s.C)
	if err != nil {
		t.Fatal(err)
	}
	sel := map[int]bool{}
	for _, i := range only {
		sel[i] = true
	}
	compared := 0
	for _, c := range g.Classes {
		if c.Rep.Transpose || len(search.SigmaTypes(s, c.Rep)) == 0 || (len(sel) > 0 && !sel[c.Index]) {
			continue
		}
		got, _, err := fixedStats(context.Background(), s, c.Rep, budget, opt)
		if errors.Is(err, ErrBudget) {
			continue
		}
		if err != nil {
			t.Fatalf("%v class %d (%s): %v", s, c.Index, c.Desc, err)
		}
		want, _, err := fixedStats(context.Background(), s, c.Rep, 0, ref)
		if err != nil {
			t.Fatalf("%v class %d (%s), reference: %v", s, c.Index, c.Desc, err)
		}
		if got.Cmp(want) != 0 {
			t.Errorf("%v class %d (%s): %v, reference %v", s, c.Index, c.Desc, got, want)
		}
		compared++
	}
	return compared
}

// TestReducedEMatchesPlain checks twist.count (canonical states, ordered
// τ-cycles, open-addressing layers) against the plain programme stack
// count by stack count (checkE) on every 3×3 class within a budget and on
// 3×4 classes of every family, including heavy ones under a truncated
// budget (each E computed before the budget runs out is compared);
// STACKJOIN_CHECKE_CLASSES and STACKJOIN_CHECKE_BUDGET choose the 3×4
// classes and the budget.
func TestReducedEMatchesPlain(t *testing.T) {
	n := 0
	for _, s := range []symmetry.Shape{{R: 2, C: 3}, {R: 3, C: 2}, {R: 3, C: 3}} {
		n += compareOptions(t, s, nil, 3e6, options{checkE: true}, options{plainE: true})
	}
	if n < 30 {
		t.Errorf("only %d classes compared", n)
	}
	// Heavy 3×4 classes: stack counts compared until the budget stops.
	s := symmetry.Shape{R: 3, C: 4}
	g, err := symmetry.NewGroup(s, false)
	if err != nil {
		t.Fatal(err)
	}
	budget := pipelinetest.EnvCount(t, "STACKJOIN_CHECKE_BUDGET", 2e6)
	list := pipelinetest.EnvInts(t, "STACKJOIN_CHECKE_CLASSES")
	if len(list) == 0 {
		list = []int{11, 24, 63, 89, 104, 115, 120, 141, 2827, 2838}
	}
	for _, i := range list {
		c := g.Classes[i]
		_, st, err := fixedStats(context.Background(), s, c.Rep, budget, options{checkE: true})
		if err != nil && !errors.Is(err, ErrBudget) {
			t.Errorf("3×4 class %d (%s): %v", i, c.Desc, err)
		}
		t.Logf("3×4 class %d: %v distinct stack counts compared", i, st.Distinct)
	}
}

// TestRelabelKeyCanonical checks relabelKey on random 3×4 stacks: a
// relabelling of the symbols gives the same key, and so does any
// permutation of the rows within bands and of the bands when every row
// order is allowed; the key's own stack (relabelKeyRows) has the key; and
// random stacks, almost never relabellings of each other, get distinct
// keys (TestReducedEMatchesPlain checks that a key's stack has the same E).
func TestRelabelKeyCanonical(t *testing.T) {
	const n, r = 12, 3
	rng := rand.New(rand.NewPCG(3, 4))
	randomStack := func() []uint16 { return randomStack3x4(rng) }
	keys := map[[16]uint16]bool{}
	for range 300 {
		rows := randomStack()
		for _, anyRows := range []bool{false, true} {
			k := relabelKey(rows, r, anyRows)
			if got := relabelKey(relabelKeyRows(k, n, r), r, anyRows); got != k {
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
			if got := relabelKey(img, r, anyRows); got != k {
				t.Fatalf("rows %x, anyRows %v: key %v, an image's %v", rows, anyRows, k, got)
			}
		}
		keys[relabelKey(rows, r, true)] = true
	}
	if len(keys) < 290 {
		t.Errorf("300 random stacks gave %d keys", len(keys))
	}
}

// TestCanonicalWalkMatchesEveryImage compares canonical, which skips the
// runs of row permutations decided together (rowSymWalk), with reading
// every image z∘P∘y⁻¹ in full, on random configurations (and their least
// images, which canonical must keep) of 3×4 classes with many row
// permutations: whether P is least, and the size of its orbit.
func TestCanonicalWalkMatchesEveryImage(t *testing.T) {
	s := symmetry.Shape{R: 3, C: 4}
	g, err := symmetry.NewGroup(s, false)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	kept := 0
	for _, class := range []int{0, 11, 141} {
		p := newProblem(s, g.Classes[class].Rep)
		var st Stats
		w := newWalker(context.Background(), p, []int{2, 2, 2, 2, 2, 2}, 0, &st)
		n := w.n
		// z: σ's cycle (0 1) exchanged with (2 3), as canonical's tables
		z := make([]int, n)
		for x := range n {
			z[x] = x
		}
		z[0], z[1], z[2], z[3] = 2, 3, 0, 1
		var tab [2][256]uint16
		for h := range 2 {
			for b := range 256 {
				for v := range 8 {
					if x := h*8 + v; b>>v&1 != 0 && x < n {
						tab[h][b] |= 1 << z[x]
					}
				}
			}
		}
		w.symQ, w.symQReady = [][2][256]uint16{tab}, true
		images := func(rows []uint16) (least bool, stab uint64, min []uint16) {
			least, min = true, rows
			for _, zt := range []*[2][256]uint16{nil, &tab} {
				for _, y := range p.rowSym {
					img := make([]uint16, n)
					for r, m := range rows {
						if zt != nil {
							m = zt[0][m&0xff] | zt[1][m>>8]
						}
						img[y[r]] = m
					}
					switch c := slices.Compare(img, rows); {
					case c < 0:
						least = false
					case c == 0:
						stab++
					}
					if slices.Compare(img, min) < 0 {
						min = img
					}
				}
			}
			return least, stab, min
		}
		for range 300 {
			rows := make([]uint16, n)
			for r := range rows {
				// few symbols, so that images often tie on their first rows
				rows[r] = uint16(rng.IntN(8))
			}
			_, _, min := images(rows)
			for _, cand := range [][]uint16{rows, min} {
				least, stab, _ := images(cand)
				weight, ok := w.canonical(cand)
				if ok != least {
					t.Fatalf("class %d, rows %v: canonical %v, every image %v", class, cand, ok, least)
				}
				if ok {
					kept++
					if want := uint64(2*len(p.rowSym)) / stab; weight != want {
						t.Fatalf("class %d, rows %v: orbit %d, every image %d", class, cand, weight, want)
					}
				}
			}
		}
	}
	if kept == 0 {
		t.Fatal("no least configuration met")
	}
	t.Logf("%d least configurations compared", kept)
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
		cycles := cyclesOf(sigma)
		keys := map[[16]uint16]bool{}
		for range 200 {
			rows := randomStack3x4(rng)
			k := cycleKey(rows, r, cycles)
			keys[k] = true
			if got := cycleKey(cycleKeyRows(k, n, r, cycles), r, cycles); got != k {
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
			if got := cycleKey(img, r, cycles); got != k {
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
