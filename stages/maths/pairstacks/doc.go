// Package pairstacks counts the stacks of the pair method of package pair:
// for boxes of 2 rows and c columns (1 ≤ c ≤ MaxC, side n = 2c), E(T), the
// number of stacks (2c rows × c columns, every column and every 2 × c box
// holding each symbol once) whose rows hold the row sets described by a
// pattern multiset T. Symbol x has a c-bit pattern whose bit i is 1 when x
// is in the upper row of band i (row 2i) and 0 when it is in the lower row
// (row 2i+1); a multiset T holds 2c patterns, every bit set in exactly c of
// them.
//
// # Counting stacks
//
// Let G(T) be the bipartite graph joining each symbol x to the row of band i
// that holds it: the upper row of band i if bit i of its pattern is 1, the
// lower row otherwise. G(T) has n symbols and n rows and is c-regular. A
// stack assigns a column to every edge (symbol x sits in that row in that
// column) so that the c edges at each symbol get distinct columns (the
// symbol appears once per column) and so do the c edges at each row (the
// row's cells are distinct columns). So E(T) is the number of proper
// c-edge-colourings of G(T) with the columns as colours, each colour class
// being a perfect matching.
//
// StackCounter counts them symbol by symbol. After the symbols x_1, …, x_t
// have been given their columns, column j has been used in a set R_j of
// rows, and the ways to finish depend on nothing else. The columns are
// interchangeable (permuting them maps colourings to colourings), so the
// number of ways to finish depends only on the multiset {R_0, …, R_{c-1}},
// and the dynamic programme keeps, for each such multiset, the number of
// partial colourings reaching it. The next symbol's c rows (one per band) go
// to the c columns by a bijection that sends no row to a column already
// holding it; columns with equal sets are treated as one, with a factorial
// weight. The order of the symbols is chosen by a dynamic programme over
// subsets of symbols that keeps few rows partly filled (see symbolOrder). A
// state needs only c-1 of its sets (the last follows from how many placed
// symbols each row holds), 60 bits for c ≤ 6, and the layers are kept in
// open-addressing hash tables.
//
// For c = 5 the largest layer holds a few thousand states and E(T) takes
// about 2 ms. For c = 6 the largest layers hold 0.1 to 12 million states and
// E(T) by the full DP takes under a millisecond to 32 s, about 79 CPU-hours
// for the 63,199 orbits of 2×6 (see package pair's TestProject2x6): the
// full DP stays as the reference.
//
// # Split and join
//
// The faster kernel cuts T's symbols, in the DP's order, into a first half
// H_A of c symbols and a second half H_B (Split). With G_A(M) the number of
// ways to give H_A's symbols their (labelled) columns that leave the columns
// with row sets M, G_B the same for H_B from the empty state, os(M) =
// c!/Π(multiplicities of M)! the number of labellings of M, and Mᶜ the
// complement of every set of M,
//
//	E(T) = Σ_M G_A(M) · G_B(Mᶜ) / os(M),
//
// since a stack is a pair of partial colourings with complementary columns
// and the labellings of M share G_A(M) equally (the division is exact, and
// checked). BuildHalf computes a half's table G_H/os, sorted by state, and
// Joiner.Join evaluates the sum from two tables. Relabelling the bands and
// exchanging the two rows of some of them permutes the rows by some ρ and
// maps the table of H to that of its image H': G_{H'}(ρ(M)) = G_H(M). So one
// table serves every half of a class (package pair's Plan builds one per
// canonical half), and Join takes the two tables in their own frames with
// the RowPerm that maps a row of the first frame to the second: it maps the
// first table's states into the second's frame, complements them, sorts
// them and merges the two lists. StateBound estimates a half table's size.
//
// The package imports the standard library only.
package pairstacks
