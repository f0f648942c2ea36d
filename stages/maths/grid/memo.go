package grid

import "sync"

// tailMemo maps a fixed-length key of uint64 words to a count: an
// open-addressing hash table with linear probing whose keys live in one
// flat slice, so look-ups allocate nothing. When it reaches maxMemoEntries
// it starts afresh rather than grow without bound; a memo only saves work,
// so forgetting entries never changes a count.
type tailMemo struct {
	limit  int      // entries kept before starting afresh; 0 for maxMemoEntries
	width  int      // words per key
	keys   []uint64 // len(vals)·width words
	vals   []Uint128
	used   []bool
	n      int
	shift  uint // 64 - log2(len(vals))
	hits   uint64
	misses uint64
}

const (
	minMemoSlots   = 1 << 10
	maxMemoEntries = 1 << 19
)

func (m *tailMemo) clear() {
	m.keys, m.vals, m.used, m.n = nil, nil, nil, 0
}

func (m *tailMemo) init(width, slots int) {
	m.width = width
	m.keys = make([]uint64, slots*width)
	m.vals = make([]Uint128, slots)
	m.used = make([]bool, slots)
	m.n = 0
	m.shift = uint(64 - log2(slots))
}

func log2(x int) int {
	k := 0
	for 1<<k < x {
		k++
	}
	return k
}

// hashKey mixes the words of a key into 64 well-spread bits.
func hashKey(key []uint64) uint64 {
	h := uint64(0x9e3779b97f4a7c15)
	for _, w := range key {
		h ^= w
		h *= 0xbf58476d1ce4e5b9
		h ^= h >> 31
	}
	return h * 0x94d049bb133111eb
}

func (m *tailMemo) slot(key []uint64) int {
	return int(hashKey(key) >> m.shift)
}

func (m *tailMemo) get(key []uint64) (Uint128, bool) {
	if m.used == nil {
		m.misses++
		return Uint128{}, false
	}
	mask := len(m.vals) - 1
	for i := m.slot(key); ; i = (i + 1) & mask {
		if !m.used[i] {
			m.misses++
			return Uint128{}, false
		}
		if equalWords(m.keys[i*m.width:(i+1)*m.width], key) {
			m.hits++
			return m.vals[i], true
		}
	}
}

func (m *tailMemo) put(key []uint64, v Uint128) {
	if _, ok := m.get(key); ok {
		return // another worker of a shared memo got here first
	}
	switch {
	case m.used == nil || m.width != len(key):
		m.init(len(key), minMemoSlots)
	case m.n >= m.limit && m.limit > 0, m.n >= maxMemoEntries:
		clear(m.used)
		m.n = 0
	case 2*(m.n+1) > len(m.vals):
		m.grow()
	}
	m.insert(key, v)
}

func (m *tailMemo) insert(key []uint64, v Uint128) {
	mask := len(m.vals) - 1
	i := m.slot(key)
	for m.used[i] {
		i = (i + 1) & mask
	}
	m.used[i] = true
	copy(m.keys[i*m.width:], key)
	m.vals[i] = v
	m.n++
}

func (m *tailMemo) grow() {
	keys, vals, used := m.keys, m.vals, m.used
	m.init(m.width, 2*len(vals))
	for i, u := range used {
		if u {
			m.insert(keys[i*m.width:(i+1)*m.width], vals[i])
		}
	}
}

func equalWords(a, b []uint64) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// sharedMemo is a tail memo that the workers of one parallel count share,
// so each distinct tail is counted about once rather than once per worker.
// It is split into shards, each behind its own lock, chosen by the key's
// hash (its low bits: the slots use the high ones). Together the shards
// keep at most twice the entries of one counter's memo.
type sharedMemo struct {
	shards [64]struct {
		mu sync.Mutex
		m  tailMemo
	}
}

func newSharedMemo() *sharedMemo {
	s := new(sharedMemo)
	for i := range s.shards {
		s.shards[i].m.limit = 2 * maxMemoEntries / len(s.shards)
	}
	return s
}

func (s *sharedMemo) get(key []uint64) (Uint128, bool) {
	sh := &s.shards[hashKey(key)%uint64(len(s.shards))]
	sh.mu.Lock()
	v, ok := sh.m.get(key)
	sh.mu.Unlock()
	return v, ok
}

func (s *sharedMemo) put(key []uint64, v Uint128) {
	sh := &s.shards[hashKey(key)%uint64(len(s.shards))]
	sh.mu.Lock()
	sh.m.put(key, v)
	sh.mu.Unlock()
}
