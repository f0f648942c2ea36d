package forecast

import (
	"context"
	"fmt"
	"math/big"
	"math/rand/v2"
	"sync/atomic"
	"time"

	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
	"github.com/sudoku-census/sudoku-census/stages/maths/montecarlo"
	"github.com/sudoku-census/sudoku-census/stages/maths/parallel"
)

// ProbeValues returns the two estimates of one probe path (see
// grid.Counter.Probe, which argues their unbiasedness): the completions
// Π kᵢ over every factor of the path, and the outer search nodes
// Σ_{d=0}^{L} Π_{i<d} kᵢ over its L outer factors.
func ProbeValues(p *grid.Path) (completions, outerNodes montecarlo.Value) {
	prod := montecarlo.One
	for _, k := range p.Outer {
		outerNodes = outerNodes.Add(prod)
		prod = prod.MulInt(uint64(k))
	}
	outerNodes = outerNodes.Add(prod) // depth L: the outer leaf, 0 after a dead end
	for _, k := range p.Tail {
		prod = prod.MulInt(uint64(k))
	}
	return prod, outerNodes
}

// CountEstimate is what EstimateCount finds: the mean and 95% interval of
// the completions and of the nodes of the outer search tree of a grid.
type CountEstimate struct {
	Completions montecarlo.Stats
	OuterNodes  montecarlo.Stats
}

// probeBlock is the block size of probe runs: part of the seeding, so fixed.
const probeBlock = 1000

// MaxSamples is the most probes EstimateCount draws: 10^8, 10^5 blocks
// whose results it keeps (a few MB), and hours of probing on a large grid.
const MaxSamples = 100_000_000

// ProbeSpec is the Spec whose streams the probes of a grid of this shape
// draw from, given the seed: the same seed and sample count give the same
// estimate whatever the number of workers.
func ProbeSpec(seed uint64, shape grid.Shape) montecarlo.Spec {
	return montecarlo.Spec{Seed: seed, Stage: "count", Shape: shape.String(), Variant: "probe", BlockSize: probeBlock}
}

// probeSampler is a montecarlo.Sampler of completions that keeps, on the
// side, the moments of the outer-node estimates of the block in progress
// (the same probes give both).
type probeSampler struct {
	c       *grid.Counter
	path    grid.Path
	src     *rand.ChaCha8
	uniform func(uint64) uint64
	nodes   montecarlo.Moments
}

func newProbeSampler(g grid.Grid) (*probeSampler, error) {
	c, err := grid.NewCounter(g.Shape)
	if err != nil {
		return nil, err
	}
	if err := c.Load(g.Cells); err != nil {
		return nil, err
	}
	s := &probeSampler{c: c}
	s.uniform = func(k uint64) uint64 { return montecarlo.Uniform(s.src, k) }
	return s, nil
}

func (s *probeSampler) StartBlock() error {
	s.nodes = montecarlo.Moments{}
	return nil
}

func (s *probeSampler) Sample(src *rand.ChaCha8) (montecarlo.Value, int64, error) {
	s.src = src
	s.c.Probe(s.uniform, &s.path)
	completions, nodes := ProbeValues(&s.path)
	work := int64(len(s.path.Outer) + len(s.path.Tail))
	s.nodes.Add(nodes, work)
	return completions, work, nil
}

// EstimateCount draws samples probes of g's search tree (grid.Counter.Probe)
// on workers goroutines and returns the means with their 95% intervals.
// The probes of block b draw from ProbeSpec(seed, shape).Source(b) and the
// blocks are merged in order, so the result depends on seed and samples
// only. Givens that clash give grid.Load's error. It stops with ctx's cause
// within one probe of ctx being done.
func EstimateCount(ctx context.Context, g grid.Grid, seed uint64, samples int64, workers int) (CountEstimate, error) {
	if samples < 1 || samples > MaxSamples {
		return CountEstimate{}, fmt.Errorf("%d probes: want from 1 to %d", samples, MaxSamples)
	}
	if _, err := newProbeSampler(g); err != nil {
		return CountEstimate{}, err
	}
	spec := ProbeSpec(seed, g.Shape)
	nblocks := int((samples + probeBlock - 1) / probeBlock)
	completions := make([]montecarlo.Block, nblocks)
	nodes := make([]montecarlo.Block, nblocks)
	var next atomic.Int64
	err := parallel.Run(min(workers, nblocks), func(int) error {
		s, err := newProbeSampler(g)
		if err != nil {
			return err
		}
		for {
			b := int(next.Add(1) - 1)
			if b >= nblocks {
				return nil
			}
			n := int(min(probeBlock, samples-int64(b)*probeBlock))
			if completions[b], err = montecarlo.RunBlock(ctx, spec, b, n, s); err != nil {
				return err
			}
			nodes[b].Moments = s.nodes
		}
	})
	if err != nil {
		return CountEstimate{}, err
	}
	return CountEstimate{
		Completions: montecarlo.MergeBlocks(completions).Total.Stats(),
		OuterNodes:  montecarlo.MergeBlocks(nodes).Total.Stats(),
	}, nil
}

// Calibration is the start of an exact count of a grid, cut short by a
// time limit: how many outer nodes it visited in how long, or the exact
// count when it finished in time.
type Calibration struct {
	Count   *big.Int   // the exact count if it finished within the limit, else nil
	Nodes   grid.Nodes // search nodes visited
	Elapsed time.Duration
}

// Calibrate runs the exact count of g (grid.Grid.CountNodes, with workers
// goroutines as the real count would use) for at most limit. An error of
// the count other than the limit, such as clashing givens or ctx being
// cancelled, is returned as is.
func Calibrate(ctx context.Context, g grid.Grid, workers int, limit time.Duration) (Calibration, error) {
	cctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	start := time.Now()
	count, nodes, err := g.CountNodes(cctx, workers)
	cal := Calibration{Count: count, Nodes: nodes, Elapsed: time.Since(start)}
	if err != nil && (ctx.Err() != nil || cctx.Err() == nil) {
		return Calibration{}, err
	}
	return cal, nil
}

// Prediction is the predicted time of an exact count, in seconds: a
// range from Warm to Cold, and a 95% interval from Low to High.
type Prediction struct {
	Warm, Cold float64 // at the point estimate of the outer nodes
	Low, High  float64 // Warm at the nodes' 95% lower bound, Cold at the upper
}

// Predict turns the estimated outer search tree into time, by the speed of
// the calibration, which visited n_o outer and n_t tail nodes in T seconds:
//
//	Cold = N ÷ (n_o/T)          Warm = N ÷ ((n_o + n_t)/T)
//
// for N outer nodes. Most of a count's time goes into tail searches, run
// when a tail misses the memo, and the calibration sees the memo cold: at
// its start nearly every outer leaf misses, later ones mostly hit. Cold
// assumes the whole count runs at the calibration's pace, misses and all;
// Warm assumes every tail comes from the memo and a node of any kind costs
// the same, so that the outer nodes alone, at the calibration's nodes per
// second, take the time. A long count ends between the two, nearer Warm:
// the 9×9 grid with only its first band filled (170 million outer nodes)
// was predicted 6 s to 7 min on two busy cores and took 11 s. The range
// ignores further that the first subtrees, which the calibration sees,
// need not cost what the average one does, that the memo starts afresh
// when full, and the error of the rates themselves; Low and High widen it
// by the error of N only.
func Predict(nodes montecarlo.Stats, cal Calibration) Prediction {
	t := max(cal.Elapsed.Seconds(), 1e-9)
	outerRate := float64(max(cal.Nodes.Outer, 1)) / t
	nodeRate := float64(max(cal.Nodes.Outer+cal.Nodes.Tail, 1)) / t
	f := func(x *big.Float) float64 {
		v, _ := x.Float64() // ±Inf beyond float64, which reads as "too long"
		return v
	}
	return Prediction{
		Warm: f(nodes.Estimate) / nodeRate, Cold: f(nodes.Estimate) / outerRate,
		Low: f(nodes.CILow) / nodeRate, High: f(nodes.CIHigh) / outerRate,
	}
}
