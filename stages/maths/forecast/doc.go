// Package forecast tells, before the exact count of a partial grid is run,
// what it will find and how long it will take.
//
// EstimateCount draws Knuth probes down the exact counter's own search tree
// (grid.Counter.Probe, which argues the estimators' unbiasedness) and
// estimates, with 95% intervals, the number of completions of the grid and
// the number of nodes of the counter's outer search tree. With k₀, k₁, …
// the branching factors on a probe's path (ProbeValues), the samples are
//
//	completions ≈ Π kᵢ        outer nodes ≈ Σ_{d=0}^{L} Π_{i<d} kᵢ,
//
// the sum over the L outer factors. Calibrate runs the exact count itself
// for a short while to measure its speed, and Predict turns the estimated
// outer tree into a range of times at that speed.
//
// The package imports the standard library and the maths packages grid,
// montecarlo and parallel only.
package forecast
