package grid

import "math/bits"

// Path is one random root-to-leaf path of the counter's search tree, as
// Probe walks it: the number of children (the branching factor) of every
// node on the path, in order.
type Path struct {
	// Outer holds the branching factors of the outer search nodes on the
	// path. A final 0 marks a dead end (an outer cell without candidates);
	// otherwise the path reached the outer leaf, where every outer cell is
	// filled, one node deeper than the last entry.
	Outer []uint8
	// Tail holds, after an outer leaf, the branching factors of the tail
	// search, ending in the number of candidates of the last tail cell (the
	// completions under that node) or in a 0 at a dead end. It is empty
	// when the path ended in the outer search or the grid has no tail.
	Tail []uint8
}

// Probe walks one random path down the tree Count searches and records it
// in p. At every node it branches on the cell Count branches on (the same
// tail, the same most constrained cell, the same tie rule: see bringForward)
// and takes each child with probability 1/k, k being the node's branching
// factor: uniform(k) must return a uniform integer in [0, k). It leaves the
// grid as it found it.
//
// With k₀, k₁, … the factors on the path (p.Outer then p.Tail), two
// unbiased estimators follow (Knuth 1975):
//
//   - completions ≈ Π kᵢ over p.Outer and p.Tail (0 after a dead end). A
//     completion ℓ is reached with probability Π 1/kᵢ along its path and
//     then scores Π kᵢ; every other path scores 0; so the expectation is
//     Σ_ℓ 1, the number of completions.
//   - outer search nodes ≈ Σ_{d=0}^{L} Π_{i<d} kᵢ over the L = len(p.Outer)
//     outer factors (the term d = L vanishes after a dead end, as it
//     should: the path has no node there). A node at depth d is on the path
//     with probability Π_{i<d} 1/kᵢ, so the term for depth d has
//     expectation the number of nodes at depth d, and the sum the number of
//     nodes of the outer tree: what Counter.OuterNodes counts for Count.
//
// Past the outer leaf, Count takes the tail's count from its memo or counts
// it exactly. The probe does not: it carries on the random walk through the
// tail search, branching as searchTail does, which costs one pass over the
// tail's cells per step, whereas an exact tail count per probe would cost
// up to a whole band search (for 25×25, 125 cells: far too much to repeat
// thousands of times). The price is variance, not bias. So a probe costs
// O(cells²) candidate look-ups, a few hundred thousand for 25×25.
//
// Count's tree is a function of the grid alone (the outer cells still empty
// are kept in reading order and ties go to the first), so the probe and any
// count, parallel or not, agree on it; the tail's order is permuted by
// swaps as in searchTail, which only matters for the tail's own shape, not
// for the completion estimate.
func (c *Counter) Probe(uniform func(k uint64) uint64, p *Path) {
	p.Outer, p.Tail = p.Outer[:0], p.Tail[:0]
	c.prepare(c.chooseTail())
	placed := 0 // outer[:placed] are filled by this probe
	defer func() {
		for _, cell := range c.outer[:placed] {
			c.Unplace(int(cell))
		}
	}()
	for d := range c.outer {
		best, set := c.mostConstrained(c.outer, d)
		k := bits.OnesCount64(set)
		p.Outer = append(p.Outer, uint8(k))
		if k == 0 {
			return
		}
		cell := c.bringForward(d, best)
		c.Place(cell, pickSymbol(set, uniform(uint64(k))))
		placed++
	}
	if len(c.tail) == 0 {
		return
	}
	// countTail's shortcut: a tail cell without candidates makes the tail
	// a dead end before its search starts.
	for _, cell := range c.tail {
		if c.Candidates(int(cell)) == 0 {
			p.Tail = append(p.Tail, 0)
			return
		}
	}
	tailPlaced := 0
	defer func() {
		for _, cell := range c.tail[:tailPlaced] {
			c.Unplace(int(cell))
		}
	}()
	for d := range c.tail {
		if d == len(c.tail)-1 {
			// searchTail's leaf: the last cell takes any of its candidates.
			p.Tail = append(p.Tail, uint8(bits.OnesCount64(c.Candidates(int(c.tail[d])))))
			return
		}
		best, set := c.mostConstrained(c.tail, d)
		k := bits.OnesCount64(set)
		p.Tail = append(p.Tail, uint8(k))
		if k == 0 {
			return
		}
		c.tail[d], c.tail[best] = c.tail[best], c.tail[d]
		cell := int(c.tail[d])
		c.Place(cell, pickSymbol(set, uniform(uint64(k))))
		tailPlaced++
	}
}

// pickSymbol returns the symbol of the i-th (from 0) candidate in set (as
// montecarlo.NthBit does, which grid cannot import: montecarlo imports grid).
func pickSymbol(set, i uint64) uint8 {
	for ; i > 0; i-- {
		set &= set - 1
	}
	return uint8(bits.TrailingZeros64(set) + 1)
}
