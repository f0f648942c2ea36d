package bandjoin

import (
	"context"
	"math"
	"math/bits"
	"math/rand/v2"
	"time"

	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry"
)

// Estimate is a projection of one σ type's count and cost from random
// probes: each probe descends the first band orbits at random, weighted by
// the product of the branchings (Knuth's estimator), and counts the rest
// exactly, timed. Each figure is the mean over the probes with the
// half-width of its 95% interval (1.96 standard errors).
type Estimate struct {
	Probes            int
	Fixed, FixedCI    float64 // #{X : X∘e = σ∘X}/|Z(σ)|
	Nodes, NodesCI    float64 // search nodes of the whole count
	Seconds, SecCI    float64 // CPU-seconds of the whole count, one core
	ExactSeconds      float64 // time spent in the exact parts, all probes
	ExactFrom, Orbits int
	// Fillings[k] (± FillingsCI[k]): the fillings of band orbits 0…k, for
	// k < ExactFrom; every one is a node of the search, the memo below them
	// notwithstanding.
	Fillings, FillingsCI []float64
}

// ProjectType estimates FixedType(s, e, lam) from probes probes seeded by
// seed: the band orbits before exactFrom are descended at random, those
// from exactFrom on counted exactly (memo kept within a probe only, as in a
// unit of work run alone).
func ProjectType(ctx context.Context, s symmetry.Shape, e symmetry.Element, lam []int, probes, exactFrom int, seed uint64) (Estimate, error) {
	p, err := newProblem(ctx, s, e, lam, 0)
	if err != nil {
		return Estimate{}, err
	}
	if exactFrom < 1 || exactFrom > len(p.orbits) {
		exactFrom = len(p.orbits)
	}
	rng := rand.New(rand.NewPCG(seed, 0x62616e646a6f696e))
	est := Estimate{Probes: probes, ExactFrom: exactFrom, Orbits: len(p.orbits)}
	var fx, nd, sc [3]float64 // Σ1, Σv, Σv² per figure
	lv := make([][3]float64, exactFrom)
	add := func(a *[3]float64, v float64) { a[0]++; a[1] += v; a[2] += v * v }
	for range probes {
		if err := ctx.Err(); err != nil {
			return est, err
		}
		for i := range p.memo {
			p.memo[i] = map[string]uint64{}
		}
		weight, fill, path, value, nodes, secs := p.probe(rng, exactFrom)
		if p.err != nil {
			return est, p.err
		}
		est.ExactSeconds += secs
		add(&fx, weight*float64(value))
		add(&nd, weight*float64(nodes)+path)
		add(&sc, weight*secs)
		for k := range lv {
			add(&lv[k], fill[k])
		}
	}
	mean := func(a [3]float64) (float64, float64) {
		m := a[1] / a[0]
		v := (a[2]/a[0] - m*m) * a[0] / math.Max(a[0]-1, 1)
		return m, 1.96 * math.Sqrt(math.Max(v, 0)/a[0])
	}
	est.Fixed, est.FixedCI = mean(fx)
	est.Nodes, est.NodesCI = mean(nd)
	est.Seconds, est.SecCI = mean(sc)
	for k := range lv {
		m, ci := mean(lv[k])
		est.Fillings, est.FillingsCI = append(est.Fillings, m), append(est.FillingsCI, ci)
	}
	return est, nil
}

// probe descends at random to the end of band orbit exactFrom−1 and counts
// the rest exactly; it returns the weight of the leaf reached (0 at a dead
// end), its weight at the end of each band orbit descended, the estimated
// nodes above it, the exact count, its nodes and seconds.
func (p *problem) probe(rng *rand.Rand, exactFrom int) (weight float64, fill []float64, path float64, value, nodes uint64, secs float64) {
	mark := len(p.trail)
	defer func() {
		p.undo(mark)
		for i := range p.opened {
			p.opened[i] = false
		}
	}()
	weight, fill = 1, make([]float64, exactFrom)
	for o := 0; o < exactFrom; o++ {
		for _, cell := range p.orbits[o] {
			if p.grid[cell] != empty {
				continue
			}
			path += weight
			var cands []int
			if o == 0 && cell < p.n {
				cands = p.firstRowChoices(p.rowM[0])
			} else {
				free := ^(p.rowM[cell/p.n] | p.colM[cell%p.n] | p.boxM[p.box(cell)]) & (1<<p.n - 1)
				for free != 0 {
					cands = append(cands, bits.TrailingZeros32(free))
					free &= free - 1
				}
			}
			var ok []int
			for _, x := range cands {
				m := len(p.trail)
				if p.place(cell, x) {
					ok = append(ok, x)
				}
				p.undo(m)
			}
			if len(ok) == 0 {
				return 0, fill, path, 0, 0, 0
			}
			x := ok[rng.IntN(len(ok))]
			p.opened[p.cycleOf[x]] = true // only read on the first row
			p.place(cell, x)
			weight *= float64(len(ok))
		}
		fill[o] = weight
	}
	before := p.nodes
	t0 := time.Now()
	value = p.next(exactFrom)
	return weight, fill, path, value, p.nodes - before, time.Since(t0).Seconds()
}
