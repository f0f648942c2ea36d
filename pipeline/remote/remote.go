// Package remote keeps a project's run cache and finished units on a
// store shared by the machines that run the pipeline (a directory or an S3
// bucket): Remote.Push sends what the remote lacks, and a Pull fetches, for
// the engine (engine.Engine.Pull), the run records, objects and units a
// configuration needs, checking each file before it is used. It writes
// only the run cache and the unit files, never data/ itself.
//
// # Sharing runs
//
// `census push` and `census pull` share runs as dvc push and dvc pull do.
// A remote is a URL (Open): file:///absolute/path, or s3://bucket/prefix
// through minio-go, an S3 client and nothing more, with S3 options as
// query parameters (region, endpoint, use_path_style, disable_https, each
// checked) and credentials from the AWS environment variables, the shared
// credentials file, or an EC2/container role. The global config key remote
// is the default.
//
//	bin/census push file:///srv/census-cache                  # send what the remote lacks
//	bin/census pull file:///srv/census-cache                  # on another machine: fetch, check, restore
//	bin/census verify --lock configs/default.lock.json       # the pulled run is the published one
//	bin/census pull 's3://my-bucket/census?region=eu-west-1' --lock configs/default.lock.json   # for census diff
//
// The keys, and how a record is chosen among those of one fingerprint, are
// Remote's doc. Pull walks the stages in order: for each stale one it
// fetches a record of the fingerprint the current configuration gives and
// the objects it names into the run cache, or, when the remote has none,
// the stage's finished units; then it restores every stage it can from the
// run cache and runs none, listing the stages the remote lacks for `census
// run` to compute. The lock that chooses records is the configuration's,
// the file beside it named .lock.json for .yaml (configs/default.lock.json
// for configs/default.yaml), where it lists the stage with that
// fingerprint: a record whose artifacts (SHA-256 and size) are not the
// lock's is refused on one line naming the stage, the fingerprint and the
// artifact, and pull exits 1. With --lock FILE, pull fills the run cache
// only, not data/, choosing records by FILE, so that `census diff` can read
// that lock's numbers. The committed bundles (data/bundles/) come from git,
// never from a remote. Push and pull take data/.lock like a run.
//
// Tested through a file:// remote and an s3:// remote on an S3-compatible
// server started on 127.0.0.1 (pipeline/internal/s3test, gofakes3), and by
// pipeline/cli's share_test.go; no real AWS bucket was tested. A push of the
// smoke run sends about 330 files, 4 MB, in about a second.
package remote

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"maps"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/pipeline/inspect"
	"github.com/sudoku-census/sudoku-census/pipeline/internal/files"
	"github.com/sudoku-census/sudoku-census/pipeline/internal/msg"
	"github.com/sudoku-census/sudoku-census/pipeline/store"
)

// A remote is a store shared by the machines that run the pipeline (DVC's
// remote): the run cache's objects and records and the finished units, by
// these keys below the remote's path:
//
//	objects/<sha256>                             a file's bytes, named by their SHA-256
//	runs/<stage>/<fingerprint>/<sha256>.json     a run cache record (the stage's manifest
//	                                             record and artifact entries), named by
//	                                             the SHA-256 of its bytes
//	units/<stage>/<fingerprint>/<id>             a unit file (its trailer checks it)
//
// Every key names its content, so push sends only the keys the remote
// lacks and a second push sends nothing; two machines that made different
// bytes under one fingerprint each keep their own record, and neither hides
// the other. A reader lists a stage's records under one fingerprint by the
// prefix runs/<stage>/<fingerprint>/, and chooses (Pull.Record): by the
// lock when one pins the stage at that fingerprint, otherwise the records
// must agree on every artifact, or none is taken. Records of the first
// layout, runs/<stage>/<fingerprint>.json, are still read, under the same
// rules, but never written. A record is written after every object it
// names, so a record on the remote always has its objects; and a reader
// checks each record's and object's SHA-256 and each unit's trailer before
// using it, so that a key torn by an interrupted push is never taken for
// whole. Every write (remote or local) goes to a temporary name first: a
// file remote's is renamed into place when the write completes, S3 makes
// an object visible only when its upload completes.
type Remote struct {
	URL    string
	bucket bucket
	// dir is a file remote's directory ("" for S3): a key read from it
	// must be a regular file, never a FIFO or a device that would block.
	dir string
	// Progress, when set (a terminal), shows how a push goes.
	Progress io.Writer
}

const (
	remoteObjects = "objects/"
	remoteRuns    = "runs/"
	remoteUnits   = "units/"
	// maxRecordBytes bounds a run record read from a remote.
	maxRecordBytes = 16 << 20
)

// Open opens a remote by URL: file:///absolute/path (a directory,
// made if missing) or s3://bucket/prefix, talked to through minio-go, with
// the query parameters region, endpoint, use_path_style and disable_https
// and credentials from the environment as the AWS tools read them (openS3).
func Open(ctx context.Context, raw string) (*Remote, error) {
	const allowed = "want file:///absolute/path or s3://bucket/prefix"
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("remote %q: %s", raw, allowed)
	}
	var b bucket
	var dir string
	switch u.Scheme {
	case "file":
		if (u.Host != "" && u.Host != "localhost") || !filepath.IsAbs(u.Path) || u.RawQuery != "" {
			return nil, fmt.Errorf("remote %q: a file remote is file:// and an absolute path, for example file:///srv/census-cache", raw)
		}
		dir = u.Path
		if err = os.MkdirAll(u.Path, 0o755); err == nil {
			b = dirBucket{dir: filepath.Clean(u.Path)}
		}
	case "s3":
		if u.Host == "" {
			return nil, fmt.Errorf("remote %q: no bucket; %s", raw, allowed)
		}
		if u.Query().Has("prefix") {
			return nil, fmt.Errorf("remote %q: give the prefix as the path (s3://bucket/prefix), not as a query parameter", raw)
		}
		b, err = openS3(u)
	default:
		return nil, fmt.Errorf("remote %q: %s", raw, allowed)
	}
	if err != nil {
		return nil, fmt.Errorf("remote %s: %s", raw, msg.OneLine(err.Error()))
	}
	return &Remote{URL: raw, bucket: b, dir: dir}, nil
}

// checkRegular refuses a key of a file remote that is not a regular file.
func (r *Remote) checkRegular(key string) error {
	if r.dir == "" {
		return nil
	}
	if err := files.CheckRegular(filepath.Join(r.dir, filepath.FromSlash(key))); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("pull %s: %s", key, msg.OneLine(msg.PathErr(err).Error()))
	}
	return nil
}

// Close closes the remote. It holds nothing open between calls (the S3
// client's idle connections are its transport's), so Close has nothing to
// release; it is kept so that callers need not know that.
func (r *Remote) Close() error { return nil }

// Keys lists every key of the remote with its size.
func (r *Remote) Keys(ctx context.Context) (map[string]int64, error) {
	keys, err := r.bucket.list(ctx)
	if err != nil {
		return nil, fmt.Errorf("remote %s: listing: %s", r.URL, msg.OneLine(err.Error()))
	}
	return keys, nil
}

// upload copies the local file to key. With want set, the bytes sent must
// hash to it, or the write is abandoned (nothing appears under key).
func (r *Remote) upload(ctx context.Context, key, local, want string) (int64, error) {
	f, err := os.Open(local)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return 0, err
	}
	var body io.Reader = f
	if want != "" {
		body = newHashCheckReader(f, want)
	}
	if err := r.bucket.put(ctx, key, body, info.Size()); err != nil {
		if errors.Is(err, errChanged) {
			err = fmt.Errorf("%s changed while it was sent (its SHA-256 is no longer %s)", local, msg.Short(want))
		}
		return 0, fmt.Errorf("push %s: %s", key, msg.OneLine(err.Error()))
	}
	return info.Size(), nil
}

// read returns a key's bytes, at most limit of them.
func (r *Remote) read(ctx context.Context, key string, limit int64) ([]byte, error) {
	if err := r.checkRegular(key); err != nil {
		return nil, err
	}
	rd, err := r.bucket.get(ctx, key)
	if err != nil {
		return nil, fmt.Errorf("pull %s: %s", key, msg.OneLine(err.Error()))
	}
	defer rd.Close()
	data, err := io.ReadAll(io.LimitReader(rd, limit+1))
	if err != nil {
		return nil, fmt.Errorf("pull %s: %s", key, msg.OneLine(err.Error()))
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("pull %s: larger than %d bytes", key, limit)
	}
	return data, nil
}

// fetchObject copies objects/<sum> to dst through a temporary file beside
// it, and renames it into place only when its SHA-256 is sum and its size
// size: a damaged or torn object never reaches dst.
func (r *Remote) fetchObject(ctx context.Context, sum string, size int64, dst string) (int64, error) {
	key := remoteObjects + sum
	if err := r.checkRegular(key); err != nil {
		return 0, err
	}
	rd, err := r.bucket.get(ctx, key)
	if err != nil {
		return 0, fmt.Errorf("pull %s: %s", key, msg.OneLine(err.Error()))
	}
	defer rd.Close()
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return 0, err
	}
	tmp, err := os.CreateTemp(filepath.Dir(dst), "."+filepath.Base(dst)+".tmp-pull-*")
	if err != nil {
		return 0, err
	}
	defer os.Remove(tmp.Name())
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(tmp, h), io.LimitReader(rd, size+1))
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return 0, fmt.Errorf("pull %s: %s", key, msg.OneLine(err.Error()))
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != sum || n != size {
		return 0, fmt.Errorf("pull %s: the remote's copy is damaged (SHA-256 %s, %d bytes; want %d bytes): not used", key, msg.Short(got), n, size)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return 0, err
	}
	return n, os.Rename(tmp.Name(), dst)
}

// Transfer counts what a push or pull sent or fetched, and what it found
// already there.
type Transfer struct {
	Objects, Runs, Units int   // files sent or fetched, by kind
	Bytes                int64 // their bytes
	Present              int   // files the other side already had
	// Missing lists the stages a pull found neither here nor on the remote.
	Missing []string
	// Refused lists, one line each, the remote's run records a pull
	// refused because they disagree with the lock that pins their stage.
	Refused []string
}

// Files is the number of files sent or fetched.
func (t Transfer) Files() int { return t.Objects + t.Runs + t.Units }

// Push sends the remote what it lacks of this project's data/: every
// artifact of the manifest and every run cache object (objects/), every run
// cache record and each stage's current record (runs/), every finished unit
// (units/). Records go last, once their objects are there. Files that do
// not match their hash or trailer are not sent.
func (r *Remote) Push(ctx context.Context, root string, log *slog.Logger, wait bool) (Transfer, error) {
	var t Transfer
	release, err := store.Lock(root, wait)
	if err != nil {
		return t, err
	}
	defer release()
	m, err := store.ReadManifest(root)
	if err != nil {
		return t, err
	}
	have, err := r.Keys(ctx)
	if err != nil {
		return t, err
	}
	objects := map[string]string{} // SHA-256 -> a local file with those bytes
	records := map[string]encodedRecord{}
	addRecord := func(rec store.CacheRecord) {
		data, _ := json.MarshalIndent(rec, "", "  ")
		data = append(data, '\n')
		records[recordKey(rec.Stage, rec.Record.Fingerprint, data)] = encodedRecord{rec, data}
	}
	for _, a := range m.Artifacts {
		objects[a.SHA256] = filepath.Join(root, filepath.FromSlash(a.Path))
	}
	for name, rec := range m.Stages {
		var entries []store.ArtifactEntry
		for _, a := range m.Artifacts {
			if a.Stage == name {
				entries = append(entries, a)
			}
		}
		addRecord(store.CacheRecord{Stage: name, Record: rec, Artifacts: entries})
	}
	cacheBase := filepath.Join(root, filepath.FromSlash(store.CacheDir))
	if entries, err := os.ReadDir(filepath.Join(cacheBase, "objects")); err == nil {
		for _, en := range entries {
			if files.IsHexDigest(en.Name()) {
				objects[en.Name()] = filepath.Join(cacheBase, "objects", en.Name())
			}
		}
	}
	runFiles, _ := filepath.Glob(filepath.Join(cacheBase, "runs", "*", "*.json"))
	for _, file := range runFiles {
		data, err := os.ReadFile(file)
		var rec store.CacheRecord
		if err != nil || json.Unmarshal(data, &rec) != nil || rec.Stage != filepath.Base(filepath.Dir(file)) ||
			rec.Record.Fingerprint+".json" != filepath.Base(file) || !files.IsHexDigest(rec.Record.Fingerprint) {
			continue
		}
		addRecord(rec)
	}

	unitFiles, _ := filepath.Glob(filepath.Join(root, filepath.FromSlash(store.UnitsDir), "*", "*", "*"))
	sort.Strings(unitFiles)
	bar := pipeline.NewProgress(r.Progress, "push: files", int64(len(objects)+len(unitFiles)+len(records)))
	defer bar.Done()

	for _, sum := range slices.Sorted(maps.Keys(objects)) {
		bar.Add(1)
		key := remoteObjects + sum
		if _, ok := have[key]; ok {
			t.Present++
			continue
		}
		if got, _, err := files.Hash(objects[sum]); err != nil || got != sum {
			log.Warn("not pushed: the local copy does not match its SHA-256", "file", objects[sum])
			continue
		}
		n, err := r.upload(ctx, key, objects[sum], sum)
		if err != nil {
			return t, err
		}
		have[key] = n
		t.Objects++
		t.Bytes += n
	}

	for _, file := range unitFiles {
		bar.Add(1)
		id, fp, stage := filepath.Base(file), filepath.Base(filepath.Dir(file)), filepath.Base(filepath.Dir(filepath.Dir(file)))
		if !store.ValidUnitID(id) || !files.IsHexDigest(fp) {
			continue
		}
		key := remoteUnits + stage + "/" + fp + "/" + id
		if _, ok := have[key]; ok {
			t.Present++
			continue
		}
		data, err := os.ReadFile(file)
		if err != nil {
			return t, err
		}
		if _, _, ok := store.DecodeUnit(fp, id, data); !ok {
			continue
		}
		if err := r.bucket.put(ctx, key, bytes.NewReader(data), int64(len(data))); err != nil {
			return t, fmt.Errorf("push %s: %s", key, msg.OneLine(err.Error()))
		}
		t.Units++
		t.Bytes += int64(len(data))
	}

	for _, key := range slices.Sorted(maps.Keys(records)) {
		bar.Add(1)
		if _, ok := have[key]; ok {
			t.Present++
			continue
		}
		rec, data := records[key].rec, records[key].data
		complete := true
		for _, a := range rec.Artifacts {
			_, ok := have[remoteObjects+a.SHA256]
			complete = complete && ok
		}
		if !complete {
			log.Warn("run record not pushed: some of its files are neither here nor on the remote", "stage", rec.Stage, "fingerprint", msg.Short(rec.Record.Fingerprint))
			continue
		}
		if err := r.bucket.put(ctx, key, bytes.NewReader(data), int64(len(data))); err != nil {
			return t, fmt.Errorf("push %s: %s", key, msg.OneLine(err.Error()))
		}
		t.Runs++
		t.Bytes += int64(len(data))
	}
	return t, nil
}

// encodedRecord is a run record and the bytes it is pushed as.
type encodedRecord struct {
	rec  store.CacheRecord
	data []byte
}

// recordKey is the remote key of a run record of stage under fingerprint
// whose bytes are data: it names their SHA-256.
func recordKey(stage, fingerprint string, data []byte) string {
	sum := sha256.Sum256(data)
	return remoteRuns + stage + "/" + fingerprint + "/" + hex.EncodeToString(sum[:]) + ".json"
}

// recordKeys lists the remote's keys of records of stage under
// fingerprint, sorted: the content-addressed ones and the one of the first
// layout (runs/<stage>/<fingerprint>.json), if there is one.
func (pl *Pull) recordKeys(stage, fingerprint string) []string {
	prefix := remoteRuns + stage + "/" + fingerprint + "/"
	var keys []string
	for key := range pl.have {
		if name, ok := strings.CutPrefix(key, prefix); ok {
			if sum, ok := strings.CutSuffix(name, ".json"); ok && files.IsHexDigest(sum) {
				keys = append(keys, key)
			}
		}
	}
	legacy := remoteRuns + stage + "/" + fingerprint + ".json"
	if _, ok := pl.have[legacy]; ok {
		keys = append(keys, legacy)
	}
	slices.Sort(keys)
	return keys
}

// fetchedRecord is one run record read from the remote and checked.
type fetchedRecord struct {
	key  string
	rec  store.CacheRecord
	data []byte
}

// readRecord reads the record at key and checks it: its bytes against the
// SHA-256 its key names (a key of the first layout names none), its stage,
// fingerprint and artifact entries. A record that does not check is
// passed over with a warning (ok false); err is a failure to read.
func (pl *Pull) readRecord(ctx context.Context, key, stage, fingerprint string) (fetchedRecord, bool, error) {
	data, err := pl.r.read(ctx, key, maxRecordBytes)
	if err != nil {
		return fetchedRecord{}, false, err
	}
	damaged := func() (fetchedRecord, bool, error) {
		pl.log.Warn("the remote's run record is damaged: not used", "key", key)
		return fetchedRecord{}, false, nil
	}
	if name, ok := strings.CutPrefix(key, remoteRuns+stage+"/"+fingerprint+"/"); ok {
		if sum := sha256.Sum256(data); hex.EncodeToString(sum[:])+".json" != name {
			return damaged()
		}
	}
	var rec store.CacheRecord
	if err := json.Unmarshal(data, &rec); err != nil || rec.Stage != stage || rec.Record.Fingerprint != fingerprint {
		return damaged()
	}
	for _, a := range rec.Artifacts {
		if !files.IsHexDigest(a.SHA256) || a.Size < 0 {
			return damaged()
		}
	}
	return fetchedRecord{key: key, rec: rec, data: data}, true, nil
}

// Pin makes the pull choose run records by lock l: of the records of a
// stage that l lists under the same fingerprint, only one whose artifacts
// are l's (paths, SHA-256 and sizes) is taken, and each other is refused
// and listed in Transfer.Refused. A nil l pins nothing.
func (pl *Pull) Pin(l *inspect.RunLock) { pl.pin = l }

// pinned returns the artifacts the pinning lock gives stage under
// fingerprint, by path, and whether the lock pins the stage at all (it
// lists the stage with that fingerprint).
func (pl *Pull) pinned(stage, fingerprint string) (map[string]inspect.LockedArtifact, bool) {
	if pl.pin == nil || !slices.ContainsFunc(pl.pin.Stages, func(s inspect.LockedStage) bool {
		return s.Stage == stage && s.Fingerprint == fingerprint
	}) {
		return nil, false
	}
	arts := map[string]inspect.LockedArtifact{}
	for _, a := range pl.pin.Artifacts {
		if a.Stage == stage {
			arts[a.Path] = a
		}
	}
	return arts, true
}

// lockDisagreement says how record rec's artifacts differ from the
// locked ones ("" when they are the same files), naming the first
// artifact that differs.
func lockDisagreement(rec store.CacheRecord, locked map[string]inspect.LockedArtifact) string {
	seen := map[string]bool{}
	for _, a := range slices.SortedFunc(slices.Values(rec.Artifacts), func(a, b store.ArtifactEntry) int { return strings.Compare(a.Path, b.Path) }) {
		l, ok := locked[a.Path]
		switch {
		case !ok:
			return fmt.Sprintf("artifact %s is not in the lock", a.Path)
		case l.SHA256 != a.SHA256 || l.Size != a.Size:
			return fmt.Sprintf("artifact %s has SHA-256 %s (%d bytes), the lock has %s (%d bytes)", a.Path, msg.Short(a.SHA256), a.Size, msg.Short(l.SHA256), l.Size)
		}
		seen[a.Path] = true
	}
	for _, path := range slices.Sorted(maps.Keys(locked)) {
		if !seen[path] {
			return fmt.Sprintf("artifact %s of the lock is not in it", path)
		}
	}
	return ""
}

// artifactsSignature is what two records must share to agree: every
// artifact's path, SHA-256 and size.
func artifactsSignature(rec store.CacheRecord) string {
	var parts []string
	for _, a := range rec.Artifacts {
		parts = append(parts, fmt.Sprintf("%s %s %d", a.Path, a.SHA256, a.Size))
	}
	slices.Sort(parts)
	return strings.Join(parts, "\n")
}

// Record fetches a record of stage under fingerprint from the remote, if
// it has one to take, with every object it names, into the local run
// cache; the record is written last, so an interrupted pull leaves no
// record whose objects are missing. A record that does not check
// (readRecord) is not used. When the pin lock pins the stage, only a
// record with the lock's artifacts is taken and the others are refused
// (Transfer.Refused); otherwise the records must agree on every artifact
// (records of one run pushed from machines at different commits differ in
// other fields only): records that disagree are an error naming them,
// for nothing says which one is right.
func (pl *Pull) Record(ctx context.Context, stage, fingerprint string) error {
	t := &pl.Transfer
	var found []fetchedRecord
	for _, key := range pl.recordKeys(stage, fingerprint) {
		fr, ok, err := pl.readRecord(ctx, key, stage, fingerprint)
		if err != nil {
			return err
		}
		if ok {
			found = append(found, fr)
		}
	}
	if len(found) == 0 {
		return nil
	}
	var chosen *fetchedRecord
	if locked, ok := pl.pinned(stage, fingerprint); ok {
		for i, fr := range found {
			if why := lockDisagreement(fr.rec, locked); why != "" {
				t.Refused = append(t.Refused, fmt.Sprintf("stage %s, fingerprint %s: run record %s refused: %s", stage, msg.Short(fingerprint), fr.key, why))
			} else if chosen == nil {
				chosen = &found[i]
			}
		}
		if chosen == nil {
			return nil
		}
	} else {
		for _, fr := range found[1:] {
			if artifactsSignature(fr.rec) != artifactsSignature(found[0].rec) {
				var keys []string
				for _, fr := range found {
					keys = append(keys, fr.key)
				}
				return fmt.Errorf("stage %s, fingerprint %s: the remote's run records disagree on the artifacts (%s): none taken; pull with a lock that pins the stage (census pull --lock FILE, or FILE beside the config) to choose", stage, msg.Short(fingerprint), strings.Join(keys, ", "))
			}
		}
		chosen = &found[0]
	}
	for _, a := range chosen.rec.Artifacts {
		if err := pl.object(ctx, a.SHA256, a.Size); err != nil {
			return err
		}
	}
	if err := files.WriteAtomic(store.CacheRun(pl.root, stage, fingerprint), chosen.data); err != nil {
		return err
	}
	t.Runs++
	t.Bytes += int64(len(chosen.data))
	return nil
}

// object fetches one object into the run cache unless a good copy is
// there already.
func (pl *Pull) object(ctx context.Context, sum string, size int64) error {
	r, have, t := pl.r, pl.have, &pl.Transfer
	dst := store.CacheObject(pl.root, sum)
	if got, _, err := files.Hash(dst); err == nil && got == sum {
		t.Present++
		return nil
	}
	if _, ok := have[remoteObjects+sum]; !ok {
		return fmt.Errorf("remote %s lacks objects/%s, which its run records name: push it again from a machine that has it", r.URL, sum)
	}
	n, err := r.fetchObject(ctx, sum, size, dst)
	if err != nil {
		return err
	}
	t.Objects++
	t.Bytes += n
	return nil
}

// Units fetches the remote's finished units of stage under
// fingerprint that are not here, each checked by its trailer.
func (pl *Pull) Units(ctx context.Context, stage, fingerprint string) error {
	r, have, t := pl.r, pl.have, &pl.Transfer
	prefix := remoteUnits + stage + "/" + fingerprint + "/"
	dir := store.UnitDir(pl.root, stage, fingerprint)
	for _, key := range slices.Sorted(maps.Keys(have)) {
		id, ok := strings.CutPrefix(key, prefix)
		if !ok || !store.ValidUnitID(id) {
			continue
		}
		if b, err := os.ReadFile(filepath.Join(dir, id)); err == nil {
			if _, _, ok := store.DecodeUnit(fingerprint, id, b); ok {
				t.Present++
				continue
			}
		}
		data, err := r.read(ctx, key, maxRecordBytes)
		if err != nil {
			return err
		}
		result, took, ok := store.DecodeUnit(fingerprint, id, data)
		if !ok {
			pl.log.Warn("the remote's unit file does not check: not used", "key", key)
			continue
		}
		if err := store.WriteUnit(dir, fingerprint, id, result, took); err != nil {
			return err
		}
		t.Units++
		t.Bytes += int64(len(data))
	}
	return nil
}

// Lock fetches the records and artifacts of a lock into the run cache,
// choosing records by the lock (Pin).
func (pl *Pull) Lock(ctx context.Context, l *inspect.RunLock) error {
	have, t := pl.have, &pl.Transfer
	pl.Pin(l)
	for _, s := range l.Stages {
		if !files.IsHexDigest(s.Fingerprint) || path.Base(s.Stage) != s.Stage {
			return fmt.Errorf("the lock's stage %q has a malformed fingerprint or name", s.Stage)
		}
		if _, err := os.Stat(store.CacheRun(pl.root, s.Stage, s.Fingerprint)); errors.Is(err, fs.ErrNotExist) {
			if err := pl.Record(ctx, s.Stage, s.Fingerprint); err != nil {
				return err
			}
		}
	}
	for _, a := range l.Artifacts {
		if !files.IsHexDigest(a.SHA256) || a.Size < 0 {
			return fmt.Errorf("the lock's artifact %s has a malformed SHA-256 or size", a.Path)
		}
		if _, ok := have[remoteObjects+a.SHA256]; !ok {
			t.Missing = append(t.Missing, a.Path)
			continue
		}
		if err := pl.object(ctx, a.SHA256, a.Size); err != nil {
			return err
		}
	}
	return nil
}

// Pull is one pull from a remote into a project's run cache and unit
// files: the remote's keys, listed once when it starts, and what it has
// fetched so far.
type Pull struct {
	Transfer
	r    *Remote
	root string
	log  *slog.Logger
	have map[string]int64
	pin  *inspect.RunLock // chooses the run records (Pin); nil: none
}

// NewPull starts a pull from r into the project at root: it lists the
// remote's keys. log gets what the pull passes over.
func (r *Remote) NewPull(ctx context.Context, root string, log *slog.Logger) (*Pull, error) {
	have, err := r.Keys(ctx)
	if err != nil {
		return nil, err
	}
	return &Pull{r: r, root: root, log: log, have: have}, nil
}
