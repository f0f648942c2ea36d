package walks

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"sort"
	"testing"
	"time"

	"github.com/sudoku-census/sudoku-census/pipeline/pipelinetest"
	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
	"github.com/sudoku-census/sudoku-census/stages/maths/montecarlo"
)

// relvarOf is the relative variance of the values given by their log10.
func relvarOf(logs []float64) float64 {
	mx := math.Inf(-1)
	for _, l := range logs {
		mx = max(mx, l)
	}
	var s, s2 float64
	for _, l := range logs {
		v := math.Pow(10, l-mx)
		s += v
		s2 += v * v
	}
	n := float64(len(logs))
	mean := s / n
	return (s2/n - mean*mean) / (mean * mean)
}

// pilotHybrid builds the stacks-hybrid estimator of shape for a tail pilot,
// drawing TAIL_PILOT_K columns a band (default 1).
func pilotHybrid(t *testing.T, shape string) (grid.Shape, *Stacks) {
	t.Helper()
	s, err := grid.ParseShapeUpTo(shape, MaxStacksSide)
	if err != nil {
		t.Fatal(err)
	}
	e, err := NewStacksHybrid(context.Background(), s, StacksHybridColumns)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.SetDraws(pipelinetest.EnvInt(t, "TAIL_PILOT_K", 1)); err != nil {
		t.Fatal(err)
	}
	return s, e
}

// TestTailPilotMatchings (TAIL_PILOT=1): the relative variance of one
// drawn-in-part matching weight on fixed band graphs, per degree.
func TestTailPilotMatchings(t *testing.T) {
	if os.Getenv("TAIL_PILOT") == "" {
		t.Skip("TAIL_PILOT=1")
	}
	for _, shape := range []string{"6x6"} {
		s, e := pilotHybrid(t, shape)
		src := montecarlo.Spec{Seed: 3}.Source(0)
		for g := 0; g < 3; g++ {
			w := e.drawGraphs(src)
			_ = w
			rest := append([]uint64(nil), e.graph[0]...)
			for d := s.R; d > 3; d-- {
				var logs []float64
				start := time.Now()
				dead := 0
				var keep []uint64
				for k := 0; k < 300; k++ {
					x := e.drawMatching(src, rest, montecarlo.One)
					if x.IsZero() {
						dead++
						logs = append(logs, -1000)
						continue
					}
					logs = append(logs, x.Log10())
					if keep == nil {
						keep = append([]uint64(nil), e.match...)
					}
				}
				t.Logf("%s graph %d degree %d: relvar %.3f, dead %d/300, %.2f ms a draw", shape, g, d, relvarOf(logs), dead, float64(time.Since(start).Microseconds())/300/1000)
				for j := range rest {
					rest[j] &^= keep[j]
				}
			}
		}
		if s.C == 6 {
			var logs []float64
			for k := 0; k < 3000; k++ {
				inv, _ := e.sampled.Draw(src, e.array)
				logs = append(logs, inv.Log10())
			}
			t.Logf("%s: one stack structure's weight 1/P: relvar %.3f", shape, relvarOf(logs))
		}
	}
}

// TestTailPilotSamples (TAIL_PILOT_SHAPE=6x5 TAIL_PILOT_N=200): whole
// samples split in log10 factors: structures, drawn columns' 1/P,
// pm(rest) of the memo, exact degree-3 colourings.
func TestTailPilotSamples(t *testing.T) {
	shape := os.Getenv("TAIL_PILOT_SHAPE")
	if shape == "" {
		t.Skip("TAIL_PILOT_SHAPE=6x5")
	}
	n := pipelinetest.EnvInt(t, "TAIL_PILOT_N", 200)
	s, e := pilotHybrid(t, shape)
	src := montecarlo.Spec{Seed: 7}.Source(0)
	// The drawn columns' 1/P and pm(rest) are anticorrelated halves of one
	// matching's weight: "matchings" is their product.
	names := []string{"structures", "matchings", "EC3", "total"}
	var rows [][4]float64
	dead := 0
	var ecTime, pmTime time.Duration
	for range n {
		var f [4]float64
		f[0] = e.drawGraphs(src).Log10()
		ok := true
		for b, g := range e.graph {
			rest := e.rest[b]
			copy(rest, g)
			for d := s.R; d > 3 && ok; d-- {
				st := time.Now()
				drawnLog, pmLog, live := e.drawMatchingSplit(src, rest)
				pmTime += time.Since(st)
				if !live {
					ok = false
					break
				}
				f[1] += drawnLog + pmLog
				for j := range rest {
					rest[j] &^= e.match[j]
				}
			}
			if !ok {
				break
			}
			st := time.Now()
			k, _ := e.exact(rest)
			ecTime += time.Since(st)
			f[2] += math.Log10(float64(k))
		}
		if !ok {
			dead++
			continue
		}
		f[3] = f[0] + f[1] + f[2]
		rows = append(rows, f)
	}
	n = len(rows)
	t.Logf("%s: %d dead ends (left out below)", shape, dead)
	t.Logf("%s: %d samples, matchings %.3f s, EC3 %.3f s a sample", shape, n, pmTime.Seconds()/float64(n), ecTime.Seconds()/float64(n))
	for i, name := range names {
		var logs []float64
		var mean float64
		for _, r := range rows {
			logs = append(logs, r[i])
			mean += r[i]
		}
		mean /= float64(n)
		var sd float64
		for _, r := range rows {
			sd += (r[i] - mean) * (r[i] - mean)
		}
		sd = math.Sqrt(sd / float64(n))
		t.Logf("  %-10s relvar %.3f, sd of log10 %.3f", name, relvarOf(logs), sd)
	}
	// The largest 5% of samples: their excess over the mean log10, per factor.
	sort.Slice(rows, func(i, j int) bool { return rows[i][3] > rows[j][3] })
	var means [4]float64
	for _, r := range rows {
		for i := range r {
			means[i] += r[i] / float64(n)
		}
	}
	top := max(1, n/20)
	for k := 0; k < top; k++ {
		var parts string
		for i := range names {
			parts += fmt.Sprintf(" %s %+.2f", names[i], rows[k][i]-means[i])
		}
		t.Logf("  top %d:%s", k, parts)
	}
	var logs []float64
	for _, r := range rows {
		logs = append(logs, r[3])
	}
	t.Logf("  total relvar %.3f", relvarOf(logs))
}

// drawMatchingSplit is drawMatching returning log10 of the drawn columns'
// weight and of pm(rest) apart.
func (e *Stacks) drawMatchingSplit(src *rand.ChaCha8, cols []uint64) (float64, float64, bool) {
	x := e.drawMatching(src, cols, montecarlo.One)
	if x.IsZero() {
		return 0, 0, false
	}
	pm := math.Log10(float64(e.pm.count(0)))
	return x.Log10() - pm, pm, true
}

// TestTailPilotRun (TAIL_RUN_SHAPE=6x5 TAIL_RUN_N=400 TAIL_RUN_K=8
// TAIL_RUN_EXACT=18 TAIL_RUN_SEED=1, GOMAXPROCS=1): a pilot of stackshybrid with k
// candidates: relvar with its bootstrap interval over blocks of 20, CPU
// seconds a sample (the tables built before, timed apart), k̂.
func TestTailPilotRun(t *testing.T) {
	shape := os.Getenv("TAIL_RUN_SHAPE")
	if shape == "" {
		t.Skip("TAIL_RUN_SHAPE=6x5")
	}
	n := int64(pipelinetest.EnvInt(t, "TAIL_RUN_N", 400))
	k := pipelinetest.EnvInt(t, "TAIL_RUN_K", 1)
	exact := pipelinetest.EnvInt(t, "TAIL_RUN_EXACT", StacksHybridColumns)
	seed := uint64(pipelinetest.EnvInt(t, "TAIL_RUN_SEED", 1))
	s, err := grid.ParseShapeUpTo(shape, MaxStacksSide)
	if err != nil {
		t.Fatal(err)
	}
	v := Variant{Name: "stackshybrid", Stacks: true, StacksExact: exact, StacksDraws: k, HybridK: s.N() * s.N()}
	start := cpuTime()
	if _, err := NewSampler(context.Background(), s, v); err != nil {
		t.Fatal(err)
	}
	setup := cpuTime() - start
	spec := montecarlo.Spec{Seed: seed, Stage: "tailpilot", Shape: shape, Variant: fmt.Sprintf("k%d.e%d", k, exact), BlockSize: 20, TailSize: montecarlo.ParetoTailSize(n)}
	start = cpuTime()
	blocks, err := montecarlo.RunBlocks(context.Background(), spec, n, 1, func() (montecarlo.Sampler, error) { return NewSampler(context.Background(), s, v) }, nil)
	if err != nil {
		t.Fatal(err)
	}
	perSample := (cpuTime() - start).Seconds() / float64(n)
	res := montecarlo.MergeBlocks(blocks)
	var moments []montecarlo.Moments
	for _, b := range blocks {
		moments = append(moments, b.Moments)
	}
	iv := montecarlo.BootstrapRelVar(spec, moments, montecarlo.BootstrapResamples)
	st := res.Total.Stats()
	d := res.Diagnostics()
	hours := func(goal float64) float64 {
		return st.RelVar * perSample * (montecarlo.Z95 / goal) * (montecarlo.Z95 / goal) / 3600
	}
	mant := new(big.Float)
	exp := st.Estimate.MantExp(mant)
	f, _ := mant.Float64()
	mean := math.Log10(f) + float64(exp)*math.Log10(2)
	t.Logf("%s k=%d exact=%d seed %d: %d samples, log10 mean %.5f, relvar %.3g [%.3g, %.3g], %.3f CPU-s a sample (setup %.1f s), k̂ %.2f; CPU-hours to ±1%% %.1f, ±5%% %.2f",
		shape, k, exact, seed, n, mean, st.RelVar, iv.Low, iv.High, perSample, setup.Seconds(), d.ParetoK, hours(0.01), hours(0.05))
}
