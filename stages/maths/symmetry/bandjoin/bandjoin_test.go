package bandjoin

import (
	"context"
	"errors"
	"math"
	"math/big"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/sudoku-census/sudoku-census/pipeline/pipelinetest"
	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/perm"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/search"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/stackjoin"
)

// compareShape checks Fixed against search.Fixed on every class without
// transposition of s that Fixed finishes within budget nodes per σ type;
// it returns the number compared and skipped.
func compareShape(t *testing.T, s symmetry.Shape, budget uint64, want func(symmetry.Class) bool) (compared, skipped int) {
	t.Helper()
	return compareWith(t, s, budget, want, "search", func(c symmetry.Class) (*big.Int, error) {
		return search.Fixed(context.Background(), s, c)
	})
}

// compareWith is compareShape with the reference count ref, named name.
func compareWith(t *testing.T, s symmetry.Shape, budget uint64, want func(symmetry.Class) bool, name string, ref func(symmetry.Class) (*big.Int, error)) (compared, skipped int) {
	t.Helper()
	g, err := symmetry.NewGroup(s, false)
	if err != nil {
		t.Fatal(err)
	}
	var tBand, tSearch time.Duration
	for _, c := range g.Classes {
		if want != nil && !want(c) {
			continue
		}
		if !slices.EqualFunc(SigmaTypes(s, c.Rep), search.SigmaTypes(s, c.Rep), slices.Equal) {
			t.Errorf("%v class %d: σ types %v, search's %v", s, c.Index, SigmaTypes(s, c.Rep), search.SigmaTypes(s, c.Rep))
		}
		t0 := time.Now()
		got, err := Fixed(context.Background(), s, c.Rep, budget)
		d := time.Since(t0)
		if errors.Is(err, ErrBudget) {
			t.Logf("%v class %d (%s): over budget (%v)", s, c.Index, c.Desc, d)
			skipped++
			continue
		}
		if err != nil {
			t.Fatalf("%v class %d (%s): %v", s, c.Index, c.Desc, err)
		}
		t1 := time.Now()
		want, err := ref(c)
		if err != nil {
			t.Fatal(err)
		}
		tBand += d
		tSearch += time.Since(t1)
		if got.Cmp(want) != 0 {
			t.Errorf("%v class %d (%s): bandjoin %v, %s %v", s, c.Index, c.Desc, got, name, want)
		}
		compared++
	}
	t.Logf("%v: %d classes compared (bandjoin %v, %s %v), %d over budget", s, compared, tBand, name, tSearch, skipped)
	return compared, skipped
}

func TestSmallShapesMatchSearch(t *testing.T) {
	for _, s := range []symmetry.Shape{{R: 2, C: 2}, {R: 2, C: 3}, {R: 3, C: 2}} {
		compareShape(t, s, 0, nil)
	}
}

// Test9x9MatchSearch compares every class without transposition of 9×9
// that Fixed finishes within 3·10⁶ nodes per σ type (BANDJOIN_9X9_BUDGET
// lifts it): all but the identity and a few classes with few band orbits.
func Test9x9MatchSearch(t *testing.T) {
	budget := pipelinetest.EnvCount(t, "BANDJOIN_9X9_BUDGET", 3e6)
	compared, skipped := compareShape(t, symmetry.Shape{R: 3, C: 3}, budget, nil)
	if compared+skipped != 484 || compared < 470 {
		t.Errorf("9×9: %d classes compared, %d over budget; want 484 in all, at least 470 compared", compared, skipped)
	}
}

// TestFirstRowsAreOrbits checks that the canonical first rows number N!/|Z(σ)|
// for every cycle type of S_6: one per orbit of the centraliser.
func TestFirstRowsAreOrbits(t *testing.T) {
	s := symmetry.Shape{R: 2, C: 3}
	e := symmetry.Element{Rows: perm.Identity(6), Cols: perm.Identity(6)}
	for _, lam := range perm.Partitions(6) {
		p, err := newProblem(context.Background(), s, e, lam, 0)
		if err != nil {
			t.Fatal(err)
		}
		var walk func(pos int, used uint32) int64
		walk = func(pos int, used uint32) int64 {
			if pos == 6 {
				return 1
			}
			var n int64
			for _, x := range p.firstRowChoices(used) {
				c := p.cycleOf[x]
				was := p.opened[c]
				p.opened[c] = true
				n += walk(pos+1, used|1<<x)
				p.opened[c] = was
			}
			return n
		}
		want := new(big.Int).Quo(perm.Factorial(6), perm.Centralizer(lam))
		if got := walk(0, 0); got != want.Int64() {
			t.Errorf("σ of type %v: %d first rows, want 6!/|Z| = %v", lam, got, want)
		}
	}
}

// TestProjectionCoversExact checks that the seeded projection of 9×9
// classes whose counts are known holds the exact value within its 95%
// interval, and that the interval is narrower than the value.
func TestProjectionCoversExact(t *testing.T) {
	s := symmetry.Shape{R: 3, C: 3}
	g, err := symmetry.NewGroup(s, false)
	if err != nil {
		t.Fatal(err)
	}
	// 311: bands (2 3), rows cycled in bands 1 and 3, columns (1 2) in every
	// stack (two band orbits); 53: rows cycled in every band, columns in
	// every stack (three).
	for _, i := range []int{311, 53} {
		c, _ := g.Class(i)
		for _, lam := range SigmaTypes(s, c.Rep) {
			exact, _, err := FixedType(context.Background(), s, c.Rep, lam, 0)
			if err != nil {
				t.Fatal(err)
			}
			est, err := ProjectType(context.Background(), s, c.Rep, lam, 400, 1, 1)
			if err != nil {
				t.Fatal(err)
			}
			x := float64(exact)
			if math.Abs(est.Fixed-x) > max(est.FixedCI, 1e-9*x) || est.FixedCI > x {
				t.Errorf("class %d σ %s: projected %.6g ± %.2g, exact %d", c.Index, typeString(lam), est.Fixed, est.FixedCI, exact)
			}
			t.Logf("class %d σ %s: projected %.6g ± %.2g, exact %d", c.Index, typeString(lam), est.Fixed, est.FixedCI, exact)
		}
	}
}

// surveyGroup returns the shape BANDJOIN_SHAPE names ("RxC"; def when it
// is unset) and its group without transposition, for the surveys.
func surveyGroup(t *testing.T, def symmetry.Shape) (symmetry.Shape, *symmetry.Group) {
	t.Helper()
	s := def
	if v := os.Getenv("BANDJOIN_SHAPE"); v != "" {
		gs, err := grid.ParseShape(v)
		if err != nil {
			t.Fatalf("BANDJOIN_SHAPE: %v", err)
		}
		s = symmetry.Shape{R: gs.R, C: gs.C}
	}
	g, err := symmetry.NewGroup(s, false)
	if err != nil {
		t.Fatal(err)
	}
	return s, g
}

// surveyClasses returns the classes of g whose indices the environment
// variable key lists (comma-separated).
func surveyClasses(t *testing.T, g *symmetry.Group, key string) []symmetry.Class {
	t.Helper()
	var out []symmetry.Class
	for _, i := range pipelinetest.EnvInts(t, key) {
		c, err := g.Class(i)
		if err != nil {
			t.Fatalf("%s: %v", key, err)
		}
		out = append(out, c)
	}
	return out
}

// TestClasses counts the classes listed in BANDJOIN_CLASSES (shape
// BANDJOIN_SHAPE, default 3x3) without budget and logs F, the time and
// search's F: a survey, skipped by default.
func TestClasses(t *testing.T) {
	if os.Getenv("BANDJOIN_CLASSES") == "" {
		t.Skip("BANDJOIN_CLASSES not set")
	}
	s, g := surveyGroup(t, symmetry.Shape{R: 3, C: 3})
	for _, c := range surveyClasses(t, g, "BANDJOIN_CLASSES") {
		for _, lam := range SigmaTypes(s, c.Rep) {
			t0 := time.Now()
			v, nodes, err := FixedType(context.Background(), s, c.Rep, lam, 0)
			t.Logf("%v class %d (%s) σ %s: %d, %d nodes, %v, err %v", s, c.Index, c.Desc, typeString(lam), v, nodes, time.Since(t0), err)
		}
		if os.Getenv("BANDJOIN_SEARCH") != "" {
			ref, _ := search.Fixed(context.Background(), s, c)
			t.Logf("search: %v", ref)
		}
	}
}

// TestProject projects the σ types of the classes in BANDJOIN_PROJECT
// (shape BANDJOIN_SHAPE, default 3x4) from BANDJOIN_PROBES probes (default
// 20), the first BANDJOIN_EXACT_FROM band orbits (default 1) descended at
// random: a survey, skipped by default.
func TestProject(t *testing.T) {
	if os.Getenv("BANDJOIN_PROJECT") == "" {
		t.Skip("BANDJOIN_PROJECT not set")
	}
	s, g := surveyGroup(t, symmetry.Shape{R: 3, C: 4})
	probes := pipelinetest.EnvInt(t, "BANDJOIN_PROBES", 20)
	exactFrom := pipelinetest.EnvInt(t, "BANDJOIN_EXACT_FROM", 1)
	for _, c := range surveyClasses(t, g, "BANDJOIN_PROJECT") {
		i := c.Index
		var fsum, fci2, ssum, sci2 float64
		for _, lam := range SigmaTypes(s, c.Rep) {
			est, err := ProjectType(context.Background(), s, c.Rep, lam, probes, exactFrom, 1)
			if err != nil {
				t.Fatal(err)
			}
			if est.ExactFrom == est.Orbits { // nothing timed: the nodes are the cost
				est.Seconds, est.SecCI = math.NaN(), math.NaN()
			}
			t.Logf("%v class %d σ %s: F %.4g ± %.2g, nodes %.3g ± %.2g, CPU-s %.3g ± %.2g, fillings by orbit %.3g ± %.2g (probes %d, exact from orbit %d of %d, %.1f s measured)",
				s, i, typeString(lam), est.Fixed, est.FixedCI, est.Nodes, est.NodesCI, est.Seconds, est.SecCI, est.Fillings, est.FillingsCI, est.Probes, est.ExactFrom, est.Orbits, est.ExactSeconds)
			fsum += est.Fixed
			fci2 += est.FixedCI * est.FixedCI
			ssum += est.Seconds
			sci2 += est.SecCI * est.SecCI
		}
		t.Logf("%v class %d (%s): F %.4g ± %.2g, CPU-hours %.3g ± %.2g", s, i, c.Desc, fsum, math.Sqrt(fci2), ssum/3600, math.Sqrt(sci2)/3600)
	}
}

// TestSurvey counts every class without transposition of BANDJOIN_SHAPE
// (default 3x4) that Fixed finishes within BANDJOIN_SURVEY_BUDGET nodes per
// σ type and logs "survey class F seconds": a survey, skipped by default.
func TestSurvey(t *testing.T) {
	if os.Getenv("BANDJOIN_SURVEY_BUDGET") == "" {
		t.Skip("BANDJOIN_SURVEY_BUDGET not set")
	}
	budget := pipelinetest.EnvCount(t, "BANDJOIN_SURVEY_BUDGET", 0)
	s, g := surveyGroup(t, symmetry.Shape{R: 3, C: 4})
	for _, c := range g.Classes {
		if len(SigmaTypes(s, c.Rep)) == 0 {
			continue
		}
		t0 := time.Now()
		f, err := Fixed(context.Background(), s, c.Rep, budget)
		if err != nil {
			t.Logf("survey %d over %v", c.Index, time.Since(t0).Seconds())
			continue
		}
		t.Logf("survey %d %v %.3f", c.Index, f, time.Since(t0).Seconds())
	}
}

// Test3x4LightMatchStackjoin compares Fixed with the R-stack method (the
// symmetry stage's first count of 3×4; imported by this test only) on the
// 132 classes of 3×4 that Fixed finishes within 2·10⁶ nodes per σ type (115
// of them with F > 0), of one to four band orbits: every third by default,
// all with BANDJOIN_3X4_ALL=1; BANDJOIN_3X4_BUDGET changes the budget and
// takes every class.
func Test3x4LightMatchStackjoin(t *testing.T) {
	s := symmetry.Shape{R: 3, C: 4}
	light, step := map[int]bool{}, 3
	if os.Getenv("BANDJOIN_3X4_ALL") != "" {
		step = 1
	}
	for k := 0; k < len(light3x4); k += step {
		light[light3x4[k]] = true
	}
	budget, pick := uint64(2e6), func(c symmetry.Class) bool { return light[c.Index] }
	if os.Getenv("BANDJOIN_3X4_BUDGET") != "" {
		budget, pick = pipelinetest.EnvCount(t, "BANDJOIN_3X4_BUDGET", 2e6), nil
	}
	var positive int
	compared, skipped := compareWith(t, s, budget, pick, "stackjoin", func(c symmetry.Class) (*big.Int, error) {
		f, err := stackjoin.Fixed(context.Background(), s, c.Rep, 0)
		if err == nil && f.Sign() > 0 {
			positive++
		}
		return f, err
	})
	if pick != nil && (compared != len(light) || step == 1 && positive != 115) {
		t.Errorf("3×4: %d classes compared (%d with F > 0), %d over budget; want %d (115 with F > 0 of all 132)", compared, positive, skipped, len(light))
	}
}

// light3x4 are the 3×4 classes that Fixed finishes within 2·10⁶ nodes per
// σ type (TestSurvey with BANDJOIN_SURVEY_BUDGET=2000000).
var light3x4 = []int{663, 694, 713, 744, 775, 850, 880, 911, 987, 1018, 1129, 1274, 1309, 1323, 1340, 1602, 1611, 1639, 1648, 1676, 1704, 1713, 1740, 1768, 1777, 1805, 1833, 1842, 1869, 1897, 1925, 1953, 2012, 2040, 2068, 2096, 2105, 2133, 2161, 2170, 2197, 2225, 2253, 2281, 2340, 2368, 2396, 2424, 2447, 2450, 2452, 2480, 2539, 2562, 2565, 2567, 2590, 2593, 2595, 2618, 2621, 2623, 2632, 2659, 2687, 2714, 2773, 2796, 2799, 2801, 2825, 2826, 2827, 2828, 2830, 2831, 2832, 2833, 2834, 2835, 2836, 2837, 2838, 2839, 2840, 2841, 2842, 2843, 2844, 2845, 2846, 2847, 2848, 2849, 2850, 2851, 2852, 2853, 2854, 2855, 2856, 2857, 2858, 2859, 2860, 2861, 2862, 2863, 2864, 2865, 2866, 2867, 2868, 2869, 2870, 2871, 2872, 2873, 2874, 2875, 2876, 2877, 2878, 2879, 2880, 2881, 2882, 2883, 2884, 2885, 2886, 2887}
