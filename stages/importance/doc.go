// Package importance is the stage that estimates the number of Sudoku grids
// by Ridder's importance sampling, as his paper defines it (the maths, the
// estimator and Ridder's measures RE, RAT and EFF, is package ridder): for
// every shape of its configuration it draws the samples with package
// sampling and writes one summary row and a convergence trace.
//
// # Estimator
//
// The population Ω is the set of n-permutation grids, |Ω| = (n!)^n. The
// change of measure q fills row by row, cell by cell, uniformly over the
// symbols the row, column and box still allow; at a dead end the rest is
// filled as under the uniform measure and the grid is not a Sudoku. The
// estimator is
//
//	|Ω|·1{X∈A}·L(X),  L = u/q
//
// With the same random stream it equals Knuth's row-major sample, sample by
// sample (TestIdentityWithKnuthRowMajor in stages/maths/ridder; the proof is
// in that package's doc). The stage reads the global key seed; its random
// streams, blocks and units are those of the knuth stage (see
// `go doc ./stages/knuth`), with the variant name ridder.
//
// # Work
//
// The work of a sample is the number of cells whose candidate set R_ij was
// computed, up to and including a dead end: the cost of the estimator, and
// exactly the work of Knuth's row-major walk, which makes the same choices,
// so that relvar_work and EFF compare the two on equal terms. Ridder also
// counts the cells that the uniform completion of a dead end fills (a dead
// end then costs n²+1 cells, however early it came); the artifact gives
// that work and the EFF it implies apart (work_with_completion,
// log10_eff_with_completion). The run report also gives
// <shape>/ridder.log10_eff_cpu, with CPU seconds per sample as the cost,
// which varies between runs.
//
// # Artifacts
//
// data/importance.parquet: one row per shape.
//
//	column             type    meaning
//	shape              string  box shape RxC
//	variant            string  ridder
//	log10_population   double  log10 |Ω| = n·log10 n!
//	samples            int64   number of samples
//	estimate           string  sample mean, decimal (scientific notation, 15
//	                           significant digits)
//	log10_estimate     double  log10 of the estimate
//	std_error          string  sample standard deviation / √samples
//	ci_low             string  estimate − 1.959964·std_error, cut at 0: the 95% interval
//	ci_high            string  estimate + 1.959964·std_error
//	relative_error     double  std_error / estimate
//	nonzero_fraction   double  fraction of samples that are Sudoku grids
//	work               int64   cells whose candidate set was computed, up to and including
//	                           a dead end (as Knuth's row-major walk)
//	relvar             double  sample variance / estimate², per sample
//	relvar_work        double  relvar × work per sample
//	relvar_low         double  95% bootstrap interval of relvar over the run's blocks
//	relvar_high        double  (as in data/knuth.parquet; NaN for fewer than 10 blocks)
//	ess                double  effective sample size (Σw)²/Σw² of the samples as weights
//	max_weight_share   double  the largest sample / Σw
//	pareto_k           double  k̂ of the upper tail (as in data/knuth.parquet; NaN: no
//	                           tail to fit)
//	unreliable         bool    k̂ > min(1 − 1/log₁₀ n, 0.7): the interval is not to be trusted
//	log10_probability  double  log10 of the estimate of u(A) = |A|/|Ω|
//	rat                double  RAT = log E[γ²] / log E[γ], γ = 1{X∈A}·L(X) the
//	                           one-sample estimator of u(A); 1 for crude Monte Carlo,
//	                           at most 2; NaN if no sample hit A
//	eff                double  EFF = 1/(σ²_γ · work per sample), with deterministic work
//	                           as the cost; +Inf beyond float64
//	log10_eff          double  log10 of eff
//	work_with_completion int64 work plus the cells the uniform completion of dead ends
//	                           filled: samples·n² + dead ends (= work when
//	                           fill_dead_ends is false)
//	log10_eff_with_completion double  log10 EFF with work_with_completion per sample as
//	                           the cost, Ridder's accounting
//
// data/importance_trace.parquet has the schema of data/knuth_trace.parquet:
// shape, variant, samples, estimate, log10_estimate, std_error, ci_low,
// ci_high and relative_error at log-spaced sample counts.
//
// # Configuration
//
//   - importance.block_size (default 1000): an integer from 1 to 2³⁰
//     (1073741824), samples per block.
//   - importance.fill_dead_ends (default true): false skips the uniform
//     completion after a dead end (same estimates and work, less time,
//     other random streams; work_with_completion is then the work).
//   - importance.samples (configs/default.yaml {2x2: 100000, 2x3: 100000,
//     3x3: 2000000}; smoke {2x2: 2000, 2x3: 2000, 3x3: 5000}): a map from
//     shape RxC (R·C ≤ 35) to samples ≥ 1, at most 2²⁴ blocks of
//     importance.block_size.
//
// # Cost
//
// About 4.6·10^5 samples per second per core on 9×9 (the
// project's 2-core machine); the stage took a few seconds within
// `make all`. The CPU time is machine-dependent and stays out of the
// artifacts (whose bytes every later stage's fingerprint hashes): the run
// report gives, per shape, cpu_seconds_per_sample and the efficiency
// 1/(relvar × CPU seconds per sample) with its interval
// (efficiency_low, efficiency_high: relvar_high and relvar_low at the
// measured CPU time; see package sampling), and log10_eff_cpu, Ridder's
// EFF with CPU seconds per sample as the cost, in s⁻¹.
package importance
