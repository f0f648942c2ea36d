package bandcols

import (
	"fmt"
	"math/bits"

	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
)

// stateTable maps states to counts in one flat open-addressing table: 24
// bytes a slot and no pointers, where a Go map of *big.Int took about 150
// bytes a state with the collector's headroom (class 172's part 4 passed 21
// GiB). A state packs into 60 bits: every symbol has taken one column per
// band placed, so all masks have the same number of bits and each is
// stored as its rank among the masks of that many bits (at most C(6,3) =
// 20, five bits).
type stateTable struct {
	keys   []uint64 // packed state + 1; 0 is an empty slot
	vals   []grid.Uint128
	n      int
	shift  uint // 64 − log2(len(keys))
	bitsIn int  // the masks' common number of bits (set by the first add)
	width  int  // symbols
}

// maxTableSlots bounds a table at 2^28 slots (6 GiB; growing to it holds
// the old 3 GiB too): a layer that needs more fails with an error instead
// of exhausting the machine's 24 GiB (it has no swap).
const maxTableSlots = 1 << 28

func newStateTable(width int) *stateTable {
	t := &stateTable{width: width, bitsIn: -1}
	t.alloc(1 << 10)
	return t
}

func (t *stateTable) alloc(slots int) {
	t.keys = make([]uint64, slots)
	t.vals = make([]grid.Uint128, slots)
	t.shift = uint(64 - bits.TrailingZeros(uint(slots)))
}

// maskRank[m] is m's rank among the 6-bit masks of its popcount, in
// increasing order; maskOfRank inverts it.
var maskRank, maskOfRank = rankMasks()

func rankMasks() (rank [64]uint8, of [7][20]uint8) {
	var next [7]uint8
	for m := range 64 {
		p := bits.OnesCount8(uint8(m))
		rank[m] = next[p]
		of[p][next[p]] = uint8(m)
		next[p]++
	}
	return rank, of
}

func (t *stateTable) pack(s state) (uint64, error) {
	p := bits.OnesCount8(s[0])
	if t.bitsIn < 0 {
		t.bitsIn = p
	}
	var key uint64
	for y := t.width - 1; y >= 0; y-- {
		if bits.OnesCount8(s[y]) != t.bitsIn {
			return 0, fmt.Errorf("bandcols: state %v has masks of unequal sizes", s[:t.width])
		}
		key = key<<5 | uint64(maskRank[s[y]])
	}
	return key + 1, nil
}

func (t *stateTable) unpack(key uint64) state {
	var s state
	key--
	for y := range t.width {
		s[y] = maskOfRank[t.bitsIn][key&31]
		key >>= 5
	}
	return s
}

func (t *stateTable) slot(key uint64) int {
	return int((key * 0x9E3779B97F4A7C15) >> t.shift)
}

// add adds v·w to s's count.
func (t *stateTable) add(s state, v grid.Uint128, w uint64) error {
	key, err := t.pack(s)
	if err != nil {
		return err
	}
	mask := len(t.keys) - 1
	i := t.slot(key)
	for t.keys[i] != 0 && t.keys[i] != key {
		i = (i + 1) & mask
	}
	if t.keys[i] == 0 {
		if 4*(t.n+1) > 3*len(t.keys) {
			if err := t.grow(); err != nil {
				return err
			}
			return t.add(s, v, w)
		}
		t.keys[i] = key
		t.n++
	}
	sum, ok := mulAdd(t.vals[i], v, w)
	if !ok {
		return fmt.Errorf("bandcols: the count of state %v passed 128 bits", s[:t.width])
	}
	t.vals[i] = sum
	return nil
}

func (t *stateTable) grow() error {
	if 2*len(t.keys) > maxTableSlots {
		return fmt.Errorf("bandcols: a layer holds over %d states, more than the table's bound of %d slots (6 GiB)", t.n, maxTableSlots)
	}
	keys, vals := t.keys, t.vals
	t.alloc(2 * len(keys))
	mask := len(t.keys) - 1
	for j, key := range keys {
		if key == 0 {
			continue
		}
		i := t.slot(key)
		for t.keys[i] != 0 {
			i = (i + 1) & mask
		}
		t.keys[i], t.vals[i] = key, vals[j]
	}
	return nil
}

// get returns s's count, false when s has none.
func (t *stateTable) get(s state) (grid.Uint128, bool) {
	if t.n == 0 {
		return grid.Uint128{}, false
	}
	key, err := t.pack(s)
	if err != nil {
		return grid.Uint128{}, false
	}
	mask := len(t.keys) - 1
	for i := t.slot(key); t.keys[i] != 0; i = (i + 1) & mask {
		if t.keys[i] == key {
			return t.vals[i], true
		}
	}
	return grid.Uint128{}, false
}

// each calls f on every state and its count, in slot order (the callers
// sum, so the order does not reach a result); it stops at f's first error.
func (t *stateTable) each(f func(state, grid.Uint128) error) error {
	for i, key := range t.keys {
		if key != 0 {
			if err := f(t.unpack(key), t.vals[i]); err != nil {
				return err
			}
		}
	}
	return nil
}

// mulAdd returns a + v·w, and false when it passes 128 bits.
func mulAdd(a, v grid.Uint128, w uint64) (grid.Uint128, bool) {
	p, over := v.Mul64(w)
	if over {
		return grid.Uint128{}, false
	}
	sum, over := a.Add(p)
	return sum, !over
}
