// Package triple counts the Sudoku grids whose boxes have 3 rows and C
// columns (side N = 3C, C = 2, 3, 4; the count is the same for boxes of C
// rows and 3 columns, the transpose) by the three-stack ("gangster")
// method, and measures the cost of the 3×4 count. It imports the standard
// library and package triplestacks (the partitions, their symmetries and the
// stack count E of a single stack) only.
//
// # The three stacks
//
// The grid has C bands of 3 rows and 3 stacks of C columns. In a stack,
// band i's three rows hold three disjoint C-sets of symbols: a partition
// P_i of the N symbols, and the rows of the three stacks in a grid row
// partition the symbols. E(σ), for σ = (P_0, …, P_{C-1}), is the number
// of stacks (N rows × C columns, each column holding every symbol once)
// whose rows hold those sets; it counts the proper C-edge-colourings by the
// columns of the bipartite graph joining each row to its symbols, and
// triplestacks.StackCounter computes it by a dynamic programme over the
// symbols. So
//
//	grids = Σ_{σ₁,σ₂,σ₃} E(σ₁)·E(σ₂)·E(σ₃),
//
// over the triples whose rows complete each other. Given the first stack's
// band i (rows A_0, A_1, A_2), row v's symbols go to the other two rows of
// the band in the second stack and the rest to the third; the second
// stack's rows then hold C symbols each exactly when the same number k of
// each A_v goes "up", so a band has F(C) = Σ_k C(C,k)³ splits (10, 56,
// 346), the split X ↦ A − X exchanges the second and third stacks, and
//
//	grids = Σ_g W(g)·E(g)·F(g),   F(g) = Σ_{b ∈ splits^C} E(σ₂(b))·E(σ₃(b)),
//
// g running over the classes ("gangsters") of first stacks under
// relabelling, band permutations and row permutations within bands, W(g)
// the number of labelled first stacks in the class. E and F are invariant
// under those operations. For C = 3 this is the 9×9 band-pair method with
// stacks for bands (44 gangsters, 56³ terms each).
//
// # Tables: the stack counts by base
//
// Two partitions meet in a 3×3 matrix of intersection sizes; up to row and
// column permutations there are 3, 5 and 9 such "bases" for C = 2, 3, 4.
// A configuration σ whose bands 0 and 1 have base b is relabelled (cheaply:
// the symbols of each cell of the matrix go to fixed slots) so that they
// become the frame (Id, B_b), and its other bands become partitions with
// indices (p_2, p_3): Tables.E[b][key] holds E for every key, one dynamic
// programme per orbit of keys under the frame's stabiliser (1,676,415
// orbits of 9 × 5775² keys for C = 4, about 6 CPU-minutes, 1.2 GB). The
// same pass lists the gangsters: each class at the least base among its
// ordered pairs of bands and the least orbit those pairs give, its weight
// from its automorphisms. For C = 4 there are 144,578 gangsters, their
// weights add up to 34650⁴ (every labelled first stack), and Σ W·E =
// 2,273,614,462,643,364,849,254,400 stacks (the 4×12 bands of 4×3 boxes;
// with it Kilfoil's heuristic b(4,3)³·b(3,4)⁴/(12!)¹² lands 0.13% below the
// published count, as it lands 0.2% below for 9×9).
//
// # The kernel: rows and plans
//
// F(g) has 173·346³ = 7.2·10⁹ terms for C = 4 once the exchange of stacks
// is used. Tables.Completions reads each term's two counts from the tables
// (a cache miss each). Rows rearranges the counts so that the innermost
// loop, over the last band's splits, reads two contiguous rows: the
// relabelling also takes the first stack's last band R to the
// representative r of its orbit under the frame's stabiliser, the last
// band then ranges over the partitions compatible with r, and a row holds E
// for those, for one band-2 partition up to the stabiliser of (frame, r)
// (3,342,353 rows of 352 two-byte indices into the 5,240 distinct counts:
// 2.35 GB). A Plan lists the orbits of the pairs of band-0 and band-1 splits
// under the exchange of stacks and the gangster's own symmetries (53% of
// the 3×4 gangsters have some), each summed once and weighted by its size.
// Every stack count is below 2^27.6 (the largest is 576³), so the sum over
// a row of products fits 64 bits; the gangster's sum is kept in 128 bits.
//
// CountRows widens the rows to the counts themselves (4.71 GB) and takes
// each dot product along the band-2 row in order and the band-3 row
// through one permutation π, the same for all of a pair's band-2 splits
// with the same residual elements: three loads a term instead of six. It
// equals the rows kernel on every sub-unit measured and is the kernel the
// projection times.
//
// # Work units and the 3×4 projection
//
// A work unit is a gangster; a sub-unit is one of 173 equal slices of its
// plan's pairs. TestProject3x4 measures a seeded uniform sample of sub-units
// (with replacement) by the thread's CPU time and projects the whole count:
// 144,578 × 173 × the mean, ± 1.96 standard errors.
//
// Measured on this project's 2-core machine (AMD EPYC, "Oxide Virtual
// Turin-like Processor", AVX-512; GOMAXPROCS=1, at load average 20 to 22
// from other computations, which inflates CPU times): 400 sub-units, seed
// 1, mean 0.0763 CPU-s, standard deviation 0.0368, so a gangster costs
// 13.2 ± 0.6 CPU-s and the whole 3×4 count
//
//	144,578 × 173 × 0.0763 s = 530 ± 25 CPU-hours (95%),
//
// against about 2,568 CPU-hours for Pettersen and Silver (2006) and 1,035
// for Silver's 2022 recomputation; it is not below 150 CPU-hours. The rows
// kernel on the same sub-units in the same run (equal sums on all 400):
// 0.0943 CPU-s, 655 ± 30 CPU-hours, so CountRows is 1.24 times faster
// (1.12 to 1.34 in three smaller paired runs); the rows kernel alone
// measured 0.0816 CPU-s (567 ± 22 CPU-hours) in a quieter earlier run, and
// the plain tables kernel 0.921 CPU-s (about 6,400 CPU-hours). Peak RSS
// 9.06 GB in the test, which keeps the tables (1.2 GB), the rows (2.35 GB)
// and the rows of counts (4.71 GB); a run needs only the last with the
// combinations' index arrays. One-off costs: the tables about 6 CPU-minutes
// (12 minutes of wall time at that load), the rows 31 CPU-s, the rows of
// counts 19.
//
// Why not lower: the work is the terms. Reuse is small: in 6 sampled
// sub-units 85 to 99.7% of the dot products have distinct (band-2 row,
// band-3 row, alignment) keys and 56 to 89% of the rows read are distinct,
// so memoising dot products or blocking rows in cache cannot pay. The sum
// over (b₂, b₃) for a relabelling class of (σ₂'s and σ₃'s bands 0–1, the
// first stack's bands 2–3) was not memoised: the class fixes the first
// stack's bands 0–1 up to re-pairing their rows, so it repeats only under
// the symmetries the plan already uses and such re-pairings (not measured).
// Nor is the kernel bound by memory: with every row folded into 64 rows held
// in cache a sub-unit took 0.060 to 0.066 CPU-s against 0.059 to 0.064 with
// the real rows (prefetched; two runs), and switching parts off split that
// as 0.027 to 0.031 dot products, 0.016 to 0.021 waiting for rows and 0.011
// to 0.017 setting up pairs. The dot product alone, in the first-level
// cache, costs 0.49 to 0.54 ns a term, and the plans leave 7.1·10¹⁴ terms
// (99,245 gangsters' worth of 7.2·10⁹): 97 to 107 CPU-hours of multiply-adds
// before any other cost, so 60 needs fewer terms (a different decomposition)
// or vector gathers, not a better layout. These figures come from
// TestReuse3x4 (TRIPLE_REUSE=6), TestBreakdown3x4 (TRIPLE_BREAKDOWN=40) and
// BenchmarkDotPerm, run like the projection.
//
// To reproduce (the first command builds and saves the tables, about 6
// CPU-minutes, and logs the gangster count, weights and stack total; the
// second loads them, about 7 minutes of wall time on the loaded machine):
//
//	TRIPLE_BUILD4=1 TRIPLE_TABLES4=/tmp/triple/tables4.bin GOMAXPROCS=1 \
//	  go test -p 1 -run TestBuild4 -v -timeout 30m ./stages/maths/triple
//	TRIPLE_TABLES4=/tmp/triple/tables4.bin TRIPLE_PROJECT_SAMPLES=400 \
//	  TRIPLE_PROJECT_SEED=1 TRIPLE_PROJECT_CHECK=2 TRIPLE_PROJECT_FULL=1 \
//	  TRIPLE_PROJECT_PAIRED=1 GOMAXPROCS=1 \
//	  go test -p 1 -run TestProject3x4 -v -timeout 60m ./stages/maths/triple
//
// (TRIPLE_PROJECT_PLAIN=20 adds the plain tables kernel's timing.)
//
// The count itself is not run here. Correctness: the same code (tables,
// gangsters, weights, the three kernels, plans with symmetries) reproduces
// the 3×2 count 28,200,960 and the 3×3 count 6,670,903,752,021,072,936,960
// (TestCountKnown, TestRowsKnown, TestCountRowsKnown, in under a second;
// the rows need C ≥ 3); for 3×4 the stack counter agrees with a brute-force
// count, the gangster weights and stack total are as above, the three
// kernels agree on sampled sub-units, CountRows equals the rows kernel on
// all 400 sampled sub-units, and a whole gangster's plan by CountRows
// equals its plain halves by the rows kernel (TestProject3x4's checks).
//
// # Beyond 12×12: the 3×5 projection
//
// Nobody has counted 3×5 (15×15). The kernel stops at C = 4
// (triplestacks.MaxC), so TestProject3x5 scales the measured 3×4
// projection by the method's exact growth: a band has 126,126 partitions
// and F(5) = 2,252 splits, so a gangster has 2,252⁵/2 = 2.9·10¹⁶ terms
// (4.0·10⁶ times 3×4's 7.2·10⁹), and there are at least 2.03·10¹¹
// gangsters (Burnside's identity term, 756,756⁵/(15!·5!·6⁵); the same
// bound is 96,750 for C = 4, which has 1.49 times as many). At 3×4's
// measured 1.84 ns a term (13.2 ± 0.6 CPU-s a gangster) and 1.49 times the
// bound, 3×5 would take 4.5·10¹⁵ ± 0.2·10¹⁵ CPU-hours (95%, the 3×4
// sample's interval; 3.0·10¹⁵ at the bound): 2.6·10¹¹ years on this 2-core
// machine, 5.1·10⁸ years on 1,000 cores with gangsters as units. It is
// also optimistic: the tables would hold E for at least 4.07·10¹² key
// orbits (126,126³ keys a base over the frames' stabilisers and the
// permutations of bands 2 to 4: 16 TB at 4 bytes each, against 1.2 GB for
// 3×4), whose stack counts alone would take 2.4·10⁵ CPU-hours at 3×4's
// 0.21 ms each, and no term would be a cache-friendly row read. Every
// figure for C = 5 is an extrapolation (exact combinatorics, the cost per
// term and the gangster ratio measured at C = 4). To reproduce (a second):
//
//	SURVEY_3X5=1 go test -run TestProject3x5 -v ./stages/maths/triple
package triple
