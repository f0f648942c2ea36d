package store

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
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

// DecodeUnit returns the result and compute time a unit file holds, and
// whether its trailer checks.
func DecodeUnit(fingerprint, id string, b []byte) ([]byte, time.Duration, bool) {
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

// errDamagedUnit is what ReadUnit returns for a unit file that is there
// but does not check (truncated, edited, of another fingerprint or id).
var errDamagedUnit = errors.New("damaged unit file")

// ReadUnit reads and checks the file of unit id: the one way any command
// (a run resuming, status counting) takes a unit as done.
func ReadUnit(dir, fingerprint, id string) ([]byte, time.Duration, error) {
	b, err := files.ReadLimited(filepath.Join(dir, id), maxUnitFileBytes)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, 0, err
		}
		return nil, 0, fmt.Errorf("%w: %v", errDamagedUnit, err)
	}
	result, took, ok := DecodeUnit(fingerprint, id, b)
	if !ok {
		return nil, 0, errDamagedUnit
	}
	return result, took, nil
}

// WriteUnit writes a unit file atomically: to a temporary file beside it,
// then renamed into place.
func WriteUnit(dir, fingerprint, id string, result []byte, took time.Duration) error {
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

// ValidUnitID reports whether id may name a unit (and its file).
func ValidUnitID(id string) bool {
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

func CheckUnitIDs(stage string, ids []string) error {
	if len(ids) > MaxUnits {
		return fmt.Errorf("stage %s lists %d units, more than %d: its configuration asks for too much work to plan", stage, len(ids), MaxUnits)
	}
	seen := make(map[string]bool, len(ids))
	for i, id := range ids {
		if !ValidUnitID(id) {
			return fmt.Errorf("stage %s: unit %d has the id %q: an id is 1-100 letters, digits, '.', '_' or '-', starts with a letter or digit and not with \"slurm\"", stage, i, id)
		}
		if seen[id] {
			return fmt.Errorf("stage %s: unit id %q is listed twice", stage, id)
		}
		seen[id] = true
	}
	return nil
}

// UnitSet is the units of one pass of a stage: their ids in List order and
// the results found or computed so far.
type UnitSet struct {
	Fingerprint string
	Dir         string // absolute: <root>/data/units/<stage>/<fingerprint>
	IDs         []string
	Results     [][]byte        // by index; nil while the unit is missing
	Took        []time.Duration // compute time recorded with each result
	// Recompute marks the scratch set of verify --recompute (Dir is a
	// recompute-* directory inside the unit directory): its units are
	// compared with their bundle's rows and never enter the bundle.
	Recompute bool
}

// RecomputeDirPrefix starts the name of a scratch directory of verify
// --recompute inside a stage's unit directory.
const RecomputeDirPrefix = "recompute-"

// UnitDir is the directory of the units of stage under fingerprint.
func UnitDir(root, stage, fingerprint string) string {
	return filepath.Join(root, filepath.FromSlash(UnitsDir), stage, fingerprint)
}

// NewUnitSet is the units ids of a pass, kept in dir under fingerprint,
// with no result yet.
func NewUnitSet(dir, fingerprint string, ids []string) *UnitSet {
	return &UnitSet{Fingerprint: fingerprint, Dir: dir, IDs: ids,
		Results: make([][]byte, len(ids)), Took: make([]time.Duration, len(ids))}
}

// Present returns the names in the unit directory (nil if it does not
// exist).
func (u *UnitSet) Present() map[string]bool {
	entries, err := os.ReadDir(u.Dir)
	if err != nil {
		return nil
	}
	names := make(map[string]bool, len(entries))
	for _, en := range entries {
		names[en.Name()] = true
	}
	return names
}

// Scan loads every unit still missing from memory whose file exists and
// checks, and returns the indices of those still missing, in List order. A
// file that does not check is removed.
func (u *UnitSet) Scan(log *slog.Logger) []int {
	names := u.Present()
	var missing []int
	for i, id := range u.IDs {
		if u.Results[i] != nil {
			continue
		}
		if names[id] {
			result, took, err := ReadUnit(u.Dir, u.Fingerprint, id)
			if err == nil {
				u.Results[i], u.Took[i] = result, took
				continue
			}
			if errors.Is(err, errDamagedUnit) {
				path := filepath.Join(u.Dir, id)
				log.Warn("unit file is damaged; computing the unit again", "unit", id, "file", path)
				os.Remove(path)
			}
		}
		missing = append(missing, i)
	}
	return missing
}

// MeanTook is the mean compute time of the units done (0 if none).
func (u *UnitSet) MeanTook() time.Duration {
	var sum time.Duration
	n := 0
	for i, r := range u.Results {
		if r != nil && u.Took[i] > 0 {
			sum += u.Took[i]
			n++
		}
	}
	if n == 0 {
		return 0
	}
	return sum / time.Duration(n)
}

// PruneUnits removes the unit directories of the stage's other
// fingerprints and the temporary files of the kept one. It runs under the
// lock after the stage published with fingerprint keep.
func PruneUnits(root string, log *slog.Logger, stage, keep string) {
	dir := filepath.Join(root, filepath.FromSlash(UnitsDir), stage)
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
			log.Warn("cannot remove old units", "stage", stage, "err", err)
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

// GCUnits removes the unit directories whose fingerprints keep does not
// list, and the temporary files of those it does.
func GCUnits(root string, keep map[string]map[string]bool) ([]Removed, error) {
	base := filepath.Join(root, filepath.FromSlash(UnitsDir))
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
