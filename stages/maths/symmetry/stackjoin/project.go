package stackjoin

import (
	"context"
	"errors"
	"math/big"
	"math/rand/v2"
	"time"

	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/perm"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/search"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/stackjoin/cyclic"
)

// Projection is the projected cost of Fixed for one element, measured by
// enumerating the canonical configurations of the first stack cycle (the
// units of work) and timing the count below a uniform sample of them.
type Projection struct {
	Units      uint64        // canonical first-cycle configurations, over σ types and first rows
	Sampled    int           // units timed
	Mean       time.Duration // mean time of a sampled unit
	Enumerate  time.Duration // time to enumerate the units, and to count the σ types package cyclic counts whole
	Projected  time.Duration // Enumerate + Units·Mean
	Partial    *big.Int      // the sampled units' weighted sum (for checks), not F
	SigmaTypes int
	// Truncated: the enumeration passed the budget; Units is then a lower
	// bound (the units met first) and the sample is drawn from them.
	Truncated bool
}

// Project enumerates the units of Fixed(ctx, s, e) (within budget nodes)
// and times the count below samples of them, drawn uniformly with a fixed
// seed. When the enumeration passes the budget it stops there and sets
// Truncated.
func Project(ctx context.Context, s symmetry.Shape, e symmetry.Element, budget uint64, samples int, seed uint64) (Projection, error) {
	var pr Projection
	p := newProblem(s, e)
	var st Stats
	st.Stacks = make([]uint64, len(p.cycles))
	st.Nonzero = make([]uint64, len(p.cycles))
	st.Distinct = make([]int, len(p.cycles))
	lams := search.SigmaTypes(s, e)
	pr.SigmaTypes = len(lams)
	pr.Partial = new(big.Int)
	type unit struct {
		lam  int
		q    int
		path []choice
	}
	rng := rand.New(rand.NewPCG(seed, 7))
	var kept []unit
	var total time.Duration
	for li, lam := range lams {
		if sigma := perm.WithCycleType(lam); cyclic.Applies(s, e, sigma) {
			// counted whole (FixedPart's part 0): no units, its time
			t0 := time.Now()
			if _, err := cyclic.Count(ctx, s, e, sigma); err != nil {
				return pr, err
			}
			pr.Enumerate += time.Since(t0)
			continue
		}
		w := newWalker(ctx, p, lam, budget, &st)
		reps, _ := w.firstRows()
		t0 := time.Now()
		for qi, q := range reps {
			if !w.setFirstRow(q) {
				w.clearFirstRow(q)
				continue
			}
			w.collect = func(uint64) {
				pr.Units++
				if len(kept) < samples {
					kept = append(kept, unit{li, qi, append([]choice(nil), w.path...)})
				} else if j := rng.Uint64N(pr.Units); j < uint64(samples) {
					kept[j] = unit{li, qi, append([]choice(nil), w.path...)}
				}
			}
			w.acc[0].SetInt64(0)
			w.fill(0)
			w.clearFirstRow(q)
			if w.err != nil {
				break
			}
		}
		pr.Enumerate += time.Since(t0)
		if errors.Is(w.err, ErrBudget) {
			pr.Truncated = true
			break
		}
		if w.err != nil {
			return pr, w.err
		}
	}
	// Time the sampled units from a cold start: no stack count kept from
	// another unit or the process (private).
	walkers := map[int]*walker{}
	for _, u := range kept {
		w := walkers[u.lam]
		if w == nil {
			w = newWalker(ctx, p, lams[u.lam], 0, &st)
			w.opt.private = true
			walkers[u.lam] = w
		}
		reps, _ := w.firstRows()
		t0 := time.Now()
		w.setFirstRow(reps[u.q])
		for _, c := range u.path {
			w.assign(&w.orbits[c.orbit], c.value)
		}
		w.acc[0].SetInt64(0)
		w.complete(0)
		for i := len(u.path) - 1; i >= 0; i-- {
			w.unassign(&w.orbits[u.path[i].orbit])
		}
		w.clearFirstRow(reps[u.q])
		total += time.Since(t0)
		if w.err != nil {
			return pr, w.err
		}
		pr.Partial.Add(pr.Partial, w.acc[0])
	}
	pr.Sampled = len(kept)
	if pr.Sampled > 0 {
		pr.Mean = total / time.Duration(pr.Sampled)
	}
	pr.Projected = pr.Enumerate + time.Duration(float64(pr.Mean)*float64(pr.Units))
	return pr, nil
}
