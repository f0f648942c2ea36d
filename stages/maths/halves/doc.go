// Package halves counts the Sudoku grids whose boxes have 3 rows and C
// columns (side 3C) by cutting the grid between two bands and joining the
// halves (issue 48's first phase: a prototype, measured). It imports the
// standard library and packages grid and pairstacks only.
//
// # The cut
//
// The grid has C bands of 3 rows. Cut it below band k = ⌈C/2⌉: column j's
// top part holds a set S_j of 3k symbols and its bottom part the other
// 3(C-k), and within each stack every symbol lies in exactly k of the C
// top parts (one per band). The signature S = (S_0, …, S_{3C-1}) therefore
// determines the bottom's column sets Sᶜ, and
//
//	grids = Σ_S H_k(S) · H_{C-k}(Sᶜ),
//
// where H_k(S) counts the 3k × 3C arrays of k bands (every row and box a
// permutation) whose columns hold the sets S; for C = 4 both factors are
// H_2. H_1 is the band count B; H_k(S) = Σ B(T)·H_{k-1}(S − T) over the
// first band's column triples T (in each stack, a triple of each column's
// set, the triples partitioning the symbols). B(T) counts the ways to give
// each (symbol, stack) a row so that each column's three symbols and each
// symbol's three stacks get three distinct rows; it depends only on each
// stack's partition into triples, up to relabelling, and is memoised on a
// key that relabels stack 0's triples to fixed ones.
//
// The sum runs over classes of signatures under symbol relabelling and
// column permutations within stacks (stack 0 up to all relabellings, stack
// 1 up to stack 0's stabiliser, stack 2 up to both stabilisers; the
// stabilisers are taken from the brute-force group of the 3C ≤ 9 symbols),
// each term weighted by the ordered signatures it stands for. Count does
// this for C = 2 and 3 (6 and 131 classes) and reproduces 28,200,960 and
// 6,670,903,752,021,072,936,960 (TestCountKnown, about 6 CPU-s for 3×3);
// the band count agrees with a brute-force count on random signatures for
// C = 2, 3, 4 (TestBandCountBrute). Counts are exact: halves in checked
// 128-bit arithmetic, the join in math/big.
//
// # The 3×4 projection: the half-join loses
//
// For C = 4 (cut between bands 2 and 3, both halves H_2) a stack's columns
// form a 6-regular multigraph on its 4 columns whose opposite edges have
// equal multiplicities x + y + z = 6, so there are Σ 12!/(x!x!y!y!z!z!) =
// 32,496,156 ordered stack signatures, 32,496,156³ ≈ 3.43·10²² ordered
// signatures and, by Burnside, at least 3.43·10²²/(12!·24³·3!) =
// 8.637·10⁸ classes under relabelling, column and stack permutations.
// Every class's H_2 is needed (the join reads H_2 of S and of Sᶜ), and
// each H_2(S) is a sum over |L_0|·|L_1|·|L_2| first-band choices (156 per
// stack on average) of B·B: 3.88·10⁶ terms, so the join has about
// 3.35·10¹⁵ terms, three times the 1.04·10¹⁵ of package triple's kernel
// (144,578 gangsters × 7.2·10⁹), which costs 567 CPU-hours. At triple's
// 2 ns a term (567 h over 1.04·10¹⁵) the half-join would still take about
// 1,800 CPU-hours, or 900 if the exchange T ↔ S − T of a half's two bands
// (an involution without fixed points on the splits) halves the terms, so
// it cannot reach 60 (or 150) however cheap the band count is made.
//
// Measured (TestProject3x4, this project's 2-core machine at
// load average 21, GOMAXPROCS=1, thread CPU time): 20 uniform labelled
// signatures (seed 1), each unit one first-band choice of stack 0 with
// all of stacks 1 and 2 (≈ 24,000 terms), scaled by |L_0|: 375 ± 23
// CPU-s per class (95%; sd 52), so computing H_2 once per class would take
// 8.637·10⁸ × 375 s = 9.0·10⁷ ± 0.55·10⁷ CPU-hours. 96% of it is computing
// band counts (the memo hits little on a cold unit); the same units again
// with every band count memoised (a hash lookup per band) cost 3.07 ± 0.43
// CPU-s per class, 7.4·10⁵ ± 1.0·10⁵ CPU-hours (rising from 1.3 to 3.8 s as
// the memo outgrows the caches). Labelled sampling weights a class by its
// orbit, which is the whole group for almost every signature, so the mean
// is the mean over classes up to the few symmetric ones. Peak RSS 79 MiB (the memo,
// about 10⁶ entries). Before the pruning and key hoisting of the band
// count the prototype measured 1,174 ± 29 CPU-s per class (3 samples).
//
// Beyond 12×12: for 3×5 (cut below band 3) a stack has 2.60·10¹² ordered
// signatures, so there are at least 1.3·10¹⁸ classes, and each half is a
// sum over two or three bands: far beyond any machine. The kernel handles
// boxes of 3 rows only, so it says nothing about 2×7.
//
// To reproduce (about 150 s of wall time on the loaded machine):
//
//	HALVES_PROJECT_SAMPLES=20 HALVES_PROJECT_SEED=1 GOMAXPROCS=1 \
//	  go test -run TestProject3x4 -v -timeout 30m ./stages/maths/halves
package halves
