// Package cli is the census command line over a pipeline of stages (cli.go;
// diff.go, count.go, remote.go; units.go, the hidden command a Slurm array
// task runs). `make build` builds it as bin/census (pipeline/cmd/census,
// with the stages of stages.All). This doc is the user's reference in brief:
// the commands, the exit codes, the configuration, and where each deeper
// topic is documented. `census help CMD` gives a command's flags and
// details; each stage's reference is its package doc (`go doc
// ./stages/knuth`).
//
// # Commands
//
//	census run [STAGE...]
//	    bring the named stages (default: all) up to date, stale upstream
//	    stages first, reusing the units already done and restoring from
//	    the run cache what ran before; fresh ones print "up to date"; ends
//	    with a timing report. --wait waits for another run holding data/
//	    instead of failing; -j/--jobs N computes on N cores (an integer
//	    ≥ 1; default all: it sets GOMAXPROCS, by which every parallel part
//	    of a run sizes itself)
//	census run --force STAGE...
//	    rerun those stages even if fresh (their units too), and every stage
//	    downstream of them in the run
//	census run -n [--json] [STAGE...]  (--dry-run)
//	    per stage what a run would do (up to date, restore from the run
//	    cache, or run), why, and how long its last run took
//	    (data/runs.jsonl); --json gives every reason whole; takes no lock,
//	    writes nothing; a refusal a run would stop on (knuth.max_cpu_hours)
//	    is refused here too, exit 2
//	census run --executor slurm [--slurm-…]
//	    the missing units of each stale stage as one Slurm array job
//	census status [STAGE...]
//	    one line per stage: fresh, or stale and why, "N/M units done" for
//	    a stage with units; exit 0 if all named stages are fresh, 1
//	    otherwise, 2 with the refusal a run would stop on
//	census dag [--dot]
//	    the stage graph as text, or Graphviz
//	census show ARTIFACT [--rows N]
//	    manifest entry, schema, row count, provenance and the first rows,
//	    after checking the file's SHA-256 against the manifest's
//	census verify [ARTIFACT...]
//	    re-hash the artifacts (names or paths; default: all, and then the
//	    committed bundle each stage read) against data/manifest.json
//	census verify --lock FILE
//	    compare artifacts, stage fingerprints and committed bundles with a
//	    lock; one line per difference
//	census verify --recompute K|all [--seed S] [--max-unit-cpu D] [--bundle NAME] [--executor slurm]
//	    recompute K units of every committed bundle (data/bundles), or all,
//	    and compare them byte for byte (`census help verify`)
//	census lock [-o FILE]
//	    write the lock of a finished run (every stage fresh)
//	census diff LOCK [LOCK|data] [--json] [--exit-code] [--all]
//	    compare two runs: config, stages, artifacts, headline numbers
//	census count [--box RxC] [--estimate] [--max-time D] [--force] [FILE|-]
//	    the exact number of completions of a partial grid, refused when
//	    predicted to take over --max-time (`census help count`)
//	census cite ARTIFACT
//	    a BibTeX entry for an artifact whose bytes are the manifest's
//	census push [REMOTE], census pull [REMOTE] [--lock FILE]
//	    share runs through a remote (file:///path or s3://bucket/prefix);
//	    while a run holds data/.lock each says so and sends nothing (exit
//	    1); --wait waits instead
//	census gc [--wait] [--keep-last N]
//	    remove the units and run-cache entries no current fingerprint
//	    needs (`census help gc`); never an artifact; takes data/.lock
//	census --version
//	    the release, and the git commit the binary was built from
//
// Global flags: --config FILE (default configs/default.yaml under --root),
// --set key=value (repeatable), --root DIR (default .), -q/--quiet
// (warnings only). Long stages, count, push and pull draw a progress bar on
// a terminal and nothing on a pipe or in CI (CI set); logs go to stderr
// through log/slog.
//
// # Exit codes
//
//	0    success
//	1    a failed run or check: a stage failed, status found a stale stage,
//	     verify a mismatch, show or cite an artifact whose bytes on disk are
//	     not the manifest's, a damaged manifest
//	2    bad usage or input: an unknown command (with cobra's "Did you mean
//	     this?" on lines of their own), argument, flag or config key; a flag
//	     or config value that does not parse or is out of range; a file that
//	     is too large (config 1 MiB, grid 64 KiB, lock 16 MiB), empty or
//	     not what it should be
//	130  stopped by Ctrl-C (SIGINT)
//	143  stopped by SIGTERM
//
// The first Ctrl-C or SIGTERM cancels the command (what a run keeps and
// publishes then: `go doc ./pipeline/engine`); census prints "census:
// interrupted by SIGINT (Ctrl-C): stopped; nothing partial was published"
// and exits once the work has stopped, after 0.7 s at most, or at a second
// Ctrl-C; a publish already under way (renames and manifest, milliseconds)
// is let finish and no other starts.
//
// # Configuration
//
// Values come from the file (--config), then from environment variables
// CENSUS_<KEY> (dots become underscores: CENSUS_SEED=7,
// CENSUS_EXACT_CROSSCHECK=none), then from --set; each later source wins.
// --set sets one entry of a map key and keeps the others
// (--set knuth.samples.4x4/se=3000). A CENSUS_* variable that names no key
// is ignored, unless it is under a stage's prefix (CENSUS_KNUTH_SAMPLE): a
// misspelt key, refused. Every value is parsed exactly against its key's
// type, whatever the source: an integer key takes only an integer that
// fits (1.5, 1e30, true or an empty value are refused, never rounded); an
// unknown key, a bad or out-of-range value, a duplicate key, a malformed,
// empty or over-1 MiB file is a one-line error naming the key, the value
// and what is allowed, exit 2. How: `go doc ./pipeline/config`.
//
// Each stage's keys live under its name and are listed in its package doc.
// The global keys:
//
//   - seed (default 1, a non-negative integer): seeds every random stream
//     but knuth's long runs' (knuth.long_seed, so that a new seed keeps the
//     committed bundle's long units); in the fingerprint of the stages that
//     read it (knuth, importance).
//   - remote (default unset): the URL push and pull use when none is
//     given; in no fingerprint.
//   - executor.* (flags --executor and --slurm-* of run and verify, which
//     win over the keys): where units are computed; in no fingerprint
//     (`go doc ./pipeline/executor`).
//
// configs/default.yaml is the paper's run; configs/smoke.yaml runs the same
// chain in well under a minute (`make smoke` runs it below build/smoke, a
// project root of its own).
//
// # Where the rest is documented
//
//   - Fresh and stale, the fingerprint, the run cache, the Version rule and
//     the golden record; work units; interrupting a run:
//     `go doc ./pipeline/engine`.
//   - Files below data/: artifacts and their provenance, the manifest, the
//     run log, the unit files, data/.lock: `go doc ./pipeline/store`.
//   - Locks (census lock, verify --lock) and comparing runs (census diff):
//     `go doc ./pipeline/inspect`.
//   - Sharing runs (push, pull, remotes and their key layout, pull choosing
//     records by the lock): `go doc ./pipeline/remote`.
//   - Citing (CITATION.cff, census cite's entry): `go doc
//     ./pipeline/citation`.
//   - Running on Slurm (keys, requirements, files, failures, a one-node
//     Slurm to try it): `go doc ./pipeline/executor`.
//   - Counting completions (input format, the time guard, --estimate):
//     `census help count`.
package cli
