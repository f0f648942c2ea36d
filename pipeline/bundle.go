package pipeline

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"time"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/zstd"

	"github.com/sudoku-census/sudoku-census/pipeline/internal/files"
	"github.com/sudoku-census/sudoku-census/pipeline/store"
)

// BundlesDir holds the committed result bundles, relative to the project
// root.
const BundlesDir = "data/bundles"

// A Bundle keeps the results of a stage's long units in a small Parquet
// file committed with the repository (BundlesDir/<Name>.parquet), so that a
// computation of many CPU-hours survives any one machine: a run on a fresh
// clone takes the bundle's units instead of computing them, computes only
// the missing ones, and adds each one it finishes to the file. A bundled
// unit's result must be a pure function of its id and the Kernel alone,
// whatever the stage's configuration, and be UTF-8 text.
//
// Each row carries the SHA-256 of the unit's bytes (see bundleSum); a file
// with a row whose hash does not check, a duplicated unit, a unit the
// bundle does not hold, or one of another kernel fails the run with a
// one-line error naming the unit: a damaged bundle is never used. Rows of
// units the configuration does not list (a longer run than the one asked
// for) are checked and left unused. A row's hash covers its unit, kernel
// and result only; the SHA-256 of the whole file (every row, every
// column) is an input of the stage that reads it: it is in the stage's
// fingerprint, its manifest record and the lock, so a result edited
// together with its row hash, or any other column, makes the stage stale
// and fails census verify and verify --lock. A recomputation shows whether
// a committed row is right: `census verify --recompute K` recomputes a
// sample of units, the costliest first, and compares them byte for byte.
type Bundle struct {
	// Name names the file, BundlesDir/<Name>.parquet.
	Name string
	// Kernel names the code that computes the units (with its version);
	// a row of another kernel fails the run.
	Kernel string
	// KernelOf, when set, names the kernel of each unit instead, for a
	// bundle whose units different code computes (Kernel is then unused).
	KernelOf func(id string) string
	// Holds reports whether the unit id belongs in the bundle.
	Holds func(id string) bool
	// Work describes what a unit covers, for the row's work column.
	Work func(id string) string
	// Recheck, when set, checks a recomputed unit by a second computation
	// (one that shares no code with Compute) and returns what it checked;
	// verify --recompute calls it with a seed for any sampling.
	Recheck func(p *Pass, id string, result []byte, seed uint64) (string, error)
	// Cost, when set, returns the CPU time that recomputing the unit on
	// its own takes (without its Recheck), projected: verify --recompute
	// --max-unit-cpu D then draws among the units whose Cost is at most D
	// rather than among those whose recorded time is. A unit's recorded
	// time leaves out what it reused from the units computed before it in
	// the same process (the pair kernel's cached half tables), which a
	// recomputation on its own must redo.
	Cost func(p *Pass, id string) (time.Duration, error)
}

// kernelOf is the kernel of unit id.
func (b *Bundle) kernelOf(id string) string {
	if b.KernelOf != nil {
		return b.KernelOf(id)
	}
	return b.Kernel
}

// Path is the bundle's file below the project root.
func (b *Bundle) Path() string { return filepath.Join(BundlesDir, b.Name+".parquet") }

// BundleRow is one unit of a bundle.
type BundleRow struct {
	Unit string `parquet:"unit"`
	// Work says what the unit covers (for a reader of the file).
	Work string `parquet:"work"`
	// Result is the unit's result (for the pair kernel, a decimal sum).
	Result string `parquet:"result"`
	Kernel string `parquet:"kernel"`
	// CPUSeconds is the process CPU time while the unit was computed (the
	// units a bundle holds run one at a time, each on every core).
	CPUSeconds float64 `parquet:"cpu_seconds"`
	// PeakRSSBytes is the process's peak resident memory when the unit
	// finished.
	PeakRSSBytes int64 `parquet:"peak_rss_bytes"`
	// SHA256 is bundleSum of the row, in hexadecimal.
	SHA256 string `parquet:"sha256"`
}

const bundleDomain = "sudoku-census/bundle/v1"

// bundleSum hashes what a unit's result is a function of and the result:
// SHA-256(domain ‖ str(kernel) ‖ str(unit) ‖ str(result)), str being the
// length as 8 bytes little-endian, then the bytes.
func bundleSum(kernel, unit, result string) string {
	h := sha256.New()
	var n [8]byte
	for _, s := range []string{bundleDomain, kernel, unit, result} {
		binary.LittleEndian.PutUint64(n[:], uint64(len(s)))
		h.Write(n[:])
		io.WriteString(h, s)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// maxBundleBytes bounds a bundle file read into memory.
const maxBundleBytes = 64 << 20

// ReadBundle reads and checks a bundle of the stage: every row's hash, no
// unit twice, every unit one the bundle Holds, and every row of b's
// kernel. It returns the rows by unit, when ids is not nil only those of
// ids; a missing file is an empty bundle.
func ReadBundle(root string, b *Bundle, ids []string) (map[string]BundleRow, error) {
	path := filepath.Join(root, b.Path())
	data, err := files.ReadLimited(path, maxBundleBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]BundleRow{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("bundle %s: %w", b.Path(), err)
	}
	rows, err := decodeBundle(data)
	if err != nil {
		return nil, fmt.Errorf("bundle %s: %w", b.Path(), err)
	}
	var listed map[string]bool
	if ids != nil {
		listed = make(map[string]bool, len(ids))
		for _, id := range ids {
			listed[id] = true
		}
	}
	out := make(map[string]BundleRow, len(rows))
	seen := make(map[string]bool, len(rows))
	for _, r := range rows {
		switch {
		case seen[r.Unit]:
			return nil, fmt.Errorf("bundle %s: unit %q appears twice", b.Path(), r.Unit)
		case r.SHA256 != bundleSum(r.Kernel, r.Unit, r.Result):
			return nil, fmt.Errorf("bundle %s: unit %q: its bytes do not match its SHA-256 %s (damaged or edited)", b.Path(), r.Unit, r.SHA256)
		case !b.Holds(r.Unit):
			return nil, fmt.Errorf("bundle %s: unit %q is not a unit of this bundle", b.Path(), r.Unit)
		case r.Kernel != b.kernelOf(r.Unit):
			return nil, fmt.Errorf("bundle %s: unit %q was computed by kernel %q, not %q: recompute it (remove its row)", b.Path(), r.Unit, r.Kernel, b.kernelOf(r.Unit))
		}
		seen[r.Unit] = true
		if listed == nil || listed[r.Unit] {
			out[r.Unit] = r
		}
	}
	return out, nil
}

// decodeBundle returns the rows of a bundle file's bytes, unchecked.
func decodeBundle(data []byte) ([]BundleRow, error) {
	pf, err := parquet.OpenFile(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, err
	}
	rows := make([]BundleRow, pf.NumRows())
	var start int64
	for _, g := range pf.RowGroups() {
		if err := readRowGroup(g, rows[start:start+g.NumRows()]); err != nil {
			return nil, err
		}
		start += g.NumRows()
	}
	return rows, nil
}

// MaxBundleBytes bounds a bundle file read into memory.
const MaxBundleBytes = maxBundleBytes

// DiffBundleRows returns the units whose rows differ between two bundle
// files' bytes, old and new, sorted: in results, a unit in one only or
// whose result, kernel, work or sha256 differ; in costs, a unit whose
// machine-dependent columns alone differ (cpu_seconds, peak_rss_bytes:
// what an honest recomputation on another machine changes).
func DiffBundleRows(old, new []byte) (results, costs []string, err error) {
	byUnit := func(data []byte) (map[string]BundleRow, error) {
		rows, err := decodeBundle(data)
		if err != nil {
			return nil, err
		}
		out := make(map[string]BundleRow, len(rows))
		for _, r := range rows {
			out[r.Unit] = r
		}
		return out, nil
	}
	a, err := byUnit(old)
	if err != nil {
		return nil, nil, err
	}
	b, err := byUnit(new)
	if err != nil {
		return nil, nil, err
	}
	for id, r := range a {
		other, ok := b[id]
		switch {
		case !ok:
			results = append(results, id)
		case other == r:
		case other.Result == r.Result && other.Kernel == r.Kernel && other.Work == r.Work && other.SHA256 == r.SHA256:
			costs = append(costs, id)
		default:
			results = append(results, id)
		}
	}
	for id := range b {
		if _, ok := a[id]; !ok {
			results = append(results, id)
		}
	}
	slices.Sort(results)
	slices.Sort(costs)
	return results, costs, nil
}

// AddToBundle adds rows to the bundle file, under an exclusive flock on
// BundlesDir/.<name>.lock so that processes computing units at once (Slurm
// tasks) lose none; the file is replaced atomically, sorted by unit.
func AddToBundle(root string, b *Bundle, add []BundleRow) error {
	dir := filepath.Join(root, BundlesDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	lf, err := os.OpenFile(filepath.Join(dir, "."+b.Name+".lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return err
	}
	defer lf.Close()
	if err := syscall.Flock(int(lf.Fd()), syscall.LOCK_EX); err != nil {
		return err
	}
	defer syscall.Flock(int(lf.Fd()), syscall.LOCK_UN)
	have, err := ReadBundle(root, b, nil)
	if err != nil {
		return err
	}
	for _, r := range add {
		have[r.Unit] = r
	}
	rows := make([]BundleRow, 0, len(have))
	for _, r := range have {
		rows = append(rows, r)
	}
	slices.SortFunc(rows, func(x, y BundleRow) int { return cmp.Compare(x.Unit, y.Unit) })
	return writeBundle(root, b, rows)
}

// writeBundle replaces the bundle's file by rows, atomically.
func writeBundle(root string, b *Bundle, rows []BundleRow) error {
	dir := filepath.Join(root, BundlesDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[BundleRow](&buf,
		parquet.Compression(&zstd.Codec{Level: zstd.SpeedDefault}),
		parquet.CreatedBy(store.ToolName, store.ToolRelease, ""))
	if _, err := w.Write(rows); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+b.Name+".tmp-*")
	if err != nil {
		return err
	}
	_, err = f.Write(buf.Bytes())
	if err == nil {
		err = f.Chmod(0o644)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), filepath.Join(root, b.Path()))
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("bundle %s: %w", b.Path(), err)
	}
	return nil
}

// NewBundleRow is the row of a unit just computed.
func NewBundleRow(b *Bundle, id string, result []byte, cpu time.Duration) BundleRow {
	r := BundleRow{Unit: id, Result: string(result), Kernel: b.kernelOf(id),
		CPUSeconds: cpu.Seconds(), PeakRSSBytes: peakRSS()}
	if b.Work != nil {
		r.Work = b.Work(id)
	}
	r.SHA256 = bundleSum(r.Kernel, r.Unit, r.Result)
	return r
}

// peakRSS is the process's peak resident set size in bytes (0 if unknown).
func peakRSS() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Maxrss * 1024 // kilobytes on Linux
}

// BundledIDs returns the ids that the bundle b (possibly nil) holds.
func BundledIDs(b *Bundle, ids []string) []string {
	if b == nil {
		return nil
	}
	var out []string
	for _, id := range ids {
		if b.Holds(id) {
			out = append(out, id)
		}
	}
	return out
}
