package stackjoin

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/sudoku-census/sudoku-census/pipeline/pipelinetest"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/perm"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/search"
)

// knuthProbe is one random descent of the first stack cycle's enumeration
// (a first-row representative drawn uniformly, then at each orbit one of
// the values fill would try, drawn uniformly), each figure multiplied by
// the product of the branchings: an unbiased estimate of the whole
// enumeration's (Knuth's estimator).
type knuthProbe struct {
	nodes   float64 // first-cycle nodes
	units   float64 // canonical first-cycle configurations (Project's units)
	seconds float64 // CPU-seconds of the count below the units
	sum     float64 // Σ_Q |Z·Q|·S(Q), the σ type's #{X : X∘g = σ∘X}
	// partial: the count below the unit reached was cut at its time limit;
	// seconds is then a lower bound
	partial bool
}

// knuthProbe descends from a random first row to a complete first cycle
// and, when count, counts below it exactly (complete), timed, within
// limit: a count cut there gives the time so far, a lower bound.
func (w *walker) knuthProbe(rng *rand.Rand, reps [][]uint16, sizes []int, count bool, limit time.Duration) (pr knuthProbe) {
	qi := rng.IntN(len(reps))
	defer w.clearFirstRow(reps[qi])
	if !w.setFirstRow(reps[qi]) {
		return pr
	}
	// each representative is run once (sum weighs its count by its orbit)
	weight := float64(len(reps))
	mark := len(w.path)
	defer func() {
		for i := len(w.path) - 1; i >= mark; i-- {
			w.unassign(&w.orbits[w.path[i].orbit])
		}
		w.path = w.path[:mark]
	}()
	last := w.last[0]
	for o := 0; ; {
		for o < last && w.config[w.orbits[o].stack[0]][w.orbits[o].row[0]] != 0 {
			o++
		}
		if o == last {
			break
		}
		pr.nodes += weight
		ob := &w.orbits[o]
		t, r := ob.stack[0], ob.row[0]
		free := w.full &^ (w.rowUsed[r] | w.boxUsed[t][r/w.p.r])
		var ok []uint16
		for _, a := range w.subsetsOf(free) {
			if !w.assign(ob, a) {
				continue
			}
			if w.prefixLeast() {
				ok = append(ok, a)
			}
			w.unassign(ob)
		}
		if len(ok) == 0 {
			return pr
		}
		a := ok[rng.IntN(len(ok))]
		w.assign(ob, a)
		w.path = append(w.path, choice{o, a})
		weight *= float64(len(ok))
		o++
	}
	if _, ok := w.canonical(w.config[w.p.cycles[0][0]]); !ok {
		return pr
	}
	pr.units = weight
	if !count {
		return pr
	}
	outer := w.ctx
	ctx, cancel := context.WithTimeout(outer, limit)
	defer func() { cancel(); w.ctx = outer }()
	w.ctx = ctx
	t0 := time.Now()
	w.acc[0].SetInt64(0)
	w.complete(0)
	pr.seconds = weight * time.Since(t0).Seconds()
	if errors.Is(w.err, context.DeadlineExceeded) {
		pr.partial, w.err = true, nil
		return pr
	}
	if w.err != nil {
		return pr
	}
	f, _ := new(big.Float).SetInt(w.acc[0]).Float64()
	pr.sum = weight * float64(sizes[qi]) * f
	return pr
}

// meanCI is the mean of xs and the half-width of its 95% interval (1.96
// standard errors).
func meanCI(xs []float64) (float64, float64) {
	var s, s2 float64
	for _, x := range xs {
		s += x
		s2 += x * x
	}
	n := float64(len(xs))
	m := s / n
	v := (s2/n - m*m) * n / math.Max(n-1, 1)
	return m, 1.96 * math.Sqrt(math.Max(v, 0)/n)
}

// TestKnuthProject projects the cost of Fixed on the classes
// STACKJOIN_CLASSES of the shape STACKJOIN_KNUTH by Knuth's estimator
// (knuthProbe), probes drawn with seed 1, σ type by σ type in turn, for
// STACKJOIN_KNUTH_SECONDS (default 240) per class: the first quarter of
// that time descends the first stack cycle only (its nodes and units), the
// rest also counts below each unit reached, cut after
// STACKJOIN_KNUTH_UNIT_SECONDS (default 60): with a cut the CPU time is a
// lower bound. Each count shares the process's stack counts, as a run's
// units do. It logs per σ type and per class each figure's mean with its
// 95% interval, and the F estimated (to compare with the stage's): a
// survey, skipped by default.
func TestKnuthProject(t *testing.T) {
	s, ok := envShape("STACKJOIN_KNUTH")
	if !ok {
		t.Skip("set STACKJOIN_KNUTH=RxC and STACKJOIN_CLASSES")
	}
	limit := time.Duration(pipelinetest.EnvInt(t, "STACKJOIN_KNUTH_SECONDS", 240)) * time.Second
	unitLimit := time.Duration(pipelinetest.EnvInt(t, "STACKJOIN_KNUTH_UNIT_SECONDS", 60)) * time.Second
	g, classes := envClasses(t, s)
	for _, i := range classes {
		cl := g.Classes[i]
		p := newProblem(s, cl.Rep)
		lams := search.SigmaTypes(s, cl.Rep)
		rng := rand.New(rand.NewPCG(1, uint64(i)))
		var st Stats
		st.Stacks = make([]uint64, len(p.cycles))
		st.Nonzero = make([]uint64, len(p.cycles))
		st.Distinct = make([]int, len(p.cycles))
		walkers := make([]*walker, len(lams))
		reps, sizes := make([][][]uint16, len(lams)), make([][]int, len(lams))
		for li, lam := range lams {
			walkers[li] = newWalker(context.Background(), p, lam, 0, &st)
			reps[li], sizes[li] = walkers[li].firstRows()
		}
		// descents[li], counts[li]: the probes of phases 1 and 2
		descents, counts := make([][]knuthProbe, len(lams)), make([][]knuthProbe, len(lams))
		t0 := time.Now()
		cuts := 0
		for phase, until := range []time.Duration{limit / 4, limit} {
			for time.Since(t0) < until {
				for li := range lams {
					pr := walkers[li].knuthProbe(rng, reps[li], sizes[li], phase == 1, min(unitLimit, max(until-time.Since(t0), time.Second)))
					if err := walkers[li].err; err != nil {
						t.Fatal(err)
					}
					if phase == 0 {
						descents[li] = append(descents[li], pr)
						continue
					}
					counts[li] = append(counts[li], pr)
					if pr.partial {
						cuts++
					}
				}
			}
		}
		var fSum, fVar, sSum, sVar, uSum, uVar, nSum, nVar float64
		for li, lam := range lams {
			col := func(prs []knuthProbe, f func(knuthProbe) float64) (float64, float64) {
				xs := make([]float64, len(prs))
				for k, pr := range prs {
					xs[k] = f(pr)
				}
				return meanCI(xs)
			}
			z, _ := new(big.Float).SetInt(perm.Centralizer(lam)).Float64()
			all := append(slices.Clone(descents[li]), counts[li]...)
			nodes, nodesCI := col(all, func(pr knuthProbe) float64 { return pr.nodes })
			units, unitsCI := col(all, func(pr knuthProbe) float64 { return pr.units })
			secs, secsCI := col(counts[li], func(pr knuthProbe) float64 { return pr.seconds })
			var whole []knuthProbe // F from the probes not cut
			for _, pr := range counts[li] {
				if !pr.partial {
					whole = append(whole, pr)
				}
			}
			f, fCI := col(whole, func(pr knuthProbe) float64 { return pr.sum / z })
			t.Logf("%v class %d σ %v: %d+%d probes: first-cycle nodes %.3g ± %.2g, units %.3g ± %.2g, CPU-s below them %.3g ± %.2g, F %.4g ± %.2g",
				s, i, lam, len(descents[li]), len(counts[li]), nodes, nodesCI, units, unitsCI, secs, secsCI, f, fCI)
			fSum, fVar = fSum+f, fVar+fCI*fCI
			sSum, sVar = sSum+secs, sVar+secsCI*secsCI
			uSum, uVar = uSum+units, uVar+unitsCI*unitsCI
			nSum, nVar = nSum+nodes, nVar+nodesCI*nodesCI
		}
		bound := ""
		if cuts > 0 {
			bound = fmt.Sprintf(", at least: %d counts cut after %v", cuts, unitLimit)
		}
		t.Logf("%v class %d (%s): first-cycle nodes %.3g ± %.2g, units %.3g ± %.2g, CPU-hours %.3g ± %.2g%s; F %.4g ± %.2g",
			s, i, cl.Desc, nSum, math.Sqrt(nVar), uSum, math.Sqrt(uVar), sSum/3600, math.Sqrt(sVar)/3600, bound, fSum, math.Sqrt(fVar))
	}
}
