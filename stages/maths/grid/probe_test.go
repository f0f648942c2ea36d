package grid_test

import (
	"context"
	"errors"
	"math/big"
	"strings"
	"testing"

	"github.com/sudoku-census/sudoku-census/stages/maths/forecast"
	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
	"github.com/sudoku-census/sudoku-census/stages/maths/montecarlo"
)

// exactCount returns the completions and outer search nodes of the
// counter, for every number of workers the same (the tree Probe samples).
func exactCount(t *testing.T, g grid.Grid) (*big.Int, uint64) {
	t.Helper()
	count, work, err := g.CountNodes(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	nodes := work.Outer
	count2, work2, err := g.CountNodes(context.Background(), 2)
	if err != nil || count2.Cmp(count) != 0 || work2.Outer != nodes {
		t.Fatalf("%s with 2 workers: %v completions, %d nodes, %v; with 1: %v, %d", g.Shape, count2, work2.Outer, err, count, nodes)
	}
	return count, nodes
}

func parse(t *testing.T, text string, shape grid.Shape) grid.Grid {
	t.Helper()
	g, err := grid.Parse(text, shape)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// A 6×6 grid with its first band filled and two more givens: small enough
// to enumerate every probe path.
const partial6x6 = "123456" + "456123" + "2....." + "....1." + "......" + "......"

// TestProbeExpectation computes the expectations of Probe's two estimators
// exactly, as rationals, by enumerating every path with its probability
// Π 1/kᵢ, and compares them with the exact completions and outer nodes.
// Any path Probe got wrong (a wrong branching cell, a missed dead end, a
// factor off by one) would move at least one of them.
func TestProbeExpectation(t *testing.T) {
	for _, tc := range []struct {
		name string
		g    grid.Grid
	}{
		{"empty 4x4", parse(t, strings.Repeat(".", 16), grid.Shape{R: 2, C: 2})},
		{"4x4 with givens", parse(t, "1.......2.....3.", grid.Shape{R: 2, C: 2})},
		{"partial 6x6", parse(t, partial6x6, grid.Shape{R: 2, C: 3})},
		{"dead 4x4", parse(t, "12....3.......4.", grid.Shape{R: 2, C: 2})},
	} {
		count, nodes := exactCount(t, tc.g)
		c, err := grid.NewCounter(tc.g.Shape)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Load(tc.g.Cells); err != nil {
			t.Fatal(err)
		}
		// Odometer over the choices: choices[i] is taken at step i, and
		// after each path the deepest step with an untried child moves on.
		var choices, ks []uint64
		var p grid.Path
		wantCount, wantNodes := new(big.Rat), new(big.Rat)
		paths := 0
		for {
			ks = ks[:0]
			c.Probe(func(k uint64) uint64 {
				i := len(ks)
				ks = append(ks, k)
				if i < len(choices) {
					return choices[i]
				}
				choices = append(choices, 0)
				return 0
			}, &p)
			paths++
			prob := big.NewRat(1, 1)
			for _, k := range ks {
				prob.Mul(prob, big.NewRat(1, int64(k)))
			}
			completions, outer := forecast.ProbeValues(&p)
			wantCount.Add(wantCount, new(big.Rat).Mul(prob, ratOf(completions)))
			wantNodes.Add(wantNodes, new(big.Rat).Mul(prob, ratOf(outer)))
			i := len(ks) - 1
			for i >= 0 && choices[i]+1 == ks[i] {
				i--
			}
			if i < 0 {
				break
			}
			choices = append(choices[:i], choices[i]+1)
		}
		if wantCount.Cmp(new(big.Rat).SetInt(count)) != 0 || wantNodes.Cmp(new(big.Rat).SetInt64(int64(nodes))) != 0 {
			t.Errorf("%s: expectations %s completions, %s nodes over %d paths; want %s, %d",
				tc.name, wantCount.RatString(), wantNodes.RatString(), paths, count, nodes)
		}
		if got, _ := c.Count(); got.String() != count.String() {
			t.Errorf("%s: the probes changed the grid: count %s, want %s", tc.name, got, count)
		}
	}
}

// ratOf converts an integer-valued estimate exactly (they stay below 2⁵³
// on these grids).
func ratOf(v montecarlo.Value) *big.Rat {
	f, _ := v.Float().Rat(nil)
	return f
}

// TestProbeMeans runs many probes on grids too big to enumerate and checks
// that the means lie within 4 standard errors of the exact values, and
// that the test has the power to reject a value 10% off.
func TestProbeMeans(t *testing.T) {
	for _, tc := range []struct {
		name    string
		g       grid.Grid
		samples int64
	}{
		{"empty 6x6", parse(t, strings.Repeat(".", 36), grid.Shape{R: 2, C: 3}), 40000},
		{"empty 6x6 3x2", parse(t, strings.Repeat(".", 36), grid.Shape{R: 3, C: 2}), 40000},
		{"9x9 band and column", parse(t, "123456789456789123789123456"+
			"2........3........5........6........8........9........", grid.Shape{R: 3, C: 3}), 40000},
	} {
		count, nodes := exactCount(t, tc.g)
		est, err := forecast.EstimateCount(context.Background(), tc.g, 7, tc.samples, 2)
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range []struct {
			what  string
			stats montecarlo.Stats
			exact *big.Float
		}{
			{"completions", est.Completions, new(big.Float).SetInt(count)},
			{"outer nodes", est.OuterNodes, new(big.Float).SetUint64(nodes)},
		} {
			if z := q.stats.ZScore(q.exact); z < -4 || z > 4 {
				t.Errorf("%s: %s %s ± %s is %.1f standard errors from the exact %s",
					tc.name, q.what, montecarlo.Decimal(q.stats.Estimate), montecarlo.Decimal(q.stats.StdError), z, q.exact.Text('g', 20))
			}
			wrong := new(big.Float).Mul(q.exact, big.NewFloat(1.1))
			if z := q.stats.ZScore(wrong); z > -4 && z < 4 {
				t.Errorf("%s: %s %s ± %s cannot tell the exact %s from 10%% more (z = %.1f): too few samples",
					tc.name, q.what, montecarlo.Decimal(q.stats.Estimate), montecarlo.Decimal(q.stats.StdError), q.exact.Text('g', 20), z)
			}
		}
	}
}

// TestEstimateCountReproducible checks that the estimate depends on the
// seed and the sample count only, not on the number of workers.
func TestEstimateCountReproducible(t *testing.T) {
	g := parse(t, strings.Repeat(".", 81), grid.Shape{R: 3, C: 3})
	a, err1 := forecast.EstimateCount(context.Background(), g, 3, 2500, 1)
	b, err2 := forecast.EstimateCount(context.Background(), g, 3, 2500, 2)
	c, err3 := forecast.EstimateCount(context.Background(), g, 4, 2500, 2)
	if err1 != nil || err2 != nil || err3 != nil {
		t.Fatal(err1, err2, err3)
	}
	if a.Completions.Estimate.Cmp(b.Completions.Estimate) != 0 || a.OuterNodes.Estimate.Cmp(b.OuterNodes.Estimate) != 0 {
		t.Errorf("1 worker: %v, %v; 2 workers: %v, %v", a.Completions.Estimate, a.OuterNodes.Estimate, b.Completions.Estimate, b.OuterNodes.Estimate)
	}
	if a.Completions.Estimate.Cmp(c.Completions.Estimate) == 0 {
		t.Errorf("seeds 3 and 4 gave the same estimate %v", a.Completions.Estimate)
	}
}

// TestEstimateCountClash checks that clashing givens reach the caller.
func TestEstimateCountClash(t *testing.T) {
	g := parse(t, "1..1"+strings.Repeat(".", 12), grid.Shape{R: 2, C: 2})
	if _, err := forecast.EstimateCount(context.Background(), g, 1, 10, 1); !errors.Is(err, grid.ErrClash) {
		t.Errorf("clashing givens: %v, want a clash error", err)
	}
}
