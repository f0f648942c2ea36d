// Package walkbands holds the exact band combinatorics of the band variants
// of package walks, for boxes R×C of side N = RC:
//
//   - FirstBand draws a first band (rows 0…R−1, R ≤ MaxFirstBandHeight = 5)
//     uniformly among all b(R,C) = N!·(C!)^(R(R−1))·M(R,C) valid bands, M =
//     1 for R ≤ 2, the Franel number Σₐ C(C,a)³ for R = 3 and a count of
//     set arrays, symbol by symbol for R = 4 and box by box for R = 5, and
//     gives b(R,C) exactly. A
//     walk from a uniform band that scores b(R,C) times an unbiased
//     estimate of the band's completions is unbiased for the number of
//     grids.
//   - LastBand counts exactly the completions of the last band (rows
//     N−R…N−1, R ≤ MaxLastBandHeight = 3) of a grid whose upper bands are full, from the candidates of
//     its top row: 1 for R = 1, 2^cycles for R = 2, and for R = 3 the sum of
//     the R = 2 counts over the top row's choices. Scoring a walk of the
//     upper bands by that count is unbiased and removes all the variance of
//     the last band.
//
// The package imports the standard library and the maths packages grid,
// montecarlo and symmetry/perm only.
package walkbands
