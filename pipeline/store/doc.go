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
package store
