// Package exact is the stage that counts the Sudoku grids exactly, by the
// method of Felgenhauer and Jarvis: the completions of every reduced first
// band by the band-pair method (package bandpair), a check that the members
// of each of the 44 classes agree with its representative, and a recount of
// the chosen classes by backtracking (package backtrack, which shares no
// counting code with bandpair). Any disagreement fails the stage. It writes
// one row per class and the total, N = 6,670,903,752,021,072,936,960.
//
// # Method
//
// Band-pair: for a first band b,
//
//	completions(b) = Σ_S N(S)·N(R∖S)
//
// over the 56³ = 175,616 choices S of the second band's column sets, with
// N(S) the number of 3-edge-colourings of the column–digit graph. Every
// member of every class is also counted (once per column-set orbit) and must
// agree with its representative.
//
// Backtracking: column 1 of rows 4-9 is fixed in 10 ways of weight 72, then
// grid.Grid.Count counts the rest. It recounts the classes that
// exact.crosscheck chooses.
//
// The stage requires reduce and classes.
//
// # Units
//
// The backtracking recount of each chosen class is one unit,
// class<id>-<the representative's 27 digits> (seconds of one core each); the
// band-pair part runs in Run.
//
// # Artifacts
//
// data/completions.parquet: one row per class, ascending id.
//
//	column                  type    meaning
//	class                   int32   class id = id (in reduced.parquet) of its smallest
//	                                member, the representative
//	size                    int32   reduced bands in the class (sizes sum to 36,288)
//	first_bands             int64   bands with B1 = 123/456/789 in the class:
//	                                Σ multiplicity (= 72·size)
//	representative          string  the representative band as 27 digits, rows 1-3
//	                                concatenated
//	bands_with_column_sets  int64   Σ_S N(S) over the 175,616 column-set choices S: the
//	                                number of second bands (rows and blocks hold 1-9)
//	                                that repeat no digit in a column of the
//	                                representative
//	completions             string  decimal: completions of the representative (of any
//	                                member) to a full grid
//	crosschecked            bool    whether the backtracking method recounted this class
//	                                (and agreed)
//
// data/total.parquet: one row.
//
//	column                 type    meaning
//	grids                  string  decimal: 9!·Σ first_bands·completions = N
//	                               (6670903752021072936960)
//	canonical_grids        string  decimal: grids with B1 = 123/456/789, N/9!
//	reduced_count          string  decimal: N/(9!·72²) (3546146300288)
//	reduced_count_factors  string  its prime factorisation, 2^7 × 27704267971
//	classes                int32   number of classes (44)
//	crosschecked_classes   int32   classes recounted by backtracking
//
// # Configuration
//
//   - exact.crosscheck (default "all"; configs/smoke.yaml "2"): the classes
//     the backtracking method recounts: "all", "none", a count N ≥ 1 (the N
//     classes with the smallest ids), or a comma-separated list of distinct
//     class ids such as "0,17".
//
// # Cost
//
// Measured on the project's 2-core machine:
//
//   - the default run (band-pair over all 36,288 bands, then backtracking of
//     all 44 classes as units): 41 s wall, 79 s CPU; the band-pair part
//     0.12 s; 33 s within `make all` from a fresh clone;
//   - BenchmarkBandPair44Warm in stages/maths/bandpair (44 classes, N(S)
//     tables built): 37 ms.
package exact
