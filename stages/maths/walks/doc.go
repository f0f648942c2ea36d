// Package walks estimates the number of Sudoku grids of any box shape with
// Knuth's random-walk estimator (Knuth 1975, applied to Sudoku in the blog
// post of reference 001) and its variants.
//
// A walk fills cells one by one, each with a symbol drawn uniformly from
// those its row, column and box still allow; the sample is the product of
// the numbers of choices, or 0 when a cell has none. On a search tree whose
// leaves at full depth are exactly the grids, the walk reaches leaf ℓ with
// probability Π 1/d(v) over the nodes v on its path (d the branching
// factor) and scores it Π d(v), so the expected score is the number of
// grids.
//
// The variants differ in the tree: the order of the walk (RowMajor, Random,
// MRV, Cover: see Order); the hybrid stops the walk after HybridK
// placements and counts the completions exactly with grid.Counter; and
// stochastic enumeration (see Enumerator) carries up to Budget partial
// grids down the tree at once. The band variants start from a uniformly
// random first band or count the last band exactly, with package walkbands.
// The stack estimator (see Stacks) walks no cell: it draws the stacks'
// structures (uniformly for box widths up to 5; by package heuristic's
// sequential importance sampling, weighed by 1/P, for width 6, as on
// 36×36) and counts or estimates each band's edge
// colourings, with a light tail where the walks' is heavy; its hybrid
// (NewStacksHybrid) draws part of each perfect matching and counts the
// rest, where the whole count's memo would leave the cache (25×25: 40 ms a
// sample instead of 12 s). Sampler draws samples of any Variant for
// package montecarlo's Run.
//
// The package imports the standard library and the maths packages grid,
// heuristic, montecarlo and walkbands only.
package walks
