// Package ridder estimates the number of Sudoku grids by Ridder's
// importance sampling (reference 002): the population Ω of n-permutation
// grids (every row a permutation of 1…n), |Ω| = (n!)^n (Population), the
// change of measure q of Sampler, and the estimator |Ω|·1{X∈A}·L(X) of the
// number |A| of grids, with L = u/q the likelihood ratio against the
// uniform measure u on Ω.
//
// Ridder's performance measures (Measures, MeasuresOf): with γ = 1{X∈A}·L(X),
// the one-sample estimator of u(A) = |A|/|Ω|,
//
//	RE  = std error / estimate (of the n-sample mean, as for every estimator);
//	RAT = log E[γ²] / log E[γ], estimated by the sample mean of γ² and γ:
//	      1 for crude Monte Carlo (γ² = γ), at most 2, and near 2 for an
//	      efficient (logarithmically optimal) estimator;
//	EFF = 1 / (Var[γ̄_n] · cost(γ̄_n)) = 1 / (σ²_γ · cost per sample), which
//	      does not depend on n. MeasuresOf uses the deterministic work
//	      (cells decided per sample, as for Knuth's walk) as cost;
//	      Log10EFFWith takes another, such as Ridder's, which counts the
//	      uniform completion of dead ends too (WorkWithCompletion).
//
// The package imports the standard library and the maths packages grid and
// montecarlo only (its tests also use walks, for the identity with Knuth's
// row-major walk).
package ridder
