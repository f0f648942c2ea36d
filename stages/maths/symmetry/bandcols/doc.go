// Package bandcols counts F(g) for the involutive stack exchanges of a 2×c
// shape (c ≤ 6) band by band: the column each symbol takes in each band,
// then the orientations of the cells. It is meant as the second count of
// 2×6 class 142 (6×2 class 172), 49% of the non-identity 2×6 Burnside sum,
// which the R-stack method (package stackjoin) cannot finish.
//
// Contract: Fixed(ctx, s, e) returns F(e), as defined in package symmetry,
// for any element e of a 2×c shape that exchanges the two stacks with ρ² =
// id and κ₁κ₀ = id (Applies); FixedType(ctx, s, e, k) returns one σ type's
// term N_k and Combine joins them.
//
// What it shares with the first count (package stacks, its sum over pattern
// orbits with package pair's stack counts): the group (package symmetry's
// Shape, Element and Check) and nothing else. The tests import stacks and the
// shapes stage's artifact only to compare.
//
// # The method
//
// The grid has c bands of rows 2b (upper) and 2b+1 and two stacks L and M. ρ
// sends band b to band β(b), swapping its rows when s_b. X∘g = σ∘X makes M the
// image of L (M(ρr, κ₀j) = σ(L(r, j))) and σ an involution, and the rows are
// valid exactly when, for every symbol x and band b,
//
//	P_{β(b)}(σx) = P_b(x) ⊕ s_b ⊕ 1,
//
// P_b(x) the row of x in band b of L. F counts the grids up to relabelling,
// so F = Σ_k N_k / (2^k·k!·(2c−2k)!), N_k the stacks L meeting those
// constraints for the involution σ_k = (0 1)…(2k−2 2k−1), the division by
// the centraliser checked to be exact (Combine).
//
// A stack L is, for every band, a map from the 2c symbols to the c columns
// taking each column twice (the cell's two symbols), each symbol meeting every
// column once over the bands, and, for each cell, which of its two symbols is
// upper. Given the columns, the constraints above and "a cell's symbols lie in
// different rows" are parity constraints on the bits P_b(x): their solutions
// number 2^components when consistent, else 0 (a union-find with parity). A
// band with β(b) = b is weighed alone; the two bands of a pair b ↔ β(b) are
// weighed together. σ's constraints are entered before a band is filled and
// each cell's as it is completed, so a filling is cut at its first
// contradiction (BenchmarkFixedType6, 2×6 class 164 with one 2-cycle: 16.0
// CPU-s with every filling weighed at its end, 11.9 so). A state's
// successors go to a flat table reused from state to state (raw.go), built
// as the filling goes, where a map was made per state and each successor
// rebuilt at its leaf: 9.6–9.9 → 7.9–9.1 CPU-s on the shared machine (class
// 172's k = 1 unit 9.3–10.1 → 7.3–7.6 s; class 153's unchanged at about
// 16 s: a quarter of it sorts the successors' symbols, by insertion, which
// a counting sort did not beat). From a profile of class 153's k = 4 (a
// third of the time in colInvariant): the column invariant counts by
// popcounts over each column's symbol set and sorts by a branch-free
// network, the canon's images and the invariant walk only a mask's set
// bits, and a cached canon sits beside its key (one cache line a lookup,
// not three): class 153's k = 2 type 217.9 → 170.7 CPU-s, run side by side
// on the idle machine (TestColInvariantByDefinition checks the invariant;
// recomputed, the units of k = 1 and 2 equal the bundle's).
//
// The programme runs over the band orbits with the state "the columns each
// symbol has taken", one mask per symbol, kept up to the column permutations
// and the relabellings that commute with σ_k (which keep every weight): the
// key sorts the columns by an invariant (the symbols of 2-cycles and the fixed
// ones that took each column, and per other column how many symbols and
// 2-cycles took both) and takes the least image over the permutations of
// columns of equal invariants. The orbits split into halves A (⌊c/2⌋ bands)
// and B; a path through B from a state S is a path from nothing to its
// complement S^c with the same weights, so N_k = Σ_S A(S)·B(S^c), summed over
// the canonical states with each term's orbit size from the stabiliser (the
// division by |H| checked to be exact). When the halves have the same bands
// (class 142: six single bands, all swapped) B is A and is computed once.
//
// Band pairs. A pair's weight needs both bands' cells: with σ an involution
// the two bands' bits are tied symbol by symbol (consistent only when both
// bands or neither swap their rows), and the components are the cycles of
// band b's cells joined with σ's image of band β(b)'s. A half places one
// pair first, from nothing, in two layers: the first band alone, unweighed,
// whose state (one column per symbol) keeps its cells, then the second band,
// weighing the pair; the states between are merged like any others. A pair
// placed later is enumerated with both its bands from each state.
//
// # Verification
//
// TestMatchesStacks: Fixed equals stacks.Fixed on all 19 involutive stack
// exchanges of 2×2 to 2×4 and on the 6 of 2×5 without band pairs (27 s), and
// with BANDCOLS_2X5_ALL=1 on the 6 with band pairs (27, 41, 55, 62, 76, 83:
// 1.7-3.1 s each with a pair's two layers; 62 and 83 took 64 and 114 s
// with both bands enumerated together). TestPairsTogetherMatchStacks: the 7
// band-pair classes of 2×2 to 2×4 equal stacks.Fixed too with the two
// layers turned off, and with every band orbit in one half, so that a pair
// is placed from states with bands in them, as class 175's later pairs are. TestStackTotal6: on 2×6, N_0 of class
// 142 (σ = id, every stack: 4,876,139,207,527,966,044,188,061,990,912,000, 5
// CPU-s) equals Σ W(O)·E(O) over the shapes stage's orbit_stacks.parquet.
//
// # Cost
//
// The work is half A's last band: for every state after its first two
// bands, every way to place the third. TestProjectLastLayer
// (BANDCOLS_PROJECT=142, BANDCOLS_SAMPLE=30, seed 1, one core of the
// shared machine) times that band from 30 sampled states per σ type and
// projects the layer as their number times the mean, with a 95% interval:
//
//	k  states  mean CPU-s       projected CPU-s
//	0      24  0.066 ± 0.032              5.6
//	1     256  0.070 ± 0.010               21
//	2   2,505  0.098 ± 0.013       250 [217, 283]
//	3  13,809  0.138 ± 0.023     1,920 [1,600, 2,240]
//	4  37,714  0.103 ± 0.017     3,910 [3,260, 4,550]
//	5  38,699  0.112 ± 0.014     4,360 [3,830, 4,890]
//	6   7,112  0.132 ± 0.019       947 [813, 1,080]
//
// Memory. Class 172's part 3 (k = 3) peaked at 3.9 GiB and part 4 passed
// 21 GiB without finishing: not for its states (k = 2 ends half A with
// 40,211) but for the map of canonical keys, which kept every raw key a
// layer met, up to about 450,000 per state. The canons are now cached in
// 2^22 direct-mapped slots (101 MB) and the states sit in a flat table of
// 60-bit keys (each mask's rank among the masks of its size) and checked
// 128-bit counts, bounded at 2^28 slots (6 GiB): part 2 (FixedType, k =
// 2, one core of the loaded machine) peaks at 213 MiB (678 before) in 103
// CPU-s (184 in its bundled run).
//
// Class 142 in all: projected 3.2 CPU-hours [2.7, 3.6] (the first two
// bands 4-12 CPU-s per type and the join not included); its seven bundled
// units took 2.64 (k = 0…6: 6, 15, 184, 1,451, 3,767, 3,483 and 614
// CPU-s), and N_5 = N_6, as it must: with every band's rows swapped, σ's
// constraints put each 2-cycle's symbols in one row, and a row of six then
// holds σ_5's two fixed symbols together, as if they were a 2-cycle. Each
// sampled state misses the cache of keys that a whole layer shares, so the
// projection is an upper estimate. The R-stack method on 6×2 class
// 172 (stackjoin's TestKnuthProject, 300 s, counts cut at 20 s) projects
// 2.6·10⁶ units and at least 3.2·10³ ± 3.1·10³ CPU-hours; each of 4 sampled
// first rows of its 5,778 passed 5 CPU-s.
//
// With band pairs (BANDCOLS_PROJECT=164 and 153, BANDCOLS_SAMPLE=20, before
// the fillings were cut at their first contradiction): the
// states after a pair number as those after two single bands, so each half
// costs about what class 142's does. Class 164 (two pairs, halves alike,
// computed once) 2.74 CPU-hours [2.23, 3.26]; class 153 (one pair: halves
// of three single bands and of the pair and a band, both computed) 5.37
// [4.32, 6.41], its types k = 4 and 5 about 2.2 CPU-hours each. With the
// fillings cut, class 164 projects at 2.45 [1.94, 2.96]; measured, its
// seven units took 2.93 CPU-hours (peak 362 MiB), on a loaded machine.
// Class 153's types k = 0–3 and 6 took 5, 15, 268, 2,317 and 1,305 CPU-s
// (peak 443 MiB), under the same load; k = 4 and 5, after the speed-up
// above, 3,695 and 3,264 CPU-s (peak 433 and 581 MiB; projected at about
// 1.7 CPU-hours each), two at once on the two cores beside other work.
// The class's seven units, 3.02 CPU-hours, equal the first count.
//
// Applies holds for 16 classes of 2×6: 10, 21, 32, 54, 76, 109 and 142 have
// single bands only (48.7% of the non-identity sum, 142 all but 0.2% of it);
// 43, 65, 87, 98, 120, 131, 153, 164 and 175 exchange bands (12.2%, 153
// 8.2%, 164 2.3%). Class 175 (three pairs) has no half of three bands, so
// its second and third pairs are each enumerated together from every state:
// not projected.
package bandcols
