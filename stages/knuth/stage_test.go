package knuth_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/pipeline/pipelinetest"
	"github.com/sudoku-census/sudoku-census/stages/knuth"
	"github.com/sudoku-census/sudoku-census/stages/shared/sampling"
)

// smoke runs the knuth stage alone with the knuth part of
// configs/smoke.yaml (its other keys are the defaults).
var smoke = pipelinetest.Options{
	Stages: pipelinetest.Closure(knuth.Stage),
	Set: []string{
		"knuth.samples={2x2: 2000, 2x3: 2000, 3x3: 2000, 4x4: 200, 4x4/bandmrv: 0, 4x4/bandse: 0, 4x4/bandmrvlast: 0, 4x4/bandselast: 0, 2x5/se: 200, 2x5/bandse: 200, 2x5/bandselast: 200, 2x6/se: 100}",
		"knuth.hybrid_k={2x2: 8, 2x3: 18, 3x3: 60, 4x4: 220}",
		"knuth.se_budget={2x2: 10, 2x3: 10, 3x3: 10, 4x4: 10, 2x5: 10, 2x6: 10}",
		"knuth.coverage_runs=20",
		"knuth.coverage_samples={2x2: 100, 2x3: 100, 2x3/se: 0, 2x3/lookahead: 0}",
	},
}

// TestStage runs knuth with the smoke configuration and checks its tables.
// That they are byte-identical whatever GOMAXPROCS is, package stages'
// TestByteIdenticalWhateverTheCores checks on configs/smoke.yaml.
func TestStage(t *testing.T) {
	root := pipelinetest.Run(t, smoke)
	rows, err := knuth.Summary.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	// Shapes in table order (by side): every variant on those with a key
	// RxC but the band variants on 4x4 (set to 0), only se and bandse on
	// 2x5 and se on 2x6 (keys RxC/variant alone).
	variants := []string{"rowmajor", "random", "mrv", "cover", "hybrid", "se", "lookahead", "bandmrv", "bandse", "bandmrvlast", "bandselast"}
	var want [][2]string
	for _, s := range []string{"2x2", "2x3", "3x3"} {
		for _, v := range variants {
			want = append(want, [2]string{s, v})
		}
	}
	want = append(want, [2]string{"2x5", "se"}, [2]string{"2x5", "bandse"}, [2]string{"2x5", "bandselast"}, [2]string{"2x6", "se"})
	for _, v := range variants[:7] {
		want = append(want, [2]string{"4x4", v})
	}
	if len(rows) != len(want) {
		t.Fatalf("%d summary rows, want %d", len(rows), len(want))
	}
	for i, r := range rows {
		if [2]string{r.Shape, r.Variant} != want[i] {
			t.Errorf("row %d: %s %s, want %s %s", i, r.Shape, r.Variant, want[i][0], want[i][1])
		}
		if r.Shape == "2x2" && (r.Estimate == "" || r.Samples != 2000 || r.Work <= 0) {
			t.Errorf("row %+v", r)
		}
		se := r.Variant == "se" || r.Variant == "lookahead" || r.Variant == "bandse" || r.Variant == "bandselast"
		if want := map[bool]int32{true: 10, false: 1}[se]; r.Budget != want {
			t.Errorf("%s %s: budget %d, want %d", r.Shape, r.Variant, r.Budget, want)
		}
		if want := map[bool]float64{true: 0.25, false: 0}[r.Variant == "lookahead"]; r.Alpha != want {
			t.Errorf("%s %s: alpha %g, want %g", r.Shape, r.Variant, r.Alpha, want)
		}
	}
	trace, err := knuth.Trace.Load(root)
	if err != nil || len(trace) < len(want)*10 {
		t.Fatalf("%d trace rows, err %v", len(trace), err)
	}
	// The coverage study: 20 runs of 100 samples for every variant on
	// 2x2 and all but se and lookahead on 2x3, in run order.
	cov, err := knuth.Coverage.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	if want := 20 * (len(variants) + len(variants) - 2); len(cov) != want {
		t.Fatalf("%d coverage rows, want %d", len(cov), want)
	}
	for i, r := range cov {
		if r.Run != int32(i%20) || r.Samples != 100 || r.Estimate == "" || r.ESS < 0 || r.ESS > 100 {
			t.Errorf("coverage row %d: %+v", i, r)
		}
	}
}

func TestConfigErrors(t *testing.T) {
	for set, key := range map[string]string{
		"knuth.block_size=0":                                                        "knuth.block_size",
		"knuth.variants=[mrv, dfs]":                                                 "knuth.variants",
		"knuth.hybrid_order=spiral":                                                 "knuth.hybrid_order",
		"knuth.samples={3y3: 10}":                                                   "knuth.samples.3y3",
		"knuth.samples={2x2: 0}":                                                    "knuth.samples.2x2",
		"knuth.samples={2x2: 5, 2x2/dfs: 3}":                                        "knuth.samples.2x2/dfs",
		"knuth.hybrid_k={2x2: 17}":                                                  "knuth.hybrid_k.2x2",
		"knuth.se_order=random":                                                     "knuth.se_order",
		"knuth.stacks_exact={4x3: 12}":                                              "knuth.stacks_exact.4x3",
		"knuth.stacks_exact={4x3: 0}":                                               "knuth.stacks_exact.4x3",
		"knuth.stacks_exact={4x3: 1.5}":                                             "knuth.stacks_exact.4x3",
		"knuth.stacks_exact={4x3: 1e30}":                                            "knuth.stacks_exact.4x3",
		"knuth.stacks_exact={4x3: .nan}":                                            "knuth.stacks_exact.4x3",
		"knuth.stacks_exact={4x3: true}":                                            "knuth.stacks_exact.4x3",
		"knuth.stacks_draws={4x3: 0}":                                               "knuth.stacks_draws.4x3",
		"knuth.stacks_draws={4x3: 257}":                                             "knuth.stacks_draws.4x3",
		"knuth.stacks_draws={4x3: 1.5}":                                             "knuth.stacks_draws.4x3",
		"knuth.stacks_draws={4x3: true}":                                            "knuth.stacks_draws.4x3",
		"knuth.stacks_draws={4y3: 2}":                                               "knuth.stacks_draws.4y3",
		"knuth.se_budget={2x2: 0, 2x3: 10, 3x3: 10, 4x4: 10}":                       "knuth.se_budget.2x2",
		"knuth.se_budget={2x2: 10, 2x3: 10, 3x3: 10, 2x5: 10, 2x6: 10}":             "knuth.se_budget.4x4",
		"knuth.se_budget={2x2: 10, 2x3: 10, 3x3: 10, 4x4: 10001, 2x5: 10, 2x6: 10}": "knuth.se_budget.4x4",
		"knuth.se_budget={2x2: 10, 2x3: 10, 3x3: 10, 4x4: 10}":                      "knuth.se_budget.2x5",
		"knuth.samples={2x2: 5, 5x5/lookahead: 2}":                                  "knuth.se_budget.5x5",
		"knuth.samples={2x2: 5, 5x5/dfs: 2}":                                        "knuth.samples.5x5/dfs",
		"knuth.lookahead_alpha=-0.5":                                                "knuth.lookahead_alpha",
		"knuth.lookahead_alpha=17":                                                  "knuth.lookahead_alpha",
		"knuth.goals={3x3: 0}":                                                      "knuth.goals.3x3",
		"knuth.goals={3x3: 1.5}":                                                    "knuth.goals.3x3",
		"knuth.goals={3x03: 0.01}":                                                  "knuth.goals.3x03",
		"knuth.coverage_runs=-1":                                                    "knuth.coverage_runs",
		"knuth.coverage_samples={}":                                                 "knuth.coverage_samples",
		"knuth.coverage_samples={2x2: 100000001}":                                   "knuth.coverage_samples.2x2",
		"knuth.coverage_samples={4x4: 10}":                                          "knuth.coverage_samples.4x4/bandmrvlast",
		"knuth.samples={2x2: 5, 4x4: 5}":                                            "knuth.samples.4x4/bandmrvlast",
		"knuth.samples={2x2: 5, 6x2/bandmrv: 5}":                                    "knuth.samples.6x2/bandmrv",
		"knuth.samples={3x3/mrv: 0}":                                                "knuth.samples",
		"knuth.long={2x3: 64000}":                                                   "knuth.long.2x3",
		"knuth.long={2x3/se: 64001}":                                                "knuth.long.2x3/se",
		"knuth.long={2x3/se: -64000}":                                               "knuth.long.2x3/se",
		"knuth.long={2x3/dfs: 64000}":                                               "knuth.long.2x3/dfs",
		"knuth.long={4x4/bandselast: 16000}":                                        "knuth.long.4x4/bandselast",
		"knuth.long={6x2/bandmrv: 16000}":                                           "knuth.long.6x2/bandmrv",
		"knuth.long={1x7/stacks: 16000}":                                            "knuth.long.1x7/stacks",
		"knuth.long={5x7/stackshybrid: 16000}":                                      "knuth.long.5x7/stackshybrid",
		"knuth.samples={2x2: 5, 6x7/stackshybrid: 5}":                               "knuth.samples.6x7/stackshybrid",
		"knuth.long={5x5/se: 4000}":                                                 "knuth.se_budget.5x5",
		"knuth.long={2x3/se: 64000, 3x5/hybrid: 16000}":                             "knuth.hybrid_k.3x5",
		"knuth.max_cpu_hours=-1":                                                    "knuth.max_cpu_hours",
		"knuth.long_coverage={2x3/se: 64000}":                                       "knuth.long_coverage.2x3/se",
		// stackshybrid@k: k candidates, 1 to 256 in decimal, only for
		// stackshybrid, and not the run RxC/stackshybrid is.
		"knuth.long={4x2/stackshybrid@0: 64000}":                    "knuth.long.4x2/stackshybrid@0",
		"knuth.long={4x2/stackshybrid@257: 64000}":                  "knuth.long.4x2/stackshybrid@257",
		"knuth.long={4x2/stackshybrid@08: 64000}":                   "knuth.long.4x2/stackshybrid@08",
		"knuth.long={4x2/stackshybrid@+8: 64000}":                   "knuth.long.4x2/stackshybrid@+8",
		"knuth.long={4x2/stackshybrid@8.0: 64000}":                  "knuth.long.4x2/stackshybrid@8.0",
		"knuth.long={4x2/stackshybrid@: 64000}":                     "knuth.long.4x2/stackshybrid@",
		"knuth.long={4x2/stackshybrid@1e1: 64000}":                  "knuth.long.4x2/stackshybrid@1e1",
		"knuth.long={4x2/stackshybrid@18446744073709551624: 64000}": "knuth.long.4x2/stackshybrid@18446744073709551624",
		"knuth.long={4x2/stacks@8: 64000}":                          "knuth.long.4x2/stacks@8",
		"knuth.long={4x2/se@8: 64000}":                              "knuth.long.4x2/se@8",
		"knuth.long={4x2/stackshybrid@1: 64000}":                    "knuth.long.4x2/stackshybrid@1",
		"knuth.long={4x2/stackshybrid@8: 64001}":                    "knuth.long.4x2/stackshybrid@8",
		"knuth.long={4x2/stackshybrid@8: -64000}":                   "knuth.long.4x2/stackshybrid@8",
		"knuth.long={6x7/stackshybrid@8: 4000}":                     "knuth.long.6x7/stackshybrid@8",
		"knuth.long={1x7/stackshybrid@8: 64000}":                    "knuth.long.1x7/stackshybrid@8",
		"knuth.samples={2x2: 5, 4x2/stackshybrid@8: 5}":             "knuth.samples.4x2/stackshybrid@8",
		"knuth.coverage_samples={2x2: 5, 4x2/stackshybrid@8: 5}":    "knuth.coverage_samples.4x2/stackshybrid@8",
		"knuth.long_coverage={4x2/stackshybrid@8: 64000}":           "knuth.long_coverage.4x2/stackshybrid@8",
		// Shape keys are canonical: 03x3 beside 3x3 would run 3×3 twice.
		"knuth.samples={2x2: 5, 3x3: 5, 03x3: 5}":                       "knuth.samples.03x3",
		"knuth.samples={2x2: 5, 3x03: 5}":                               "knuth.samples.3x03",
		"knuth.samples={2x2: 5, 3x3: 5, 03x3/mrv: 5}":                   "knuth.samples.03x3/mrv",
		"knuth.hybrid_k={2x2: 8, 2x3: 18, 3x3: 60, 4x4: 220, 03x3: 60}": "knuth.hybrid_k.03x3",
		"knuth.se_budget={2x2: 10, 2x3: 10, 3x3: 10, 4x4: 10, 04x4: 1}": "knuth.se_budget.04x4",
	} {
		err := pipelinetest.Rejects(t, smoke, set, key)
		if strings.Contains(key, "0") && err != nil && !strings.Contains(err.Error(), "RxC") {
			t.Errorf("--set %s: error %q does not give the allowed form", set, err)
		}
	}
	// A long run's coverage slices: a whole number of units, within the run.
	withLong := smoke
	withLong.Set = append(slices.Clip(smoke.Set), "knuth.long={2x3/se: 128000}")
	for _, n := range []string{"64001", "192000", "0", "-64000", "1.5", "1e30"} {
		pipelinetest.Rejects(t, withLong, "knuth.long_coverage={2x3/se: "+n+"}", "knuth.long_coverage.2x3/se")
	}
	// With knuth.stacks_draws.4x2 = 8, 4x2/stackshybrid is the run of 8
	// candidates: 4x2/stackshybrid@8 would be a second key for it, and
	// @1 names the run of one. Slices of stackshybrid@k as of any run.
	withDraws := smoke
	withDraws.Set = append(slices.Clip(smoke.Set), "knuth.stacks_draws={4x2: 8}")
	err := pipelinetest.Rejects(t, withDraws, "knuth.long={4x2/stackshybrid: 64000, 4x2/stackshybrid@8: 64000}", "knuth.long.4x2/stackshybrid@8")
	if err == nil || !strings.Contains(err.Error(), "the run 4x2/stackshybrid") {
		t.Errorf("stackshybrid@8 beside stacks_draws 8: %v", err)
	}
	withDraws.Set = append(withDraws.Set, "knuth.long={4x2/stackshybrid: 64000, 4x2/stackshybrid@1: 128000}")
	for _, n := range []string{"64001", "192000", "0", "1.5"} {
		pipelinetest.Rejects(t, withDraws, "knuth.long_coverage={4x2/stackshybrid@1: "+n+"}", "knuth.long_coverage.4x2/stackshybrid@1")
	}
	// knuth.long_block_size: a long run's, 1 to 2^30, and the run's samples
	// and slices in its units.
	pipelinetest.Rejects(t, smoke, "knuth.long_block_size={2x3/se: 100}", "knuth.long_block_size.2x3/se")
	withLong.Set = append(withLong.Set, "knuth.long_coverage={2x3/se: 64000}")
	for _, b := range []string{"0", "-100", "1073741825", "1.5", "true", "1e2"} {
		pipelinetest.Rejects(t, withLong, "knuth.long_block_size={2x3/se: "+b+"}", "knuth.long_block_size.2x3/se")
	}
	pipelinetest.Rejects(t, withLong, "knuth.long_block_size={2x3/se: 3000}", "knuth.long.2x3/se")
	pipelinetest.Rejects(t, withLong, "knuth.long_block_size={2x3/mrv: 100}", "knuth.long_block_size.2x3/mrv")
	withLong.Set = append(withLong.Set, "knuth.long_block_size={2x3/se: 100}")
	pipelinetest.Rejects(t, withLong, "knuth.long_coverage={2x3/se: 6401}", "knuth.long_coverage.2x3/se")
	// An entry of a variant that is not listed is left unused; listed, it
	// is checked.
	withStacks := smoke
	withStacks.Set = append(slices.Clip(smoke.Set), "knuth.variants=[mrv, stacks]")
	pipelinetest.Rejects(t, withStacks, "knuth.samples={2x2: 5, 1x7/stacks: 5}", "knuth.samples.1x7/stacks")
}

// TestSixBySixSamples draws 6×6 (36×36) samples through the stage's units:
// a default-run unit of one stackshybrid sample and a long unit of four
// blocks of one sample, about 1.5 CPU-seconds a sample with the default
// exact columns. Their rows hold a count of the order of the heuristic's
// 1.4·10^768 (a sample may be ten times off: relvar about 20).
func TestSixBySixSamples(t *testing.T) {
	if testing.Short() {
		t.Skip("6×6 samples take about 1.5 CPU-seconds each")
	}
	root := pipelinetest.Run(t, pipelinetest.Options{
		Stages: pipelinetest.Closure(knuth.Stage),
		Set: []string{"knuth.block_size=1", "knuth.variants=[stackshybrid]", "knuth.samples={6x6/stackshybrid: 1}",
			"knuth.coverage_runs=0", "knuth.long={6x6/stackshybrid: 4}"},
	})
	rows, err := knuth.Summary.Load(root)
	if err != nil || len(rows) != 1 {
		t.Fatalf("%d summary rows, %v", len(rows), err)
	}
	long, err := knuth.LongSummary.Load(root)
	if err != nil || len(long) != 1 {
		t.Fatalf("%d long rows, %v", len(long), err)
	}
	check := func(table, shape, variant string, samples, want int64, log10 float64) {
		if shape != "6x6" || variant != "stackshybrid" || samples != want || !(log10 > 765 && log10 < 770) {
			t.Errorf("%s: %s/%s, %d samples (want 6x6/stackshybrid, %d), log10 estimate %g (want about 768)", table, shape, variant, samples, want, log10)
		}
	}
	check("knuth", rows[0].Shape, rows[0].Variant, rows[0].Samples, 1, rows[0].Log10Estimate)
	check("knuth_long", long[0].Shape, long[0].Variant, long[0].Samples, 4, long[0].Log10Estimate)
	if long[0].Units != 1 || !(long[0].CPUSeconds > 0) {
		t.Errorf("long row: %d units, %g CPU-seconds", long[0].Units, long[0].CPUSeconds)
	}
}

// Candidate draws make another estimator, named stackshybrid@k in every
// table: the default run and the coverage runs of a shape with
// knuth.stacks_draws, their trace, and a long run of knuth.long's key
// RxC/stackshybrid@k beside the run of RxC/stackshybrid (of one candidate
// here), each with its own units (the a field; the n field its
// knuth.long_block_size) and its own coverage slices.
func TestDrawsLabelTheirRuns(t *testing.T) {
	root := pipelinetest.Run(t, pipelinetest.Options{
		Stages: pipelinetest.Closure(knuth.Stage),
		Set: []string{"knuth.block_size=10", "knuth.variants=[stackshybrid]", "knuth.stacks_exact={4x2: 3, 5x2: 5}",
			"knuth.stacks_draws={4x2: 4}", "knuth.samples={4x2/stackshybrid: 50}", "knuth.coverage_runs=3",
			"knuth.coverage_samples={4x2/stackshybrid: 20}",
			"knuth.long={5x2/stackshybrid: 640, 5x2/stackshybrid@8: 1600}", "knuth.long_block_size={5x2/stackshybrid@8: 50}",
			"knuth.long_coverage={5x2/stackshybrid: 640, 5x2/stackshybrid@8: 800}"},
	})
	rows, err := knuth.Summary.Load(root)
	if err != nil || len(rows) != 1 || rows[0].Variant != "stackshybrid@4" || rows[0].Samples != 50 {
		t.Fatalf("summary rows %+v, %v: want one of stackshybrid@4", rows, err)
	}
	trace, err := knuth.Trace.Load(root)
	if err != nil || len(trace) == 0 || slices.ContainsFunc(trace, func(r sampling.TraceRow) bool { return r.Variant != "stackshybrid@4" }) {
		t.Errorf("trace rows %+v, %v: want those of stackshybrid@4", trace, err)
	}
	long, err := knuth.LongSummary.Load(root)
	if err != nil || len(long) != 2 || long[0].Variant != "stackshybrid" || long[0].Samples != 640 || long[1].Variant != "stackshybrid@8" || long[1].Samples != 1600 {
		t.Fatalf("long rows %+v, %v: want 5x2 stackshybrid (640 samples), then stackshybrid@8 (1600)", long, err)
	}
	if long[0].Estimate == long[1].Estimate {
		t.Errorf("the runs of 1 and 8 candidates have the same estimate %s", long[0].Estimate)
	}
	cov, err := knuth.Coverage.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range cov {
		got = append(got, fmt.Sprintf("%s/%s %d %v %d", r.Shape, r.Variant, r.Run, r.Long, r.Samples))
	}
	want := []string{"4x2/stackshybrid@4 0 false 20", "4x2/stackshybrid@4 1 false 20", "4x2/stackshybrid@4 2 false 20",
		"5x2/stackshybrid 0 true 640", "5x2/stackshybrid@8 0 true 800", "5x2/stackshybrid@8 1 true 800"}
	if !slices.Equal(got, want) {
		t.Errorf("coverage rows %q, want %q", got, want)
	}
	have, err := pipeline.ReadBundle(root, knuth.LongBundle, nil)
	units := map[string]int{}
	for id := range have {
		units[strings.Join(strings.Split(id, ".")[:9], ".")]++
	}
	if want := map[string]int{"long.5x2.stackshybrid.rowmajor.k100.b5.a0.s1.n10": 4, "long.5x2.stackshybrid.rowmajor.k100.b5.a8.s1.n50": 2}; err != nil || !maps.Equal(units, want) {
		t.Errorf("the bundle's units by run %v, %v; want %v (16 blocks a unit, of 10 or 50 samples)", units, err, want)
	}
}
