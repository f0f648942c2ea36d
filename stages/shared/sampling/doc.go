// Package sampling is the pipeline side of the Monte Carlo stages (knuth,
// importance): what they share between reading their configuration and
// writing their tables, around the estimators of the maths packages walks
// and ridder and the blocks of package montecarlo.
//
//   - Shape keys: a samples map's keys are box shapes in the canonical form
//     grid.Shape.String prints ("3x3"), optionally followed by "/variant",
//     with a side N = R·C up to MaxSide (36: box 6×6, one beyond the grids'
//     text form, for the knuth stage's stackshybrid; which estimators
//     run beyond 35 is each stage's rule); ParseShapeKey reads one, and
//     CheckSamples and CheckShapeKeys reject anything else in one line, and
//     Shapes lists the shapes in the order of CompareShapes (smallest grid
//     first, then lowest box), the order of every table of the project.
//   - Estimator: a stage's work units and Run. A unit is a run of blocks of
//     one shape and variant (see UnitsPerRun for the cut, ids and result
//     format); the engine computes the units, on any cores, processes or
//     machines, and Run merges their blocks in block order exactly as
//     montecarlo.Run would, reports the timings (Timing) and writes the
//     summary and trace tables.
//   - Columns and TraceRow: the summary columns every Monte Carlo summary
//     row embeds, and the rows of the convergence traces; RelVarColumns,
//     the relvar's 95% bootstrap interval over the run's blocks, which Run
//     computes (montecarlo.BootstrapRelVar) and hands to the stage's Row;
//     CPUColumns, the CPU seconds per sample and the efficiency 1/(relvar ×
//     CPU seconds per sample) with its interval (the relvar resampled, the
//     CPU time as measured), machine-dependent columns (CPUColumnNames)
//     for a table whose CPU time is fixed bytes (the knuth stage's long
//     runs, from their bundle). The default runs' CPU time is measured as
//     they compute, so Run puts their CPUColumns in the run report only
//     ("<shape>/<variant>.efficiency", …): in an artifact it would change
//     the fingerprint of every stage that reads it from run to run.
package sampling
