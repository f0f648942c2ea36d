// Package stackjoin counts the grids fixed by an element of the symmetry
// group (package symmetry) up to relabelling, F(g), by joining twisted stack
// counts over row-set configurations: the stack method of package stacks
// generalised from boxes of 2 rows to boxes of any number R of rows (R
// stacks), aimed at the classes of 3×4 (12×12) that the search cannot
// finish.
//
// Contract: Fixed(ctx, s, e, budget) returns F(e) exactly, as defined in
// package symmetry, for any element e without transposition of a shape
// whose stacks fit the state of the stack count (C·N ≤ 64, N ≤ 16), or
// ErrBudget when the work passes the budget (see Verification).
//
// # The method
//
// Shape R×C, side N = R·C: C bands of R rows, R stacks of C columns. Let
// g = (ρ, κ), ρ on the rows, κ on the columns, π the permutation of the
// stacks that κ induces and κ_t: stack t's columns → stack π(t)'s. Stack t
// is the N×C array S_t(r, j) = X(r, t·C+j); X∘g = σ∘X reads
//
//	S_{π(t)}(ρ(r), κ_t(j)) = σ(S_t(r, j))   for every stack t.
//
// Row sets. P_t(r) is the set of C symbols of row r in stack t. In a grid,
// each band's R rows partition the symbols inside every stack (the box),
// and the R sets of a row partition them across the stacks (the row). The
// equations give P_{π(t)}(ρ(r)) = σ(P_t(r)).
//
// Stack cycles. For a cycle (t, π(t), …) of length ℓ of π, the stacks
// after t are images of S_t, which must satisfy S_t(ρ^ℓ(r), κ^ℓ(j)) =
// σ^ℓ(S_t(r, j)), and every image of a valid stack is valid. So, with one
// representative t per cycle,
//
//	#{X : X∘g = σ∘X} = Σ_P  Π_t E_{(ρ^ℓ, κ^ℓ|t), σ^ℓ}(P_t),
//
// over the configurations P (a C-set for every stack and row) with the box
// and row partitions and P_{π(t)}(ρ(r)) = σ(P_t(r)), where E_{h,τ}(Q) counts
// the stacks with row sets Q fixed by h = (ρ', κ') up to τ: the proper
// C-edge-colourings, by the columns, of the graph joining each row to its C
// symbols (each symbol lies in one row of each band), with col(τ(x), ρ'(r)) =
// κ'(col(x, r)). For g = identity this is the three-stack ("gangster")
// identity grids = Σ E(σ₁)E(σ₂)E(σ₃) of package triple; for R = 2 it is
// both families of package stacks.
//
// E by a dynamic programme. The symbols are placed one τ-cycle at a time:
// the first symbol x of a cycle takes a bijection from its C rows to the C
// columns, which fixes the columns of τ^k(x) in ρ'^k(r) as κ'^k(col(x, r)),
// and the cycle must close (col(x, ρ'^m(r)) = κ'^m(col(x, r)) for the
// cycle length m). The state is the set of rows already holding a symbol in
// each column, C masks of N bits. E is memoised per configuration of the
// stack.
//
// Three reductions make E cheap (package stackcount; TestReducedEMatchesPlain
// compares every E with the plain programme). (1) A column permutation c
// commuting with κ' maps the completions of a state onto those of its
// image, so each layer keeps one state per orbit. The placed cells are
// closed under (ρ', κ'), so a κ'-cycle of columns (j, κ'(j), …) holds the
// row sets m, ρ'(m), …: the canonical image starts every cycle with its
// least row set and sorts those within each cycle length. (2) Only rows
// partly filled tell states apart, so the τ-cycles are placed greedily in
// the order that leaves the fewest such rows. (3) A τ-cycle's placements
// depend only on the rows of its first symbol and are memoised by them.
// On 3×4 the layers then hold a few states and a unit of the heavy classes
// costs 6-35 times less (class 120 about 10⁴ times).
//
// E's memo is keyed by an image of the configuration under row
// permutations y (of S_R wr S_C, row 0 not fixed) commuting with ρ': the
// stack S'(y(r), j) = S(r, j) is fixed by (ρ', κ') up to τ whenever S is,
// so E(P∘y⁻¹) = E(P). The image (rowkeys.RowNormal) is the least under the
// y acting on one ρ'-orbit of bands at a time, then with the bands fixed
// by ρ' with equal row permutations sorted; it need not be canonical to be
// exact. On 3×4 it cuts the distinct second-stack counts about fourfold.
// Where τ is the identity (a stack exchange with σ an involution, a stack
// 3-cycle with σ of order 3), E is also kept by every relabelling of the
// symbols, and the key is the stack up to relabelling, canonical when
// ρ' = id as well (rowkeys.RelabelKey; for stacks of two columns, the
// cycle sizes of the rows joined by the symbols). When κ' = id too the
// count is the plain stack count, one function for every class. Where τ
// is not the identity, E is kept by the relabellings that commute with τ,
// and the key is the stack up to those (rowkeys.CycleKey: per τ-cycle its
// symbols' signatures from the least rotation, the cycles sorted). The
// package rowkeys states what each key saves. Every count is kept for the
// whole process by its twist (ρ', κ', τ) and key (stackCounts, two
// generations of 2^24), so the parts of a class computed one after
// another, and the classes sharing a twist, compute each count once.
//
// Enumeration. The configuration is filled one orbit of ⟨(π, ρ)⟩ on
// (stack, row) at a time: choosing P_t(r) = A fixes P at the orbit's other
// cells as σ^k(A), and A must satisfy σ^L(A) = A for an orbit of length L.
// The stack cycles are filled one after another; when one is complete its
// E is computed (a zero prunes), and the sum is the nested
// Σ_{P_1} E_1 · Σ_{P_2} E_2 · …, as the three-stack method nests its first
// stack and its splits. Below the first cycle, the later cycles' sum
// depends only on the symbols each row has used, and is kept by the row
// permutations y below (P ↦ P∘y⁻¹ on the later cycles): where two stacks
// or more follow, it is memoised below each first row, under the sharing
// depth, by those symbols brought down by y's row swaps (walker.later, in
// 128-bit words; TestLaterMemoMatches; never on 3×4).
//
// Relabellings. F(g) = Σ_λ #{X : X∘g = σ_λ∘X}/|Z(σ_λ)| (see package
// search). Z(σ_λ) acts on the configurations, keeping E and the constraints,
// so the sum over configurations with first row (P_0(0), …, P_{R-1}(0)) = Q
// depends only on the Z(σ_λ)-orbit of Q:
//
//	#{X : X∘g = σ_λ∘X} = Σ_{Q ∈ orbit representatives} |Z·Q| · S(Q),
//
// S(Q) the sum over the configurations with first row Q. The N!/(C!)^R
// ordered partitions Q (7,484,400 for 6×2) fall into orbits by a complete
// invariant (per cycle length of σ_λ, the multiset of Q's words along
// those cycles up to rotation), each met first at its least Q. The
// division by |Z(σ_λ)| is checked to be exact.
//
// Row and symbol symmetries. A row permutation y (in S_R wr S_C) with
// yρ = ρy and y(0) = 0, and a relabelling z with zσ = σz and z(Q_t) = Q_t
// for every stack t (the stabiliser Z_Q of the first row in Z(σ)), carry
// the grids fixed by g with σ and first row Q onto themselves
// (X ↦ z∘X∘y⁻¹), mapping the first stack cycle's configuration P to
// z∘P∘y⁻¹ and keeping every E (y commutes with ρ^ℓ, z with σ^ℓ). So with
// H = Y × Z_Q only the configurations P of the first stack cycle that are
// least among their images (row by row) are continued, weighted by their
// orbit size |H|/|Stab_H(P)|:
//
//	S(Q) = Σ_{P least} |H·P| · E_1(P) · Σ_{later cycles} Π E,
//
// and below each such P the second cycle's configurations are taken the
// same way up to Stab_H(P), the symmetries left (its weight
// |Stab_H(P)|/|Stab_H(P, P')|). For ρ = id on 3×4, |Y| = 2·6³·3! = 2,592;
// Z_Q has up to 512 elements for σ of type 2⁶ (dropped when |Y|·|Z_Q|
// passes 2^22). The least configurations of the first cycle are the units of work
// that Project counts and samples. Below the sharing depth (FixedPart) a
// partial configuration of the first cycle is dropped as soon as a symmetry
// maps the rows it has set below themselves (prefixLeast: every completion
// would be rejected), with at most 2^16 symmetries per node; kept above
// that depth, the subtrees dealt out to parts, and so every part's sums,
// are those without it (TestFixedWorkersMatchesFixed). Both tests read an
// image row by row, the row permutations sorted by their inverses
// (rowSymWalk), so every y whose inverse agrees with one already read up
// to the deciding row is skipped with it.
//
// Families. Every element without transposition is handled the same way:
// π = id (every stack kept, the per-stack twists joined over the row
// partitions: the three-stack method with twisted stack counts), π a
// transposition (one stack the image of another, fixed by (ρ², κ²) up to σ²,
// joined with the third) and π a 3-cycle (one free stack, fixed by
// (ρ³, κ³) up to σ³, its images the other two).
//
// One stack cycle, by columns (package cyclic). When π cycles all R stacks,
// g^R keeps stack 0 cell by cell and ρ keeps every band, a fixed grid is
// its stack 0, any valid stack whose bands meet a condition on the rows of
// each σ-orbit of symbols (the grid's rows), and the count is a sum over
// the column permutations of the symbols σ moves of per-band weights times
// the ways to place the fixed symbols, C!^(s−1) terms for s symbols moved
// (package cyclic states the argument). FixedPart counts the σ types with
// s ≤ cyclic.MaxSpecial (6) so, whole, in part 0; the others are enumerated
// and shared as above. On 3×4 only class 145 (rows cycled in every band,
// stacks cycled) qualifies: 16 s on one core. Its σ = id count is b(4,3)
// (TestCyclicIdentityIsStacks); on 2×2 to 3×3 every σ type of every such
// class agrees with the enumeration (TestCyclicMatchesEnumeration).
//
// Parallel and split work. The enumeration (the first stack cycle's
// configurations, below each the next cycle's) meets the same nodes in the
// same order everywhere, so its subtrees at a depth chosen by counting
// them can be dealt out: FixedWorkers to goroutines, FixedPart to units of
// work in other processes (the stage's 3×4 parts), whose sums Combine
// adds. Each enumerates the nodes above that depth (the stack counts are
// the process's); the count is the same for any number of them
// (TestFixedWorkersMatchesFixed; BenchmarkFixedWorkers3x4: class 11 in
// 14.6 to 21.8 s on one worker, 12.1 s on two).
//
// # Verification
//
// Fixed equals search.Fixed on every class without transposition of 2×2,
// 2×3 and 3×2 (with the identity against the known grid counts), on all 22
// non-identity classes without transposition of 9×9 that fix a grid
// (STACKJOIN_9X9_FULL=1; 18 in the default test) and on 122 classes of 3×4
// (STACKJOIN_3X4_ALL=1; 16 in the default test), of every family: stacks
// kept, exchanged or cycled, bands kept or permuted. Transposition is the
// search's.
//
// # Cost
//
// The work is the enumeration of the first stack cycle's least
// configurations (the units) and, below each, the later cycles'; Project,
// TestPartSurvey and TestKnuthProject project a class's cost. The bundle
// records each 3×4 unit's CPU time: the 266 light classes 41 CPU-seconds in
// all, the 50 heavy ones 10.2 CPU-hours (class 116 2.5).
//
// On 5×2 (check units: 21 heavy classes in 64 parts) part 3 of class 81
// fell from 88 to 4.0 CPU-s (two-column key, sorted bands, the later
// cycles' pointer-free memo keyed up to row swaps; BenchmarkCheckPart5x2).
// On 6×2 the 350 lightest classes with a relabelling type equal the
// stage's F in 7.0 CPU-minutes; heavy ones are split by whole first rows
// (FixedPartByFirstRows), but part 5 of 65,536 of class 172 (49% of the
// sum) passed 150 CPU-s: no projection yet.
//
// On 4×3 the transposes of 3×4's heavy classes (same F; bandjoin maps
// them) are out of reach (TestKnuthProject, seed 1; on 3×4 class 11 it
// projects 6.5 ± 13 s, measured 15-22): class 107 (3×4 115) 9.1·10⁹ ±
// 5.7·10⁹ units, 7.5·10⁴ ± 4.3·10⁴ CPU-hours; 116 7.9·10³ ± 3.4·10³; 101,
// 103, 100, 109, 110, 108 (37, 63, 24, 25, 38, 12) 320 to 1,500 each,
// lower bounds: exchanged stacks leave the first stack's rows untwisted,
// kept ones two stacks below each unit.
package stackjoin
