// Package store keeps the engine's files below a project root, each in a
// format of its own, written atomically and checked when read:
//
//   - the manifest, data/manifest.json: every artifact with its SHA-256 and
//     each stage's last successful run (Manifest);
//   - the run cache, data/cache: every published output by its SHA-256, and
//     per stage and fingerprint the record that restores them (CacheStore,
//     Cached, Restore);
//   - the unit files, data/units/<stage>/<fingerprint>/<id>: one finished
//     unit each, with a trailer that checks it (WriteUnit, ReadUnit, UnitSet);
//   - the run log, data/runs.jsonl (EachRun), and the lock that keeps two
//     runs off one data directory, data/.lock (Lock).
//
// It knows nothing of stages or configuration: callers name stages,
// fingerprints and paths. A file that does not check is reported or passed
// over, never trusted.
//
// # Artifacts and the manifest
//
//   - Tables are Parquet files under data/ (parquet-go, zstd), figures PDF
//     and PNG under figures/, generated TeX under paper/generated/.
//   - Every artifact is written to a temporary file beside its final path,
//     synced, and renamed into place only when its stage succeeds; the
//     manifest is rewritten the same way after that. An interrupted or
//     failed stage publishes nothing.
//   - A Parquet artifact's footer records its provenance
//     (pipeline.Provenance) under census.artifact, census.stage,
//     census.version, census.fingerprint, census.config (the config subtree
//     as JSON), census.inputs (input artifact → SHA-256) and census.tool.
//     No artifact holds a timestamp: one configuration gives byte-identical
//     files whatever the number of cores (TestByteIdenticalWhateverTheCores
//     in package stages runs the smoke pipeline on 1 and 2 and compares).
//   - data/manifest.json lists every artifact with its sha256, size, rows
//     (−1 for a file that is not a table), stage and fingerprint, and each
//     stage's last successful run: version, fingerprint, config, inputs,
//     outputs, sources, tools, bundles and the code's git commit.
//   - data/runs.jsonl, the run log: one JSON line per stage per run, with
//     wall and CPU seconds and the stage's own measurements; no stage reads
//     it.
//   - data/units/ holds the finished units (and a Slurm run's plan, script
//     and task logs); they are not artifacts.
//   - data/.lock keeps two runs off one data/: a second run fails at once,
//     naming the pid that holds it (or waits: --wait). It is an flock on
//     the open directory data/ and on the open file (the file alone where
//     the file system cannot lock a directory, as NFS), so deleting the file
//     during a run lets no second run in; the kernel releases it when a run
//     dies.
package store
