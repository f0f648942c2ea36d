// Package cli is the census command line over a pipeline of stages: run,
// status, dag, show, verify, lock, diff (diff.go), count (count.go), cite,
// gc, push and pull (remote.go), and the hidden units that the tasks of a
// Slurm array job run (units.go). `make build` builds it as bin/census
// (pipeline/cmd/census, with the stages of stages.All). This doc is the
// user's reference: the commands, the configuration, what fresh and stale
// mean, the work units, locks, comparing, sharing and citing runs, and
// running on Slurm. Each stage's own reference is its package doc
// (`go doc ./stages/knuth`).
//
// # Commands
//
//	census run [STAGE...]
//	    bring the named stages (default: all) up to date, running stale
//	    upstream stages first and reusing the units already done; fresh ones
//	    print "up to date"; ends with a timing report; --wait waits for
//	    another run holding data/ instead of failing; -j/--jobs N computes
//	    on N cores (an integer ≥ 1; default all: every parallel part of a
//	    run sizes itself by GOMAXPROCS, which --jobs sets)
//	census run --force STAGE...
//	    rerun those stages even if fresh (their units too), and every stage
//	    downstream of them in the run
//	census run -n [STAGE...]  (--dry-run)
//	    print per stage what a run would do (up to date, restore from the run
//	    cache, or run), why, and how long its last run took (data/runs.jsonl);
//	    on a terminal a long why is cut to the width, --json gives the plan
//	    as JSON with every reason whole; takes no lock and writes nothing; a
//	    stage whose run would be refused as it lists its units
//	    (knuth.max_cpu_hours against the units its bundle lacks) is the same
//	    refusal here, exit 2
//	census run --executor slurm [--slurm-…]
//	    the same, with the missing units of each stale stage computed as one
//	    Slurm array job (see Running on Slurm)
//	census status [STAGE...]
//	    one line per stage (default: all): fresh, or stale and why, plus
//	    "N/M units done" for a stage with units; exit 0 if all named stages
//	    are fresh, 1 otherwise, 2 with the refusal a run would stop on (as
//	    run -n)
//	census dag [--dot]
//	    the stage graph as text, or Graphviz
//	census show ARTIFACT [--rows N]
//	    manifest entry, schema, row count, provenance and the first rows of
//	    an artifact, after checking its bytes: a file whose SHA-256 is not the
//	    manifest's is refused (exit 1, naming the artifact and both hashes)
//	census verify [ARTIFACT...]
//	    re-hash the named artifacts (names or paths; default: all, and then
//	    the committed bundle each stage read, against the SHA-256 its run
//	    recorded) against the manifest; exit 1 on any mismatch (missing,
//	    unreadable, or both SHA-256), and when the manifest is missing,
//	    lists nothing or is damaged
//	census verify --lock FILE
//	    compare every artifact on disk (SHA-256 and size), every stage's
//	    fingerprint and every committed bundle's bytes with a lock; one
//	    line per difference (for a bundle, in a git checkout, the units
//	    whose rows differ from HEAD's file, as census verify names them
//	    too); exit 1 on any. An artifact whose machine-dependent columns
//	    (CPU time, memory: shapes_units.parquet's cpu_seconds and
//	    peak_rss_bytes) alone differ is not a difference: the lock holds a
//	    hash of its other columns and footer too (less the run's
//	    fingerprint, which must be the manifest's), and a NOTE line says it
//	    "differs from the lock in cpu_seconds/peak_rss_bytes only:
//	    machine-dependent, not compared"
//	census verify --recompute K|all [--seed S] [--max-unit-cpu D] [--bundle NAME] [--executor slurm]
//	    recompute K units of every committed bundle (data/bundles; of the
//	    bundles named by --bundle, e.g. symmetry-12) and compare them byte
//	    for byte: the ⌈K/2⌉ costliest units whose recomputation takes at
//	    most D (the bundle's projected cost of the unit on its own, from its
//	    id, when it has one, else the CPU time its row records, a column the
//	    fingerprint and lock cover), and one drawn from each of the other
//	    K-⌈K/2⌉ cost strata of the rest; all recomputes every unit; exit 1
//	    when it would check nothing (no bundle on disk, no unit within D);
//	    the seed is printed; with --executor slurm (and the --slurm-* flags
//	    of census run) the units are computed by one Slurm array job per
//	    bundle, into a scratch directory of the stage's unit directory that
//	    starts empty and is removed afterwards, then compared here; --seed,
//	    --max-unit-cpu, --bundle, --executor and --slurm-* without
//	    --recompute are usage errors
//	census lock [-o FILE]
//	    write the lock of a finished run (every stage fresh): every artifact's
//	    SHA-256 and size, every stage's Version, fingerprint and
//	    configuration, every committed bundle a stage read (path, SHA-256,
//	    size, the stages), sorted stable JSON
//	census count [--box RxC] [FILE|-]
//	    the exact number of completions of a partial grid (see Counting
//	    completions)
//	census cite ARTIFACT
//	    a BibTeX entry for an artifact (see Citing)
//	census diff LOCK [LOCK|data] [--json] [--exit-code] [--all]
//	    compare two runs (see Comparing runs)
//	census push [REMOTE], census pull [REMOTE] [--lock FILE]
//	    share runs through a remote (see Sharing runs); while a run holds
//	    data/.lock each says so and sends nothing (exit 1)
//	census --version
//	    the release, and the git commit the binary was built from
//	census gc [--wait] [--keep-last N]
//	    remove from data/units/ the units of every fingerprint other than
//	    each stage's published one and the current configuration's, the units
//	    of stages no longer in the pipeline, and temporary unit files; from
//	    data/cache/ the run records of other fingerprints (but the N most
//	    recent of each stage) and the objects no kept record names; prints
//	    what it removed; never touches an artifact; takes data/.lock like a
//	    run
//
// The hidden command census units is what each task of a Slurm array job
// runs; it is not meant to be typed.
//
// Global flags: --config FILE (default configs/default.yaml), --set
// key=value (repeatable), --root DIR (default .), -q/--quiet (warnings only).
// Long stages, count's exact count (its subtrees counted), push (its files)
// and pull (its stages) draw a progress bar on a terminal and nothing on a
// pipe or in CI; logs go to stderr through log/slog.
//
// Exit codes:
//
//	0    success
//	1    a failed run or check: a stage failed, status found a stale stage,
//	     verify a mismatch, show or cite an artifact whose bytes on disk are
//	     not the manifest's, a damaged manifest
//	2    bad usage or input: an unknown command (with cobra's "Did you mean
//	     this?" suggestions on lines of their own), argument, flag or config key;
//	     a flag or config value that does not parse or is out of range; a
//	     file that is too large, empty or not what it should be (config,
//	     grid, lock)
//	130  stopped by Ctrl-C (SIGINT)
//	143  stopped by SIGTERM
//
// # Configuration
//
// Configuration is read from the file (--config; by default
// configs/default.yaml under --root), then from environment variables
// CENSUS_<KEY> (dots become underscores: CENSUS_SEED=7,
// CENSUS_EXACT_CROSSCHECK=none), then from --set; each later source wins
// (Viper holds the sources and their order; package pipeline/config says
// what the project adds). A CENSUS_* variable that names no key
// (CENSUS_API_KEY) is someone else's and is ignored, but under a stage's
// prefix (CENSUS_KNUTH_SAMPLE) it is a misspelt key, refused.
// --set can also set one entry of a map key and keeps the others:
// --set knuth.samples.4x4/se=3000. Every value is parsed from the text as
// written, against the type of its key, whatever the source: an integer key
// takes only an integer literal that fits its type and range (1.5, 1e30,
// .nan, true, an empty value or 99999999999999999999 are refused, never
// rounded or wrapped), a number key only a finite number, a true/false key
// only true or false. An unknown key, a value of the wrong type or out of
// range (the message gives the key's own range), a key given twice in the
// file, a malformed YAML file, a missing one, an empty one (or null: a file
// of comments only keeps every default) or one over 1 MiB is a one-line
// error naming the key, the value as written and what is allowed, with exit
// code 2. census count reads a grid through a 64 KiB limit and verify --lock
// a lock through 16 MiB.
//
// Each stage's keys live under its name and are listed in its package doc.
// The global keys:
//
//   - seed (default 1, a non-negative integer): seeds every random stream
//     but the long runs' of knuth (knuth.long_seed, so that a new seed keeps
//     the committed bundle's long units); it enters the fingerprint of the
//     stages that read it (knuth, importance).
//   - remote (default unset): the URL census push and census pull use when
//     none is given; in no fingerprint.
//   - executor.* (see Running on Slurm): in no fingerprint.
//
// configs/default.yaml is the paper's run; configs/smoke.yaml runs the same
// chain in well under a minute (`make smoke` runs it below build/smoke, a
// project root of its own).
//
// # Rerunning a stage
//
//	make reduce                                  # or: bin/census run reduce
//	bin/census run reduce --set reduce.swap_blocks=false
//	bin/census run --force exact                 # rerun even though fresh (and what depends on it)
//	bin/census status                            # what is stale, and why
//
// # Fresh and stale
//
// A stage is fresh when every one of its outputs exists, hashes to the
// SHA-256 recorded in data/manifest.json, and was made with the fingerprint
// the stage would compute now:
//
//	fingerprint = SHA-256( stage name, stage code version,
//	                       canonical JSON of the stage's config subtree (and the globals it reads, e.g. seed),
//	                       SHA-256 of every input artifact,
//	                       SHA-256 of every hand-written source file it declares (only paper has any),
//	                       the version of every external program it declares (only paper: go, latexmk, pdflatex, bibtex),
//	                       SHA-256 of the committed bundle it reads (shapes, symmetry, knuth: every row and column) )
//
// Anything else is stale, and census status says why: never run, an
// artifact missing or damaged, "code version 1 -> 2", "config
// reduce.swap_blocks changed (true -> false)", "input bands changed", "tool
// pdflatex changed (… -> …)", "bundle data/bundles/symmetry-12.parquet
// changed (SHA-256 … -> …)" or "… is missing", or "upstream stage bands
// is stale". A stage's units go into its bundle as they finish, so the
// fingerprint it records is taken once its units are done; its unit files
// (data/units/<stage>/<key>) are named by the fingerprint without the
// bundle, which stays the same while units are added. A stage
// whose Run returns pipeline.Skip(why) (the paper without TeX) publishes
// nothing, stays stale and does not fail the run: census run warns in one
// line and goes on. The tool version (sudoku-census 0.1.0) is recorded in
// every artifact but is not in the fingerprint.
//
// The run cache: every published output is also kept in a content-addressed
// store, data/cache/objects/<SHA-256> (a copy, so an artifact damaged in
// place leaves it intact), with a record per stage and fingerprint,
// data/cache/runs/<stage>/<fingerprint>.json. When a stale stage's new
// fingerprint is one the cache holds, the run restores its outputs instead
// of running it ("restored from cache"), after hashing every object: a
// damaged object is removed and the stage runs. So switching seed to 2 and
// back to 1 reruns nothing the second time, and a deleted artifact comes
// back from the cache. census status says "stale (in cache): …" for such a
// stage and ends with the cache's size.
//
// The code-version rule: each stage has a Version constant. Any change to a
// stage, or to shared code it calls, that can change its output must bump
// that stage's Version in the same commit (and the versions of the stages
// whose output it changes through shared code); changes that cannot alter
// output (speed, logging, comments) leave it alone. A version constant was
// chosen over hashing source files because a source hash would make every
// refactoring rerun hours of work, and would miss changes in dependencies
// anyway. A test enforces the rule: stages/testdata/golden.json records, for
// every stage of the smoke configuration, its name, Version, fingerprint
// and the SHA-256 of each output, and `go test ./stages -run Golden` fails,
// naming the stage and artifact, when an output changed although the
// fingerprint did not. After a deliberate change and its Version bump,
// rewrite the record and the smoke lock with
//
//	go test ./stages -run 'Golden|SmokeLock' -update
//
// and commit them with the change; a change that alters the paper's run
// also regenerates configs/default.lock.json (`make all`, then
// `bin/census lock -o configs/default.lock.json`) in the same commit.
//
// # Work units
//
// A stage may split its work into units (pipeline.Stage.Units): a
// deterministic list of ids, cheap to compute from the configuration and
// inputs, and a Compute function whose result, a few bytes, is a pure
// function of (fingerprint, unit id). Before Run the engine computes the
// units that are missing, on every core, and keeps each one under
// data/units/<stage>/<fingerprint>/<unit id>, written to a temporary file
// and renamed into place, with a SHA-256 trailer over the fingerprint, the id
// and the result (a file that does not check is computed again). Run then
// merges the results in list order, so the artifacts are the same bytes
// whatever order, process or machine computed the units.
//
//   - A rerun with the same fingerprint (after a failure, a Ctrl-C, a kill
//     -9, a lost artifact) reuses the units done and computes only the
//     missing ones; the run report gives units.total, units.reused and
//     units.computed. census run --force discards them and recomputes all.
//   - census status adds "N/M units done" to the line of a stale stage with
//     units whose fingerprint is known; a unit counts as done only when its
//     file checks; a stage may list at most 2²⁰ units.
//   - The units of other fingerprints of a stage are removed when it
//     publishes, and by census gc.
//
// The stages with units are exact, shapes, symmetry, knuth and importance;
// each one's package doc says what a unit is.
//
// # Interrupting a run
//
// The first Ctrl-C (SIGINT) or SIGTERM cancels the run: the stage stops,
// nothing partial is published, the units finished so far are kept, and a
// Slurm job is cancelled (scancel). census prints "census: interrupted by
// SIGINT (Ctrl-C): stopped; nothing partial was published" and exits with 130
// (143 for SIGTERM) within a second: it waits at most 0.7 s for the work to
// stop by itself. A second Ctrl-C ends that wait at once. A publish already
// under way (renames and manifest, milliseconds) is allowed to finish and no
// other starts, so a stage is never half-published. census count stops the
// same way and prints nothing.
//
// # Artifacts and the manifest
//
//   - Tables are Parquet files under data/ (parquet-go, zstd), figures are
//     PDF and PNG under figures/, generated TeX lives under paper/generated/.
//   - Every artifact is written to a temporary file beside its final path,
//     synced and renamed into place only when its stage succeeds; the
//     manifest is updated (atomically, the same way) after that. An
//     interrupted or failed stage publishes nothing.
//   - A Parquet artifact's footer records its provenance under the keys
//     census.artifact, census.stage, census.version, census.fingerprint,
//     census.config (the config subtree as JSON), census.inputs (input
//     artifact → SHA-256) and census.tool. No timestamps are stored in any
//     artifact: the same configuration gives byte-identical files whatever
//     the number of cores (TestByteIdenticalWhateverTheCores in
//     stages/stages_test.go runs the smoke pipeline with GOMAXPROCS=1 and 2
//     and compares every artifact and the manifest).
//   - data/manifest.json lists every artifact with its sha256, size, rows (−1
//     for non-tables), stage and fingerprint, and every stage's last
//     successful fingerprint, config, inputs and code commit.
//   - data/runs.jsonl is the run log: one JSON line per stage per run with
//     wall and CPU seconds and the stage's own measurements. No stage reads
//     it.
//   - data/units/ holds the finished work units (and a Slurm run's plan,
//     script and task logs); they are not artifacts.
//   - data/.lock keeps two runs off the same data/: a second census run fails
//     at once naming the pid that holds it (or waits, with --wait). The lock
//     is an flock held on the open directory data/ and on the open file
//     data/.lock (the file alone where the file system cannot lock a
//     directory, as NFS), so deleting the file during a run does not let a
//     second one in; the kernel releases it if a run dies.
//
// # Locks
//
// configs/default.lock.json is the lock of the paper's run (`make all` with
// configs/default.yaml), and configs/smoke.lock.json that of the smoke run;
// both are committed, like DVC's dvc.lock. To check a rerun of the paper
// against the published one:
//
//	make all                                        # or: bin/census run
//	bin/census verify --lock configs/default.lock.json
//
// Every artifact and figure must have the same SHA-256, and every stage the
// same fingerprint; each difference is listed by path or stage. CI checks
// the smoke lock from a fresh clone (TestSmokeLock too). A lock holds
// nothing that depends on the machine, the number of cores or the time of
// the run.
//
// # Comparing runs
//
// Like dvc params diff and dvc metrics diff together, census diff A [B]
// compares two runs, each a lock file or data (the current data/, the
// default for B):
//
//	bin/census diff configs/smoke.lock.json                          # the smoke lock against data/
//	bin/census diff configs/smoke.lock.json configs/default.lock.json --json
//	bin/census diff configs/default.lock.json --exit-code            # exit 1 when data/ is another run
//
// It prints, as tables (or one JSON object with --json: config, stages,
// artifacts, metrics, notes, each value typed: a config value as its JSON,
// a number as a number written exactly, an absent one as null): the configuration keys whose values differ (a
// lock records each stage's configuration, the canonical JSON its
// fingerprint hashes), the stages whose Version or fingerprint differ, the
// artifacts whose SHA-256 differ, and old → new for the headline numbers
// read from the artifacts (each stage's Headlines: the exact counts of
// exact, shapes and symmetry, Kilfoil's estimates, every Monte Carlo run's
// samples, estimate and relative 95% half-width) and the run times
// data/runs.jsonl recorded for each side's fingerprint; --all lists the
// numbers that agree too. A lock's numbers come from whatever copy this
// project holds of its artifacts, checked by SHA-256: the file in data/, the
// run cache's object, or what census pull REMOTE --lock FILE fetched. What
// cannot be compared is said in a "note:" line, never guessed. Exit 0, or
// with --exit-code 1 when the runs differ in configuration, stages or
// artifacts (times always differ). For example, after the smoke run's knuth
// stage was rerun with 4,000 samples of 3×3 instead of 2,000:
//
//	$ S="bin/census --root build/smoke --config configs/smoke.yaml"
//	$ $S run knuth --set knuth.samples.3x3=4000
//	$ $S diff configs/smoke.lock.json
//
//	configs/smoke.lock.json → data
//
//	config (1)
//	key                old   new
//	knuth.samples.3x3  2000  4000
//
//	stages (1)
//	stage  version  fingerprint
//	knuth  4 → 4    0ce9e2aad30e → a9f446f112eb
//
//	artifacts (2)
//	path                      sha256                       size
//	data/knuth.parquet        0cf3efe8fe02 → 7affe6aca04a  8081 → 8092
//	data/knuth_trace.parquet  bf96bc312486 → 36f6a515502b  41047 → 41965
//
//	numbers (25)
//	stage  name                         old                   new
//	knuth  3x3/bandmrv estimate         6.69048409691810e+21  6.70469749159415e+21
//	knuth  3x3/bandmrv half_width_95    ±7.57%                ±5.43%
//	knuth  3x3/bandmrv samples          2000                  4000
//	…
//
// # Sharing runs
//
// Like dvc push and dvc pull, with a remote that is a URL:
// file:///absolute/path, or s3://bucket/prefix through minio-go, an S3
// client and nothing more (S3 options as query parameters: region, endpoint,
// use_path_style, disable_https, each checked; credentials from the usual AWS
// environment variables, the shared credentials file, or an EC2/container
// role). The global key remote is the default remote.
//
//	bin/census push file:///srv/census-cache                  # send what the remote lacks
//	bin/census pull file:///srv/census-cache                  # on another machine: fetch, check, restore
//	bin/census verify --lock configs/default.lock.json       # the pulled run is the published one
//	bin/census pull 's3://my-bucket/census?region=eu-west-1' --lock configs/default.lock.json   # for census diff
//
// The remote holds objects/<sha256> (every artifact and run-cache object),
// runs/<stage>/<fingerprint>/<sha256>.json (run-cache records, each named by
// the SHA-256 of its bytes) and units/<stage>/<fingerprint>/<id> (finished
// work units). Every key names its content, so push sends only the keys the
// remote lacks: a second push sends nothing, and a record that differs from
// one already there under the same fingerprint (another machine's, or a
// forged one) is sent beside it. pull walks the stages in order: for each
// stale one it fetches a record of the fingerprint the current configuration
// gives and the objects it names, checking each file's SHA-256 and size
// before it is renamed into the run cache, or, when the remote has no
// record, the stage's finished units; then it restores every stage it can
// from the run cache and runs none: the stages the remote lacks are listed
// for census run to compute. The record is chosen by the configuration's
// lock, the file beside it named .lock.json for .yaml
// (configs/default.lock.json for configs/default.yaml), where it lists the
// stage with that fingerprint: only a record with the lock's artifacts
// (SHA-256 and size) is taken, every other is refused on one line naming the
// stage, the fingerprint and the artifact that differs, and pull exits 1.
// Without such a lock the records of one fingerprint must agree on every
// artifact; records that disagree stop the pull with an error naming their
// keys, since nothing says which is right. Records of the first layout,
// runs/<stage>/<fingerprint>.json, are still read under the same rules.
// With --lock FILE it fills the run cache, not data/, choosing records by
// FILE, so that census diff reads the lock's numbers. An interrupted push or pull leaves nothing that
// is taken for complete: records are written after their objects, every file
// is written under a temporary name and renamed when whole, and every file is
// checked when read. Both take data/.lock like a run.
//
// Tested by pipeline/remote_test.go through a file:// remote and an s3://
// remote on an S3-compatible server started on 127.0.0.1
// (pipeline/internal/s3test, gofakes3), and by share_test.go; no real AWS
// bucket was tested. By hand, after `make smoke`, a push of the
// smoke run sent 327 files, 4114081 bytes (37 objects, 12 run records, 278
// units) in 1.1 s; after deleting its data, figures and generated paper,
// pull fetched 49 files in 1.8 s, restored 12 stages, and verify --lock
// found all 37 artifacts and 12 stages matching configs/smoke.lock.json.
//
// # Citing
//
// CITATION.cff at the repository's root (Citation File Format 1.2.0) is the
// one place that says how to cite the software: title, authors, version,
// release date, license, the repository's public address and, as
// preferred-citation, the paper. Its version must equal the tool's release
// (TestCitationFileIsTheRelease checks it). To cite one artifact, the exact
// file a number came from:
//
//	bin/census cite total        # BibTeX with the file's SHA-256 and fingerprint
//	bin/census verify            # anyone can check their copy against data/manifest.json
//
// census cite prints the entry only when the file's bytes hash to the
// manifest's SHA-256 (otherwise exit 1, naming both hashes). The entry names
// the stage, SHA-256, fingerprint, the year of the stage's run (from
// data/runs.jsonl), the git commit of the code that made the artifact and
// whether its tree had uncommitted changes, the release and the repository's
// public address from CITATION.cff (repository-code; without CITATION.cff,
// the git remote only when it is a URL, never a path on the machine), and
// the tool version. It is an @misc entry that plain BibTeX takes, its
// fields with TeX's special characters escaped (data/knuth\_long.parquet)
// so that pdflatex typesets them. The commit is the one Go stamps into bin/census (make
// build passes -buildvcs=auto); the engine records it in the manifest's
// stage record when the stage runs, never inside an artifact, whose bytes
// must not depend on it.
//
// # Counting completions
//
// census count [--box RxC] [FILE|-] reads one grid (from standard input
// without FILE) and prints its exact number of completions, with the
// counter the exact stage cross-checks with.
//
//   - Layout: one line of n² cells, or n lines of n cells; blank lines and
//     spaces between cells are ignored.
//   - Cells: . or 0 is empty; symbols are 1-9, then A-Z (either case) for
//     10-35.
//   - Box: --box RxC; without it the boxes are √n×√n (81 cells → 3x3). A side
//     that is not a square (6, 8, 10…) is ambiguous and the error lists the
//     possible boxes.
//   - Bad input: a one-line error naming the line and column, exit code 2.
//   - Clashing givens: prints 0, and a message names the two cells, e.g.
//     "givens r1c1 and r1c4 both hold 1 in one row".
//
// Counts that would take too long are refused rather than started: count
// first runs the counter for up to a second; a grid counted by then is
// printed. Otherwise it estimates, by random probes of the counter's own
// search tree (Knuth's estimator, unbiased), the completions and the number
// of nodes of the tree, and divides the nodes by the speed the counter
// showed in that second. The prediction is a range, from a warm memo to a
// cold one; when even the warm end exceeds --max-time (default 10m), count
// exits 1 with one line giving the estimate and the prediction; --force
// counts without predicting. --estimate prints the estimates with their
// 95% intervals and the predicted time and counts nothing; --samples N sets
// the probes (default 200000 for sides up to 9, 20000 up to 16, else 2000;
// at most 100000000); the grid file must be a regular file (or - for
// standard input), as must --config, a lock and every bundle: a FIFO or a
// device is refused at once rather than waited on;
// --seed S (default 1) seeds their ChaCha8 streams, so the output is the
// same for the same seed and samples on any machine.
//
//	echo 000000010400000000020000000000050407008000300001090000300400200050100000000806000 | bin/census count   # 1
//	printf '%081d' 0 | bin/census count --estimate
//	# estimate: about 6.72132e+21 completions (95% interval 6.65704e+21 to 6.7856e+21) from 200000 probes, seed 1
//
// A 9×9 grid with only its first band filled (123456789457189236689237145
// then 54 dots) has 7,033,343,616 completions; the estimate from 100000
// probes (--seed 5) was 7.05e9 (95% interval 6.97e9 to 7.13e9), the
// prediction 1.8 s to 1.1 min on two shared cores, and the count took 10 s.
//
// # Running on Slurm
//
//	bin/census run --executor slurm --slurm-partition short --slurm-time 1:00:00 --slurm-cpus-per-task 4
//
// For each stale stage with units, in pipeline order, the missing units go
// to one sbatch --array job named census-<stage>. Every array task runs the
// hidden census units on its batch: the same census binary with the same
// --root, --config and --set (as absolute paths), which recomputes the
// stage's fingerprint, refuses to work if it differs from the submitting
// run's, and writes its units into data/units/<stage>/<fingerprint>/,
// computing as many at once as SLURM_CPUS_PER_TASK. Everything else runs on
// the submitting machine: the stages without units and, once the job has
// left the queue, each stage's merge of its units and the publishing. The
// submitting run polls squeue and holds data/.lock throughout.
//
// Requirements: the project root, the census binary and the config file at
// the same paths on every node, and the data directory on a filesystem every
// node sees (unit files that show up late are waited for up to 30 s); the
// Slurm client tools (sbatch, squeue, scancel, scontrol) on the submitting
// machine's PATH.
//
// The executor's keys are set like any other, and the flags of census run
// set them (the flags win). The executor enters no fingerprint: a Slurm run
// gives the same bytes as a local one, and either reuses the units the
// other computed.
//
//   - executor.name (--executor; default local): local (this process) or
//     slurm.
//   - executor.slurm.partition (--slurm-partition; default "", the cluster's
//     default): sbatch --partition.
//   - executor.slurm.account (--slurm-account; default ""): sbatch --account.
//   - executor.slurm.time (--slurm-time; default "", the partition's
//     default): time limit of one array task in a Slurm format (30 minutes,
//     1:30:00, 2-00:00:00, UNLIMITED).
//   - executor.slurm.cpus_per_task (--slurm-cpus-per-task; default 1):
//     1-4096, sbatch --cpus-per-task; units a task computes at once (for
//     shapes and symmetry, whose units use every core, one at a time on that
//     many cores).
//   - executor.slurm.units_per_task (--slurm-units-per-task; default 0):
//     units per array task, or 0 to derive it from task_minutes.
//   - executor.slurm.task_minutes (--slurm-task-minutes; default 10): minutes
//     one task should take, from the mean compute time of the stage's units
//     already done; one unit per task when none is done.
//   - executor.slurm.max_tasks (--slurm-max-tasks; default 1000):
//     1-1,000,000 tasks at most per array job (keep it within the cluster's
//     MaxArraySize); more units are spread over that many tasks.
//   - executor.slurm.extra_args (--slurm-arg, repeatable; default []):
//     further sbatch options such as --mem=4G; options the executor sets
//     itself or that have a key are refused.
//
// Beside the units, data/units/<stage>/<fingerprint>/ holds
// slurm-plan-<time>.json (the units of each array task), slurm-<time>.sh
// (the batch script) and each task's slurm-<job>_<task>.out and .err. When
// a task fails, the stage fails with one line naming the job, the first
// failed task (state and exit code), how many units are missing, the last
// lines of its stderr and the path of its .err file; nothing is published,
// and running the same command again submits only the missing units. If
// squeue fails for a minute, the job is cancelled and the stage fails.
// Ctrl-C cancels the job with scancel and keeps the units finished so far
// (after a kill -9 of the submitting run, scancel the job census-<stage> by
// hand).
//
// To try it on one machine, .ci/slurm-start (as root) installs Debian's
// munge, slurmctld, slurmd and slurm-client if they are missing, writes a
// one-node configuration (node localhost, partition debug) and starts the
// daemons; .ci/slurm-stop stops them:
//
//	sudo bash .ci/slurm-start
//	make build
//	bin/census run --executor slurm --config configs/smoke.yaml
//	sudo bash .ci/slurm-stop
//
// slurm_test.go (a toy pipeline: a Slurm run gives a local run's bytes; a
// failed task, then a rerun that submits only the missing units; Ctrl-C
// cancels the job) and TestSlurmSmokeMatchesLocal in stages/units_test.go
// (the smoke pipeline on Slurm against a local run, byte for byte) need a
// running Slurm; without one they skip, unless SUDOKU_CENSUS_REQUIRE_SLURM=1
// (set by CI) makes them fail.
package cli
