package pipeline

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/zstd"

	"github.com/sudoku-census/sudoku-census/pipeline/internal/files"
	"github.com/sudoku-census/sudoku-census/pipeline/store"
)

// Table is a Parquet artifact whose rows are T. T's fields carry `parquet`
// tags naming the columns; the stage's package doc documents its schema
// (stages/docs_test.go checks it).
type Table[T any] struct{ Output }

// NewTable declares the Parquet artifact data/<name>.parquet.
func NewTable[T any](name, doc string) Table[T] {
	return Table[T]{Output{Name: name, Path: filepath.Join("data", name+".parquet"), Doc: doc}}
}

// WithMachineColumns returns the table declaring columns as
// machine-dependent (Output.MachineColumns).
func (t Table[T]) WithMachineColumns(columns ...string) Table[T] {
	t.MachineColumns = columns
	return t
}

// HashColumnsExcept returns the SHA-256 of the Parquet file at path
// without its columns named in drop: its writer (created_by), its footer's
// key-value metadata but census.fingerprint, the names of the other
// columns in schema order, then each row's values of them (kind, levels,
// bytes). Two files with the same rows in the columns kept and the same
// provenance hash alike. The fingerprint is left out because it moves with
// any input, a committed bundle's bytes among them; it is returned apart,
// for the caller to check against the run's.
func HashColumnsExcept(path string, drop []string) (sum, fingerprint string, err error) {
	f, err := files.OpenRegular(path)
	if err != nil {
		return "", "", err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return "", "", err
	}
	pf, err := parquet.OpenFile(f, info.Size())
	if err != nil {
		return "", "", fmt.Errorf("%s: %w", path, err)
	}
	h := sha256.New()
	var word [8]byte
	writeBytes := func(b []byte) {
		binary.LittleEndian.PutUint64(word[:], uint64(len(b)))
		h.Write(word[:])
		h.Write(b)
	}
	writeBytes([]byte(pf.Metadata().CreatedBy))
	for _, kv := range pf.Metadata().KeyValueMetadata {
		if kv.Key == "census.fingerprint" {
			fingerprint = kv.Value
			continue
		}
		writeBytes([]byte(kv.Key))
		writeBytes([]byte(kv.Value))
	}
	cols := pf.Schema().Columns()
	kept := make([]bool, len(cols))
	for i, c := range cols {
		name := strings.Join(c, ".")
		if kept[i] = !slices.Contains(drop, name); kept[i] {
			writeBytes([]byte(name))
		}
	}
	r := parquet.NewReader(pf)
	defer r.Close()
	buf := make([]parquet.Row, 1024)
	var value []byte
	for {
		n, err := r.ReadRows(buf)
		for _, row := range buf[:n] {
			h.Write([]byte{'\n'})
			for _, v := range row {
				if c := v.Column(); c < 0 || c >= len(kept) || !kept[c] {
					continue
				}
				binary.LittleEndian.PutUint64(word[:], uint64(v.Column()))
				h.Write(word[:])
				null := byte(0)
				if v.IsNull() {
					null = 1
				}
				h.Write([]byte{byte(v.Kind()), null, byte(v.RepetitionLevel()), byte(v.DefinitionLevel())})
				value = v.AppendBytes(value[:0])
				writeBytes(value)
			}
		}
		if errors.Is(err, io.EOF) || (err == nil && n == 0) {
			break
		}
		if err != nil {
			return "", "", fmt.Errorf("%s: %w", path, err)
		}
	}
	return hex.EncodeToString(h.Sum(nil)), fingerprint, nil
}

// Provenance is what an artifact records about how it was made. Parquet
// artifacts carry it in their footer's key-value metadata, under the keys
// "census.<json field>"; every artifact's copy is in data/manifest.json.
type Provenance struct {
	Artifact    string            `json:"artifact"`
	Stage       string            `json:"stage"`
	Version     int               `json:"version"`
	Fingerprint string            `json:"fingerprint"`
	Config      json.RawMessage   `json:"config"`
	Inputs      map[string]string `json:"inputs"` // artifact name -> SHA-256
	Tool        string            `json:"tool"`
}

// keyValues returns the provenance as sorted footer key-value pairs.
func (pr Provenance) keyValues() [][2]string {
	inputs, _ := json.Marshal(pr.Inputs) // map keys marshal sorted
	return [][2]string{
		{"census.artifact", pr.Artifact},
		{"census.config", string(pr.Config)},
		{"census.fingerprint", pr.Fingerprint},
		{"census.inputs", string(inputs)},
		{"census.stage", pr.Stage},
		{"census.tool", pr.Tool},
		{"census.version", fmt.Sprint(pr.Version)},
	}
}

// rowGroupRows is the most rows in one Parquet row group.
const rowGroupRows = 1 << 18

// Write writes all rows as the artifact. Run must call it once per output;
// the file becomes visible under its final name only when the stage
// succeeds.
func (t Table[T]) Write(p *Pass, rows []T) error {
	pend, err := p.create(t.Output)
	if err != nil {
		return err
	}
	prov := p.provenance(t.Name)
	opts := []parquet.WriterOption{
		parquet.Compression(&zstd.Codec{Level: zstd.SpeedDefault}),
		parquet.CreatedBy(store.ToolName, store.ToolRelease, ""),
		// Several row groups let Load read a large table on every core.
		parquet.MaxRowsPerRowGroup(rowGroupRows),
	}
	for _, kv := range prov.keyValues() {
		opts = append(opts, parquet.KeyValueMetadata(kv[0], kv[1]))
	}
	w := parquet.NewGenericWriter[T](pend.file, opts...)
	const batch = 1 << 16
	for start := 0; start < len(rows); start += batch {
		end := min(start+batch, len(rows))
		if p.failAfterRows > 0 && int64(end) > p.failAfterRows {
			end = int(p.failAfterRows)
			if _, err := w.Write(rows[start:end]); err != nil {
				return err
			}
			return fmt.Errorf("artifact %s: injected failure after %d rows", t.Name, p.failAfterRows)
		}
		if _, err := w.Write(rows[start:end]); err != nil {
			return fmt.Errorf("artifact %s: %w", t.Name, err)
		}
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("artifact %s: %w", t.Name, err)
	}
	pend.rows = int64(len(rows))
	return nil
}

// Read returns the rows of the artifact, which must be an output of a stage
// that p's stage Requires.
func (t Table[T]) Read(p *Pass) ([]T, error) {
	in, ok := p.inputs[t.Name]
	if !ok {
		return nil, fmt.Errorf("stage %s reads artifact %s but does not require its stage", p.Stage.Name, t.Name)
	}
	return t.Load(in.root)
}

// Load reads the artifact below the project root, outside any stage: for
// tests and tools.
func (t Table[T]) Load(root string) ([]T, error) {
	path := filepath.Join(root, t.Path)
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read artifact %s: %w", t.Path, err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	pf, err := parquet.OpenFile(f, info.Size())
	if err != nil {
		return nil, fmt.Errorf("read artifact %s: %w", t.Path, err)
	}
	// Row groups are read in parallel, each into its part of one slice:
	// reflection-based row reconstruction dominates the cost.
	groups := pf.RowGroups()
	rows := make([]T, pf.NumRows())
	errs := make([]error, len(groups))
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var start int64
	for i, g := range groups {
		part := rows[start : start+g.NumRows()]
		start += g.NumRows()
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			errs[i] = readRowGroup(g, part)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("read artifact %s: %w", t.Path, err)
	}
	return rows, nil
}

// readRowGroup reads exactly len(rows) rows of g into rows.
func readRowGroup[T any](g parquet.RowGroup, rows []T) error {
	r := parquet.NewGenericRowGroupReader[T](g)
	defer r.Close()
	for done := 0; done < len(rows); {
		n, err := r.Read(rows[done:min(len(rows), done+8192)])
		done += n
		if errors.Is(err, io.EOF) && done == len(rows) {
			break
		}
		if err != nil {
			return err
		}
		if n == 0 {
			return fmt.Errorf("%d of %d rows", done, len(rows))
		}
	}
	return nil
}

// File is an artifact that is not a table: a figure or a generated TeX file.
type File struct{ Output }

// NewFile declares a file artifact at path (relative to the project root).
func NewFile(name, path, doc string) File {
	return File{Output{Name: name, Path: path, Doc: doc}}
}

// Write writes the whole file. Like Table.Write, it is published only when
// the stage succeeds.
func (f File) Write(p *Pass, data []byte) error {
	pend, err := p.create(f.Output)
	if err != nil {
		return err
	}
	if _, err := io.Copy(pend.file, bytes.NewReader(data)); err != nil {
		return fmt.Errorf("artifact %s: %w", f.Name, err)
	}
	return nil
}

// Read returns the file's bytes; its stage must be required by p's stage.
func (f File) Read(p *Pass) ([]byte, error) {
	in, ok := p.inputs[f.Name]
	if !ok {
		return nil, fmt.Errorf("stage %s reads artifact %s but does not require its stage", p.Stage.Name, f.Name)
	}
	return os.ReadFile(filepath.Join(in.root, f.Path))
}

// pending is an output being written to a temporary file beside its final
// path.
type pending struct {
	out  Output
	tmp  string
	file *os.File
	rows int64 // -1 for non-table files
}

func (p *Pass) create(out Output) (*pending, error) {
	if p.unit != "" {
		return nil, fmt.Errorf("stage %s: unit %s writes artifact %s: a unit returns bytes, and only Run writes artifacts", p.Stage.Name, p.unit, out.Name)
	}
	declared := false
	for _, o := range p.Stage.Outputs {
		declared = declared || o.Name == out.Name
	}
	if !declared {
		return nil, fmt.Errorf("stage %s writes artifact %s, which it does not declare in Outputs", p.Stage.Name, out.Name)
	}
	if _, dup := p.written[out.Name]; dup {
		return nil, fmt.Errorf("stage %s writes artifact %s twice", p.Stage.Name, out.Name)
	}
	final := filepath.Join(p.root, out.Path)
	if err := os.MkdirAll(filepath.Dir(final), 0o755); err != nil {
		return nil, err
	}
	f, err := os.CreateTemp(filepath.Dir(final), "."+filepath.Base(final)+".tmp-*")
	if err != nil {
		return nil, err
	}
	pend := &pending{out: out, tmp: f.Name(), file: f, rows: -1}
	p.written[out.Name] = pend
	return pend, nil
}

// discard removes every temporary file of a failed pass.
func (p *Pass) discard() {
	for _, pend := range p.written {
		pend.file.Close()
		os.Remove(pend.tmp)
	}
}

// publish syncs and renames every output into place and returns their
// manifest entries, sorted by name.
func (p *Pass) publish() ([]ArtifactEntry, error) {
	var missing []string
	for _, o := range p.Stage.Outputs {
		if _, ok := p.written[o.Name]; !ok {
			missing = append(missing, o.Name)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("stage %s finished without writing %v", p.Stage.Name, missing)
	}
	var entries []ArtifactEntry
	for _, pend := range p.written {
		if err := pend.file.Sync(); err != nil {
			return nil, err
		}
		if err := pend.file.Close(); err != nil {
			return nil, err
		}
		if err := os.Chmod(pend.tmp, 0o644); err != nil { // CreateTemp makes 0600
			return nil, err
		}
		sum, size, err := files.Hash(pend.tmp)
		if err != nil {
			return nil, err
		}
		entries = append(entries, ArtifactEntry{
			Name: pend.out.Name, Path: filepath.ToSlash(pend.out.Path), SHA256: sum, Size: size,
			Rows: pend.rows, Stage: p.Stage.Name, Fingerprint: p.fingerprint,
		})
	}
	for _, pend := range p.written {
		if err := os.Rename(pend.tmp, filepath.Join(p.root, pend.out.Path)); err != nil {
			return nil, err
		}
		files.SyncDir(filepath.Dir(filepath.Join(p.root, pend.out.Path)))
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name < entries[j].Name })
	return entries, nil
}
