// Package kilfoil is the stage that writes Kilfoil's heuristic estimate of
// the number of grids (package heuristic) for every configured box shape,
// in exact rational arithmetic:
//
//	E(R,C) = b(R,C)^C · b(C,R)^R / (N!)^N
//
// where b(R,C) is the exact number of valid bands (R rows × N columns) and
// b(C,R) of valid stacks (bands of the transposed shape). The band counts
// come from the dynamic programme described in stages/maths/heuristic/doc.go
// (b(R,C) = N!·(C!)^(R(R−1))·M(R,C)); nothing is looked up. For 9×9,
// E = 948109639680^6 / (9!)^9 = 6657084616885512582463.488 exactly. The
// stage reads no artifact.
//
// # Artifact
//
// data/kilfoil.parquet: one row per configured shape, in the order of
// kilfoil.shapes.
//
//	column             type    meaning
//	rows               int64   R, rows of a box
//	cols               int64   C, columns of a box
//	band_count         string  b(R,C), decimal
//	stack_count        string  b(C,R), decimal
//	band_completions   string  M(R,C), the set arrays completing a fixed first box
//	stack_completions  string  M(C,R)
//	estimate_num       string  numerator of E in lowest terms, decimal
//	estimate_den       string  denominator of E in lowest terms, decimal
//	estimate           string  E in full decimal when it terminates (e.g.
//	                           6657084616885512582463.488), otherwise d.ddd…e±XX with
//	                           kilfoil.digits significant digits, correctly rounded
//	estimate_exact     bool    whether estimate is the exact value
//	log10_estimate     double  log10 E
//
// # Configuration
//
//   - kilfoil.shapes (default the 18 shapes 2x2, 2x3, 3x2, 2x4, 4x2, 3x3, 2x5,
//     5x2, 3x4, 4x3, 2x6, 6x2, 4x4, 3x5, 5x3, 4x5, 5x4, 5x5; smoke [2x2, 2x3,
//     3x2, 3x3]): a non-empty list of distinct shapes RxC with 1 ≤ R, C ≤ 6
//     and R·C ≤ 25.
//   - kilfoil.digits (default 40): 1-1000, the significant digits of an
//     estimate whose decimal expansion does not terminate.
//
// # Cost
//
// The 16 shapes up to 5×5: 1.6 s (the project's 2-core
// machine). The 18 default shapes, with 2x6 and 6x2: 10.9 s niced at load
// 8, of which 4.1 s for 2x6 and 6x2 alone (they share
// M(6,2), the stacks of 2×6 boxes) and most of the rest for 5×5.
package kilfoil
