// Package engine runs a pipeline of stages (pipeline.Stage) over one
// project root: it orders the stages by their requirements, decides which
// are fresh, and runs the stale ones, one at a time, publishing each
// stage's outputs atomically and recording them in the manifest
// (pipeline/store). Its Engine is what the command line (pipeline/cli) and
// the tests (pipeline/pipelinetest) drive.
//
// A stage is fresh when every output exists, hashes to what the manifest
// recorded, and was made with the fingerprint the stage would compute now:
//
//	fingerprint = SHA-256(stage name, stage Version, canonical JSON of the
//	              stage's config subtree and globals, SHA-256 of every input,
//	              SHA-256 of the committed bundle it reads, if any)
//
// Anything else is stale, with a reason, and `census run` rebuilds it, or
// restores it from the run cache when it ran before with that fingerprint.
//
// # Units
//
// A stage may split its work into units (Stage.Units): a deterministic
// list of short ids, and a Compute function whose result, a few bytes, is a
// pure function of the pass and the id. Before Run the engine computes the
// units that are missing and keeps each one, atomically and checksummed, in
// data/units/<stage>/<key>/<id> (key: the fingerprint without the bundle,
// which the units add to as they finish; the fingerprint the stage
// publishes is taken once they are all in the bundle); Run merges them, in List order,
// with Pass.UnitResults. So the artifacts are the same bytes whatever
// order, process or machine computed the units, and a rerun with the same
// fingerprint (after a failure, a Ctrl-C, a lost artifact) computes only
// the missing ones. `census status` counts the units done of a stale stage;
// the units of other fingerprints go when the stage publishes, or by `census
// gc`; `census run --force` recomputes them. Compute runs on Units.Workers
// goroutines at once (the units of the stage's Bundle after the others, one
// at a time) and must honour Pass.Context.
//
// # Executors
//
// The executor (config key executor.name, flag --executor; see
// pipeline/executor) says where units are computed: "local", in the running
// process, or "slurm", as one Slurm array job per stage (executor.slurm.*:
// partition, account, time, cpus_per_task, units_per_task, task_minutes,
// max_tasks, extra_args). Each array task runs Options.UnitCommand (the
// hidden `census units`, Engine.WorkUnits), which recomputes the
// fingerprint, refuses another one, and writes its units to the shared data
// directory; the submitting run polls squeue, then merges and publishes as
// a local run does. Everything but the units runs in the submitting
// process. The executor is in no fingerprint.
//
// Cancelling the context of Engine.Run (the command line does on Ctrl-C
// and SIGTERM) stops the stage, publishes nothing, keeps finished units and
// cancels a Slurm job (scancel). A panic in Run or Compute fails the stage,
// with its stack in the log.
//
// What the engine leaves behind is read by pipeline/inspect (Engine.Project:
// show, cite, diff, lock files) and moved between machines by
// pipeline/remote (Remote.Push, Engine.Pull).
package engine
