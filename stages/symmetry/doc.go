// Package symmetry is the stage that counts essentially different grids:
// grids counted once per orbit under the symmetries of the box shape and
// the relabellings of the symbols (9×9: 5,472,730,538). It requires shapes;
// the counting methods are in stages/maths/symmetry and its subpackages,
// whose docs state their formulas.
//
// # Formula
//
// G is the group of cell symmetries: bands and rows within bands (S_R wr
// S_C), stacks and columns within stacks (S_C wr S_R), and transposition
// when the boxes are square and symmetry.transpose is true (9×9: |G| =
// 3,359,232). Relabelling acts freely, so by Burnside's lemma (Russell and
// Jarvis 2006)
//
//	essentially different = (1/|G|) Σ_classes |class| · F(g)
//	F(g) = #{X : X∘g is a relabelling of X} / N!
//
// over the conjugacy classes of G (from the cycle types of the wreath
// products). F(identity) = grids / N!, from the shapes stage's count (3×3:
// exact; 3×4: the literature's, Pettersen and Silver 2006, until the
// pipeline counts it).
//
// # Methods
//
// Each class's F is counted by one method (the classes table's method
// column):
//
//   - search (sides ≤ 9): the grids fixed by g up to one relabelling σ per
//     cycle type, found by a meet-in-the-middle search over the orbits of
//     ⟨g⟩ on the cells (package search).
//   - stacks (2×5, 5×2, 2×6, 6×2): a fixed grid is a pair of stacks; F is
//     a sum over σ-equivariant assignments of row sets of products of
//     twisted stack counts (package stacks). The 16 2×6 classes that
//     exchange the stacks by an involution are counted by its sum over the
//     pair method's pattern orbits (stacks.FixedFromOrbits), with each
//     orbit's stack count from the shapes stage's data/orbit_stacks.parquet.
//   - stackjoin (3×4, 4×3): the R-stack method, a twisted form of the
//     three-stack gangster count (package stackjoin).
//
// A transposed shape (5×2 from 2×5, 6×2 from 2×6, 4×3 from 3×4) takes each
// class's count from the class holding its transpose, the two checked to
// have the same size and order. For sides ≤ 6 the stage also counts
// canonical forms (each grid with first row 1…N mapped through G, the
// least relabelled image kept), code shared with no Burnside method, and
// fails unless the totals agree.
//
// # Second counts
//
// Where a second computation counts a class's F, the classes table records
// it (check_method, check_fixed, check_cpu_seconds) and the stage fails,
// naming the class, unless both agree. verified_share is the fraction of
// the non-identity Burnside sum Σ|class|·F whose F a second count equals,
// exact (big.Rat), rounded down to 6 decimals; a second count that shares
// counting code with the first counts half. The second counts:
//
//   - stackjoin on the orientation with boxes of two columns (c×2), for
//     every class of 2×2 to 2×6 and their transposes that admits a
//     relabelling type (units check.<R>x2.class<index>, heavy 5×2 classes
//     in 64 parts, check.5x2.class081.part07of64; 6×2 ones in parts too,
//     check.6x2.class0172.part007of256, once their parts are timed: see
//     package symchecks and stackjoin's doc, # Cost). It shares with search and
//     stacks only their inputs: G's classes (representative, size, order;
//     package symmetry, with package perm) and search.SigmaTypes, the
//     relabelling types every method sums over. Each input has its own
//     check by code that does not use it: the classes of 2×5, 2×6, 3×4 and
//     transposes are compared with the groups listed element by element
//     (package symmetry's TestGroupClassesOfNewShapesByElements), the types
//     of every class of those shapes with the rows', columns' and boxes'
//     images (search's TestSigmaTypesByUnitImages). Counts whole.
//   - bandcols for 6×2 classes 172, 173 and 174 (2×6 classes 142, 153 and
//     164: 49%, 8.2% and 2.3% of the 2×6 sum), in place of stackjoin:
//     package bandcols counts the 2×6 transpose, an involutive stack
//     exchange, band by band (each symbol's column, then the cells'
//     orientations), one unit per σ type (check.6x2.class0172.part3of7),
//     all seven units of each in (172, 173, 174: 2.64, 3.02 and 2.93
//     CPU-hours, peak 1.9 GiB, 581 MiB and 362 MiB; 173's parts 0–6 took
//     5, 15, 268, 2,317, 3,695, 3,264 and 1,305 CPU-s); a class is listed,
//     and counts, only once all seven are in. It shares only G's classes with stacks (it finds
//     the relabelling types itself: σ is an involution).
//   - multisets for every class of 2×2 to 2×5 (and transposes) that
//     exchanges the stacks by an involution (ρ² = id, κ₁κ₀ = id): package
//     multisets sums package pair's stack counts (the shapes stage's
//     counter) over the pattern multisets, sharing only G's classes with
//     the first count. On 2×5 these six classes carry 46% of the
//     non-identity sum. Counts whole; beside a stackjoin count the table
//     says "stackjoin+multisets".
//   - orbit-sum for the 2×6 classes 10, 21 and 32, whose bundle rows are
//     the stack method's: code of the same package, so it counts half.
//
// # Checks, and the wrong answers they pass
//
// Class sizes sum to |G|; F(g) ≤ F(identity); the Burnside sum is a
// multiple of |G|; the fixed counts of the powers of each g sum to a
// multiple of ord(g) (Group.CheckPowers); stacks' terms are multiples of
// the centralisers of the relabellings; and the result equals the
// literature wherever it has one (2×2 with transposition, 2×3, 2×4, 3×3),
// except the disputed 2×5 term of OEIS A291188, whose difference the
// checked_by column records. These pass an F off by a multiple of its
// centraliser order, and when F(identity) is a multiple of |G| (2×6) a
// class dropped entirely: only the second counts catch those.
//
// # Units and bundles
//
// One unit per shape and non-identity class, <shape>.class<index>
// (3x3.class020). 2x6 and 6x2 share the 2×6 classes' units
// (2x6.class0142); 3x4 and 4x3 share the 3×4 classes' (3x4.class2887),
// the 50 heaviest in 256 parts (3x4.class0104.part007of256). The 488 2×6
// units with a relabelling type and the 13,066 3×4 units are kept in the
// committed bundle data/bundles/symmetry-12.parquet; the check units of
// 5×2 and 6×2 in data/bundles/symmetry-checks.parquet. Each result is a function of
// its id; a run takes the bundles' units, computes the rest (each added as
// it finishes) and refuses when those need more than symmetry.max_cpu_hours.
// The bundles' SHA-256 are in the fingerprint and the lock; `census verify
// --recompute` recomputes units byte for byte.
//
// # Artifacts
//
// data/symmetry_classes.parquet: one row per shape and class (class 0 the
// identity), in config and class order.
//
//	shape              string  box shape RxC
//	transpose          bool    transposition is in the group
//	class              int32   class index
//	size               string  elements in the class, decimal
//	order              int32   order of its elements
//	type               string  its invariants: the wreath types of the row and column parts
//	representative     string  e.g. "bands (2 3); rows in band 1: (1 2); stacks id; transpose"
//	fixed              string  F(g), decimal
//	method             string  identity, search, stacks or stackjoin
//	check_method       string  stackjoin, bandcols, multisets, stackjoin+multisets, orbit-sum or ""
//	check_fixed        string  the second count, decimal, or ""
//	check_cpu_seconds  double  CPU time the checks bundle records for it (0: made in the run)
//
// data/essentially_different.parquet: one row per shape, in config order.
//
//	shape                  string  box shape RxC
//	group                  string  the group, e.g. "bands and rows within bands (S3 wr S3) × …"
//	group_order            string  |G|, decimal
//	classes                int32   conjugacy classes of G
//	classes_fixing         int32   classes with F > 0
//	grids                  string  number of grids
//	identity_fixed         string  grids / N!
//	burnside_sum           string  Σ |class| · F, decimal
//	essentially_different  string  burnside_sum / |G|
//	checked_by             string  the checks above that apply, joined by "; "
//	literature             string  the published count, or ""
//	literature_source      string  where it is published, or ""
//	bundle_cpu_seconds     double  CPU time the bundle records for the shape's units
//	verified_share         string  as above, e.g. "0.035503"; "" when the sum is 0
//
// data/symmetry_corrections.csv: for each shape whose count differs from
// its literature value (2x5, 5x2 against OEIS A291188), one row per class
// that fixes a grid, for the sequence's editors. Each row repeats its
// shape's group_order, burnside_sum, essentially_different, literature
// and literature_source, then gives class, size, order, representative,
// fixed, method, check_fixed, check_method and term = size·fixed; the terms
// of a shape sum to burnside_sum. Only the header when no count differs.
//
// # Configuration
//
//   - symmetry.shapes (default [2x2, 2x3, 3x2, 2x4, 4x2, 3x3, 2x5, 5x2];
//     configs/default.yaml adds 2x6, 6x2, 3x4, 4x3; smoke [2x2, 2x3, 3x2]):
//     distinct shapes with side 2 ≤ R·C ≤ 9, or 2x5, 5x2, 2x6, 6x2, 3x4,
//     4x3; each but 3x4 and 4x3 also in shapes.shapes (2x6 and 6x2 need
//     shapes.orbit_stacks).
//   - symmetry.max_cpu_hours (default 1): [0, 8760], the most projected
//     CPU-hours of units the bundles lack that a run may compute.
//   - symmetry.check_max_class_cpu_hours (default 0.25): [0, 8760], the
//     most projected CPU-hours of one class's second count that a run
//     lists (the 21 heavy 5×2 classes took 0.01 to 0.34 each; the 350
//     light 6×2 classes 0.00034 CPU-hours each, the heavy ones only once
//     their parts are timed); a class whose units the bundle holds whole
//     is listed whatever its projection.
//   - symmetry.transpose (default true): transposition in the group of
//     square boxes (4×4: 2 essentially different grids with it, 3 without).
//
// # Cost
//
// On the project's 2-core machine, configs/default.yaml's stage (24,855
// units, 13,554 from the bundles) takes about 110 s wall, 175 CPU-seconds;
// 9×9 alone about 20 s. The bundles record their units' CPU time
// (bundle_cpu_seconds): 2×6 6.5 CPU-hours, 3×4 10.2, the 5×2 checks
// check_cpu_seconds. The 13 heavy 5×2 recounts that no other method makes
// took 0.62 CPU-hours in all (projected 45 before the R-stack kernel's
// speed-up, stackjoin's doc); the other 8, a third count of classes the
// multisets recount, 0.85 (projected 25 before). The 350 light 6×2 recounts, about
// 7.0 CPU-minutes in all, run in any run with 2x6 or 6x2 until the
// bundle keeps them; the 138 heavy ones, which carry all of the 2×6 sum
// but under 10^-9, are not yet listed (stackjoin's doc, # Cost).
package symmetry
