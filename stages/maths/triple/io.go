package triple

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"os"

	"github.com/sudoku-census/sudoku-census/stages/maths/triplestacks"
)

// tablesMagic heads a saved Tables file; the version changes with the
// layout or the listing order.
const tablesMagic = "triple-tables-v1"

// Save writes the tables (stack counts and gangsters) to path, so that a
// later run loads them instead of recomputing them.
func (t *Tables) Save(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	hdr := []uint64{uint64(t.C), uint64(len(t.E)), uint64(len(t.E[0])), uint64(len(t.Gangsters)), uint64(t.Orbits)}
	if _, err := w.WriteString(tablesMagic); err != nil {
		return err
	}
	if err := binary.Write(w, binary.LittleEndian, hdr); err != nil {
		return err
	}
	for _, e := range t.E {
		if err := binary.Write(w, binary.LittleEndian, e); err != nil {
			return err
		}
	}
	for _, g := range t.Gangsters {
		if err := binary.Write(w, binary.LittleEndian, []uint64{uint64(g.Base), uint64(g.Key), g.E, g.Weight}); err != nil {
			return err
		}
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Close()
}

// LoadTables reads tables written by Save.
func LoadTables(path string) (*Tables, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<20)
	magic := make([]byte, len(tablesMagic))
	if _, err := io.ReadFull(r, magic); err != nil || string(magic) != tablesMagic {
		return nil, fmt.Errorf("%s: not a triple tables file", path)
	}
	hdr := make([]uint64, 5)
	if err := binary.Read(r, binary.LittleEndian, hdr); err != nil {
		return nil, err
	}
	c := int(hdr[0])
	if c < triplestacks.MinC || c > triplestacks.MaxC {
		return nil, fmt.Errorf("%s: c = %d", path, c)
	}
	t := &Tables{C: c, s: triplestacks.ShapeFor(c), E: make([][]uint32, hdr[1]), Orbits: int(hdr[4])}
	if len(t.E) != t.s.NumBases() || int(hdr[2]) != t.keysPerSlice() {
		return nil, fmt.Errorf("%s: wrong table sizes", path)
	}
	for b := range t.E {
		t.E[b] = make([]uint32, hdr[2])
		if err := binary.Read(r, binary.LittleEndian, t.E[b]); err != nil {
			return nil, err
		}
	}
	t.Gangsters = make([]Gangster, hdr[3])
	buf := make([]uint64, 4)
	for i := range t.Gangsters {
		if err := binary.Read(r, binary.LittleEndian, buf); err != nil {
			return nil, err
		}
		t.Gangsters[i] = Gangster{Base: int(buf[0]), Key: int(buf[1]), E: buf[2], Weight: buf[3]}
	}
	return t, nil
}
