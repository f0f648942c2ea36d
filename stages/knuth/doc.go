// Package knuth is the stage that estimates the number of Sudoku grids of
// each box shape R×C (side N = R·C) by Monte Carlo: Knuth's random-walk
// estimator and its variants (package walks), drawn in seeded blocks
// (package sampling). It writes one summary row per shape and variant, a
// convergence trace, a coverage study and the long runs behind the paper's
// headline intervals. It never reads an exact count: the report and the
// tests compare.
//
// # Estimators
//
// A sample is unbiased for the number of grids. Walks fill the grid one
// placement at a time, each drawn uniformly among the options of the cell
// their order picks; the sample is the product of the option counts (0 at a
// dead end):
//
//   - rowmajor, random, mrv, cover: reading, random, fewest-candidates or
//     exact-cover order.
//   - hybrid: knuth.hybrid_k placements in knuth.hybrid_order, then the
//     subtree counted exactly.
//   - se: stochastic enumeration (Purdom): at each level the C children of
//     the kept set are counted, m = min(B, C) kept uniformly (B =
//     knuth.se_budget) and the weight multiplied by C/m.
//   - lookahead: se in mrv order keeping children with probability ∝
//     w·exp(α·Σ log |candidates|) (α = knuth.lookahead_alpha), weights
//     divided by the inclusion probability (Horvitz–Thompson).
//   - bandmrv, bandse: mrv or se from a first band drawn uniformly among the
//     b(R,C) bands (walkbands.FirstBand, R ≤ 5), times b.
//   - bandmrvlast, bandselast: the same, the last band's completions counted
//     exactly (R ≤ 3; walkbands.LastBand).
//   - stacks: no walk. Each stack's structure (which column of the stack
//     holds each symbol in each band) is drawn uniformly among SA(R,C) (for
//     C = 6 by sequential importance sampling, weighed by 1/P); given
//     them, grids = Σ Π_bands EC_R(H_b), the proper R-edge-colourings of the
//     band's column–symbol graph, counted exactly for R ≤ 3 and for R ≥ 4 as
//     pm(H)·EC(H − M) with M a uniform perfect matching. Light-tailed (k̂
//     0.2 on 16×16 and 20×20). C ≤ 6, R ≤ 8, N ≤ 36.
//   - stackshybrid: stacks, each matching drawn in part where the memo
//     leaves the cache: walks.StacksHybridColumns columns counted exactly,
//     the others drawn ∝ 1/r_y (Knuth's estimator over those columns; the
//     drawn-column step is Rasmussen's permanent estimator). With k
//     candidates (walks.Stacks.SetDraws) each such matching and sampled
//     structure is one of k drawn, kept ∝ its weight, weighing their mean:
//     another estimator, named stackshybrid@k in every table.
//
// # Diagnostics and the headline rule
//
// Every row carries the samples' diagnostics as weights (ess,
// max_weight_share, pareto_k: montecarlo.Diagnostics). An interval of n
// samples with k̂ > min(1 − 1/log₁₀ n, 0.7) is unreliable (‡). A shape's
// headline interval is its long run's, under the headline rule
// (present.Trusted): k̂ < 0.5 and an estimator not below 95% coverage at
// that size; stackshybrid@k needs a study of its own whose runs' relative
// variance of the mean is within 2× of the run's.
//
// # Coverage study
//
// knuth.coverage_runs short runs per entry of knuth.coverage_samples (run i
// is block i of a stream of its own), and the slices of long runs that
// knuth.long_coverage cuts (whole units, k̂ from their kept tails), go to
// data/knuth_coverage.parquet (coverage, Wilson interval, runs wholly
// below, the k̂ gate: the report).
//
// # Randomness and units
//
// Block b of (seed, stage, shape, variant) draws from ChaCha8 seeded with
//
//	SHA-256("sudoku-census/montecarlo/v1" ‖ u64(seed) ‖ str(stage) ‖ str(shape) ‖ str(variant) ‖ u64(b))
//
// (u64: 8 bytes little-endian; str: u64 of the length, then the bytes). The
// default runs read the global seed; their blocks are cut into at most 32
// units <shape>.<variant>.<first block>-<last block> (3x3.mrv.625-1249),
// merged in block order: the same bytes whatever the cores or machines.
//
// # Long runs
//
// knuth.long (RxC/variant → samples) names runs of CPU-hours whose units the
// committed bundle data/bundles/knuth-long.parquet keeps; a clone takes them
// from it and computes only those missing. A unit is a function of its id:
//
//	long.<shape>.<variant>.<order>.k<hybrid_k>.b<budget>.a<alpha>.s<seed>.n<block size>.<first>-<last>
//
// for stage name knuth-long and seed knuth.long_seed (so a new global seed
// keeps them); 64 blocks up to 9×9, 16 up to 16×16, 4 beyond. Its result is
// its blocks and its ParetoTailSize largest samples (base64). The kernel
// names walks.KernelVersion and montecarlo.BlockVersion. Before computing,
// the stage projects the missing units' CPU time (sampleCPUSeconds) and
// refuses above knuth.max_cpu_hours. The bundle's SHA-256 is in the
// fingerprint and the lock; `census verify --recompute` recomputes units.
//
// # Artifacts
//
// Counts beyond float64 are decimal strings (15 significant digits) with a
// log10 double beside them.
//
// data/knuth.parquet: one row per shape and variant.
//
//	shape             string  box shape RxC
//	variant           string  one of the variants above, or stackshybrid@k
//	order             string  the walk's order (rowmajor, unused, for stacks)
//	hybrid_k          int32   placements before the exact count; N² for plain walks
//	budget            int32   kept partial grids per level (1 for walks)
//	alpha             double  knuth.lookahead_alpha for lookahead, else 0
//	samples           int64   samples drawn
//	estimate          string  sample mean
//	log10_estimate    double  its log10
//	std_error         string  standard deviation / √samples
//	ci_low            string  estimate − 1.959964·std_error, cut at 0
//	ci_high           string  estimate + 1.959964·std_error
//	relative_error    double  std_error / estimate
//	nonzero_fraction  double  share of samples without a dead end
//	work              int64   deterministic work (cells or memo states visited)
//	relvar            double  variance / estimate², per sample
//	relvar_work       double  relvar × work per sample (work is undefined for stacks
//	                          and stackshybrid: compare estimators by efficiency)
//	relvar_low        double  the 2.5% and 97.5% quantiles of relvar over 1000
//	relvar_high       double  bootstrap resamples of the run's blocks (NaN: fewer than 10 blocks)
//	ess               double  (Σw)²/Σw²
//	max_weight_share  double  largest sample / Σw
//	pareto_k          double  k̂ of the largest ⌈min(n/5, 3√n)⌉ samples (NaN if < 5)
//	unreliable        bool    k̂ > min(1 − 1/log₁₀ n, 0.7)
//
// data/knuth_trace.parquet: shape, variant, samples, estimate, log10_estimate,
// std_error, ci_low, ci_high, relative_error at log-spaced sample counts.
//
// data/knuth_coverage.parquet: one row per coverage run: shape, variant,
//
//	run   int32  index from 0 (per shape, variant and long)
//	long  bool   a slice of a long run (knuth.long_coverage)
//
// then samples … unreliable as in data/knuth.parquet.
//
// data/knuth_long.parquet: one row per long run: shape … unreliable, then
//
//	units                   int32   bundled units of the run
//	cpu_seconds             double  their CPU time as the bundle records it
//	cpu_seconds_per_sample  double  cpu_seconds / samples
//	efficiency              double  1/(relvar × cpu_seconds_per_sample), in s⁻¹
//	efficiency_low          double  1/(relvar_high × cpu_seconds_per_sample)
//	efficiency_high         double  1/(relvar_low × cpu_seconds_per_sample)
//	kernel                  string  the bundle's kernel
//
// (after unreliable: relvar_low, relvar_high). cpu_seconds to efficiency_high
// are machine-dependent (pipeline.Output.MachineColumns): a unit recomputed
// elsewhere brings its own.
//
// # Configuration
//
// Defaults are configs/default.yaml's (smoke: configs/smoke.yaml).
//
//   - knuth.block_size (1000): samples per block, 1 to 2³⁰.
//   - knuth.variants (all thirteen): distinct names among the variants;
//     entries of other keys naming an unlisted variant are left unused.
//   - knuth.hybrid_order (cover): rowmajor, random, mrv or cover.
//   - knuth.samples: RxC (R·C ≤ 36) or RxC/variant → samples ≥ 1 (0: not
//     run), at most 2²⁴ blocks; band variants need R ≤ 5, last-band R ≤ 3,
//     stacks C ≤ 6, R ≤ 8; N = 36 (6×6) runs stackshybrid only.
//   - knuth.hybrid_k: RxC → [0, N²], for every shape the hybrid runs on.
//   - knuth.stacks_exact ({}): RxC → stackshybrid's exact matching columns,
//     1 to N−1 (unset: 18: up to side 18 it is stacks; fewer test its drawn
//     columns where the count is known); a long unit's b field holds it.
//   - knuth.stacks_draws ({}): RxC → stackshybrid's candidates, 1 to 256
//     (unset: 1); a long unit's a field holds it when above 1.
//   - knuth.se_order (mrv): mrv or cover.
//   - knuth.se_budget: RxC → [1, 10000], for every shape of se, lookahead,
//     bandse or bandselast.
//   - knuth.lookahead_alpha (0.25): a number in [0, 16].
//   - knuth.coverage_runs (200): runs per coverage entry, 0 to 100000.
//   - knuth.coverage_samples: keys as knuth.samples → samples per run (≤ 10^8).
//   - knuth.goals ({3x3: 0.0005, 4x4: 0.001, 5x5: 0.05}): RxC → relative 95%
//     half-width in (0, 1) whose cost the run report projects (others 0.01).
//   - knuth.long: RxC/variant → samples, a multiple of a unit's (64,000 up
//     to 9×9, 16,000 up to 16×16, 4,000 beyond, with blocks of 1000);
//     RxC/stackshybrid@k: k candidates (1 to 256, not stacks_draws.RxC).
//   - knuth.long_coverage ({}): a long run's key → samples per slice, whole units.
//   - knuth.long_block_size ({}): a long run's key → its block size, 1 to
//     2³⁰ (unset: block_size), the n of its units: slices below 16,000.
//   - knuth.max_cpu_hours (1): [0, 8784], the most CPU-hours of long units
//     the bundle lacks that a run may compute.
//   - knuth.long_seed (1): 0 to 2⁶⁴−1, the long runs' seed.
//
// # Efficiency
//
// Efficiency is 1/(relvar × CPU seconds per sample), in s⁻¹; its 95%
// interval bootstraps the relvar over the run's blocks
// (montecarlo.BootstrapRelVar, seeded), the CPU time taken as measured. A
// long run's CPU time is the bundle's; the default runs' depends on the
// machine, so it goes to the run report (<shape>/<variant>.efficiency, …),
// not to data/knuth.parquet, which later stages' fingerprints hash.
//
// # Cost
//
// About 95 CPU-seconds (48 s on two cores, long units from the bundle).
// A sample, one core: stacks 32 µs (9×9), 2.7 ms (16×16), 73 ms (20×20),
// 12 s (25×25); stackshybrid 2.1 ms (16×16, 12 columns, 8 draws, loaded),
// 42 ms (25×25), 0.17 s (30×30), 0.44, 1.8, 2.55 s (30×30, 36×36; 8, 16 draws), ×0.75 since walkbands' incremental search (36×36 @16: 1.33 s in its long run); se 5 ms (16×16), 37 ms (20×20). On 9×9 (a
// long unit's thread CPU time, the machine loaded), in µs: rowmajor 1.2,
// random 1.7, mrv 4.1, cover 21, hybrid 29, se 310, lookahead 500, bandmrv
// 4.5, bandse 130, bandmrvlast 12, bandselast 370, stacks 37; each 9×9
// variant has a long run, whose CPU time is the only cost the paper
// compares them by. The run report gives each run's seconds_to_goal.
package knuth
