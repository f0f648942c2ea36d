// Package pair counts the Sudoku grids whose boxes have 2 rows and c
// columns (side n = 2c; the count is the same for boxes of c rows and 2
// columns, the transpose) by the pair method, reduced by symmetry and with
// a fast stack count. It imports the standard library and the maths
// packages pairstacks (the stack count E) and parallel only.
//
// # The pair method
//
// The grid has two stacks (vertical columns of boxes) and c bands (2-row
// strips of boxes). In the left stack, row 2i, the upper row of band i,
// holds some c-set s_i of the n symbols and row 2i+1 holds its complement.
// The rows of the right stack hold the complements of the left stack's rows,
// and any right stack whose rows hold those sets completes the grid. Writing
// E(σ) for the number of stacks (n rows × c columns, each column holding
// every symbol once, each box every symbol once) whose rows hold the sets
// σ = (s_0, …, s_{c-1}), and noting that exchanging the two rows of every
// band maps the stacks of the complemented sets one to one onto those of σ,
//
//	grids = Σ_σ E(σ)²,
//
// summed over the C(n, c)^c tuples σ.
//
// E(σ) does not change when the symbols are relabelled, so it depends only on
// the multiset T of the symbols' patterns: the pattern of symbol x is the
// c-bit word whose bit i is 1 when x ∈ s_i, and each bit is 1 in exactly c of
// the n patterns. The tuples σ with pattern multiset T number n!/Π_p m_p!,
// with m_p the multiplicity of pattern p in T, so
//
//	grids = Σ_T n!/Π_p m_p! · E(T)².
//
// # Symmetry
//
// E(T) is also unchanged when the bands are permuted (this permutes the
// bits of every pattern) and when the two rows of band i are exchanged (this
// complements bit i of every pattern). These maps form the hyperoctahedral
// group B_c = Z_2 ≀ S_c, of order c!·2^c (3,840 for c = 5), acting on
// patterns by p ↦ π(p) ⊕ m. Its orbits on the multisets T partition the sum:
//
//	grids = Σ_O W(O) · E(rep O)²,   W(O) = Σ_{T ∈ O} n!/Π_p m_p!,
//
// where every member of an orbit has the same multiplicities up to order, so
// W(O) = |O| · n!/Π_p m_p! and |O| = |B_c| / |Stab(T)|. The representative
// of an orbit is its least member, comparing multisets as sorted lists of
// patterns lexicographically. There are 1, 2, 4, 26, 355 and 63,199 orbits
// for c = 1, …, 6 (against 1, 3, 28, 1,450, 589,392 and 2,284,361,552
// multisets); NumOrbits and NumMultisets count them by Burnside's lemma.
//
// # Listing the orbits
//
// Orbits lists the representatives by orderly generation, without meeting
// the other multisets: it grows sorted lists one pattern at a time and keeps
// a list only if it is the least member of its own orbit. Deleting the
// largest pattern of a least list leaves a least list, so every
// representative is reached, once, through least prefixes. The test of a
// prefix is a search over the group that leaves each branch at the first
// pattern where the image's multiplicities differ. For c = 6 it meets a few
// million prefixes and lists the 63,199 orbits in about 4 s, where walking
// the 2.3·10⁹ multisets was out of reach.
//
// # Counting stacks
//
// E(T) is the number of proper c-edge-colourings of a c-regular bipartite
// graph of symbols and rows, and package pairstacks counts it, by a dynamic
// programme over the symbols whose states are the multisets of the columns'
// row sets (StackCounter: the reference, behind Stacks, StackCounts and Sum)
// or by its faster split-and-join kernel, which Count, NewPlan and the
// shapes stage use. The kernel cuts T into two halves, builds a table for
// each and joins them; an element g of B_c permutes the rows by some ρ_g and
// maps the table of a half H to that of g(H), so one table per canonical
// half (canonicalWith) serves every half of its class, and the 2 × 63,199
// halves of c = 6 fall into 1,618 classes: the kernel builds each class's
// table once and joins two of them through ρ_{g_B}∘ρ_{g_A}⁻¹. The tables of
// c = 6 take about 50 GB in all; the Plan orders the orbits by their half
// with the larger table, largest first, so that a cache of a tenth of that
// builds each table about once.
//
// # Work units
//
// Orbits lists the orbits in a fixed order, each with its representative
// (serialisable by Orbit.String and ParseOrbit) and weight; Term computes
// W·E² for one orbit and Sum for a list of orbits by the full DP. NewPlan
// puts the orbits in the kernel's order, and Plan.Sum adds the terms of a
// range of it; both add in list order, so the result does not depend on the
// number of workers. KernelVersion names the plan's split and order: a work
// unit is a range of the plan, so a unit computed under another version is
// another unit.
//
// # Beyond 2×6: the 2×7 projection
//
// Nobody has counted 2×7 (14×14). By this method it has 155,473,418
// orbits (c = 7, exact: Burnside's lemma over the 95,810,590,463,936
// pattern multisets and B_7 of order 645,120, 40 CPU-s; the counter
// reproduces 26, 355 and 63,199 for c = 4, 5, 6), 2,460 times 2×6's.
// The kernel stops at c = 6 (a state in 60 bits), so no c = 7 stack count
// is timed: TestProject2x7 measures the half tables instead. Their mean
// size grows 11, 95 and 676 times from c = 3 to 6 (1.75, 19.8 and 1,876
// states, every class; 1.27·10⁶ ± 0.61·10⁶ for c = 6 over 40 classes drawn
// with seed 1), and 2×6 took 0.208 CPU-s an orbit (the bundle's 13,141 s),
// 164 ns per state of a mean table. Keeping that rate, and extrapolating
// the mean table log-linearly from the last step (8.6·10⁸ states) or
// log-quadratically through c = 4, 5, 6 (6.1·10⁹), 2×7 would take 141 or
// 1,000 CPU-s an orbit: 6.1·10⁶ [3.2·10⁶, 9.0·10⁶] or 4.3·10⁷ [1.2·10⁷,
// 9.5·10⁷] CPU-hours (the brackets from c = 6's sample interval only), so
// 350 to 2,500 years on this 2-core machine and 0.7 to 5 years on 1,000
// cores with the orbits as units. The largest table, extrapolated the
// same way from 83, 12,053 and 7.2·10⁶ states (c = 6's the sample's
// largest), would hold 4·10⁹ to 2·10¹⁰
// states of 24 bytes (six 14-bit row sets): 0.1 to 0.4 TB in one process
// before its build's hash layers, against 13.8 GB at 2×6. The figures
// past c = 6 are extrapolations, not measurements. To reproduce (about 3
// minutes, 1.2 GB):
//
//	SURVEY_2X7=1 GOMAXPROCS=1 go test -run TestProject2x7 -v -timeout 1h ./stages/maths/pair
package pair
