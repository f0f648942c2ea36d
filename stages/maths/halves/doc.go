// Package halves counts the Sudoku grids whose boxes have 3 rows and C
// columns (side 3C) by cutting the grid between two bands and joining the
// halves (issue 48's first phase: a prototype, measured). It imports the
// standard library only.
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
// 1 up to stack 0's stabiliser, stack 2 up to both stabilisers), each term
// weighted by the ordered signatures it stands for. Count does this for
// C = 2 and 3 (6 and 83 classes) and reproduces 28,200,960 and
// 6,670,903,752,021,072,936,960. Counts are exact: halves in checked
// 128-bit arithmetic, the join in math/big.
package halves
