// Package reduce is the stage that applies the lexicographic reduction of
// Felgenhauer and Jarvis (funnel.Reduce) to every band of data/bands.parquet:
// sort the columns of B2 and of B3 so that their top-row digits increase,
// then exchange B2 and B3 if B3's top row comes first. The 36,288 reduced
// bands each stand for 72 bands with the same number of completions to a
// grid. The stage fails unless the multiplicities sum to 2,612,736.
//
// # Artifact
//
// data/reduced.parquet: one row per reduced band, 36,288 rows (72,576 with
// reduce.swap_blocks false), sorted by the band's 27 digits.
//
//	column        type    meaning
//	id            int32   0-based position in that order
//	row1          string  the reduced band's first row, nine digits
//	row2          string  its second row
//	row3          string  its third row
//	multiplicity  int32   number of the 2,612,736 bands that reduce to this one:
//	                      72 (36 without the block exchange)
//
// # Configuration
//
//   - reduce.swap_blocks (default true): false stops after sorting the
//     columns, leaving 72,576 bands of multiplicity 36; the classes stage
//     refuses such a table.
//
// # Cost
//
// `census run reduce` from an empty data/ took 2.3 s: bands 1.0 s, reduce
// 1.2 s (the project's 2-core machine).
package reduce
