// Package heuristic computes Kilfoil's heuristic estimate of the number of
// Sudoku grids, for boxes of any shape R×C, as an exact fraction.
//
// # The heuristic
//
// A grid with boxes of R rows and C columns has side N = RC, and is cut
// into C bands (R consecutive rows, crossing R boxes) and R stacks (C
// consecutive columns, crossing C boxes). Fill every box with 1..N in any
// order: there are (N!)^N such fillings, and the box rule holds in all of
// them. The bands are filled independently of one another, so the fraction
// of these fillings in which every row is a permutation is
//
//	p_rows = b(R,C)^C / (N!)^N,
//
// where b(R,C) is the number of valid bands: R×N arrays whose rows are
// permutations of 1..N and whose R boxes each hold 1..N. A stack turned on
// its side is a band of shape C×R, so the fraction in which every column is
// a permutation is p_cols = b(C,R)^R / (N!)^N. If the row and column
// events were independent, the number of grids would be
//
//	E(R,C) = (N!)^N · p_rows · p_cols = b(R,C)^C · b(C,R)^R / (N!)^N.
//
// They are not independent, and E is not even an integer in general. For
// the classic grid b(3,3) = 948109639680 and E(3,3) = b^6/(9!)^9 =
// 6657084616885512582463.488, 0.2% below the true count
// 6670903752021072936960. For 2×2 boxes E = 256 against 288 grids, and for
// 2×3 boxes E = 26542080 against 28200960. With 1×C boxes every box is a
// row, p_rows = 1, and E is exactly the number of Latin squares of order N.
//
// # Counting bands
//
// Write S(i) for the set of symbols in row i of the first box of a band,
// and A(i,j) for the set of C symbols row i holds in box j, j = 2..R. A
// band is valid exactly when, for every row i, S(i), A(i,2), ..., A(i,R)
// partition 1..N, and, for every box j, A(1,j), ..., A(R,j) partition
// 1..N: both rules constrain only which symbols lie in each row of each
// box, not their order within its C cells. Hence
//
//	b(R,C) = N! · (C!)^(R(R−1)) · M(R,C):
//
// N! fillings of the first box, C! orders in each of the R(R−1) other
// row-segments, and M(R,C) arrays of sets A completing a fixed first box,
// a number that does not depend on that box since relabelling symbols maps
// the completions of one first box onto those of another.
//
// M is counted symbol by symbol. Call the row of the first box holding a
// symbol its type. The symbol occupies exactly one row of every box (the
// box rule) and exactly one box of every row (the row rule), so its rows in
// boxes 1, 2, ..., R form a permutation of the R rows beginning with its
// type. M is the number of ways to give each of the N symbols such a
// permutation so that every row of every box receives exactly C symbols.
//
// The count runs box by box. After boxes 1..j each symbol has used a set U
// of j rows, and whether the assignment can be completed, and in how many
// ways, depends only on the numbers n(U) of symbols with each set U: the
// state. Box j+1 sends every symbol to a row outside its U, each row
// receiving C symbols; sending k(U,i) of the n(U) symbols with set U to
// row i, for all i, can be done in n(U)! / ∏ᵢ k(U,i)! ways. M is the sum,
// over all paths from the state n({i}) = C for every i to the state
// n({1..R}) = N, of the product of these weights. Relabelling the rows maps
// states to states with the same number of completions, so each box keeps
// one state per orbit, carrying the weights of the whole orbit; for 5×5
// there are then 73 states after two boxes and 73 after three.
//
// From R = 4 on, the programme stops halfway. Read backwards, the last R−j
// boxes of a band are paths from a state of level j to the end, and they
// are counted by the same programme: the completions of a state n of
// level j are the paths of R−j boxes, no box fixed, that end at the
// complementary state n̄(V) = n(complement of V), shared evenly among the
// ways to say which symbols have which set. This gives
//
//	M(R,C) = Σₙ P(n) · P(n̄) · ∏_U n(U)! / (C!)^R
//
// over the states n of level j = ⌊R/2⌋, P being the path weights the
// programme computes, so only levels up to ⌈R/2⌉ are built. The cost is
// the step from two boxes to three, where every state's transitions are
// enumerated: for 5×6 there are 140 orbits on both levels (10,580 states
// before the reduction), and the step takes about 20 CPU-seconds. For six
// rows the third level is much larger, 2.3·10^7 states (at least 3·10^4
// orbits) for 6×4, 2.3·10^8 (3·10^5) for 6×5 and 1.6·10^9 (2.3·10^6) for
// 6×6 (the second level has 582 orbits for 6×4, and at least 1.6·10^3
// and 6.2·10^3 for 6×5 and 6×6), and the step into it did not finish for
// 6×4 in ten minutes: the transitions of a single state of its second
// level ran past 80 CPU-seconds and 3.4 GB.
//
// For 3×3, say a of the three type-1 symbols go to row 2 of box 2 and
// 3−a to row 3; each row of box 2 must receive three symbols, which forces
// 3−a type-2 symbols into row 1 and a type-3 symbols into row 1, and box 3
// is then forced. So M(3,3) = Σₐ C(3,a)³ = 1 + 27 + 27 + 1 = 56, the
// 2·1 + 18·3 completions of the 2 pure and 18 mixed top rows of
// Felgenhauer and Jarvis, and b(3,3) = 9!·6⁶·56 = 948109639680. Further
// values: M(2,C) = 1, M(R,1)·R! = L(R) (Latin squares), M(4,4) =
// 1273431960, M(5,5) = 1165037550432885119709241344, M(5,6) =
// 3261734691836217181002772823310336 (the bands of 30×30 grids with 5×6
// boxes; walkbands' count of set arrays agrees), M(6,2) =
// 9480675056071680 (the stacks of 2×6 boxes: b(6,2) =
// 4876139207527966044188061990912000, and E(2,6) ≈ 3.8205·10^49, 0.24%
// below Pettersen's count).
//
// All counts are exact integers (math/big); the fraction E is kept in
// lowest terms and written in decimal exactly when its denominator has no
// prime factors but 2 and 5, otherwise correctly rounded to a configured
// number of significant digits.
package heuristic
