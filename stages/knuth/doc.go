// Package knuth is the stage that estimates the number of Sudoku grids of
// each box shape with Knuth's random-walk estimator and its variants (the
// maths is package walks): for every shape and variant of its configuration
// it draws the samples with package sampling and writes one summary row, a
// convergence trace and, optionally, a coverage study. The estimators never
// read the exact stages' artifacts nor the literature's counts: the figures,
// the report and the tests compare them.
//
// # Estimators
//
// A walk fills the grid one placement at a time, each drawn uniformly from
// the options of the constraint the variant's order picks; the sample is the
// product of the numbers of options, or 0 at a dead end: unbiased for the
// number of grids. The variants:
//
//   - rowmajor: reading order.
//   - random: a fresh uniform cell order per walk.
//   - mrv: the empty cell with the fewest candidates, lowest position on ties.
//   - cover: exact-cover order over cells and unit–symbol pairs, as Dancing
//     Links branches.
//   - hybrid: knuth.hybrid_k placements in knuth.hybrid_order, then an exact
//     count of the subtree with grid.Counter.
//   - se, stochastic enumeration (Purdom's partial backtracking): up to
//     knuth.se_budget partial grids go down the knuth.se_order tree
//     together; at each level all C children of the kept set are counted,
//     m = min(B, C) of them are kept uniformly at random, and a common weight
//     is multiplied by C/m; the sample is the final weight times the number
//     of grids reached. Every child is kept with probability m/C, so the
//     estimate is unbiased; budget 1 is Knuth's walk. On 16×16 (mrv, B = 100)
//     the relative variance per sample falls from about 2,500 (mrv) to 0.92,
//     about 5.8× more efficient per CPU second.
//   - lookahead: stochastic enumeration in mrv order that keeps children with
//     unequal probabilities. A child that leaves a peer cell without a
//     candidate is dropped (forward checking); each other child of a node of
//     weight w gets the score w·exp(α·Σ log |candidates|) over its empty
//     cells (α = knuth.lookahead_alpha); B of them are kept by systematic
//     sampling in a random order with inclusion probabilities π ∝ score
//     capped at 1, and a kept child's weight is w/π (Horvitz–Thompson, level
//     by level; the argument is in stages/maths/walks/lookahead.go).
//   - bandmrv, bandse: the mrv walk or se started from a first band (rows
//     0…R−1) drawn uniformly among all b(R,C) valid bands (walkbands.FirstBand,
//     box height R ≤ 5: closed forms up to 3, a count of the set arrays
//     symbol by symbol for 4 and box by box for 5, whose tables take 33 s
//     and 270 MB once per process on 5×5), multiplied by b: the
//     walk's own weighting of the first band, a product of branching factors
//     that varies from band to band, becomes the constant b (unbiased:
//     E = Σ_bands (1/b)·b·completions). On 9×9, relvar × work falls from
//     4.5·10³ (mrv) to 2.7·10³ (bandmrv) and from 4.8·10³ (se, B = 30) to
//     2.0·10³ (bandse, B = 30). On 16×16 (B = 100, 3,000 samples, one core
//     shared, 2026-11-27) relvar × ms per sample falls from 7.6 (se: 0.82,
//     9.3 ms) to 3.4 (bandse: 0.50, 6.8 ms); on 20×20 (B = 300, 120
//     samples) from 58 to 29, and in 800 samples se met one sample about
//     200 times the mean (relvar 56), bandse none (relvar 1.1); but a long
//     run of 48,000 bandse samples (12 units, 0.65 CPU-hours, 2026-11-27,
//     in the bundle, not listed) met its own: relvar 36, largest share
//     2.6%, k̂ 0.85, ±5.4% (estimate 3.19·10^175, beside se's 3.13·10^175
//     ±1.16% in 148,000 samples, 3.157·10^175 ±1.46% in 216,000), so on
//     20×20 the uniform band does not remove the heavy tail. On 25×25 the
//     uniform band does not tame the tail: in 200 samples (B = 300) both
//     have a sample far above the others (relvar 12 for se, 198 for
//     bandse, whose band costs 47 ms a draw), and the deciles of log10 of
//     60 samples are alike (median 307.4 and 307.7, 10% to 90% about 306 to
//     308.6).
//   - bandmrvlast, bandselast: conditional Monte Carlo on the last band.
//     From the uniform first band they fill, in mrv order, only the cells of
//     the upper bands (rows 0…N−R−1) and then count the last band's
//     completions exactly (stages/maths/walkbands/lastband.go): each column then
//     lacks a fixed set of R symbols; for R = 2 the completions are
//     2^(cycles of the graph with the columns as vertices and the missing
//     symbols as edges), for R = 3 the sum of that over the top row's systems
//     of distinct representatives, all in checked 64-bit integers (0 when two
//     columns of a box lack the same symbol). The sample is the walk's (or
//     se's) weight times that count (for se, Σ over the kept nodes); unbiased
//     because the leaves of the upper-band tree are scored by their exact
//     numbers of completions. Box height R ≤ 3 (walks.MaxLastBandHeight).
//   - stacks: no walk (walks.Stacks). Each symbol meets a stack (C columns)
//     once per band and once per column, so it picks a bijection from the
//     bands to the stack's columns, each (band, column) taking R symbols:
//     the stack's structure, S(R,C) of them. Given the R stacks' structures,
//     band b is a proper R-edge-colouring, by its rows, of the R-regular
//     bipartite graph H_b joining each column to the symbols it holds in b,
//     so grids = Σ_structures Π_b EC_R(H_b) (exact on 2×2, 2×3, 3×2 and
//     1×4 in the tests). A sample draws the structures uniformly (as uniform
//     bands of the transposed shape, walkbands.FirstBand) and multiplies
//     S^R by, per band, EC_R(H_b) counted exactly for R ≤ 3, and for R ≥ 4
//     pm(H)·EC(H − M) with M a uniform perfect matching (a memo over the
//     used symbols), down to degree 3: unbiased, never 0, and with a light
//     tail, because the colourings of regular graphs vary little. Box width
//     C ≤ 5, R ≤ 8, N ≤ 32. One core, 2026-11-29, relvar and time per
//     sample: 9×9 0.37 and 32 µs, 12×12 (3×4) 0.58 and 0.17 ms, 16×16 0.59
//     and 2.7 ms (relvar × ms 1.6, against bandse's 7.8), 15×15 0.82 and
//     5.2 ms, 20×20 0.59 and 73 ms (relvar × s 0.043, against se's 1.6
//     with k̂ 0.87). On 25×25 a sample counts about 1.6·10^8 memo states
//     (an array of 384 MB per core) and takes 12 s alone on a core (15–20
//     s on the shared machine); five samples had log10 308.48 to 308.82.
//   - stackshybrid: stacks with each perfect matching drawn in part
//     (walks.NewStacksHybrid), where stacks' memo leaves the cache: the
//     memo counts 18 of the columns (walks.StacksHybridColumns) on the
//     symbols the others left and draws them uniformly; the others are
//     drawn first, the column with the fewest free symbols next, taking
//     symbol y with probability ∝ 1/r_y (r_y the columns still to match
//     that hold y), and the sample is divided by the probability of what
//     was drawn (0 at a dead end): Knuth's estimator over those columns
//     with exact leaf counts, so unbiased (tested on 4×2, 4×3 and a
//     20-column matching). Up to N = 18 it is stacks. One core,
//     2026-11-29: 20×20 relvar about 0.9 at 28 ms, 25×25 relvar 2.42 over
//     its long run at 42 ms (relvar × s 0.10, against stacks' 12 s a
//     sample).
//
// Which shapes a variant runs on: every shape with a key RxC in
// knuth.samples, plus those with a key RxC/variant for it, less those whose
// RxC/variant key is 0. configs/default.yaml runs every variant on 4×4, 6×6
// and 9×9 grids and all but bandmrv and the last-band variants on 16×16
// (whose boxes are 4 high); beyond 9×9 it runs se on 2×5, 2×6, 3×4, 3×5, 4×5
// and 5×5, bandse on 2×5, 2×6, 3×4, 3×5 and 4×5, bandselast on 2×5, 2×6 and 3×4, and
// stacks on 2×5, 3×4, 3×5 and 4×5, and stackshybrid on 4×5 (25×25's
// figures come from its long run; a transposed shape has the same count
// and is left out). The paper (the report stage)
// reads data/knuth_long.parquet too: a shape with a long run (see Long
// runs) takes its headline interval from it, with its samples and CPU
// time; the others keep the default runs'. configs/default.yaml lists the
// long runs whose units the committed bundle holds; those planned (see
// Cost) are 9×9 bandse to ±0.05%, 15×15 bandse to ±1%, 16×16 bandse to
// ±0.1% (reached: 8,672,000 samples, ±0.097%) and 20×20 se to ±1% (not
// reached: 432,000 samples give ±1.93%, and the heavy tail keeps the
// interval from narrowing, below), then 20×20 stacks to ±1% (reached:
// 36,000 samples in 9 units, 0.72 CPU-hours, 3.191·10^175 ±0.91%, k̂ 0.20;
// its interval is the paper's);
// 25×25 to ±5% had no estimator in reach (bandse: 20,000 samples gave
// ±119%, below; se's 36,000 samples, 1.02 CPU-hours, give ±13.4%,
// unreliable) until stackshybrid, whose long run reaches the moonshot
// ±1%: 100,000 samples in 25 units, 1.16 CPU-hours, 4.3668·10^308
// ±0.965% (95%, [4.3247, 4.4090]·10^308), relvar 2.42, ESS 29,220, the
// largest sample 0.15% of the sum, k̂ 0.33; its interval is the paper's
// and covers the heuristic's 4.3657·10^308 (ratio 1.0003).
//
// Every row carries the diagnostics of its samples as weights (ess,
// max_weight_share, pareto_k, unreliable: montecarlo.Diagnostics); the paper
// marks an interval of n samples with k̂ > min(1 − 1/log₁₀ n, 0.7) with ‡
// (Vehtari et al.'s threshold: below 0.7 on fewer than about 2,200 samples,
// where k̂ is itself uncertain) and takes a headline figure from it only
// when every estimate of its shape is so marked, a long run first.
//
// # Coverage study
//
// With knuth.coverage_runs > 0 the stage also draws, for every shape and
// variant of knuth.coverage_samples, that many independent short runs (run i
// is block i of its own random stream, with the run's samples as block size,
// so the runs are independent of each other and of the main runs) and
// writes their estimates and intervals to data/knuth_coverage.parquet. The
// report stage compares them with the known counts and writes the paper's
// coverage table (covered runs, runs wholly below the count, coverage with
// its Wilson 95% interval); a variant whose Wilson interval lies wholly below
// 95% on a shape gives no headline figure for that shape (nor does an
// unreliable interval, nor one with k̂ ≥ 1/2: the headline rule).
//
// The study can also be made at a headline run's size without drawing its
// samples twice: knuth.long_coverage cuts a long run of knuth.long into
// consecutive slices of a whole number of its units, each an independent
// run (its blocks are streams of their own), and writes one row per slice
// with long = true, its k̂ from the units' kept tails (the stage fails if a
// slice's tail could lack a sample).
//
// # Randomness and units
//
// The stage reads the global key seed (the long runs read knuth.long_seed
// instead, below). Block b of (seed, stage, shape,
// variant) draws from ChaCha8 seeded with
//
//	SHA-256("sudoku-census/montecarlo/v1" ‖ u64(seed) ‖ str(stage) ‖ str(shape) ‖ str(variant) ‖ u64(b))
//
// with u64 = 8 bytes little-endian and str = u64(length) then the bytes. A
// block (montecarlo.RunBlock) is a pure function of its seed with a
// mergeable result. The blocks of each shape and variant are cut into at most
// 32 units of ⌈blocks/32⌉ consecutive blocks, id
// <shape>.<variant>.<first block>-<last block> (e.g. 3x3.mrv.625-1249); the
// cut follows from the configuration alone. A unit's result is its blocks'
// montecarlo.Block values (float64 bits, exactly), and Run merges every
// block of a shape and variant in block order, so the tables are the same
// bytes whatever the cores, the order of the units, or the machines that
// computed them (package stages/shared/sampling). The importance stage works
// the same way.
//
// # Long runs
//
// The paper's headline intervals for the large shapes come from long runs
// (knuth.long: RxC/variant → samples), hours of CPU time whose units are
// kept in the committed bundle data/bundles/knuth-long.parquet
// (pipeline.Bundle), like the 2×6 count of the shapes stage: a run on a
// fresh clone takes the bundle's units and computes only the missing
// ones, adding each to the bundle as it finishes. A long unit is a pure
// function of its id, whatever the configuration:
//
//	long.<shape>.<variant>.<order>.k<hybrid_k>.b<budget>.a<alpha>.s<seed>.n<block size>.<first>-<last>
//
// e.g. long.4x4.se.mrv.k256.b100.a0.s1.n1000.0-15: blocks first…last of the
// variant with those parameters (as the stage gives them: budget 0 for the
// walks, hybrid_k N² but for the hybrid, alpha 0 but for lookahead, written
// with p for the decimal point), with the block seeds of the formula above
// for the stage name knuth-long (streams independent of the default runs'),
// the seed s of the key knuth.long_seed (default 1) and block size n. The
// long runs have a seed key of their own, not the global seed: a new seed
// (CENSUS_SEED=7) reruns the default runs and the coverage study in
// minutes and keeps the bundle's long units, whose ids, and so the
// headline intervals, do not change; a new long_seed asks for every long
// unit again (knuth.max_cpu_hours then refuses unless raised). A unit
// holds 64 blocks on shapes up to 9×9, 16 up to 16×16 and 4 beyond (a few CPU-minutes each), from a
// multiple of that; its blocks run on every core, each with a sampler of
// its own, and are merged in block order, so its bytes do not depend on the
// cores. Its result (base64 text) is its blocks as the default units', the
// unit's ParetoTailSize(its samples) largest samples on its last block; the
// stage fails if a unit could have left out a sample of the run's tail. Any
// other id is refused in one line. The bundle's kernel names
// walks.KernelVersion and montecarlo.BlockVersion, which change with any
// change of a sample or of a block's bytes, so rows of an older kernel fail
// the run naming the unit (remove them to recompute). Rows of units the
// configuration does not list (a longer run) are checked and left unused.
// The units a bundle holds run after the default ones, one at a time, so
// the CPU time each row records is its own. Before it starts, the stage
// projects the CPU time of the units the bundle lacks (CPU-seconds per
// sample ≈ 1.6·10⁻⁹ · N⁴ · max(budget, 1), ×2 for lookahead, ×3 for the
// last-band variants, fitted to the measured costs below to within a
// factor of 2) and refuses, naming knuth.max_cpu_hours and the cost, when
// it exceeds that key: `make all` on a machine without the bundle stops at
// once rather than running for hours. The bundle's SHA-256 is in the
// stage's fingerprint and in the lock: a long run that adds units to it
// makes the stage stale, as it should. `census verify --recompute K`
// recomputes K units of the bundle and compares them byte for byte (make
// all: the costliest within 15 CPU-seconds).
//
// # Run report
//
// Wall and CPU time and walks per second per core of the units this process
// computed go to the run report as <shape>/<variant>.<metric> (with
// timed_samples when some units were reused or computed elsewhere), never to
// an artifact. For every shape and variant the report also has half_width_95
// (the relative half-width of the 95% interval, 1.96 × relative error) and
// seconds_to_goal: the time the run would need on this machine, with every
// core on it, to reach the relative half-width knuth.goals gives the shape
// (default ±1%), projected from the run itself as CPU seconds × (samples /
// timed samples) / cores × (half-width / goal)² (CPU time divided by the
// cores, not wall time: the runs of one stage overlap). `census run` logs it
// per run as time_to_goal. Each long run reports, under
// long/<shape>/<variant>., cpu_seconds (its units' CPU time, from the
// bundle), half_width_95, goal_half_width_95 (knuth.goals, as above),
// meets_goal (true when half_width_95 ≤ the goal) and, when it does not,
// cpu_seconds_to_goal: the CPU time the whole run would need, projected
// from its own as cpu_seconds × (half-width / goal)²; `census run` logs
// them as "long run goal".
//
// # Artifacts
//
// Numbers that may exceed the float64 range (25×25 estimates are about
// 4e308) are decimal strings in scientific notation with 15 significant
// digits; their log10 is a double column for plotting.
//
// data/knuth.parquet: one row per shape and variant.
//
//	column            type    meaning
//	shape             string  box shape RxC
//	variant           string  rowmajor, random, mrv, cover, hybrid, se, lookahead,
//	                          bandmrv, bandse, bandmrvlast, bandselast, stacks or
//	                          stackshybrid
//	order             string  order of the walk (the hybrid's is knuth.hybrid_order,
//	                          se's knuth.se_order, mrv for lookahead and the band
//	                          variants; rowmajor, unused, for stacks and
//	                          stackshybrid)
//	hybrid_k          int32   placements made before the exact count; N² for plain walks
//	budget            int32   partial grids kept per level: knuth.se_budget for se,
//	                          lookahead, bandse and bandselast, 1 for the walks
//	alpha             double  knuth.lookahead_alpha for lookahead, 0 otherwise
//	samples           int64   number of walks
//	estimate          string  sample mean, decimal
//	log10_estimate    double  log10 of the estimate (−Inf if 0)
//	std_error         string  sample standard deviation / √samples
//	ci_low            string  estimate − 1.959964·std_error, cut at 0: the 95% interval
//	ci_high           string  estimate + 1.959964·std_error
//	relative_error    double  std_error / estimate
//	nonzero_fraction  double  fraction of walks without a dead end
//	work              int64   deterministic work: one per step for rowmajor/random;
//	                          bookkeeping operations for mrv/cover; for the hybrid,
//	                          walk work + cells left to the exact counter (the
//	                          counter's own search is not counted); for se, the
//	                          bookkeeping of every node plus one per child weighed by
//	                          the selection plus one per 64-byte line of node state
//	                          copied; for stacks, the matching memo's states
//	                          counted plus the perfect matchings of the degree-3
//	                          graphs enumerated (stackshybrid: plus the drawn
//	                          columns of each matching that reached the memo)
//	relvar            double  sample variance / estimate², per walk
//	relvar_work       double  relvar × work per walk
//	ess               double  effective sample size (Σw)²/Σw² of the samples w as
//	                          weights: samples when all are equal, 1 when one holds
//	                          the sum
//	max_weight_share  double  the largest sample / Σw
//	pareto_k          double  k̂, the generalized Pareto shape fitted to the
//	                          M = ⌈min(n/5, 3√n)⌉ largest samples' excesses over the
//	                          next one (Zhang–Stephens estimator with the PSIS prior);
//	                          the variance of the estimate is finite for k < 0.5; NaN
//	                          when the tail has fewer than 5 samples or no spread
//	unreliable        bool    k̂ > min(1 − 1/log₁₀ n, 0.7): the interval is not to be trusted (the paper
//	                          marks it ‡)
//
// data/knuth_trace.parquet: the running statistics per shape and variant at
// log-spaced sample counts (round(10^(i/10)) within block 0, then at the
// first block boundary after each further such count, and at the end):
// shape, variant, samples, estimate, log10_estimate, std_error, ci_low,
// ci_high and relative_error, as above.
//
// data/knuth_coverage.parquet: one row per coverage run: shape, variant,
// then
//
//	run   int32  the run's index, from 0 (per shape, variant and long)
//	long  bool   the run is a slice of a long run (knuth.long_coverage),
//	             not a short run of its own streams
//
// then samples … unreliable as in data/knuth.parquet. The short runs come
// first, then the long runs' slices; empty when knuth.coverage_runs is 0 and
// knuth.long_coverage is empty.
//
// data/knuth_long.parquet: one row per long run (knuth.long), shapes in
// table order, variants in the order of knuth.variants' list above: shape …
// unreliable as in data/knuth.parquet, then
//
//	units        int32   bundled units of the run
//	cpu_seconds  double  the units' CPU time as the bundle records it (each
//	                     unit computed alone, on every core of its machine)
//	kernel       string  the bundle's kernel
//
// Empty when knuth.long is empty. Its bytes follow from the bundle: a run
// that computes missing units records their CPU times, so its file differs
// from the committed lock's until the bundle is the committed one.
//
// # Configuration
//
// Defaults are those of configs/default.yaml, the paper's run
// (configs/smoke.yaml where it differs; the built-in defaults without a
// config file are in DefaultConfig).
//
//   - knuth.block_size (default 1000): an integer from 1 to 2³⁰
//     (1073741824), samples per block (part of the random streams' identity).
//   - knuth.variants (default: [rowmajor, random, mrv, cover, hybrid, se,
//     lookahead, bandmrv, bandse, bandmrvlast, bandselast, stacks,
//     stackshybrid]; smoke: the same without stacks and stackshybrid): a
//     non-empty list of distinct names among these. Narrowing it needs no
//     other key: an RxC/variant entry of knuth.samples or
//     knuth.coverage_samples whose variant is not listed is left unused
//     (--set 'knuth.variants=[mrv]' alone runs mrv on the shapes of its
//     entries).
//   - knuth.hybrid_order (default cover): rowmajor, random, mrv or cover.
//   - knuth.samples (see configs/default.yaml): a map from shape RxC (R·C ≤
//     36) to the samples of every variant (≥ 1), or from RxC/variant (a
//     variant among those above; unused when knuth.variants does not list
//     it) to the samples of that variant: beside RxC an override (0: not on this
//     shape), alone the only variant run on that shape; bandmrv and bandse
//     only where R ≤ 5, bandmrvlast and bandselast where R ≤ 3, stacks and
//     stackshybrid where C ≤ 5, R ≤ 8 and N ≤ 32; at most 2²⁴ blocks per shape and variant
//     (16777216000 samples with blocks of 1000): a count beyond is refused,
//     never cut.
//   - knuth.hybrid_k (default {2x2: 8, 2x3: 18, 3x3: 60, 4x4: 200}): per
//     shape, an integer in [0, N²]; required for every shape the hybrid runs
//     on.
//   - knuth.se_order (default mrv): mrv or cover; required when se is listed.
//   - knuth.se_budget (default {2x2: 10, 2x3: 10, 3x3: 30, 4x4: 100, 2x5: 30,
//     2x6: 30, 3x4: 100, 3x5: 100, 4x5: 300, 5x5: 300}; smoke 10 everywhere):
//     per shape, an integer in [1, 10000]; required for every shape se,
//     lookahead, bandse or bandselast runs on.
//   - knuth.lookahead_alpha (default 0.25): a number in [0, 16].
//   - knuth.coverage_runs (default 200; smoke 20; without a config file 0):
//     an integer in [0, 100000], independent runs per shape and variant of
//     the coverage study (0: none, an empty table).
//   - knuth.coverage_samples (default {2x2/mrv: 200, 2x2/se: 200,
//     2x2/bandmrv: 200, 2x2/bandse: 200, 2x3: 200, 2x4/mrv: 1000,
//     2x4/bandmrv: 1000, 2x4/bandmrvlast: 1000, 3x3/mrv: 1000, 3x3/bandmrv:
//     1000, 3x3/bandmrvlast: 1000, 3x3/se: 100, 3x3/bandse: 100,
//     3x3/bandselast: 50, 2x5/bandse: 50, 2x5/bandselast: 50, 2x3/stackshybrid:
//     0, 4x2/stacks: 1000, 4x3/stacks: 200}; smoke {2x2:
//     100, 2x3: 100, 2x3/se: 0, 2x3/lookahead: 0, 2x4/mrv: 200, 2x4/bandmrv:
//     200}): samples per coverage run
//     (at most 10^8), keys as in knuth.samples; required when coverage_runs
//     > 0.
//   - knuth.goals (default {3x3: 0.0005, 4x4: 0.001, 5x5: 0.05}): per shape,
//     the relative 95% half-width in (0, 1) whose time the run report
//     projects; other shapes ±1%.
//   - knuth.long (default {3x3/bandse: 1600000, 3x5/bandse: 32000,
//     4x4/bandse: 8672000, 4x5/se: 432000, 5x5/se: 36000, 4x5/stacks:
//     36000, 5x5/stackshybrid: 100000}, the runs the bundle holds in full; smoke and without a config
//     file {}): a map from RxC/variant (a variant among those above, whether
//     or not knuth.variants lists it; bandmrv and bandse only where R ≤ 5,
//     bandmrvlast and bandselast where R ≤ 3, stacks and stackshybrid where
//     C ≤ 5, R ≤ 8 and N ≤ 32) to the
//     samples of its long run: 0 (none) or a multiple of the unit's samples,
//     64, 16 or 4 blocks of knuth.block_size (64,000 samples up to 9×9,
//     16,000 up to 16×16, 4,000 beyond, with blocks of 1000), at most 2²⁴
//     blocks. Its variants take their parameters from the keys above
//     (se_budget, se_order, hybrid_k, hybrid_order, lookahead_alpha), which
//     must then be set for its shapes.
//   - knuth.long_coverage (default {}): a map from RxC/variant, a long run
//     of knuth.long with samples, to the samples of each coverage run cut
//     from it: a multiple of the run's unit (as above), at most the run's
//     samples; the last, shorter slice is left out.
//   - knuth.max_cpu_hours (default 1): a number in [0, 8784], the largest
//     projected cost, in CPU-hours, of the long runs' units the bundle
//     lacks (census status and run -n refuse as the run would).
//   - knuth.long_seed (default 1): an integer from 0 to 2⁶⁴−1, the seed of
//     the long runs' streams (the s of their unit ids) in place of the
//     global seed, which the other runs read: a new seed keeps the bundle's
//     long units (see Long runs).
//
// # Cost
//
// Measured on the project's 2-core machine (2026-11-24 unless dated):
//
//   - configs/default.yaml until 2026-11-26 (2026-11-24): 463 s within
//     `make all` (about 900 CPU-s), 9×9 mrv 2·10^6 walks ± 0.096%, bandse
//     2·10^5 samples ± 0.13%, 16×16 se 60,000 samples ± 0.77%, 25×25 se
//     1,500 samples ± 50%; a third of `make all`. Its run niced on the
//     shared machine (load 15-18, 2026-11-26) had used 301 CPU-s, not half
//     of it, when stopped after 18 min.
//   - configs/default.yaml since 2026-11-26, budgets cut to compare the
//     variants, bound the failed walks and reach ±1% where bandse or
//     bandselast is cheap (2×5, 2×6, 3×4), the headline intervals of the
//     other shapes coming from the long runs: 137 CPU-s for the stage
//     (8 min 18 s niced on the shared machine at load 17-18, 27% of a
//     core; about 70 s on two idle cores, under 10% of `make all`), of
//     which the coverage study about 30 CPU-s; the most costly runs 4×4 se
//     (2,000 samples, 17 CPU-s, ± 3.8%), 5×5 se (40, 10 CPU-s, ± 130%),
//     3×4 bandse (4,000, 8.6 CPU-s, ± 1.0%) and 2×6 bandselast (9,000, 6.1
//     CPU-s, ± 1.04%), measured with 4,000 and 9,000 samples there and
//     6,000 on 2×5 bandse (± 1.02%), raised to 5,000, 12,000 and 8,000
//     since to reach ±1%.
//   - Since 2026-11-27 also 16×16 bandse (2,000 samples, 11.8 CPU-s, ±
//     3.3%; se beside it 18.1 CPU-s, ± 3.8%) and 20×20 bandse (40, 2.1
//     CPU-s, ± 22%; se 3.1 CPU-s, ± 44%): the stage took 139 CPU-s within
//     `make all` on the shared machine.
//   - Since 2026-11-29 also stacks on 2×2, 2×3, 3×3 (50,000), 16×16
//     (1,000), 2×5, 3×4 (2,000 each), 15×15 (500) and 20×20 (40), and 16×16
//     se and bandse cut to 1,000 samples each, the better variant taking
//     their place, to keep the stage within a quarter of `make all` (48 s
//     of about 190 s before the cut, on two idle cores).
//   - Since 2026-11-29 the coverage study also runs stacks on 4×2 (1,000
//     samples a run) and 4×3 (200), where R = 4 and each band's sample
//     draws a uniform matching: 189 and 191 of 200 runs cover the count
//     (94.5%, Wilson [90.4, 96.9]; 95.5%, [91.7, 97.6]), against 180 of 200
//     on 2×3 at 200 samples, where every sample is 2^cycles.
//   - Since 2026-11-29 also stackshybrid on 20×20 (100 samples, 1.3 CPU-s,
//     ±14%). On 25×25 100 samples took 11.4 CPU-s (18 s wall, 30% more
//     for the stage; about 7 s build the 5×5 set arrays' counter) for
//     ±44%, so 25×25 is left to the long run.
//   - The long runs, measured per unit (one unit each, computed alone on
//     both cores, 2026-11-26, shared machine, CPU time) and projected to
//     the samples of configs/default.yaml from the relative variance per
//     sample: 9×9 bandse (B = 30): 16.0 CPU-s per unit of 64 blocks, relvar
//     0.085, ±0.05% needs 1.31·10^6 samples, 1.6·10^6 taken (25 units, 0.11
//     CPU-hours, ±0.045% expected); 15×15 bandse (B = 100): 5.2 ms per
//     sample, relvar 0.28, ±1% needs 10,600, 16,000 taken (1 unit, 0.02
//     CPU-hours); 16×16 se (B = 100): 157 CPU-s per unit of 16 blocks
//     (9.8 ms a sample, twice the 4.47 ms of the idle machine), relvar 0.92,
//     ±0.1% needs 3.53·10^6, 4·10^6 taken (250 units, 10.9 CPU-hours);
//     20×20 se (B = 300): 427 CPU-s per unit of 4 blocks, relvar 1.96 (one
//     unit), ±1% needs 75,000, 96,000 taken (24 units, 2.8 CPU-hours); 25×25
//     se (B = 300): 0.20 s a sample (790 CPU-s per unit of 4 blocks),
//     relvar about 100 (the 1,500 samples of 2026-11-24, heavy-tailed), ±5%
//     needs about 154,000, 200,000 taken (50 units, 11 CPU-hours). In all
//     about 25 CPU-hours, 12 to 13 hours on both cores (less on an idle
//     machine); the bundle would be about 2.5 MB (the units' tails are most
//     of it: 13 KB a 9×9 unit, 6.6 KB a 16×16 one). Peak resident memory
//     55 MiB.
//   - The long runs done (the committed bundle, CPU time recorded per unit,
//     2026-11-26/27, shared machine): 9×9 bandse 1,600,000 samples in 25
//     units, 0.096 CPU-hours, ±0.0453%; 15×15 bandse 32,000 in 2 units,
//     0.044 CPU-hours, ±0.746% (16,000 gave ±1.07%); 20×20 se 96,000 in 24
//     units, 2.25 CPU-hours, ±1.24%: its relvar per sample, 3.8, is twice the
//     first unit's 1.96 (heavy tails), so ±1% needs about 148,000 samples,
//     3.4 CPU-hours; 148,000 in 37 units, 3.35 CPU-hours, gave ±1.16%
//     (k̂ = 0.83: marked unreliable), projecting 4.54 CPU-hours (about
//     200,000 samples) to ±1%; 216,000 in 54 units (2026-11-27), 4.54
//     CPU-hours, met a heavier sample and gave 3.157·10^175 ± 1.46% (k̂ =
//     0.87, unreliable; ESS 16,683, relvar 11.9, the largest sample 0.55%
//     of the sum), projecting 9.6 CPU-hours to ±1%: the tail, not the
//     budget, sets 20×20's precision. Taken further (2026-11-29, alone on
//     both cores, about 215 CPU-s a unit): 292,000 samples (73 units) gave
//     ±1.33% (relvar 13.4, k̂ 0.86); 380,000 met a heavier sample and gave
//     ±2.15% (relvar 45.6); 432,000 (108 units, 27,677 CPU-s, 7.7
//     CPU-hours) give 3.1953·10^175 ± 1.93% (95%, [3.1335, 3.2570]·10^175;
//     k̂ = 0.87, unreliable; ESS 10,041, relvar 42.0, the largest sample
//     0.76% of the sum), projecting 28.7 CPU-hours to ±1%. The relvar per
//     sample has grown with the run, 1.96, 3.8, 11.9, 13.4, 42.0: with k̂
//     above 0.5 the samples' variance is likely infinite, the half-width
//     does not shrink as 1/√n, and no run length makes a ±1% interval
//     honest. The run was stopped there; 20×20, like 25×25, needs an
//     estimator whose tail is lighter, not more samples.
//   - 16×16 from a uniform first band (bandse, B = 100; 2026-11-27):
//     relvar about 0.5 at 6.8 ms a sample on a shared core, so ±0.1% needs
//     about 1.9·10^6 samples, 3.6 CPU-hours (se: 10.9); 2.4·10^6 planned
//     (150 units of 16 blocks). Done (2026-11-26/27, shared machine): 150
//     units, 13,137 CPU-s (3.65 CPU-hours), 5.962·10^98 ± 0.244% (95%),
//     k̂ = 0.60, ESS 5.1·10^5: the relvar per sample over the whole run is
//     3.7, not 0.5 (heavy tails again), so ±0.1% needs about 1.4·10^7
//     samples, 22 CPU-hours (the run report's cpu_seconds_to_goal, 78,180).
//     Taken further (2026-11-28/29, units of 16 blocks as before): 329
//     units gave ±0.134% (relvar 2.46, k̂ 0.62), projecting 13.7 CPU-hours
//     to ±0.1%; 500 units, 8·10^6 samples, 38,959 CPU-s (10.8 CPU-hours),
//     gave 5.9567·10^98 ± 0.102% (95%), k̂ = 0.60, ESS 2.5·10^6, relvar
//     2.16, the largest sample 0.032% of the sum, covering the heuristic's
//     5.9584·10^98, and project 11.2 CPU-hours (40,460 CPU-s) to ±0.1%;
//     542 units, 8,672,000 samples, 41,828 CPU-s (11.6 CPU-hours), reach
//     it: 5.9579·10^98 ± 0.097% (95%, [5.9521, 5.9637]·10^98), k̂ = 0.60,
//     ESS 2.8·10^6, relvar 2.12, the largest sample 0.030% of the sum,
//     covering the heuristic. A unit took 84 to 90 CPU-s while the machine
//     was shared, 64 on it alone with the faster bookkeeping (Cost, below).
//   - 25×25 from a uniform first band (bandse, B = 300; 2026-11-27, 400
//     samples each, one unit, shared machine): relvar 13.4 per sample
//     against se's 92 at about the same cost (62.6 against 57.3 CPU-s, the
//     first-band table included; k̂ 0.60 against 0.95), so ±5% projects to
//     about 20,000 samples, under 1 CPU-hour, against se's 11 if the tail
//     stays as light. Its 400 samples gave 2.1·10^308 ± 36%, below the
//     heuristic's 4.37·10^308, as a small sample of a heavy tail tends to.
//     The tail did not stay light: a long run of 20,000 samples (5 units,
//     0.65 CPU-hours, 2026-11-27, in the bundle, not listed) gave
//     9.63·10^308 ± 119%, relvar 7,420, ESS 2.7, the largest sample 60% of
//     the sum; ±5% would take about 370 CPU-hours by the run report. No
//     variant here reaches 25×25 to ±5%: it needs a real variance
//     reduction, not more samples. For an interval nonetheless, se (B =
//     300) was run long (2026-11-29, 9 units of 4,000 samples, 3,671
//     CPU-s, about 0.1 s a sample, niced beside other work): 3.372·10^308 ±
//     13.4% (95%, [2.921, 3.823]·10^308), relvar 168, ESS 213, the largest
//     sample 4.0% of the sum, k̂ = 0.74: marked unreliable, and below the
//     heuristic's 4.365·10^308 (ratio 0.77), as a heavy-tailed mean whose
//     rare large samples have not yet been drawn tends to be. The run
//     report projects 7.3 CPU-hours to ±5%, which the tail makes a floor.
//   - Where 25×25's variance arises (2026-11-29, se in mrv order, seeded
//     scratch runs): an enumeration stopped with its kept set at some depth
//     and continued many times, independently, from that same set. With B =
//     300, 30 continuations from 70% of the cells filled spread over four
//     decades (10^303.5 to 10^307.8 from one set, relvar 9.6; 1.7 from
//     another), though no level kept fewer than 258 of its 300 nodes; from
//     80%, relvar 0.27 to 3.7; from 90%, under 0.1. On 16×16 (B = 100) the
//     same measure from 70% gives relvar 0.04 to 0.09, and on 20×20 (B =
//     300) 0.2 to 0.7 from 25%, 40%, 55% and 70%, but 17.3 from one of the
//     two sets at 70% (three decades): 25×25's tail, met less often, as
//     20×20's k̂ of 0.87 says. With B = 3,000 the
//     continuations from 70% spread as widely (relvar 1.5 and 2.9), and two
//     whole samples were 10^305.4 and 10^308.4: the kept nodes descend from
//     a few ancestors, so a larger budget adds near-copies, not independent
//     paths, and the tail comes from grids two thirds full whose numbers of
//     completions differ by orders of magnitude. Look-ahead scores did not
//     narrow it (α = 0.25, 0.5, 1: log10 of 20 samples spread 2.9, 2.0 and
//     3.0 decades from 10% to 90%, against se's 2.4, at 3× the cost), nor
//     did systematic selection (one uniform per level, equal inclusion
//     probabilities) from 70% (relvar 10.1 and 7.0 against 9.6 and 1.7),
//     though it did from 80% (0.27 and 0.075 against 3.7 and 0.34). An
//     estimator for 25×25 needs scores that predict those completion counts.
//     Systematic selection on whole samples (se from the empty grid, same
//     day): relvar per sample 0.87 → 0.46 on 16×16 (B = 100, 6,000 samples
//     each) at 19% less CPU a sample (fewer random draws), but 0.108 →
//     0.247 on 9×9 (B = 30, 20,000 samples) and 1.2 → 1.4 on 20×20 (B =
//     300, 300 samples); not adopted: the 16×16 long run, half done, would
//     start afresh.
//   - Where in the walk 20×20's variance arises (2026-11-29, se in mrv
//     order, B = 300, seeded scratch runs on one core each): log10 of
//     each sample split into its sums of log10(C/m) over twenty equal
//     spans of the levels, a row's worth of cells each. Over 3,000 samples
//     log10 of a sample has a standard deviation of 0.42; no span before
//     70% of the cells has more than 0.22, and the four from 70% to 90%
//     have 0.53, 0.62, 0.92 and 0.46: where the fourth band closes and the
//     last one opens (25×25, 600 samples: 1.14 in all, 1.2 to 2.9 in the
//     same four spans). What was tried there, on the same seeds:
//   - The last band scored per kept node, the upper bands filled first (as
//     by the last-band variants): its completions estimated without bias,
//     rows 1…R−3 of it by a walk and the last three exactly (covering the
//     known counts on 9×9 and 4×2 boxes): on the first 441 seeds the
//     deviation falls from 0.44 to 0.31 on 20×20, and on the first 113
//     from 1.16 to 0.74 on 25×25, at 6 and 12 times the cost a sample, and the kept sets' mean count varies by 0.048 decades
//     only: the last band is not where the variance is made. The last two
//     rows of the fourth band counted exactly per node (each symbol sent to
//     one of the two boxes lacking it, times 5×5 permanents; equal to a
//     brute-force count on 294 nodes): 0.38 → 0.37 (182 seeds). With rows 0 to 13
//     filled first, the variance moves to rows 12 and 13: it is made where
//     the fourth band meets columns that lack 8 of their 20 symbols,
//     whatever the order.
//   - Children kept by systematic sampling stratified by parent (each
//     parent keeps the floor or the ceiling of its share: less drift of
//     the kept set's ancestry): 0.47, and a sample holding 15% of the sum
//     in 3,000. The transposed shape (boxes 5 high): 0.95. Exact-cover
//     order on 25×25: relvar 8.0 against 7.2 in 300 samples, at 2.9 times
//     the cost, 17% of the samples 0. Budgets by depth (B = 300 throughout:
//     0.42, relvar × ms 1.8 × 35 = 64): B = 1,000 from 65% of the cells
//     on leaves 0.43 (1.5 × 82 = 121), B = 100 before 65% gives 0.52 (2.7 ×
//     18 = 48, a gain within the noise of the tail), both with 1,000 from
//     65% on 0.52 (2.3 × 57 = 129): the variance is set by where the kept
//     set stands as it enters the fourth band, not by the budget within it.
//   - So a lighter tail on 20×20 and 25×25 needs the completions of the
//     fourth band given the three above it, counted or predicted; the
//     candidate product (lookahead) does not predict them. The stack
//     estimator (stacks, above) sidesteps the walk instead: on 20×20 its
//     long run (2026-11-29, 9 units of 4,000 samples, 2,591 CPU-s, about
//     290 CPU-s a unit alone on both cores) gives 3.1911·10^175 ± 0.91%
//     (95%, [3.1620, 3.2201]·10^175; relvar 0.77, ESS 20,284 of 36,000,
//     largest sample 0.065% of the sum, k̂ 0.20), covering se's long-run
//     interval; its first 24,000 samples gave ±1.12% (relvar 0.79): the
//     relvar does not grow with the run as se's did.
//   - stacks on 25×25 (go test -cpuprofile, 2026-11-29): 76% of a 12 s
//     sample is the matchings' memo (about 1.6·10^8 states, a 384 MB array
//     whose every lookup misses the cache), 23% the uniform stack
//     structures' draws (box-height-5 set arrays, each relabelling every
//     candidate state: 11.6 ms a draw, 41 µs once the running sums were
//     kept with the counter, the same draws). Counting 18 columns of each
//     matching and drawing the others (stackshybrid) costs 30 ms a sample
//     with 16 exact columns (relvar about 3.7 on 2,000 samples), 40 ms with
//     18 (2.5) and 146 ms with 20 (1.3; its 2^20 states leave the cache);
//     uniform choices of the drawn symbols instead of ∝ 1/r_y, in column
//     order, gave relvar 4.1 with 18 and 25 with 16 (100 and 300 samples;
//     many dead ends). Its
//     long run (25 units of 4,000 samples, 2026-11-29, alone on both cores
//     at nice 19): 158 to 184 CPU-s a unit, 4,160 CPU-s in all (42 ms a
//     sample); 4.3668·10^308 ± 0.965%, relvar 2.42, k̂ 0.33.
//   - Time to a goal half-width on both cores (seconds_to_goal, projected
//     from the default run of 2026-11-24): 9×9 to ±0.05%: bandse (B = 30) 95 s, bandmrv
//     135 s, se 182 s, mrv 214 s, lookahead 258 s; to ±1%: 2×6 bandse 3.2 s
//     (se 3.7 s), 3×4 bandse 3.0 s (se 5.2 s), 3×5 bandse 23 s (se 40 s), 4×5
//     se (B = 300) 615 s; 16×16 to ±0.1%: lookahead 2.1 h, se 2.4 h; 25×25 to
//     ±5%: se (B = 300) 1.5 h.
//   - Walks per second per core on 9×9 (2026-11-21): rowmajor 8.2·10^5,
//     random 4.1·10^5, mrv 1.2·10^5, cover 4.4·10^4, hybrid (k = 60)
//     2.3·10^4, se (B = 30) 2.4·10^3; 16×16 se (B = 100) about 120.
//   - The walks' bookkeeping in one flat slice of bucket words
//     (BenchmarkSample in stages/maths/walks): 9×9 mrv 4.48 → 4.12 µs per
//     walk; 16×16 se (B = 100) 5.18 → 4.47 ms per sample. MRV's peer loop
//     over local slices, and no copy of the Cover-only state in an MRV
//     enumeration (2026-11-29; the same samples and work, by a hash of
//     every sample of 12 variants, and `census verify --recompute 4` equal
//     on four 16×16 units of the bundle): 16×16 bandse (B = 100) 3.99–4.09
//     → 3.76–3.94 ms per sample, se 5.64–5.96 → 5.20–5.60 ms (old and new
//     alternated three times on one core beside a niced run): 5–7%.
//     MRV without option counts (a cell's is the size of its candidate
//     set), so a node copies 4.4 KB, not 6.0 KB, on 20×20 (2026-11-29;
//     the same samples and work by the hash of 12 variants; the fastest of
//     six runs of old and new alternated on one core, the other idle, as
//     the timings spread by a factor of 1.3–1.5): 20×20 se (B = 300) 46.4
//     → 37.2 ms per sample, 16×16 bandse (B = 100) 4.12 → 3.69 ms, se 5.62
//     → 5.13 ms, 9×9 mrv 5.70 → 5.37 µs: 6–20%, more where nodes are larger.
//   - Unit bookkeeping (BenchmarkBookkeeping in stages/shared/sampling: the
//     default block structure, 977 units, with a sampler that costs nothing;
//     -benchtime 5x -count 3): 0.31-0.61 s with units, 0.21-0.26 s without:
//     at most 0.4 ms a unit, under 0.1% of the stage's 520 s.
//   - The last-band variants (BenchmarkRelvarSeconds in stages/maths/walks,
//     relvar × CPU µs per sample on one core, 2026-11-26, shared machine;
//     relvar from 10³-10⁵ samples, ±10-30%): on 9×9 bandmrv 3.20 × 7.1 µs =
//     23 against bandmrvlast 1.12 × 18.2 µs = 20, and bandse (B = 30) 0.084 ×
//     204 µs = 17 against bandselast (B = 30) 0.035 × 592 µs = 21. Where R = 3
//     the exact count removes half to two thirds of the relative variance per
//     sample but costs more than the walk it replaces (two thirds of
//     bandmrvlast's time on 9×9 is the count, by go test -cpuprofile), so per
//     CPU second it gains little or loses. 16×16 (R = 4) has no last-band
//     count.
package knuth
