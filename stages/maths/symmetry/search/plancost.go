package search

import (
	"math"

	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry"
)

// PlanCost returns, for each relabelling type λ of e (SigmaTypes order),
// the estimated number of search nodes of the cheapest plan Fixed would
// choose, over e's band and stack conjugates and the three cell orders,
// each estimated by Knuth's random probes (probes of them; Fixed uses 256).
// It counts nothing: it is the planner's view of a class's cost, for
// surveys of shapes the search cannot finish.
func PlanCost(s symmetry.Shape, e symmetry.Element, probes int) ([][]int, []float64) {
	problems := []*problem{newProblem(s, e)}
	for _, x := range conjugates(s, e)[1:] {
		problems = append(problems, newProblem(s, x))
	}
	lams := problems[0].sigmaTypes()
	costs := make([]float64, len(lams))
	for i, lam := range lams {
		best := math.Inf(1)
		for _, p := range problems {
			for _, order := range p.orders() {
				sv := newSolver(nil, p, lam, order)
				if _, c := sv.planProbes(probes); c < best {
					best = c
				}
			}
		}
		costs[i] = best
	}
	return lams, costs
}

// planProbes estimates both search trees with the given number of probes
// and returns the split k with the least estimated cost (the nodes of both
// searches) and that cost.
func (s *solver) planProbes(probes int) (int, float64) {
	s.estimate(probes)
	best, bestCost := s.m, -1.0
	for k := s.r0; k <= s.m; k++ {
		if s.estB[k] > tableLimit/2 {
			continue
		}
		cost := 0.0
		for d := s.r0; d <= k; d++ {
			cost += s.estA[d]
		}
		for d := k; d <= s.m; d++ {
			cost += s.estB[d]
		}
		if bestCost < 0 || cost < bestCost {
			best, bestCost = k, cost
		}
	}
	return best, bestCost
}
