// Package montecarlo is the machinery every Monte Carlo estimator of the
// project shares (Knuth's walks in package walks, Ridder's importance
// sampling in package ridder): the draw of a candidate on the constraint
// board a random walk fills, deterministic per-block random streams,
// mergeable accumulation of huge nonnegative samples, summary statistics
// and convergence traces. It imports the standard library and the maths
// packages grid and parallel only; the stages reach it through package
// sampling.
//
// # Blocks
//
// A run of an estimator is identified by a Spec (global seed, stage, shape,
// variant, block size). Its samples are cut into blocks of Spec.BlockSize
// samples; block b draws all its randomness from a ChaCha8 generator whose
// 32-byte seed is
//
//	SHA-256("sudoku-census/montecarlo/v1" ‖ u64(seed) ‖ str(stage) ‖ str(shape) ‖ str(variant) ‖ u64(b))
//
// where u64 is 8 bytes little endian and str is u64(len) followed by the
// bytes. RunBlock is a pure function of (Spec, b, block length, sampler kind)
// and returns a Moments value; Moments merge associatively (in exact
// floating-point terms only in a fixed order, so MergeBlocks, which Run
// uses, merges block by block in block order). Any set of machines can
// therefore compute any set of blocks, send them in their exact binary
// form (AppendBlock, ReadBlock), and a coordinator merges them with
// MergeBlocks to get byte-identical results: the work units of the knuth
// and importance stages (package sampling) do just that.
//
// # Samples
//
// Sample values (for 16×16 around 1e98, for 25×25 beyond the float64 range)
// are passed as Value, a float64 fraction with a separate binary exponent.
// Moments keep the running mean and the sum of squared deviations scaled by
// a common power of two, so nothing overflows and relative precision is that
// of float64 (statistical errors dominate it by many orders of magnitude).
//
// # Diagnostics
//
// Every block also keeps its Spec.TailSize largest samples (a set, merged
// by MergeTails in any order to the same values), so that a run carries,
// beside its interval, the diagnostics of its samples as importance
// weights (Diagnose): effective sample size, the largest sample's share
// and the Pareto k̂ of the upper tail, which marks an interval unreliable
// beyond 0.7.
//
// # Efficiency
//
// BootstrapRelVar gives a run's relative variance per sample a 95%
// interval by resampling its blocks (a percentile bootstrap whose draws are
// seeded from the run's Spec, so the same bytes everywhere; none for a run
// of fewer than MinBootstrapBlocks = 10 blocks), and
// Efficiency and EfficiencyInterval turn it into 1/(relvar × cost) at a
// given cost per sample.
package montecarlo
