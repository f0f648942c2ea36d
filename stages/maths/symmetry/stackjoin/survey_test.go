package stackjoin

import (
	"context"
	"errors"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/sudoku-census/sudoku-census/pipeline/pipelinetest"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/search"
)

// TestSurvey logs, for every class without transposition of the shape in
// STACKJOIN_SURVEY (e.g. "3x3") that admits a relabelling type, the work
// and time of Fixed within the budget STACKJOIN_BUDGET (default 10^7).
func TestSurvey(t *testing.T) {
	s, ok := envShape("STACKJOIN_SURVEY")
	if !ok {
		t.Skip("set STACKJOIN_SURVEY=RxC")
	}
	budget := pipelinetest.EnvCount(t, "STACKJOIN_BUDGET", 1e7)
	g, err := symmetry.NewGroup(s, s.R == s.C)
	if err != nil {
		t.Fatal(err)
	}
	only := map[int]bool{}
	for _, i := range pipelinetest.EnvInts(t, "STACKJOIN_CLASSES") {
		only[i] = true
	}
	for _, cl := range g.Classes {
		if cl.Rep.Transpose || len(search.SigmaTypes(s, cl.Rep)) == 0 || (len(only) > 0 && !only[cl.Index]) {
			continue
		}
		t0 := time.Now()
		f, st, err := FixedStats(context.Background(), s, cl.Rep, budget)
		res := "over budget"
		if err == nil {
			res = f.String()
		} else if !errors.Is(err, ErrBudget) {
			res = err.Error()
		}
		t.Logf("class %d (%s): %s; %v; nodes %d, DP states %d, stacks %v nonzero %v distinct %v, first rows %d", cl.Index, cl.Desc, res, time.Since(t0).Round(time.Millisecond), st.Nodes, st.DPStates, st.Stacks, st.Nonzero, st.Distinct, st.FirstRows)
	}
}

// envShape reads a shape "RxC" from the environment variable key.
func envShape(key string) (symmetry.Shape, bool) {
	r, c, ok := cut(os.Getenv(key))
	if !ok {
		return symmetry.Shape{}, false
	}
	var s symmetry.Shape
	var err1, err2 error
	s.R, err1 = strconv.Atoi(r)
	s.C, err2 = strconv.Atoi(c)
	return s, err1 == nil && err2 == nil
}

// envClasses returns the group of s and the indices STACKJOIN_CLASSES
// names, failing on one that is not a class of it.
func envClasses(t *testing.T, s symmetry.Shape) (*symmetry.Group, []int) {
	t.Helper()
	g, err := symmetry.NewGroup(s, s.R == s.C)
	if err != nil {
		t.Fatal(err)
	}
	indices := pipelinetest.EnvInts(t, "STACKJOIN_CLASSES")
	for _, i := range indices {
		if i < 0 || i >= len(g.Classes) {
			t.Fatalf("STACKJOIN_CLASSES: %d is not a class index", i)
		}
	}
	return g, indices
}

func cut(s string) (string, string, bool) {
	for i := range s {
		if s[i] == 'x' {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

// TestPlanSurvey logs the search planner's cost (summed over σ types) for
// every class of the shape in STACKJOIN_PLAN (e.g. "3x4") that admits a
// relabelling type, with STACKJOIN_PROBES probes (default 64).
func TestPlanSurvey(t *testing.T) {
	s, ok := envShape("STACKJOIN_PLAN")
	if !ok {
		t.Skip("set STACKJOIN_PLAN=RxC")
	}
	probes := pipelinetest.EnvInt(t, "STACKJOIN_PROBES", 64)
	g, err := symmetry.NewGroup(s, s.R == s.C)
	if err != nil {
		t.Fatal(err)
	}
	for _, cl := range g.Classes {
		if cl.Rep.Transpose || len(search.SigmaTypes(s, cl.Rep)) == 0 {
			continue
		}
		t0 := time.Now()
		lams, costs := search.PlanCost(s, cl.Rep, probes)
		sum := 0.0
		for _, c := range costs {
			sum += c
		}
		t.Logf("plan class %d size %v order %d: cost %.3g (%v σ types %v) [%s] %v", cl.Index, cl.Size, cl.Order, sum, len(lams), lams, cl.Desc, time.Since(t0).Round(time.Millisecond))
	}
}

// TestProjectClasses logs Project for the classes STACKJOIN_CLASSES of the
// shape STACKJOIN_PROJECT, with STACKJOIN_SAMPLES samples (default 20) and
// the enumeration budget STACKJOIN_BUDGET (default 10^9).
func TestProjectClasses(t *testing.T) {
	s, ok := envShape("STACKJOIN_PROJECT")
	if !ok {
		t.Skip("set STACKJOIN_PROJECT=RxC and STACKJOIN_CLASSES")
	}
	samples := pipelinetest.EnvInt(t, "STACKJOIN_SAMPLES", 20)
	budget := pipelinetest.EnvCount(t, "STACKJOIN_BUDGET", 1e9)
	g, classes := envClasses(t, s)
	for _, i := range classes {
		cl := g.Classes[i]
		pr, err := Project(context.Background(), s, cl.Rep, budget, samples, 1)
		if err != nil {
			t.Logf("class %d (%s): %v after enumerating %d units", i, cl.Desc, err, pr.Units)
			continue
		}
		units := ""
		if pr.Truncated {
			units = "≥"
		}
		t.Logf("class %d (%s): %d σ types, %s%d units (enumerated in %v), %d sampled, mean %v, projected %v = %.3g CPU-h",
			i, cl.Desc, pr.SigmaTypes, units, pr.Units, pr.Enumerate.Round(time.Millisecond), pr.Sampled, pr.Mean, pr.Projected.Round(time.Second), pr.Projected.Hours())
	}
}

// TestPartSurvey logs the time of FixedPart on one worker for parts
// STACKJOIN_PART_INDICES (default "0") of STACKJOIN_PARTS (default 1024) of
// each class STACKJOIN_CLASSES of the shape STACKJOIN_PART_SURVEY, and the
// class's time projected from their mean: a part's share of a heavy
// class's cost, where Project's units are too few to sample (a class whose
// first stack has one canonical configuration).
func TestPartSurvey(t *testing.T) {
	s, ok := envShape("STACKJOIN_PART_SURVEY")
	if !ok {
		t.Skip("set STACKJOIN_PART_SURVEY=RxC and STACKJOIN_CLASSES")
	}
	parts := pipelinetest.EnvInt(t, "STACKJOIN_PARTS", 1024)
	indices := pipelinetest.EnvInts(t, "STACKJOIN_PART_INDICES")
	if len(indices) == 0 {
		indices = []int{0}
	}
	timeout := time.Duration(0)
	if v := os.Getenv("STACKJOIN_PART_TIMEOUT"); v != "" {
		var err error
		if timeout, err = time.ParseDuration(v); err != nil {
			t.Fatalf("STACKJOIN_PART_TIMEOUT=%q: want a duration", v)
		}
	}
	g, classes := envClasses(t, s)
classes:
	for _, i := range classes {
		cl := g.Classes[i]
		var total time.Duration
		for _, k := range indices {
			ctx, cancel := context.Background(), context.CancelFunc(func() {})
			if timeout > 0 {
				ctx, cancel = context.WithTimeout(ctx, timeout)
			}
			t0 := time.Now()
			sums, err := FixedPart(ctx, s, cl.Rep, k, parts, 1)
			cancel()
			took := time.Since(t0)
			total += took
			if errors.Is(err, context.DeadlineExceeded) {
				t.Logf("class %d: part %d of %d: past %v, projected over %.3g CPU-h", i, k, parts, timeout, (timeout * time.Duration(parts)).Hours())
				continue classes
			}
			t.Logf("class %d (%s): part %d of %d: %v, sums %v", i, cl.Desc, k, parts, took.Round(time.Millisecond), sums)
			if err != nil {
				t.Fatal(err)
			}
		}
		mean := total / time.Duration(len(indices))
		t.Logf("class %d: mean part %v, projected %.3g CPU-h for %d parts", i, mean.Round(time.Millisecond), (mean * time.Duration(parts)).Hours(), parts)
	}
}
