package pipeline

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sudoku-census/sudoku-census/pipeline/internal/files"
)

// UnitsDir is where finished units are kept, relative to the project root:
// UnitsDir/<stage>/<fingerprint>/<id>, one file per unit. Slurm's plan,
// script and log files of a stage's array jobs sit beside them, named
// slurm-*.
const UnitsDir = "data/units"

// A unit file is the unit's result followed by a trailer:
//
//	result ‖ u64(compute nanoseconds) ‖ SHA-256(unitDomain ‖ str(fingerprint) ‖ str(id) ‖ str(result) ‖ u64(nanoseconds))
//
// with u64 8 bytes little-endian and str = u64(length) then the bytes. A
// file whose trailer does not match (torn by a crash, copied to another
// stage or fingerprint, edited) counts as missing and is computed again, so
// unit files need no fsync. The time is bookkeeping, for sizing Slurm
// tasks; it is no part of the result.
const (
	unitDomain  = "sudoku-census/unit/v1"
	unitTrailer = 8 + sha256.Size
)

func unitSum(fingerprint, id string, result []byte, nanos uint64) [sha256.Size]byte {
	h := sha256.New()
	var n [8]byte
	for _, s := range [][]byte{[]byte(unitDomain), []byte(fingerprint), []byte(id), result} {
		binary.LittleEndian.PutUint64(n[:], uint64(len(s)))
		h.Write(n[:])
		h.Write(s)
	}
	binary.LittleEndian.PutUint64(n[:], nanos)
	h.Write(n[:])
	var sum [sha256.Size]byte
	h.Sum(sum[:0])
	return sum
}

func encodeUnit(fingerprint, id string, result []byte, took time.Duration) []byte {
	nanos := uint64(max(took, 0))
	out := make([]byte, 0, len(result)+unitTrailer)
	out = append(out, result...)
	out = binary.LittleEndian.AppendUint64(out, nanos)
	sum := unitSum(fingerprint, id, result, nanos)
	return append(out, sum[:]...)
}

// decodeUnit returns the result and compute time a unit file holds, and
// whether its trailer checks.
func decodeUnit(fingerprint, id string, b []byte) ([]byte, time.Duration, bool) {
	if len(b) < unitTrailer {
		return nil, 0, false
	}
	n := len(b) - unitTrailer
	result := b[:n:n]
	nanos := binary.LittleEndian.Uint64(b[n:])
	if sum := unitSum(fingerprint, id, result, nanos); string(sum[:]) != string(b[n+8:]) {
		return nil, 0, false
	}
	return result, time.Duration(nanos), true
}

// maxUnitFileBytes bounds a unit file: a unit's result is a few bytes to
// a few KiB, kept in memory until Run merges it.
const maxUnitFileBytes = 64 << 20

// errDamagedUnit is what readUnit returns for a unit file that is there
// but does not check (truncated, edited, of another fingerprint or id).
var errDamagedUnit = errors.New("damaged unit file")

// readUnit reads and checks the file of unit id: the one way any command
// (a run resuming, status counting) takes a unit as done.
func readUnit(dir, fingerprint, id string) ([]byte, time.Duration, error) {
	b, err := files.ReadLimited(filepath.Join(dir, id), maxUnitFileBytes)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, 0, err
		}
		return nil, 0, fmt.Errorf("%w: %v", errDamagedUnit, err)
	}
	result, took, ok := decodeUnit(fingerprint, id, b)
	if !ok {
		return nil, 0, errDamagedUnit
	}
	return result, took, nil
}

// writeUnit writes a unit file atomically: to a temporary file beside it,
// then renamed into place.
func writeUnit(dir, fingerprint, id string, result []byte, took time.Duration) error {
	f, err := os.CreateTemp(dir, "."+id+".tmp-*")
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		f, err = os.CreateTemp(dir, "."+id+".tmp-*")
	}
	if err != nil {
		return err
	}
	_, err = f.Write(encodeUnit(fingerprint, id, result, took))
	if err == nil {
		err = f.Chmod(0o644) // CreateTemp makes 0600
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), filepath.Join(dir, id))
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("unit %s: %w", id, err)
	}
	return nil
}

// validUnitID reports whether id may name a unit (and its file).
func validUnitID(id string) bool {
	if len(id) == 0 || len(id) > 100 || strings.HasPrefix(id, "slurm") {
		return false
	}
	for i, c := range []byte(id) {
		alnum := c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !alnum && (i == 0 || c != '.' && c != '_' && c != '-') {
			return false
		}
	}
	return true
}

// MaxUnits is the most units a stage may list: status, a dry run and a
// run hold the list (and a Slurm plan writes it) whole.
const MaxUnits = 1 << 20

func checkUnitIDs(stage string, ids []string) error {
	if len(ids) > MaxUnits {
		return fmt.Errorf("stage %s lists %d units, more than %d: its configuration asks for too much work to plan", stage, len(ids), MaxUnits)
	}
	seen := make(map[string]bool, len(ids))
	for i, id := range ids {
		if !validUnitID(id) {
			return fmt.Errorf("stage %s: unit %d has the id %q: an id is 1-100 letters, digits, '.', '_' or '-', starts with a letter or digit and not with \"slurm\"", stage, i, id)
		}
		if seen[id] {
			return fmt.Errorf("stage %s: unit id %q is listed twice", stage, id)
		}
		seen[id] = true
	}
	return nil
}

// unitSet is the units of one pass of a stage: their ids in List order and
// the results found or computed so far.
type unitSet struct {
	fingerprint string
	dir         string // absolute: <root>/data/units/<stage>/<fingerprint>
	ids         []string
	results     [][]byte        // by index; nil while the unit is missing
	took        []time.Duration // compute time recorded with each result
}

func (e *Engine) unitDir(stage, fingerprint string) string {
	return filepath.Join(e.opts.Root, filepath.FromSlash(UnitsDir), stage, fingerprint)
}

func newUnitSet(dir, fingerprint string, ids []string) *unitSet {
	return &unitSet{fingerprint: fingerprint, dir: dir, ids: ids,
		results: make([][]byte, len(ids)), took: make([]time.Duration, len(ids))}
}

// present returns the names in the unit directory (nil if it does not
// exist).
func (u *unitSet) present() map[string]bool {
	entries, err := os.ReadDir(u.dir)
	if err != nil {
		return nil
	}
	names := make(map[string]bool, len(entries))
	for _, en := range entries {
		names[en.Name()] = true
	}
	return names
}

// scan loads every unit still missing from memory whose file exists and
// checks, and returns the indices of those still missing, in List order. A
// file that does not check is removed.
func (u *unitSet) scan(log *slog.Logger) []int {
	names := u.present()
	var missing []int
	for i, id := range u.ids {
		if u.results[i] != nil {
			continue
		}
		if names[id] {
			result, took, err := readUnit(u.dir, u.fingerprint, id)
			if err == nil {
				u.results[i], u.took[i] = result, took
				continue
			}
			if errors.Is(err, errDamagedUnit) {
				path := filepath.Join(u.dir, id)
				log.Warn("unit file is damaged; computing the unit again", "unit", id, "file", path)
				os.Remove(path)
			}
		}
		missing = append(missing, i)
	}
	return missing
}

// meanTook is the mean compute time of the units done (0 if none).
func (u *unitSet) meanTook() time.Duration {
	var sum time.Duration
	n := 0
	for i, r := range u.results {
		if r != nil && u.took[i] > 0 {
			sum += u.took[i]
			n++
		}
	}
	if n == 0 {
		return 0
	}
	return sum / time.Duration(n)
}

// UnitIDs returns the ids of the stage's units in List order (nil for a
// stage without Units).
func (p *Pass) UnitIDs() []string {
	if p.units == nil {
		return nil
	}
	return append([]string(nil), p.units.ids...)
}

// UnitResults returns the result of every unit of the stage, in List order.
// The engine has computed (or found) them all before Run; Run merges them.
// The byte slices are the engine's: read them, do not modify them.
func (p *Pass) UnitResults() ([][]byte, error) {
	switch {
	case p.Stage.Units == nil:
		return nil, fmt.Errorf("stage %s asks for unit results but has no Units", p.Stage.Name)
	case p.unit != "":
		return nil, fmt.Errorf("stage %s: unit %s asks for unit results: only Run merges units", p.Stage.Name, p.unit)
	case p.units == nil:
		return nil, fmt.Errorf("stage %s: unit results are not ready", p.Stage.Name)
	}
	for i, r := range p.units.results {
		if r == nil {
			return nil, fmt.Errorf("stage %s: unit %s has no result", p.Stage.Name, p.units.ids[i])
		}
	}
	return append([][]byte(nil), p.units.results...), nil
}

// forUnit is the pass a Compute call gets: the same stage, configuration
// and inputs, with the unit's context and id.
func (p *Pass) forUnit(ctx context.Context, id string) *Pass {
	q := *p
	q.ctx, q.unit, q.Log = ctx, id, p.Log.With("unit", id)
	return &q
}

// listUnits calls the stage's List and checks the ids.
func listUnits(p *Pass) ([]string, error) {
	ids, err := p.Stage.Units.List(p)
	if err != nil {
		return nil, fmt.Errorf("listing units: %w", err)
	}
	if err := checkUnitIDs(p.Stage.Name, ids); err != nil {
		return nil, err
	}
	return ids, nil
}

// prepareUnits brings every unit of the pass's stage into memory: those
// done are read, the missing ones computed by the configured executor.
// With fresh set, the units done are discarded first (census run --force).
func (e *Engine) prepareUnits(ctx context.Context, p *Pass, fresh bool, order func([]int)) error {
	ids, err := listUnits(p)
	if err != nil {
		return err
	}
	u := newUnitSet(e.unitDir(p.Stage.Name, p.fingerprint), p.fingerprint, ids)
	if fresh {
		if err := os.RemoveAll(u.dir); err != nil {
			return err
		}
	}
	p.units = u
	missing, err := e.fromBundle(p, u, u.scan(p.Log))
	if err != nil {
		return err
	}
	executor := e.settings.executor.Name
	p.Report("units.total", len(ids))
	p.Report("units.reused", len(ids)-len(missing))
	p.Report("units.computed", len(missing))
	if len(missing) == 0 {
		return nil
	}
	p.Log.Info("computing units", "executor", executor, "missing", len(missing), "total", len(ids))
	if order != nil {
		order(missing)
	}
	prog := p.Progress("units", int64(len(ids)))
	prog.Add(int64(len(ids) - len(missing)))
	defer prog.Done()
	if executor == "slurm" {
		return e.computeSlurm(ctx, p, u, missing, prog)
	}
	return e.computeLocal(ctx, p, u, missing, prog, nil)
}

// computeLocal computes the units of u at the indices missing in this
// process, Units.Workers at a time, writing each to its file as it
// finishes. It stops at the first failure (and returns it) or when ctx is
// cancelled (and returns ctx's error); the units finished by then are kept.
// done, if set, is told of each unit computed.
func (e *Engine) computeLocal(ctx context.Context, p *Pass, u *unitSet, missing []int, prog *Progress, done func(id string, took time.Duration)) error {
	workers := p.Stage.Units.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, len(missing))
	cctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var (
		next   atomic.Int64
		wg     sync.WaitGroup
		doneMu sync.Mutex
	)
	for range workers {
		wg.Go(func() {
			for cctx.Err() == nil {
				k := int(next.Add(1) - 1)
				if k >= len(missing) {
					return
				}
				i := missing[k]
				id := u.ids[i]
				cpu0 := ProcessCPU()
				result, took, err := e.computeUnit(cctx, p, id)
				if err == nil {
					err = writeUnit(u.dir, u.fingerprint, id, result, took)
				}
				if b := p.Stage.Units.Bundle; err == nil && b != nil && b.Holds(id) {
					err = addToBundle(e.opts.Root, b, []BundleRow{newBundleRow(b, id, result, ProcessCPU()-cpu0)})
				}
				if err != nil {
					cancel(fmt.Errorf("unit %s: %w", id, err))
					return
				}
				u.results[i], u.took[i] = result, took
				if prog != nil {
					prog.Add(1)
				}
				if done != nil {
					doneMu.Lock()
					done(id, took)
					doneMu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	return context.Cause(cctx) // nil when every unit finished
}

// computeUnit runs Compute for one unit. A panic becomes the unit's error,
// with the stack written to the log; a result returned after the context
// was cancelled is discarded, since it may be partial.
func (e *Engine) computeUnit(ctx context.Context, p *Pass, id string) (result []byte, took time.Duration, err error) {
	defer func() {
		if r := recover(); r != nil {
			result, err = nil, e.panicked(p.Stage.Name, "unit "+id, r)
		}
	}()
	start := time.Now()
	result, err = p.Stage.Units.Compute(p.forUnit(ctx, id), id)
	took = time.Since(start)
	if err == nil && ctx.Err() != nil {
		err = ctx.Err()
	}
	if err != nil {
		return nil, 0, err
	}
	if result == nil {
		result = []byte{}
	}
	return result, took, nil
}

// panicked logs a panic of a stage's code with its stack and returns the
// error that fails the stage.
func (e *Engine) panicked(stage, where string, r any) error {
	e.log.Error("panic", "stage", stage, "in", where, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
	return fmt.Errorf("panic in %s: %v (stack trace in the log)", where, r)
}

// UnitProgress is how many of a stage's units are done.
type UnitProgress struct {
	Done int
	// Total is the number of units, or -1 when the stage's List failed.
	Total int
}

func (u UnitProgress) String() string {
	if u.Total < 0 {
		return fmt.Sprintf("%d units done", u.Done)
	}
	return fmt.Sprintf("%d/%d units done", u.Done, u.Total)
}

// unitProgress counts the finished units of a stage whose fingerprint is
// known, without reading them.
func (e *Engine) unitProgress(m *Manifest, s *Stage, c checked) (prog UnitProgress) {
	p := e.newPass(context.Background(), m, s, c)
	u := newUnitSet(e.unitDir(s.Name, c.fingerprint), c.fingerprint, nil)
	names := u.present()
	ids, err := func() (ids []string, err error) {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("panic: %v", r)
			}
		}()
		return listUnits(p)
	}()
	if err != nil {
		e.log.Warn("cannot list units", "stage", s.Name, "err", err)
		for name := range names {
			if validUnitID(name) {
				if _, _, err := readUnit(u.dir, c.fingerprint, name); err == nil {
					prog.Done++
				}
			}
		}
		prog.Total = -1
		return prog
	}
	var bundled map[string]BundleRow
	if mine := bundledIDs(s.Units.Bundle, ids); len(mine) > 0 {
		if bundled, err = ReadBundle(e.opts.Root, s.Units.Bundle, mine); err != nil {
			e.log.Warn("cannot read the bundle", "stage", s.Name, "err", err)
		}
	}
	for _, id := range ids {
		if _, ok := bundled[id]; ok {
			prog.Done++
		} else if names[id] {
			if _, _, err := readUnit(u.dir, c.fingerprint, id); err == nil {
				prog.Done++
			}
		}
	}
	prog.Total = len(ids)
	return prog
}

// pruneUnits removes the unit directories of the stage's other
// fingerprints and the temporary files of the kept one. It runs under the
// lock after the stage published with fingerprint keep.
func (e *Engine) pruneUnits(stage, keep string) {
	dir := filepath.Join(e.opts.Root, filepath.FromSlash(UnitsDir), stage)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, en := range entries {
		if en.Name() == keep {
			removeUnitTemporaries(filepath.Join(dir, keep))
			continue
		}
		if err := os.RemoveAll(filepath.Join(dir, en.Name())); err != nil {
			e.log.Warn("cannot remove old units", "stage", stage, "err", err)
		}
	}
}

func removeUnitTemporaries(dir string) (files int, bytes int64) {
	matches, _ := filepath.Glob(filepath.Join(dir, ".*.tmp-*"))
	for _, path := range matches {
		if info, err := os.Lstat(path); err == nil && os.Remove(path) == nil {
			files++
			bytes += info.Size()
		}
	}
	return files, bytes
}

// Removed is a directory or files that `census gc` removed.
type Removed struct {
	Path  string // relative to the project root
	Files int
	Bytes int64
}

// GC removes what no run needs: the units of fingerprints that are neither
// a stage's published one nor the one the current configuration gives, the
// units of stages no longer in the pipeline, temporary unit files, and the
// run cache's records of other fingerprints (but the keepLast most recent
// of each stage) with the objects no kept record names. Every current
// artifact stays restorable. It takes the lock, like a run; with wait it
// waits for a run holding it.
func (e *Engine) GC(wait bool, keepLast int) ([]Removed, error) {
	release, err := lock(e.opts.Root, wait)
	if err != nil {
		return nil, err
	}
	defer release()
	m, err := ReadManifest(e.opts.Root)
	if err != nil {
		return nil, err
	}
	keep := map[string]map[string]bool{}
	e.survey(m, func(s *Stage, c checked, _ bool, _ *Manifest) {
		keep[s.Name] = map[string]bool{}
		if rec, ok := m.Stages[s.Name]; ok {
			keep[s.Name][rec.Fingerprint] = true
		}
		if c.fingerprint != "" {
			keep[s.Name][c.fingerprint] = true
		}
	})
	removed, err := e.gcUnits(keep)
	if err != nil {
		return removed, err
	}
	cache, err := e.gcCache(keep, keepLast)
	return append(removed, cache...), err
}

// gcUnits removes the unit directories whose fingerprints keep does not
// list, and the temporary files of those it does.
func (e *Engine) gcUnits(keep map[string]map[string]bool) ([]Removed, error) {
	base := filepath.Join(e.opts.Root, filepath.FromSlash(UnitsDir))
	stages, err := os.ReadDir(base)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var removed []Removed
	remove := func(rel string) error {
		r := Removed{Path: filepath.ToSlash(filepath.Join(UnitsDir, rel))}
		abs := filepath.Join(base, rel)
		filepath.WalkDir(abs, func(_ string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				if info, err := d.Info(); err == nil {
					r.Files++
					r.Bytes += info.Size()
				}
			}
			return nil
		})
		if err := os.RemoveAll(abs); err != nil {
			return err
		}
		removed = append(removed, r)
		return nil
	}
	for _, st := range stages {
		fps, ok := keep[st.Name()]
		if !ok {
			if err := remove(st.Name()); err != nil {
				return removed, err
			}
			continue
		}
		entries, _ := os.ReadDir(filepath.Join(base, st.Name()))
		for _, en := range entries {
			rel := filepath.Join(st.Name(), en.Name())
			if !fps[en.Name()] {
				if err := remove(rel); err != nil {
					return removed, err
				}
				continue
			}
			if n, b := removeUnitTemporaries(filepath.Join(base, rel)); n > 0 {
				removed = append(removed, Removed{Path: filepath.ToSlash(filepath.Join(UnitsDir, rel, ".*.tmp-*")), Files: n, Bytes: b})
			}
		}
	}
	return removed, nil
}
