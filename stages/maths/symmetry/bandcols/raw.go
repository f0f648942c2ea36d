package bandcols

import "encoding/binary"

// rawTable holds the successors of one state (relabelSort images, not yet
// canonical) with their summed weights: a flat open-addressing table that
// the layer reuses from state to state, emptied through the list of its
// filled slots. A Go map made afresh for every state took about a sixth
// of BenchmarkFixedType6.
type rawTable struct {
	keys   []state
	vals   []uint64 // 0: an empty slot (every weight is at least 1)
	filled []int32  // the filled slots, in the order filled
}

func newRawTable() *rawTable {
	t := &rawTable{}
	t.alloc(1 << 12)
	return t
}

func (t *rawTable) alloc(slots int) {
	t.keys, t.vals = make([]state, slots), make([]uint64, slots)
	t.filled = t.filled[:0]
}

// stateHash mixes a state's 12 bytes into 64 bits.
func stateHash(r state) uint64 {
	h := binary.LittleEndian.Uint64(r[:8])*0x9E3779B97F4A7C15 ^ uint64(binary.LittleEndian.Uint32(r[8:]))*0xC2B2AE3D27D4EB4F
	return h ^ h>>29
}

// add adds w (≥ 1) to r's weight.
func (t *rawTable) add(r state, w uint64) {
	mask := len(t.keys) - 1
	i := int(stateHash(r)) & mask
	for t.vals[i] != 0 {
		if t.keys[i] == r {
			t.vals[i] += w
			return
		}
		i = (i + 1) & mask
	}
	if 2*(len(t.filled)+1) > len(t.keys) {
		t.grow()
		t.add(r, w)
		return
	}
	t.keys[i], t.vals[i] = r, w
	t.filled = append(t.filled, int32(i))
}

func (t *rawTable) grow() {
	keys, vals, filled := t.keys, t.vals, t.filled
	t.alloc(2 * len(keys))
	for _, i := range filled {
		t.add(keys[i], vals[i])
	}
}

// each calls f on every state and its weight, then empties the table.
func (t *rawTable) each(f func(state, uint64) error) error {
	defer t.reset()
	for _, i := range t.filled {
		if err := f(t.keys[i], t.vals[i]); err != nil {
			return err
		}
	}
	return nil
}

func (t *rawTable) reset() {
	for _, i := range t.filled {
		t.vals[i] = 0
	}
	t.filled = t.filled[:0]
}
