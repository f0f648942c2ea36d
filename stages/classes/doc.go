// Package classes is the stage that groups the 36,288 reduced bands of
// data/reduced.parquet into classes with equal numbers of completions
// (funnel.Compute) and writes the class of every band and the funnel, level
// by level, beside the counts Felgenhauer and Jarvis report.
//
// Each level is the reflexive, symmetric, transitive closure of the level
// before plus new operations, each followed by relabelling B1 and
// lexicographic reduction:
//
//	level  operations                          classes
//	1      blocks and columns                  2,051
//	2      rows                                  416
//	3      2×2 subrectangles                     174
//	4      2×3, 3×2, 4×2 subrectangles            71
//	5      equal column sets                      44
//
// It requires the 36,288-row table made with reduce.swap_blocks true and
// fails on any other.
//
// # Artifacts
//
// data/classes.parquet: one row per reduced band (36,288).
//
//	column  type   meaning
//	id      int32  the band's id in data/reduced.parquet
//	level1  int32  id of the representative of the band's class at level 1
//	level2  int32  the same at level 2
//	level3  int32  the same at level 3
//	level4  int32  the same at level 4
//	level5  int32  the same at level 5
//
// A class's representative is its smallest id, which is its
// lexicographically smallest band. The level-5 classes are the distinct
// level5 values; a class's size is its row count, and its band is the row of
// data/reduced.parquet with that id.
//
// data/funnel.parquet: one row per level (7 rows).
//
//	column         type    meaning
//	level          int32   -1 (all bands with canonical B1), 0 (lexicographic
//	                       reduction), 1-5
//	name           string  short name of the level
//	operations     string  the operations the level adds
//	classes        int32   bands (level -1) or classes remaining: 2612736, 36288,
//	                       2051, 416, 174, 71, 44
//	paper_classes  int32   the count Felgenhauer and Jarvis report
//	note           string  "as in the paper", or how our count differs
//
// # Configuration
//
// None.
package classes
