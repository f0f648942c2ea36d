// Package bands is the stage that lists every completion of the top band of
// a Sudoku grid whose first block B1 is 123/456/789: 2 pure top rows × 6^6 +
// 18 mixed × 3 × 6^6 = 2,612,736 bands (Felgenhauer and Jarvis 2005,
// section 2.1). It is the first stage of the exact count; reduce reads it.
//
// # Artifact
//
// data/bands.parquet: one row per band, 2,612,736 rows in dictionary order
// of the band's 27 digits read row by row; about 240 KB.
//
//	column        type    meaning
//	row1          string  first row, nine digits, e.g. 123458679
//	row2          string  second row
//	row3          string  third row
//	top_row_case  int32   1-20: which three of the digits 4-9 form the top row of B2,
//	                      numbered in dictionary order of the sorted triple:
//	                      1 = {4,5,6}, 2 = {4,5,7}, 3 = {4,5,8}, ..., 20 = {7,8,9}
//	                      (B3's top row holds the other three)
//	kind          string  "pure" (cases 1 and 20: B2's top row is row 2 or row 3 of
//	                      B1; 6^6 bands each) or "mixed" (3 × 6^6 bands each)
//
// # Configuration
//
// None.
//
// # Cost
//
// `census run reduce` from an empty data/ took 2.3 s, of which bands 1.0 s
// (the project's 2-core machine).
package bands
