package stackjoin

import (
	"context"
	"errors"
	"math/big"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/sudoku-census/sudoku-census/pipeline/pipelinetest"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/search"
)

// compareShape checks Fixed against search.Fixed on every class without
// transposition of shape s that admits a relabelling type and that Fixed
// finishes within budget; it returns the number compared and skipped.
func compareShape(t *testing.T, s symmetry.Shape, budget uint64, searchOK func(symmetry.Class) bool) (compared, skipped int) {
	t.Helper()
	g, err := symmetry.NewGroup(s, s.R == s.C)
	if err != nil {
		t.Fatal(err)
	}
	var tJoin, tSearch time.Duration
	for _, c := range g.Classes {
		if c.Rep.Transpose || c.Index == 0 || len(search.SigmaTypes(s, c.Rep)) == 0 {
			continue // the identity is TestIdentitySmall's
		}
		if searchOK != nil && !searchOK(c) {
			skipped++
			continue
		}
		t0 := time.Now()
		got, err := Fixed(context.Background(), s, c.Rep, budget)
		d := time.Since(t0)
		if errors.Is(err, ErrBudget) {
			skipped++
			continue
		}
		if err != nil {
			t.Fatalf("%v class %d (%s): %v", s, c.Index, c.Desc, err)
		}
		t1 := time.Now()
		want, err := search.Fixed(context.Background(), s, c)
		if err != nil {
			t.Fatal(err)
		}
		tJoin += d
		tSearch += time.Since(t1)
		if got.Cmp(want) != 0 {
			t.Errorf("%v class %d (%s): stackjoin %v, search %v", s, c.Index, c.Desc, got, want)
		}
		compared++
	}
	t.Logf("%v: %d classes compared (stackjoin %v, search %v), %d skipped (over budget or not selected)", s, compared, tJoin, tSearch, skipped)
	return compared, skipped
}

func TestSmallShapesMatchSearch(t *testing.T) {
	for _, s := range []symmetry.Shape{{R: 2, C: 2}, {R: 2, C: 3}, {R: 3, C: 2}} {
		if _, skipped := compareShape(t, s, 0, nil); skipped != 0 {
			t.Errorf("%v: %d classes skipped", s, skipped)
		}
	}
}

func TestIdentitySmall(t *testing.T) {
	for _, c := range []struct {
		s     symmetry.Shape
		grids int64
	}{{symmetry.Shape{R: 2, C: 2}, 288}, {symmetry.Shape{R: 2, C: 3}, 28200960}, {symmetry.Shape{R: 3, C: 2}, 28200960}} {
		e := symmetry.Element{Rows: identity(c.s.N()), Cols: identity(c.s.N())}
		got, err := Fixed(context.Background(), c.s, e, 0)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := symmetry.IdentityFixed(c.s, big.NewInt(c.grids))
		if got.Cmp(want) != 0 {
			t.Errorf("%v identity: %v, want %v", c.s, got, want)
		}
	}
}

func identity(n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	return p
}

// Test9x9MatchSearch compares every non-identity class of 9×9 without
// transposition (22 fix a grid up to relabelling) within a budget that
// keeps the test short; STACKJOIN_9X9_FULL=1 lifts it (all of them).
func Test9x9MatchSearch(t *testing.T) {
	budget := uint64(3e6)
	if os.Getenv("STACKJOIN_9X9_FULL") != "" {
		budget = 0
	}
	compared, skipped := compareShape(t, symmetry.Shape{R: 3, C: 3}, budget, nil)
	if compared < 15 || (budget == 0 && skipped > 0) {
		t.Errorf("9×9: %d classes compared, %d skipped", compared, skipped)
	}
}

// light3x4 lists the 3×4 classes whose search plans at most 3·10⁴ nodes
// (search.PlanCost with 32 probes; TestPlanSurvey), 132 of the 316 that
// admit a relabelling type.
var light3x4 = []int{46, 485, 488, 490, 491, 497, 499, 500, 505, 506, 511, 512, 663, 694, 824, 880, 911, 912, 1191, 1309, 1323, 1340, 1446, 1676, 1704, 1713, 1740, 1768, 1777, 1805, 1833, 1842, 1869, 1897, 1925, 1953, 2012, 2040, 2068, 2096, 2105, 2133, 2161, 2170, 2197, 2225, 2253, 2281, 2340, 2368, 2396, 2424, 2450, 2452, 2480, 2539, 2562, 2565, 2567, 2590, 2593, 2595, 2618, 2621, 2623, 2632, 2659, 2687, 2714, 2773, 2796, 2799, 2801, 2826, 2827, 2828, 2832, 2833, 2834, 2835, 2836, 2837, 2838, 2839, 2840, 2841, 2842, 2843, 2844, 2845, 2846, 2847, 2848, 2849, 2850, 2851, 2852, 2853, 2854, 2855, 2856, 2857, 2858, 2859, 2860, 2861, 2862, 2863, 2864, 2865, 2866, 2867, 2868, 2869, 2870, 2871, 2872, 2873, 2874, 2875, 2876, 2877, 2878, 2879, 2880, 2881, 2882, 2883, 2884, 2885, 2886, 2887}

// quick3x4 lists the light classes on which Fixed took under 0.25 s in
// TestSurvey (budget 2·10⁵), the default comparison.
var quick3x4 = []int{1676, 1704, 1768, 1833, 1897, 2040, 2068, 2480, 2590, 2593, 2621, 2623, 2799, 2827, 2832, 2835, 2836, 2837, 2838, 2841, 2853, 2862, 2864, 2865, 2871, 2873, 2874, 2875, 2876, 2878, 2881, 2883}

// Test3x4MatchSearch compares Fixed with the search on every other class of
// quick3x4, on all of them with STACKJOIN_3X4_QUICK=1, or, with
// STACKJOIN_3X4_ALL=1, on every light class Fixed finishes within
// STACKJOIN_3X4_BUDGET (default 2·10⁵; 122 of the 132 at that budget since E is reduced).
func Test3x4MatchSearch(t *testing.T) {
	budget := pipelinetest.EnvCount(t, "STACKJOIN_3X4_BUDGET", 2e5)
	var list []int
	for i := 0; i < len(quick3x4); i += 2 {
		list = append(list, quick3x4[i]) // half of them by default: the search takes most of the time
	}
	want := len(list)
	if os.Getenv("STACKJOIN_3X4_QUICK") != "" {
		list, want = quick3x4, len(quick3x4)
	}
	if os.Getenv("STACKJOIN_3X4_ALL") != "" {
		list, want = light3x4, 100
	}
	light := map[int]bool{}
	for _, i := range list {
		light[i] = true
	}
	compared, _ := compareShape(t, symmetry.Shape{R: 3, C: 4}, budget, func(c symmetry.Class) bool { return light[c.Index] })
	if compared < want {
		t.Errorf("3×4: only %d classes compared, want %d", compared, want)
	}
}

// TestProjectUnitsMatchFixed checks, on the 9×9 classes, that Project
// enumerates as many units as Fixed continues below (Stats.Stacks[0]).
func TestProjectUnitsMatchFixed(t *testing.T) {
	s := symmetry.Shape{R: 3, C: 3}
	g, err := symmetry.NewGroup(s, true)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, c := range g.Classes {
		if c.Rep.Transpose || c.Index == 0 || len(search.SigmaTypes(s, c.Rep)) == 0 {
			continue
		}
		_, st, err := FixedStats(context.Background(), s, c.Rep, 3e5)
		if errors.Is(err, ErrBudget) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		pr, err := Project(context.Background(), s, c.Rep, 0, 1, 1)
		if err != nil {
			t.Fatal(err)
		}
		if pr.Units != st.Stacks[0] || pr.Truncated {
			t.Errorf("class %d (%s): Project %d units, Fixed %d", c.Index, c.Desc, pr.Units, st.Stacks[0])
		}
		checked++
	}
	if checked < 10 {
		t.Errorf("only %d classes checked", checked)
	}
}

// TestFixedWorkersMatchesFixed checks that dealing the enumeration's
// subtrees out to 2 and 3 workers, or to 5 parts on 2 workers each and
// combining them, gives Fixed's count, on the 9×9 classes Fixed finishes
// within 3·10⁵ and on a few 3×4 classes (class 11 in full), and that some
// class whose first stack cycle has fewer configurations than parts is
// still spread over two parts (the depth runs on into the next cycles);
// each part's sums are also the same without prefixLeast's pruning.
func TestFixedWorkersMatchesFixed(t *testing.T) {
	type job struct {
		s symmetry.Shape
		c symmetry.Class
	}
	var jobs []job
	for _, s := range []symmetry.Shape{{R: 3, C: 3}, {R: 3, C: 4}} {
		g, err := symmetry.NewGroup(s, false)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range g.Classes {
			if c.Index == 0 || len(search.SigmaTypes(s, c.Rep)) == 0 {
				continue
			}
			if s.C == 4 && c.Index != quick3x4[0] && c.Index != quick3x4[5] && c.Index != 11 {
				continue
			}
			switch {
			case raceDetector && (s.C == 4 || c.Index%16 != 0):
				continue // a few 9×9 classes: enough for the detector to watch the workers
			case testing.Short() && s.C == 3 && c.Index%4 != 0:
				continue // a quarter of the 9×9 classes
			}
			jobs = append(jobs, job{s, c})
		}
	}
	compared, split, spread, deep := 0, 0, 0, 0
	for _, j := range jobs {
		want, st, err := FixedStats(context.Background(), j.s, j.c.Rep, 3e5)
		if errors.Is(err, ErrBudget) && !(j.s.C == 4 && j.c.Index == 11) {
			continue
		}
		if err != nil && !errors.Is(err, ErrBudget) {
			t.Fatal(err)
		}
		if err != nil { // class 11 of 3×4, the search's heaviest: in full
			if testing.Short() {
				continue
			}
			want, st, err = FixedStats(context.Background(), j.s, j.c.Rep, 0)
			if err != nil {
				t.Fatal(err)
			}
		}
		for _, workers := range []int{2, 3} {
			got, err := FixedWorkers(context.Background(), j.s, j.c.Rep, workers)
			if err != nil {
				t.Fatal(err)
			}
			if got.Cmp(want) != 0 {
				t.Errorf("%v class %d, %d workers: %v, one worker %v", j.s, j.c.Index, workers, got, want)
			}
		}
		// The same count from 5 parts, each on 2 workers.
		var parts [][]*big.Int
		nonzero := 0
		for k := range 5 {
			sums, err := FixedPart(context.Background(), j.s, j.c.Rep, k, 5, 2)
			if err != nil {
				t.Fatal(err)
			}
			if slices.ContainsFunc(sums, func(x *big.Int) bool { return x.Sign() != 0 }) {
				nonzero++
			}
			// A part's sums are the same without the pruning of partial
			// configurations (it stays below the sharing depth).
			plain, _, err := partSums(context.Background(), j.s, j.c.Rep, 0, options{workers: 2, part: k, parts: 5, noPrefix: true})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.EqualFunc(sums, plain, func(a, b *big.Int) bool { return a.Cmp(b) == 0 }) {
				t.Errorf("%v class %d, part %d of 5: sums %v, without pruning %v", j.s, j.c.Index, k, sums, plain)
			}
			parts = append(parts, sums)
		}
		if got, err := Combine(j.s, j.c.Rep, parts...); err != nil || got.Cmp(want) != 0 {
			t.Errorf("%v class %d, 5 parts: %v (%v), whole %v", j.s, j.c.Index, got, err, want)
		}
		if st.Stacks[0] >= 2 {
			split++ // at least two configurations, so each worker had one
		}
		if nonzero >= 2 {
			spread++
			if len(st.Stacks) > 1 && st.Stacks[0] < 5 {
				deep++ // fewer first-cycle configurations than parts: shared below the first cycle
			}
		}
		compared++
	}
	want, spreadWant := 15, 3
	switch {
	case raceDetector:
		want, spreadWant = 2, 1
	case testing.Short():
		want = 5
	}
	if compared < want || split < spreadWant || spread < spreadWant || (!raceDetector && !testing.Short() && deep == 0) {
		t.Errorf("%d classes compared (want %d), %d with work for two workers, %d with two parts counting grids, %d of them with fewer first-cycle configurations than parts",
			compared, want, split, spread, deep)
	}
	t.Logf("%d classes compared, %d with two parts counting grids, %d of them with fewer first-cycle configurations than parts", compared, spread, deep)
	if _, err := FixedPart(context.Background(), symmetry.Shape{R: 3, C: 3}, jobs[0].c.Rep, 5, 5, 1); err == nil {
		t.Error("part 5 of 5 accepted")
	}
}

// TestFixedPartByFirstRowsMatchesFixed checks that FixedPartByFirstRows'
// parts combine to Fixed's count, whatever the workers, on the 4×2 classes
// and every 8th 5×2 class that finish within a budget, and that some class
// is spread over two parts counting grids.
func TestFixedPartByFirstRowsMatchesFixed(t *testing.T) {
	compared, spread := 0, 0
	for _, s := range []symmetry.Shape{{R: 4, C: 2}, {R: 5, C: 2}} {
		g, err := symmetry.NewGroup(s, false)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range g.Classes {
			if c.Index == 0 || len(search.SigmaTypes(s, c.Rep)) == 0 || (s.R == 5 && c.Index%8 != 3) {
				continue
			}
			want, _, err := FixedStats(context.Background(), s, c.Rep, 2e6)
			if errors.Is(err, ErrBudget) {
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			const parts = 7
			var sums [][]*big.Int
			nonzero := 0
			for k := range parts {
				got, _, err := partSums(context.Background(), s, c.Rep, 0, options{workers: 1 + k%2, part: k, parts: parts, byFirstRows: true})
				if err != nil {
					t.Fatal(err)
				}
				if slices.ContainsFunc(got, func(x *big.Int) bool { return x.Sign() != 0 }) {
					nonzero++
				}
				sums = append(sums, got)
			}
			if got, err := Combine(s, c.Rep, sums...); err != nil || got.Cmp(want) != 0 {
				t.Errorf("%v class %d (%s), %d parts by first rows: %v (%v), whole %v", s, c.Index, c.Desc, parts, got, err, want)
			}
			if one, err := FixedPartByFirstRows(context.Background(), s, c.Rep, 1, parts, 3); err != nil || !slices.EqualFunc(one, sums[1], func(a, b *big.Int) bool { return a.Cmp(b) == 0 }) {
				t.Errorf("%v class %d: part 1 of %d by first rows on 3 workers %v (%v), on 2 %v", s, c.Index, parts, one, err, sums[1])
			}
			if nonzero >= 2 {
				spread++
			}
			compared++
		}
	}
	t.Logf("%d classes compared, %d spread over two parts counting grids", compared, spread)
	if compared < 10 || spread == 0 {
		t.Errorf("%d classes compared (want 10), %d spread over two parts (want some)", compared, spread)
	}
}
