// Package bandjoin counts the grids fixed by an element of the symmetry group
// (package symmetry) up to relabelling, F(g), band orbit by band orbit: a
// second method, beside the stack methods, meant to recount classes of 3×4
// that the R-stack method (package stackjoin) counts alone.
//
// Contract: Fixed(ctx, s, e, budget) returns F(e) exactly, as defined in
// package symmetry, for any element without transposition of any shape, or
// ErrBudget when one relabelling type passes budget search nodes.
//
// # The method
//
// F(g) = Σ_λ #{X : X∘g = σ_λ∘X}/|Z(σ_λ)| over the cycle types λ of S_N
// (package search states why). SigmaTypes keeps the λ that every row, column
// and box allows: a unit U that g^ℓ first returns to itself is carried by X
// from g^ℓ on its cells to σ^ℓ, so σ^ℓ has that cycle type. The statement is
// package search's; the code is this package's own (TestSmallShapesMatchSearch
// and Test9x9MatchSearch compare the lists).
//
// First rows. Z(σ) acts freely on the grids of σ and a grid's first row
// determines the relabelling, so #{X}/|Z(σ)| is the number of grids whose
// first row is the canonical one of its Z(σ)-orbit: read left to right,
// each σ-cycle is met first at its least symbol, and cycles of one length
// are met in order. The search takes only those first rows, so the division
// is implicit (TestFirstRowsAreOrbits: N!/|Z(σ)| rows for every λ of S_6).
//
// Band orbits. g permutes the bands; a fixed grid is determined by one
// representative band per orbit of that permutation: placing x in a cell c
// places σ^k(x) in g^k(c) for every k, which fills the orbit's other bands
// and checks the band's own twist (g^ℓ keeps it, up to σ^ℓ) where the orbit
// closes. The search fills the representative bands one orbit after another,
// cell by cell in reading order, with the row, column and box masks of the
// whole grid. Rows and boxes lie inside bands, so once the bands of the
// first k orbits are full the number of completions depends only on the
// symbols each column holds: it is memoised by the column masks at every
// orbit boundary. For g = (bands (1 2)(3 4), columns (1 2)(3 4) in every
// stack), 3×4 class 115, that is the join
//
//	#{X : X∘g = σ∘X} = Σ_{band 1} A_σ(T(band 1)ᶜ),
//
// T_j = S_j ∪ σ(S_{κ(j)}) the symbols band 1 and its image put in column j,
// and A_σ(W) the number of bands 3 (with band 4 their image) whose T is W.
//
// What it shares with the first methods: the group (package symmetry's
// Element, Shape, Class) and the permutation arithmetic of package perm
// (WithCycleType, Cycles, Power, Partitions, PowerType, CycleType). No code of
// search, stacks, stackjoin or their subpackages; the tests import search
// only to compare.
//
// # Projection
//
// ProjectType estimates a type's count and cost from seeded probes
// (Knuth's estimator): each probe descends the first band orbits at random,
// weighted by the product of the branchings, then counts the rest exactly,
// timed, with a memo of its own; each figure is a mean with its 95%
// interval (TestProjectionCoversExact: the interval holds the exact count of
// 9×9 classes 311 and 53). With the exact part empty it projects the nodes
// of the search without the memo and the number of fillings of the first
// band orbit, of which every one costs at least a node.
//
// # Verification
//
// Fixed equals search.Fixed on every class without transposition of 2×2, 2×3
// and 3×2 (the identity's included), and on 472 of the 484 of 9×9 within
// 3·10⁶ nodes per type (Test9x9MatchSearch; BANDJOIN_9X9_BUDGET lifts the
// budget), all the classes that fix a grid but the identity and classes 22,
// 27, 35, 38, 43, 48 and 55-59. With 2·10⁷ nodes, and without a budget for
// 22, 27, 35, 55, 56 and 58 (TestClasses), the rest equal the search too, so
// every non-identity class of 9×9 without transposition does: class 22 (bands (2 3), columns (1 2) in every stack, the analogue of
// 3×4 class 115) 449,445,888 in 1.6·10⁹ nodes, 3 minutes; class 35 (bands
// (2 3), rows (1 2) in band 1, stacks (2 3), columns (1 2) in stack 1)
// 155,492,352 in 6.8·10⁹ nodes, 29 minutes; 27, 55, 56 and 58 under a minute.
//
// On 3×4, Fixed finishes 132 of the 316 classes that admit a relabelling
// type within 2·10⁶ nodes per type (TestSurvey, BANDJOIN_SURVEY_BUDGET), 115
// of them with F > 0, in 37 s in all; each equals the R-stack method's F,
// the symmetry stage's (Test3x4LightMatchStackjoin, which imports stackjoin
// to compare; every third class by default, BANDJOIN_3X4_ALL=1 all). They are
// the light classes: about 7·10⁻¹² of the non-identity Burnside sum. With
// 10⁷ nodes per type it finishes 149 (132 with F > 0, all equal to the
// stage's) in 103 s, 1.4·10⁻¹¹ of the sum.
//
// # Cost
//
// The memo joins at band-orbit boundaries, but every orbit is filled cell by
// cell, so the fillings of the orbits before the last are a floor on the
// nodes. At about 10⁷ nodes a second that rules out 3×4's heavy classes
// (TestProject, 20,000 probes per σ type, seed 1, pure Knuth):
//
//	class  share  fillings of the first orbit(s)       nodes without memo
//	115    44%    2.0·10¹⁴ (bands 1-2, seven σ types)  2.7·10²³
//	37     13%    2.6·10⁶ (band 1), 2.3·10¹⁵ (bands 1-2)  7.2·10²³
//	63     8.7%   7.6·10¹⁴ (bands 1-2)                  2.4·10²³
//	24     8.5%   2.2·10¹⁵ (bands 1-2)                  2.1·10²⁴
//	11     2.1%   2.2·10¹⁵ (bands 1-2)                  1.8·10²⁴
//
// and 6·10¹² to 2.6·10¹⁴ for the other seven of the twelve heaviest (92%
// of the non-identity sum; 116, 25, 38, 89, 101, 64, 12): 10² CPU-hours or
// more each for the floor alone, the nodes below it 10⁶ times more. Their projected F agree
// with the stage's within the intervals (115: 2.00·10²² ± 1.0·10²², stage
// 2.04·10²²; 37: 1.31·10²² ± 0.31·10²², stage 1.20·10²²), a statistical
// check only. A unit of class 115 (σ = id, bands 3-4 counted exactly below
// one filling of bands 1-2, ProjectType with exactFrom 1) did not finish in
// 15 minutes. Counting them needs the orbits aggregated: the fillings of
// an orbit grouped by the column sets they leave (their count is a sum over
// arrangements of those sets), up to the relabellings that commute with σ,
// before the join.
//
// # The transposed shape
//
// Transposition carries the grids fixed by a 3×4 element e onto those
// fixed by its transpose, a 4×3 element (boxes of 4 rows: 3 bands of 4
// rows), so F is the same and the 4×3 count is a recount of the 3×4 class:
// 3×4 class 115 is 4×3 class 107, 37 is 101, 63 103, 24 100, 116 116,
// 25 109, 38 110, 89 105, 101 97, 11 99, 64 112, 12 108, 107 35, 105 17
// (Group.ClassOf of the transpose; sizes and orders equal). Fixed finishes
// 117 classes of 4×3 within 2·10⁶ nodes per σ type (14 s), 98 with F > 0,
// each equal to the R-stack method's count of its 3×4 class
// (Test4x3LightMatchTransposed): 9·10⁻¹⁴ of the non-identity sum.
//
// The heavy ones are out of reach on 4×3 too (TestProject with
// BANDJOIN_SHAPE=4x3, 2,000 probes per σ type, seed 1, pure Knuth; fillings
// summed over the σ types). A 3×4 class keeping the stacks keeps the 4×3
// bands, three band orbits, so bands 1-2 are filled cell by cell below
// every band-1 column state; a 3×4 stack exchange is a 4×3 band exchange,
// two orbits, the second (bands 2-3) filled cell by cell below every
// band-1 state:
//
//	4×3 (3×4)  orbits  fillings before the last orbit  nodes without memo
//	107 (115)  3       7·10¹⁷ (bands 1-2)               1.1·10²³
//	101 (37)   3       3.9·10¹⁷                         2.9·10²³
//	103 (63)   3       3.9·10¹⁷                         9.7·10²²
//	100 (24)   3       5.1·10¹⁷                         5.0·10²³
//	99 (11)    3       6.6·10¹⁷                         1.2·10²⁴
//	116 (116)  2       9.7·10⁸ (band 1)                 1.9·10²²
//	109 (25)   2       2.9·10⁸                          1.1·10²³
//	110 (38)   2       3.1·10⁸                          2.8·10²²
//	108 (12)   2       3.1·10⁸                          1.7·10²³
//
// With two orbits the floor is small, but below each band-1 state the
// second orbit alone costs 2·10¹³ to 6·10¹⁴ nodes without a memo inside
// it: a recount of the heavy classes needs the aggregation above on 4×3 as
// on 3×4. Package stackjoin's TestKnuthProject gives the R-stack method
// on 4×3 (4 stacks of 3 columns) for the same classes.
package bandjoin
