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
// Beyond 25×25 one orientation has six rows, and the programme cannot
// count M(6,C) for C ≥ 4 (see kilfoil.MaxSide). For the shapes of
// kilfoil.sampled, M(6,C) is estimated without bias by
// heuristic.CompletionsSampler (symbols dealt one weighted permutation at a
// time; relvar about 0.33 per sample on 6×5 and 6×6, checked against the
// exact M of 13 shapes up to 5×6 and 6×3), the other orientation is
// counted, and E comes with the interval that M's 95% interval maps to: E
// grows as M^C (6×C bands) or M^12 (6×6, bands and stacks alike), so the
// map keeps the interval's coverage. The default run gives
// E(6,5) = 2.3537·10^488 ±0.39% (30×30) and E(6,6) = 1.4102·10^768 ±0.68%
// (36×36), the first values of the heuristic at these sides; k̂ 0.32 and
// 0.19.
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
// data/kilfoil_sampled.parquet: one row per shape of kilfoil.sampled, by
// grid side, then box height. Numbers as strings have 7 significant digits.
//
//	column               type    meaning
//	rows, cols           int64   R and C of the shape
//	sampled_rows         int64   the band shape whose M is sampled: R×C, or C×R
//	sampled_cols         int64
//	counted_completions  string  the other orientation's M, exact decimal ("" for 6x6)
//	samples              int64   samples of M's estimate
//	completions          string  M's estimate (the sample mean)
//	completions_low      string  its 95% interval (mean ∓ 1.96 standard errors)
//	completions_high     string
//	relvar               double  relative variance per sample
//	pareto_k             double  k̂ of the samples' tail (package montecarlo)
//	estimate             string  E with M's estimate
//	estimate_low         string  E at the interval's ends
//	estimate_high        string
//	log10_estimate       double  log10 of the three
//	log10_low            double
//	log10_high           double
//
// # Configuration
//
//   - kilfoil.shapes (default the 18 shapes 2x2, 2x3, 3x2, 2x4, 4x2, 3x3, 2x5,
//     5x2, 3x4, 4x3, 2x6, 6x2, 4x4, 3x5, 5x3, 4x5, 5x4, 5x5; smoke [2x2, 2x3,
//     3x2, 3x3]): a non-empty list of distinct shapes RxC with 1 ≤ R, C ≤ 6
//     and R·C ≤ 25.
//   - kilfoil.digits (default 40): 1-1000, the significant digits of an
//     estimate whose decimal expansion does not terminate.
//   - kilfoil.sampled (default {6x5: 2000000, 6x6: 4000000}; smoke and
//     without a config none): shapes RxC with sides ≤ 6 and R·C ≤ 36 one of
//     whose orientations the programme cannot count (6 rows and at least 4
//     columns), each with its samples, 1000 to 1.6·10^11 (blocks of 10,000,
//     whose seeds come from the global seed).
//
// # Cost
//
// The 16 shapes up to 5×5: 1.6 s (the project's 2-core
// machine). The 18 default shapes, with 2x6 and 6x2: 10.9 s niced at load
// 8, of which 4.1 s for 2x6 and 6x2 alone (they share
// M(6,2), the stacks of 2×6 boxes) and most of the rest for 5×5. The
// sampled shapes: about 16 µs a sample of M(6,5) and 18 µs of M(6,6)
// (BenchmarkCompletionsRelvarSeconds), so the default 6·10^6 samples take
// about 100 CPU-seconds, and M(5,6), the stacks of 6x5, 12–20 s.
package kilfoil
