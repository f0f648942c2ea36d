package stackjoin

import (
	"context"
	"errors"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/sudoku-census/sudoku-census/pipeline/pipelinetest"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry"
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

// TestReducedEMatchesPlain checks stackcount.Twist.Count (canonical states, ordered
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

// TestLaterMemoMatches compares the sums with the memo of the later stack
// cycles' sums (walker.later) and without it, on the classes of 4×2 and
// 5×2 (where at least two stacks follow a cycle after the first) that
// finish within a budget, whole and in 5 parts on 2 workers (the memo is
// used only below the sharing depth), and checks that the memo was used.
// On 4×2 the memo keeps in two words only the sums below 2^8, the others
// in its map of big integers (laterBig), so that both are met.
func TestLaterMemoMatches(t *testing.T) {
	compared, memoised := 0, uint64(0)
	defer func(bits int) { laterCountBits = bits }(laterCountBits)
	for _, s := range []symmetry.Shape{{R: 4, C: 2}, {R: 5, C: 2}} {
		laterCountBits = 128
		if s.R == 4 {
			laterCountBits = 8
		}
		g, err := symmetry.NewGroup(s, false)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range g.Classes {
			if c.Rep.Transpose || len(search.SigmaTypes(s, c.Rep)) == 0 || (s.R == 5 && c.Index%8 != 1) {
				continue
			}
			for _, opt := range []options{{}, {part: 2, parts: 5, workers: 2}} {
				got, st, err := partSums(context.Background(), s, c.Rep, 2e5, opt)
				if errors.Is(err, ErrBudget) {
					continue
				}
				if err != nil {
					t.Fatalf("%v class %d: %v", s, c.Index, err)
				}
				ref := opt
				ref.noMemo = true
				want, _, err := partSums(context.Background(), s, c.Rep, 2e7, ref)
				if errors.Is(err, ErrBudget) {
					continue
				}
				if err != nil {
					t.Fatalf("%v class %d, without the memo: %v", s, c.Index, err)
				}
				if !slices.EqualFunc(got, want, func(a, b *big.Int) bool { return a.Cmp(b) == 0 }) {
					t.Errorf("%v class %d (%s), part %d of %d: sums %v, without the memo %v", s, c.Index, c.Desc, opt.part, opt.parts, got, want)
				}
				compared++
				memoised += st.Memoised
			}
		}
	}
	t.Logf("%d counts compared, %d later sums taken from the memo", compared, memoised)
	if compared < 20 || memoised == 0 {
		t.Errorf("%d counts compared, %d later sums from the memo: want at least 20 and some", compared, memoised)
	}
}
