// Package engine runs a pipeline of stages (pipeline.Stage) over one
// project root: it orders the stages by their requirements, decides which
// are fresh, and runs the stale ones, one at a time, publishing each
// stage's outputs atomically and recording them in the manifest
// (pipeline/store). Its Engine is what the command line (pipeline/cli) and
// the tests (pipeline/pipelinetest) drive.
//
// # Fresh and stale
//
// A stage is fresh when every output exists, hashes to what the manifest
// recorded, and was made with the fingerprint the stage would compute now:
//
//	fingerprint = SHA-256( stage name, Stage.Version,
//	                       canonical JSON of the stage's config subtree (and the globals it reads, e.g. seed),
//	                       SHA-256 of every input artifact,
//	                       SHA-256 of every hand-written source file it declares (Stage.Sources; only paper has any),
//	                       the version of every program it declares (Stage.Tools; only paper: go, latexmk, pdflatex, bibtex),
//	                       SHA-256 of the committed bundle it reads (shapes, symmetry, knuth: every row and column) )
//
// Anything else is stale, with a reason (what `census status` prints):
// "never run", an artifact missing or damaged, "code version 1 -> 2",
// "config reduce.swap_blocks changed (true -> false)", "input bands
// changed", "tool pdflatex changed (… -> …)", "bundle
// data/bundles/symmetry-12.parquet changed (SHA-256 … -> …)" or "… is
// missing", "upstream stage bands is stale". `census run` rebuilds a stale
// stage, or restores it from the run cache. A stage whose Run returns
// pipeline.Skip(why) (the paper without TeX) publishes nothing, stays stale
// and does not fail the run: the run warns in one line and goes on. The
// tool version is recorded in every artifact but is in no fingerprint.
//
// The run cache (store.CacheStore): every published output is also kept,
// as a copy, in data/cache/objects/<SHA-256>, with a record per stage and
// fingerprint, data/cache/runs/<stage>/<fingerprint>.json. A stale stage
// whose new fingerprint the cache holds is restored instead of run
// ("restored from cache"), after every object is hashed; a damaged object
// is removed and the stage runs. So switching seed to 2 and back to 1
// reruns nothing the second time, and a deleted artifact comes back.
// `census status` says "stale (in cache): …" for such a stage and ends with
// the cache's size.
//
// Version, not a hash of the source, marks a change of code: a source hash
// would rerun hours of work at every refactoring and still miss changes in
// dependencies. Any change that can alter a stage's output, in the stage or
// in shared code it calls, bumps that stage's Version in the same commit
// (and the Version of every stage whose output the shared code changes);
// speed, logging and comments leave it alone. stages/testdata/golden.json
// records every smoke stage's Version, fingerprint and output hashes, and
// `go test ./stages -run Golden` fails, naming the stage and artifact,
// when an output changed while its fingerprint did not. After a deliberate
// change and its bump, rewrite the record and the smoke lock with
//
//	go test ./stages -run 'Golden|SmokeLock' -update
//
// and commit them with the change; a change to the paper's run also
// regenerates configs/default.lock.json (`make all`, then `bin/census lock
// -o configs/default.lock.json`).
//
// # Units
//
// A stage may split its work into units (Stage.Units): a deterministic
// list of short ids, cheap to compute from the configuration and inputs (at
// most store.MaxUnits, 2²⁰), and a Compute function whose result, a few
// bytes, is a pure function of the pass and the id. Before Run the engine
// computes the units that are missing and keeps each one in
// data/units/<stage>/<key>/<id>, written under a temporary name, renamed
// into place, with a SHA-256 trailer over the key, the id, the result and its
// compute time (a file that does not check is computed again; key: the fingerprint without
// the bundle, which the units add to as they finish; the fingerprint the
// stage publishes is taken once they are all in the bundle). Run merges
// them, in List order, with Pass.UnitResults. So the artifacts are the same
// bytes whatever order, process or machine computed the units, and a rerun
// with the same fingerprint (after a failure, a Ctrl-C, a kill -9, a lost
// artifact) computes only the missing ones; the run report gives
// units.total, units.reused and units.computed. `census status` adds "N/M
// units done" to a stale stage whose fingerprint is known (a unit counts
// when its file checks); the units of other fingerprints go when the stage
// publishes, or by `census gc`; `census run --force` recomputes them.
// Compute runs on Units.Workers goroutines at once (the units of the
// stage's Bundle after the others, one at a time) and must honour
// Pass.Context. The stages with units are exact, shapes, symmetry, knuth
// and importance; each one's package doc says what a unit is.
//
// # Executors
//
// The executor (config key executor.name, flag --executor) says where units
// are computed: "local", in the running process, or "slurm", one array job
// per stage whose tasks run Options.UnitCommand (the hidden `census units`,
// Engine.WorkUnits). Everything but the units runs in the submitting
// process, and the executor is in no fingerprint. How, and the keys:
// `go doc ./pipeline/executor`.
//
// # Interrupting
//
// Cancelling the context of Engine.Run (the command line does on Ctrl-C
// and SIGTERM) stops the stage, publishes nothing, keeps finished units and
// cancels a Slurm job (scancel); StopPublishing lets a publish under way
// (renames and manifest) finish and starts no other, so a stage is never
// half-published. A panic in Run or Compute fails the stage, with its stack
// in the log.
//
// What the engine leaves behind is read by pipeline/inspect (Engine.Project:
// show, cite, diff, lock files) and moved between machines by
// pipeline/remote (Remote.Push, Engine.Pull).
package engine
