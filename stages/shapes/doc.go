// Package shapes is the stage that counts Sudoku grids exactly for box
// shapes other than 3×3: boxes of R rows × C columns, side N = R·C. Shapes
// with 2-row or 2-column boxes (2×1 … 2×6 and their transposes, which have
// the same count: one computation per width c serves 2×c and c×2) are
// counted by the pair method of package pair; every count is checked by
// computations that share no counting code with it, and the classic 3×3
// count is read from the exact stage's data/total.parquet and recounted by
// the three-stack method. Any disagreement fails the stage. It requires exact.
//
// # Pair method
//
// In the left stack the two rows of each band hold complementary c-sets, and
// those sets fix the right stack's, so
//
//	grids = Σ_T n!/Π_p m_p! · E(T)²
//
// summed over the multisets T of the symbols' band patterns (bit i of symbol
// x's pattern: x is in the upper row of band i; m_p the multiplicity of
// pattern p), with E(T) the number of stacks with those row sets. E(T) does
// not change when the bands are permuted or the two rows of a band
// exchanged (a group of order c!·2^c, 3,840 for c = 5), so the sum runs over
// its orbits: grids = Σ_O W(O)·E(rep O)². There are 1, 2, 4, 26 and 355
// orbits for c = 1 … 5 and 63,199 for c = 6, listed by orderly generation and
// checked against Burnside's lemma. E is counted as the c-edge-colourings of
// a symbol–row graph, symbol by symbol, with a dynamic programme.
//
// Split and join (pair.Plan, stages/maths/pairstacks/halves.go): E(T) is computed
// by cutting T's symbols, in the programme's order, into two halves of c
// symbols: E(T) = Σ_M G_A(M)·G_B(Mᶜ)/os(M), with G_A(M) the number of ways
// to place the first half leaving the columns with row-set multiset M, G_B
// the same for the second half from the empty state, Mᶜ every column
// complemented and os(M) the number of labellings of M (the division is
// exact, and checked). A symmetry of the bands carries one half's table onto
// another's, so one table per class of halves serves all: the 2 × 63,199
// halves of 2×6 fall into 1,618 classes. The plan orders the orbits by their
// half with the larger table, largest first, and keeps up to 6 GiB of tables
// (pair.DefaultCacheBytes; about 50 GB in all), which builds almost every
// table once. The full programme stays as the reference (pair.Stacks), and
// TestJoinEqualsStacks checks the join against it on every orbit for c ≤ 5
// at every split point and on sampled 2×6 orbits.
//
// # Checks
//
// Each shares no counting code with the pair method:
//
//   - multisets, for the shapes in shapes.check (c ≤ 5): package pairindep
//     walks every pattern multiset (589,392 for c = 5) and adds each one's
//     own weight, using the symmetry only to avoid recounting E, which it
//     counts row by row of the stack instead of symbol by symbol;
//   - backtracking (grid.Grid.Count), for every shape of side ≤ 6 (2×1, 2×2,
//     2×3 and their transposes);
//   - gangster, for 3×2, 2×3 and 3×3: package triple's three-stack count,
//     which uses neither the pair method nor the exact stage's catalogue of
//     first bands, so that the 9×9 count has a second computation that
//     shares nothing with the first (0.5 CPU-s; 3×4 would take hundreds of
//     CPU-hours);
//   - the literature's count (package stages/shared/literature: OEIS
//     A107739, Pettersen 2006 by hand, Russell 2005, Felgenhauer and Jarvis 2005, Pettersen 2005 and
//     2006), for every shape that has one, 3×3 included.
//
// # Units
//
// The orbits of width c ≤ 5, in the plan's order, are cut into batches of
// shapes.orbits_per_unit: unit pair-c<c>-<first orbit, 7 digits> (2×5: 355
// orbits, 12 units of at most 32). Each checked width adds one unit
// multisets-c<c>. A unit uses every core itself, so one runs at a time. Run
// adds the batches of each width in unit order.
//
// 2×6 and 6×2 run as 1,975 units of 32 orbits of the plan,
// pair6-k1-<unit, 5 digits> (k1 is pair.KernelVersion), whatever
// shapes.orbits_per_unit says. Their results are kept in the committed
// bundle data/bundles/shapes-2x6.parquet (pipeline.Bundle): one row per unit
// with what it covers, its partial sum (decimal), the kernel, its CPU
// seconds, the process's peak memory and the SHA-256 of the unit's bytes. A
// run takes the bundle's units and computes only those it lacks, adding each
// to the bundle as it finishes (under a file lock, so Slurm tasks can share
// it), so a computation stopped on one machine resumes from a fresh clone on
// another. A bundle with a damaged row, a unit twice, a unit the stage does
// not list, or a row of another kernel fails the run with one line naming
// the unit. The stage refuses 2×6 when the units the bundle lacks would take
// more than shapes.max_cpu_hours (3.7 CPU-hours for all 1,975). The
// bundle's SHA-256 is in the stage's fingerprint and in the lock. `census
// verify --recompute K` recomputes units byte for byte and recounts one
// orbit of each by pairindep's row-by-row stack count, which shares no code
// with the kernel; a unit's projected cost (the bundle's Cost, from the
// half tables its orbits join) orders the draw.
//
// With shapes.orbit_stacks, 2×6 adds 1,975 stack-count units,
// pair6-k1-stacks-<unit, 5 digits>, in the same bundle: each orbit's stack
// count E(O) for the 32 orbits of the sum unit of that number (decimal,
// space-separated, plan order), checked against it (Σ W·E² over its orbits
// is the sum unit's result; a swap of two equal-weight counts passes that
// check: the symmetry stage, which recounts the classes they serve, then
// fails naming its unit and these units to recompute). For widths up to 5
// the run computes every E itself.
//
// # Artifacts
//
// data/shapes.parquet: one row per configured shape, in config order.
//
//	column      type    meaning
//	rows        int32   R, rows of a box
//	cols        int32   C, columns of a box (side N = R·C)
//	grids       string  number of grids, decimal
//	method      string  how it was counted: "pair: sum over orbits of stack row-set
//	                    patterns of weight × (stacks with that pattern)^2", or for 3x3
//	                    "exact stage: band-pair method over the 44 classes of first
//	                    bands"
//	checked_by  string  the independent computations that gave the same number,
//	                    joined by "; ": "multisets: …" (shapes in shapes.check) and
//	                    "backtracking: every grid counted cell by cell" (side ≤ 6);
//	                    for 2x6/6x2 "counted here: pair split-and-join kernel v1,
//	                    1975 units of 32 orbits (data/bundles/shapes-2x6.parquet)";
//	                    for 3x3 "exact stage: backtracking of the classes chosen by
//	                    exact.crosscheck"; "gangster: three-stack count over the
//	                    classes of first stacks (package triple)" (3x2, 2x3, 3x3);
//	                    then "published: <source>" when the
//	                    literature has the count (every shape but 2x1/1x2); empty
//	                    when no check applies
//
// data/shapes_units.parquet: the bundle's rows for the 2×6 units the run
// used, in unit order (no rows without 2×6), for the paper's figure
// unit_times and cost figures. cpu_seconds and peak_rss_bytes are
// machine-dependent (a unit recomputed on another machine changes them
// alone): the lock pins the file's bytes and a hash of its other columns,
// and census verify --lock takes a file that differs in those two columns
// only for a match, with a note saying they were not compared.
//
//	column          type    meaning
//	unit            string  pair6-k1-<unit>
//	work            string  the orbits of the plan it covers
//	sum             string  its part of the count, decimal
//	kernel          string  the kernel that computed it
//	cpu_seconds     double  process CPU time while it was computed
//	peak_rss_bytes  int64   the process's peak resident memory when it finished
//	sha256          string  SHA-256 of the unit's bytes (domain, kernel, unit, sum)
//
// data/orbit_stacks.parquet: with shapes.orbit_stacks, one row per pattern
// orbit of each counted 2xC width (ascending widths, each in the plan's
// order); no rows without it. Σ weight·stacks² over a width's rows is its
// count of grids.
//
//	column  type    meaning
//	width   int32   C, the box width
//	orbit   string  the orbit's representative as pair.Orbit.String writes it,
//	                "<C>:<its 2C row-set patterns in hexadecimal, a byte each>"
//	weight  uint64  W(O), the tuples of row sets whose pattern multiset is in O
//	stacks  uint64  E(O), the stacks (2C rows, C columns) realising the
//	                representative's patterns
//
// # Configuration
//
//   - shapes.shapes (configs/default.yaml [2x2, 2x3, 3x2, 2x4, 4x2, 3x3, 2x5,
//     5x2]; smoke [2x2, 2x3, 3x2, 2x4, 3x3]): a non-empty list of distinct
//     shapes among 2x1, 1x2, 2x2, 2x3, 3x2, 2x4, 4x2, 2x5, 5x2, 2x6, 6x2 and
//     3x3 (2x6 and 6x2 as long as the units the bundle lacks fit
//     shapes.max_cpu_hours); anything else is a config error that lists what
//     is supported.
//   - shapes.check (default [2x2, 2x3, 3x2, 2x4, 4x2, 2x5, 5x2]; smoke [2x2,
//     2x3, 3x2, 2x4]): shapes with 2-row or 2-column boxes of width ≤ 5,
//     recounted by the multiset method when shapes.shapes counts them (the
//     others are ignored, so overriding shapes.shapes alone works).
//   - shapes.orbits_per_unit (default 32): an integer ≥ 1, pattern orbits per
//     unit of widths up to 5.
//   - shapes.max_cpu_hours (default 1): a number ≥ 0, the largest projected
//     cost, in CPU-hours, of the 2x6 units the bundle lacks.
//   - shapes.orbit_stacks (default false, configs/default.yaml true; true or
//     false): also write data/orbit_stacks.parquet, for 2x6 by the bundle's
//     stack-count units (which the symmetry stage needs to count the 2x6 and
//     6x2 classes its bundle lacks, and recounts 16 classes from each run).
//
// # Cost
//
// Measured on the project's 2-core, 24 GiB machine:
//
//   - the default configuration (2×2 … 2×5, 4×2, 5×2; 3×3 from exact):
//     about 4 s; 2×5 by the split-and-join kernel 0.12 s, by the full layer
//     programme 0.36 s, its multiset check 3 s (benchmarks in
//     stages/maths/pair and pairindep);
//   - 2×6: 63,199 orbits listed in about 4 s, planned in about 25 s; all
//     1,975 sum units 3.65 CPU-hours (peak RSS 13.8 GB with
//     GOMEMLIMIT=12GiB), the stack-count units 3.54 (the full layer
//     programme projects 79 ± 14 CPU-hours: TestProject2x6 in
//     stages/maths/pair); the bundle records each unit's CPU time;
//   - 3×4 is not counted here: the three-stack method of stages/maths/triple
//     projects 530 ± 25 CPU-hours (TestProject3x4, the CountRows kernel),
//     against Pettersen and Silver's 2,568 (2006) and Silver's 1,035 (2022).
package shapes
