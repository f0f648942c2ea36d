// Package sampling is the pipeline side of the Monte Carlo stages (knuth,
// importance): what they share between reading their configuration and
// writing their tables, around the estimators of the maths packages walks
// and ridder and the run machinery of package montecarlo.
//
//   - Shape keys: a samples map's keys are box shapes in the canonical form
//     grid.Shape.String prints ("3x3"), optionally followed by "/variant";
//     CheckSamples and CheckShapeKeys reject anything else in one line, and
//     Shapes lists the shapes in the order of CompareShapes (smallest grid
//     first, then lowest box), the order of every table of the project.
//   - Run: the loop over shapes and variants, each run by Execute (a
//     progress bar, timings in the run report) with the random streams of
//     montecarlo.Spec, and the summary and trace tables written.
//   - Columns and TraceRow: the summary columns every Monte Carlo summary
//     row embeds, and the rows of the convergence traces.
package sampling
