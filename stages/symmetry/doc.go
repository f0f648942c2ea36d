// Package symmetry is the stage that counts essentially different grids:
// grids counted once per orbit under the symmetries of the box shape and
// relabelling of the symbols, by Burnside's lemma over the conjugacy classes
// of the group (packages stages/maths/symmetry, .../search, .../stacks and
// .../stackjoin, which state the formulas). 9×9 has 5,472,730,538. It requires shapes: each shape of symmetry.shapes
// must be in shapes.shapes.
//
// # Method
//
// G is the group of cell symmetries: band and row-in-band permutations
// (S_R wr S_C), stack and column-in-stack permutations (S_C wr S_R), and
// transposition when the boxes are square and symmetry.transpose is true
// (9×9: |G| = 3,359,232). Relabelling acts freely, so by Burnside's lemma
// (Russell and Jarvis 2006)
//
//	essentially different = (1/|G|) Σ_classes |class| · F(g)
//	F(g) = #{X : X∘g is a relabelling of X} / N!
//
// The classes come from the cycle types of the wreath products.
// F(identity) = grids / N! comes from the shapes stage's count (3×3 from
// exact). Every other class's F is counted by a search over the orbits of
// ⟨g⟩ on the cells, one relabelling σ per cycle type, grids with the
// canonical first row only, meeting in the middle, on the conjugate of g (by
// whole-band and whole-stack permutations) with the smallest estimated
// search tree. For sides ≤ 6 the stage also counts canonical forms (every
// grid with first row 1…N mapped through every element of G, the smallest
// relabelled image kept): that computation shares no code with the Burnside
// one, and the stage fails unless they agree.
//
// 10×10 (2×5 and 5×2) is accepted by the configuration. There the search
// does not finish the 25 classes that fix the most grids (class 70 of 2×5
// plans 10^13 nodes), so every class is counted by the stack method
// instead (stacks.Fixed in stages/maths/symmetry/stacks; see stackMethod):
// a grid fixed by g up to σ is a pair of stacks, and its count is a sum
// over the σ-equivariant assignments of row sets to the symbols of twisted
// stack counts (stacks fixed by (ρ, κ) up to σ, counted by a dynamic
// programme over the cycles of σ whose states are the columns' row sets,
// merged under the centraliser of κ): E_{ρ,κ₀,σ}·E_{ρ,κ₁,σ} when g keeps
// the stacks, E_{(ρ²,κ₁κ₀),σ²} when it exchanges them. The assignments are
// joined into classes under the relabellings commuting with σ and the band
// maps commuting with ρ, and each class's term is computed once. The method
// equals the search on every class of 2×1, 1×2, 2×2, 2×3, 3×2, 2×4 and 4×2.
//
// 2×5 and 5×2 are in the default symmetry.shapes. The stage counts
// 4,743,933,427,433,330 essentially different 10×10 grids with 2×5 boxes,
// 174,617,388 fewer than the 2×5 term of OEIS A291188,
// 4,743,933,602,050,718, which the sequence gives without a method or a
// program. The stage records the difference (checked_by, the literature
// columns, a warning in the log) instead of failing, for this term only,
// and the paper states it; no error has been found on this side. The tests
// of packages maths/symmetry/search and maths/symmetry/stacks check all
// 1,259 non-identity classes by counts that share no code with the stack
// method: 1,174 admit no relabelling type at all (F = 0), a condition
// checked by two implementations; the search finishes 60 of the other 85
// and agrees with the stack method; of the 25 that fix the most grids, the
// 6 that exchange the stacks (6, 27, 62, 69, 76 and 83) equal sums of
// package pair's stack counts over the pattern multisets, class 63 a
// closed form, class 70 a count by bands, and classes 70 and 77 a sum over
// every pattern assignment instead of orbits, weights and joins; for the
// other 16 (61, 64-68, 71-75 and 78-82, which keep the stacks) the twisted
// stack counts equal a plain backtracking on random assignments, and a
// one-off sum over every assignment (2026-11-26, 36 minutes, not a test)
// agreed. The R-stack method of package stackjoin, run on 5×2 (five
// stacks of two columns, no code shared with the stack method, which
// counts 5×2 by transposing to 2×5), equals the stage on 67 of the 85
// classes admitting a relabelling type (STACKJOIN_SURVEY=5x2, not a test):
// 53 within a work budget of 10^6 (10^7 for classes 9 and 10, 2026-11-28),
// and 21, 22, 33, 45, 57, 76, 77, 78, 79, 88, 291 and 294 in full
// (2026-11-29; 22, a stack exchange, 40 CPU-minutes, 57 6 minutes; 76 to
// 79 fix no grid by either method), and 74 in full, which fixes no grid
// either (24.8 minutes on one core, niced, 2026-11-29; 4.3·10^9 nodes),
// and 34 in full: 14,069,708,881,920 fixed grids by both (70 minutes on
// one core, niced, 2026-11-29; 3.1·10^8 nodes). The other 18 are
// projected from parts 0 and 1 of 256 (TestPartSurvey, one core; 57 was
// projected at 0.35 CPU-hours) at 0.5 to 2.5 CPU-hours each (11, 46, 72,
// 73, 81) or
// past 4.3 (23, 35, 47, 58, 59, 68-71, 75, 80, 82, 83): tens of CPU-hours,
// not yet run. The fixed counts also pass
// Group.CheckPowers (below). The difference is no single class's term, nor a sum or difference of up to
// three terms with coefficients ±1 or ±2 (searched 2026-11-26).
//
// # 12×12: 2×6 and 6×2
//
// 2x6 and 6x2 are accepted by the configuration, every class by the stack
// method, F(identity) = grids/12! from the shapes stage's 2×6 count (its own
// committed bundle). The 5,005 classes of 2×6 (65 row types × 77 column
// types, |G| = 47,775,744,000) take CPU-hours in all. Only 488 of the
// 5,004 non-identity classes admit a relabelling type (search.SigmaTypes;
// 186 of them exchange the stacks); the other 4,516 fix no grid, which the
// stack method finds at once. The 488 run as the units of a committed
// bundle, data/bundles/symmetry-12.parquet (pipeline.Bundle, as the shapes
// stage's 2×6 count), each result a function of its id alone; a run takes
// the bundle's units, computes only those it lacks (each added to the
// bundle as it finishes, so a stopped run keeps what it finished), and
// refuses to start when those would need more than symmetry.max_cpu_hours.
// The bundle's SHA-256 is in the stage's fingerprint and in the lock, and
// `census verify --recompute K` recomputes K of them byte for byte (the
// costliest half by their recorded CPU time, the rest one per cost
// stratum; make all: 69 within 1 CPU-second each). The 16
// classes counted by the sum over pattern orbits take the orbits' stack
// counts E(O) from the shapes stage's data/orbit_stacks.parquet, so a run
// with 2x6 or 6x2 needs shapes.orbit_stacks=true (a unit without them fails
// naming the key): the shapes stage keeps them as 1,975 more units of its
// own bundle, each checked against the sum unit of the same orbits, and
// this stage checks that the rows hold every orbit of pair.Orbits(6) once
// with its weight. Given those rows, every run also recounts the 16 classes
// by the orbit sum (about a second) and fails unless each equals its unit's
// result (checked_by says so); the bundle's rows of classes 10, 21 and 32
// come from the stack method, so for them this compares two methods.
// 6×2 has no units of its own:
// transposing the grid carries the grids fixed by (ρ, κ) with 6×2 boxes
// onto those fixed by (κ, ρ) with 2×6 boxes (the stack method counts 6×2
// that way), so each 6×2 class takes the count of the 2×6 class holding
// its transpose, the two classes checked to have the same size and order.
// The stack method equals the search on 2×6 classes 220, 2307, 2309, 2325,
// 3689, 3727 and 3879 (and 3879 as 6×2), and its twisted stack counts
// equal plain backtracking on sampled 2×6 assignments (package stacks'
// tests); the sum over pattern orbits that counts the 16 involutive stack
// exchanges equals the stack method on every involutive stack exchange of
// 2×2 to 2×5. No count of essentially different 12×12 grids is published.
// The bundle holds all 488 units (2026-11-27), and configs/default.yaml
// counts 2x6 and 6x2: 1,673,447,740,694,797,339,186,344,268,772 essentially
// different grids each, 358 of the 5,005 classes fixing a grid (Burnside sum
// 79,950,210,856,813,019,808,847,952,080,718,266,368,000), about 5.5·10^17
// above the identity's term alone, 1,673,447,740,694,242,402,965,537,030,144.
// This count is new.
//
// # 12×12: 3×4 and 4×3
//
// 3x4 and 4x3 are accepted by the configuration. The group without
// transposition has order 2,579,890,176 and 3,315 classes, of which 316
// (non-identity) admit a relabelling type; the other 2,998 fix no grid.
// F(identity) = grids/12! takes the grid count of Pettersen and Silver
// (2006) from stages/shared/literature, the shapes stage not counting 3×4;
// checked_by says so. Unlike 2×6, that term is no multiple of |G|
// (F(identity) mod |G| = 1,146,617,856), so the Burnside sum's divisibility
// checks the other 316 terms' sum modulo |G|.
//
// A survey (2026-11-27, search.SigmaTypes and search.PlanCost with 8
// probes, 47 CPU-seconds) puts 273 of the 316 under 10^9 search nodes, 10
// between 10^9 and 10^10, and 33 beyond, up to about 4·10^20 (class 115:
// bands (1 2)(3 4) and (1 2)(3 4) on the columns of every stack); the
// planner misjudges some (class 46, planned under 3·10^4 nodes, ran past
// 10 minutes). Every one of the 316 is counted by the R-stack method,
// package stages/maths/symmetry/stackjoin (the stack method for R stacks,
// a twisted form of the three-stack method that stages/maths/triple
// projects for the 3×4 grid count), which equals the search on 122
// classes of 3×4 in its tests, and 4×3 takes each class's count from the
// 3×4 class of its transpose (as 6×2 from 2×6; TestUnitOf4x3 compares the
// R-stack method on two 3×4 classes with the search on their 4×3
// transposes).
//
// The R-stack method's time varies widely. With its KernelVersion 2
// (2026-11-28: the first stack's configurations taken up to relabellings
// that fix the first row as well as row permutations, the second stack's
// up to what fixes the first, and the stack counts of an exchanged pair
// memoised up to relabelling) 266 of the 316 classes take 41 CPU-seconds
// in all, at most 3.9 s each (TestSurvey within 10^7 work units), and the
// other 50 minutes to hours each: class 141 22.5 s in full (2 min 5 s
// before), class 12's heaviest part of 1,024 11.6 s (68 s before).
//
// So the 266 are one unit each, 3x4.class<index, 4 digits>, and each of
// the 50 (joinHeavyCPUHours) is split into 256 parts (stackjoin.FixedPart:
// the subtrees of the enumeration at the shallowest depth with at least
// 2^14 of them, the depth running on from the first stack cycle into the
// next, dealt out in turn; the parts' sums combine exactly, and their
// number does not change the count; a σ type counted by columns, as three
// of class 145's, is counted whole in part 0),
// 3x4.class<index>.part<k>of256: 13,066 units of the committed bundle in
// all, each on every core. A run lists
// the whole classes first, then the split ones class by class, the
// cheapest projected first, so that a stopped run has finished whole
// classes.
//
// Cost: the heavy classes are projected from part 0 of 256
// (joinHeavyCPUHours), which mostly overstates but not always. The bundle
// holds all 13,066 units (2026-11-29), 36,602 CPU-seconds recorded
// (10.2 CPU-hours), computed over three working sessions of this project's
// 2-core machine: the 266 light classes 41 CPU-seconds in all; class 116
// (bands (1 2)(3 4), stacks 2 and 3 exchanged: 7.3·10⁶ configurations of
// the pair a part, each keyed), the costliest, 9,081 CPU-seconds against
// 3.53 CPU-hours projected (its parts 35 s on average, 118 s at most), 115
// 6,036 CPU-seconds against 1.54 CPU-hours, 77 815 against 0.71, 25 355
// against 0.85. Class 145 (rows and stacks cycled), whose first stack's
// configurations the enumeration could not list in minutes, took 17.5
// CPU-seconds in all since its heaviest σ types are counted by columns
// (stackjoin, "One stack cycle"). On a cluster the same units take hours
// (census run --executor slurm; each unit a function of its id alone).
// Until the bundle holds every unit, symmetry.max_cpu_hours refuses 3x4
// unless it covers the projection of the units it lacks. Classes 11, 24
// and 141 from their parts equal their counts by KernelVersion 1 in full
// on one core (F = 105,760,316,347,631,875,915,776,
// 35,677,080,779,851,818,860,544 and 277,326,388,342,554,624), and part 0
// of 20 heavy classes gave the same sums before and after the speed-ups.
// census verify --recompute K recomputes K of the units of the default
// configuration, 3×4 among them, byte for byte.
//
// configs/default.yaml counts 3x4 and 4x3:
// 65,684,825,827,167,811,461,497,398,574 essentially different grids each,
// 289 of the 3,315 classes fixing a grid (Burnside sum
// 169,459,636,863,781,310,692,937,340,830,619,009,024), 52,839,156,679,654,929
// above the trivial bound ⌈F(identity)/|G|⌉ =
// 65,684,825,827,114,972,304,817,743,645. This count is new. Since
// F(identity) is no multiple of |G|, the Burnside sum's divisibility
// checks the other 316 terms: a sum off by anything but a multiple of
// 2,579,890,176 fails it.
// (stackjoin on 6×2, six stacks, as
// a third method for the 2×6 units: 2×6 classes 20, 31, 42, 53 and 132
// each ran past 90 s there, where the stack method takes seconds,
// 2026-11-27.)
//
// # Second counts
//
// Every class's F is counted by one method; where a second computation
// counts the same F, the classes table records it (check_method,
// check_fixed, check_cpu_seconds), the stage fails, naming the class, when
// the two differ, and essentially_different.parquet's verified_share is
// the fraction of the non-identity Burnside sum Σ|class|·F (the classes
// but the identity) whose F a second count equals: computed exactly
// (big.Rat), rounded down to 6 decimals, a second count sharing counting
// code with the first counting as half. Canonical forms (sides ≤ 6, above)
// check the whole count, not a class, and count for nothing here.
//
// The second counts are:
//
//   - The R-stack method (package stackjoin, check_method "stackjoin") on
//     the orientation with boxes of two columns, for every non-identity
//     class without transposition that admits a relabelling type of the
//     shapes with boxes of two rows or two columns (2×2 to 2×5 and their
//     transposes): 2×c takes the c×2 class of its transpose, as 6×2 takes
//     2×6's. These are the check units, check.<R>x2.class<index, 3 digits>
//     (check.5x2.class081.part07of64 for a part), listed after the first
//     counts. Its first count is the search (sides ≤ 9) or the stack method
//     (2×5, 5×2, which counts 5×2 by transposing to 2×5). It shares no
//     counting code with either: what they share is package symmetry (the
//     group, its classes and representatives), package perm (permutation
//     helpers) and search.SigmaTypes, the list of the relabelling cycle
//     types a class admits, over which every method sums; a type missing
//     from that list would be missed by both. It counts as whole.
//   - The 2×6 classes 10, 21 and 32 (and the 6×2 classes of their
//     transposes): their bundle rows are the stack method's, and the
//     run's recount by the sum over pattern orbits (above, check_method
//     "orbit-sum") is a second count, by code of the same package stacks
//     (its group and relabelling helpers shared; the orbit sum's exchange
//     terms and the pair method's stack counts its own): it counts as half.
//     The other 13 classes that the orbit sum recounts were counted by it
//     in the first place, so their recount checks the bundle, not the
//     method, and is not recorded.
//
// The 5×2 check units are kept in a second committed bundle,
// data/bundles/symmetry-checks.parquet (ChecksBundle; pipeline.Units'
// MoreBundles), each result ("stackjoin <F>", or a part's sums as for 3×4)
// a function of its id alone, added as each finishes, recomputed by
// `census verify --recompute` like the 12×12 units. The 21 heavy 5×2
// classes (checkHeavyCPUHours: the 18 not recounted before, 11, 23, 35,
// 46, 47, 58, 59, 68-73, 75 and 80-83, and 22, 34 and 74, counted in full
// once on 2026-11-29) are split into 64 parts each (stackjoin.FixedPart)
// and listed heaviest first by |class|·F (81, 82, 47, 83, 23, 46, 58, 59,
// 22, 68, 35, 34, 75, 11, 70, 80, 71, 72, 69, 73, 74; 73 and 74 fix no
// grid); a run lists them only when symmetry.check_max_class_cpu_hours
// covers their projection, and refuses, like the 12×12 units, when the
// units the bundle lacks need more than symmetry.max_cpu_hours. The other
// 64 5×2 classes with a relabelling type are one unit each.
//
// Of the 2×5 non-identity sum (67 classes fix a grid), the 21 heavy
// classes carry 96.4% (the 18 89.9%; class 81 alone 22.8%, 82 12.7%), the
// other 46 classes that fix a grid 3.6%. The bundle as committed holds
// all 64 light units, each equal to the stack method's F: 0.035503 of the
// sum. So with the defaults verified_share is 0.035503 for 2×5 and 5×2, 1 for 2×2 without transposition,
// 2×3, 3×2, 2×4 and 4×2, less for 2×2 with transposition (its transposed
// classes are not recounted), 0 for 3×3, 0.5 times the share of classes
// 10, 21 and 32 for 2×6 and 6×2, and 0 for 3×4 and 4×3: no second method
// runs on 3×4 yet (issue 47).
//
// # Checks
//
// A wrong answer fails these: the class sizes sum to |G| and every class's
// invariants, computed from its representative, name it alone (NewGroup);
// no class fixes more than F(identity) grids up to relabelling (g permutes
// them), so the count lies between ⌈F(identity)/|G|⌉ and F(identity);
// the Burnside sum is a multiple of |G|; for every class g the fixed counts
// of its powers sum to a multiple of its order (Burnside's lemma for ⟨g⟩,
// Group.CheckPowers; an error in F(g) that is not a multiple of ord(g)
// fails it); every fixed count of the stack method is a sum of multiples
// of the centraliser orders of the relabellings (stacks.Fixed); canonical
// forms agree for sides ≤ 6; and the result
// equals the literature's count for every shape it knows: 2 for 2×2 with
// transposition (OEIS A109741), 49 for 2×3 and 1,673,187 for 2×4 (OEIS
// A291188, both orientations), and 5,472,730,538 for 3×3 with
// transposition (Russell and Jarvis 2006). The one exception is the
// disputed 2×5 term of A291188 (above), whose difference is recorded.
//
// For 2×6 these checks are weaker: F(identity) is itself a multiple of |G|
// (and so of every element order), so the Burnside sum and CheckPowers
// pass with every other class at 0; they catch a wrong count, not a
// missing one. The counts rest on the stack method's tests and on the
// bundle, which verify --recompute recomputes.
//
// # Units
//
// One per shape and non-identity class, <shape>.class<index, 3 digits>
// (e.g. 3x3.class020); for 2x6 and 6x2 together, one per non-identity
// class of 2×6, 2x6.class<index, 4 digits> (e.g. 2x6.class0142), the 488
// with a relabelling type kept in the bundle (above); for 3x4 and 4x3
// together, one per non-identity class of 3×4 without a relabelling type
// (3x4.class0001, 2,998 of them), and one per class with one
// (3x4.class2887, 266) or 256 parts of each of the 50 heavy ones
// (3x4.class0104.part007of256), 13,066 in the bundle; and the check units
// of the second counts, check.<R>x2.class<index> (check.3x2.class004) or
// check.5x2.class<index>.part<k>of64 ("Second counts"). Each uses every
// core itself.
//
// # Artifacts
//
// data/symmetry_classes.parquet: one row per shape and conjugacy class, in
// config order and class order (class 0 is the identity).
//
//	column          type    meaning
//	shape           string  box shape RxC
//	transpose       bool    transposition is in the group
//	class           int32   class index
//	size            string  number of elements, decimal
//	order           int32   order of its elements
//	type            string  the class's invariants: the wreath types of the row and
//	                        column parts (for a transposed class, of ρ∘κ)
//	representative  string  a representative, numbered from 1, such as
//	                        "bands (2 3); rows in band 1: (1 2); stacks id; transpose"
//	fixed           string  F(g): grids X with X∘g a relabelling of X, divided by N!,
//	                        decimal
//	method          string  how fixed was counted: "identity" (grids / N!), "search",
//	                        "stacks" (the stack method: every class of 2×5, 5×2,
//	                        2×6 and 6×2) or "stackjoin" (the R-stack method: every
//	                        class of 3×4 and 4×3)
//	check_method    string  the second count of fixed ("Second counts"):
//	                        "stackjoin", "orbit-sum", or "" where there is none
//	check_fixed     string  its count, decimal, equal to fixed (else the stage
//	                        fails); "" where there is none
//	check_cpu_seconds double  CPU time the checks bundle records for the
//	                        second count's units; 0 for one made in the run
//
// data/essentially_different.parquet: one row per shape, in config order.
//
//	column                 type    meaning
//	shape                  string  box shape RxC
//	group                  string  the group used, e.g. "bands and rows within bands
//	                               (S3 wr S3) × stacks and columns within stacks
//	                               (S3 wr S3) ⋊ transposition"
//	group_order            string  |G|, decimal
//	classes                int32   conjugacy classes of G
//	classes_fixing         int32   classes with F > 0 (9×9: 27)
//	grids                  string  number of grids (from shapes)
//	identity_fixed         string  grids / N!
//	burnside_sum           string  Σ |class| · F, decimal
//	essentially_different  string  burnside_sum / |G|
//	checked_by             string  "canonical forms: …" for sides ≤ 6; "equal to the
//	                               literature: <source>" for 2×2 (with transposition),
//	                               2×3, 3×2, 2×4, 4×2 and 3×3 (with transposition);
//	                               "differs from the literature (<source>: <count>) by
//	                               <signed difference>: <why>" for 2×5 and 5×2; the
//	                               stack method when it counted some classes (for
//	                               2×6 and 6×2 with the bundle's path); for 3×4 and
//	                               4×3 the literature's grid count and the R-stack
//	                               method; joined by "; "
//	literature             string  the published count, decimal; "" where none is known
//	literature_source      string  where it is published ("" where none is known)
//	bundle_cpu_seconds     double  CPU time the committed bundle records for the
//	                               shape's bundled classes (2x6, 6x2: its 488
//	                               units; 3x4, 4x3: its 13,066); 0 for the other
//	                               shapes
//	verified_share         string  fraction of Σ|class|·F over the non-identity
//	                               classes whose F a second count equals (one
//	                               sharing code with the first as half), 6
//	                               decimals rounded down, e.g. "0.035503"; ""
//	                               when that sum is 0
//
// # Configuration
//
//   - symmetry.shapes (default [2x2, 2x3, 3x2, 2x4, 4x2, 3x3, 2x5, 5x2];
//     configs/default.yaml adds 2x6, 6x2, 3x4 and 4x3; smoke [2x2, 2x3, 3x2]): distinct
//     box shapes RxC with side 2 ≤ R·C ≤ 9, or 2x5, 5x2, 2x6, 6x2, 3x4 and
//     4x3; each but 3x4 and 4x3 also in shapes.shapes (2x6 and 6x2 also need
//     shapes.orbit_stacks).
//   - symmetry.max_cpu_hours (default 1): a number in [0, 8760], the
//     largest projected CPU time, in hours, of the 12×12 units the bundle
//     lacks, and of the 5×2 check units the checks bundle lacks, per family (2×6: each class projected at the mean of its 488
//     units, below; 3×4: each heavy class at its projection in
//     joinHeavyCPUHours, a part at its share, the others at their mean);
//     a configuration whose missing units
//     need more is refused, naming the cost.
//   - symmetry.check_max_class_cpu_hours (default 0.25): a number in
//     [0, 8760], the largest projected CPU time, in hours, of a class's
//     second count that a run lists: the heavy 5×2 classes (0.42 to 4.3
//     CPU-hours projected) are recounted only when it covers them (then
//     set symmetry.max_cpu_hours to cover those the bundle lacks).
//   - symmetry.transpose (default true): put transposition in the group of
//     square boxes (4×4: 2 essentially different grids with it, 3 without).
//
// # Cost
//
// Measured on the project's 2-core machine: 9×9 alone (274 classes) about
// 20 s, the slowest class (BenchmarkFixed9x9SlowestClass, transposition)
// 10.9 s; the default configuration (1,269 units) 50-79 s, 57 s within
// `make all` (2026-11-24). 2×5 with all 1,259 classes by the stack method:
// 52 s wall (2026-11-26, load 2-5 on the 2 cores), of which class 69 (the
// rows of every band and the stacks exchanged) 29 s, class 76 7 s, class
// 83 4 s, and the other 1,256 classes 12 s (1,174 of them at once); 2×4 by
// the stack method 0.5 s. The whole stage with 2x5 and 5x2 added to the
// default shapes, from an empty data directory: 5 min 55 s wall, 304
// CPU-seconds (2026-11-26, load 2-3 beside a background job using 1.3
// cores), before the literature check refuses 2×5.
// configs/default.yaml (2×2 to 2×6 and 3×4 with their transposes, 24,855
// units, 13,554 of them from the bundle) from its cached shapes stage:
// 143 s wall, 220 CPU-seconds, within `make all` (2026-11-29).
//
// 2×6 (2026-11-26, the 2-core machine shared at load 10-19, so that wall
// times were about 3 times the CPU times): the 4,516 classes without a
// relabelling type take milliseconds each (about a CPU-second each before
// stacks.Fixed returned at once on them); the bundle's 488 units range
// from under a CPU-second (class 20: 0.4 s; 31: 1.4 s; 9: 2.4 s; 53: 4.3 s)
// to many minutes: class 10 (the stacks exchanged, nothing else moved)
// ran past 21 CPU-minutes, unfinished; the stacks kept with the rows of every band swapped
// and κ = (12)(34)(56) about 4 minutes, the rows of every band exchanged
// 27 s (package stacks' measurements); classes 54, 95, 109, 120 and 131
// each ran past 5 to 15 CPU-seconds when stopped. 6×2 adds nothing. The
// bundle's rows record each unit's CPU time.
//
// Projected per class (2026-11-27, a survey of the stack method timing
// stratified samples of every class's terms, within about 20% of the
// classes measured in full): 479 of the 488 units about 20.7 CPU-hours, of
// which the 12 plain exchanges of σ type 2⁶ (classes 65, 98, 131, 87, 43,
// 32, 54, 21, 120, 10, 76 and 109: 12,106 down to 64 s) 16.8 and 51 classes
// that keep the stacks (σ type 2⁶, twisted counts) 3.8; the other 416
// together 4 minutes. A cache of canonical half tables within a class then
// cut class 21 from 1,678 to 735 CPU-s and class 10 from 4,456 to 407,
// before the orbit sum below took the plain exchanges over. Listing the
// assignments was 87% of class 37's profile (16,179,808 of them); adding
// each cycle's row counts packed in one word and keeping the assignments
// flat, without their rows, took the class from 159 to 67 CPU-s on one
// core and its peak memory from about 3.5 GB to 1.2 GB (2026-11-27; the
// rest is mostly the binary search that joins them into classes, which an
// open-addressing index made slower, 82 CPU-s, the searches being local).
//
// Measured in the bundle run (2026-11-27, class order, the machine shared
// with CI): the 16 orbit-sum classes about 8 CPU-seconds each (most of it
// planning the orbits); the σ-type-2⁶ classes that keep the stacks, from
// class 132 on, 16, 74, 443, 141, 130, 486, 200, 778, 531 and 213
// CPU-seconds (132 to 141), and 13 to 843 (143 to 149; 148 the most): their time is in the twisted stack counts, not the
// listing, so the projection of 3.8 CPU-hours for that family stands.
//
// Four units (classes 142, 153, 164 and 175) admit a relabelling that
// fixes every symbol's row set: about 10^9 assignments each, beyond the
// stack method's listing. Like the 12 plain exchanges, they exchange the
// stacks with ρ² = id and κ₁κ₀ = id, and package stacks counts all 16 by a
// sum over the pattern orbits instead (stacks.FixedFromOrbits, checked
// against the stack method on every such class of 2×2 to 2×5, also with
// the E(O) read from the shapes stage's artifact), which needs the pair
// method's E(O) for all 63,199 orbits: about 3.7 CPU-hours, in the shapes
// stage's resumable stack-count units (shapes.orbit_stacks); given them,
// each class takes 12 to 97 ms. Classes 10, 21 and 32 are
// in the bundle from the stack method, so recomputing them (census verify
// --recompute) compares the two methods. The five classes the survey had
// also set aside (174, 192, 1912, 1948 and 1951) list at most 6,799
// assignment classes and take the stack method about 4 minutes (174) or
// seconds (package stacks' TestTermTimes2x6, 2026-11-27). So every class
// has a method now (about 4 CPU-hours projected here, projectedCPUHours,
// beside the shapes stage's 3.7).
//
// The bundle as committed (2026-11-27, over three sessions, the machine
// often shared): its 488 rows record 23,455 CPU-seconds (6.5 CPU-hours),
// of which the stack method's runs of classes 10, 21 and 32 (before the
// orbit sum took them over) 10,992, the classes 132 to 173 (σ type 2⁶, the
// stacks kept) 11,551, up to 1,420 for class 150, and the other 443 912. Given
// the bundle, the default run's symmetry stage (every class of 2×6 and
// 6×2 from the bundle or computed at once, the 16 orbit-sum classes
// recounted, beside the smaller shapes) took 140 s wall, 204 CPU-seconds
// (2026-11-27, a test of the same size running beside it).
package symmetry
