package triplestacks

import (
	"fmt"
	"math/bits"
	"slices"
	"sync"
)

// MinC is the narrowest box the package handles (the method needs two bands).
const MinC = 2

// MaxC is the widest box the package handles: boxes of 3 rows × C columns,
// side N = 3C ≤ 12, so that symbols and rows fit 16-bit masks.
const MaxC = 4

const maxN = 3 * MaxC

// Partition is an unordered partition of the N symbols into three C-sets
// (the three rows of one band of a stack), as masks: Parts[0] holds symbol
// 0, Parts[1] the least symbol not in Parts[0].
type Partition [3]uint16

// Shape holds the tables of one box width C: the partitions, the bases
// and the number of splits of a band.
type Shape struct {
	c, n int
	all  uint16 // mask of the N symbols

	parts []Partition // every unordered partition, by index
	// index of the partition whose first two parts are a (holding symbol 0)
	// and b: idx[rankA[a]][b]; -1 elsewhere.
	rankA []int16
	idx   [][]int16

	// bases: the 3×3 intersection matrices of two partitions up to
	// permutations of rows and columns, each as its least form.
	bases []matrix
	// canon[code(m)] for every matrix m with all line sums c: its base
	// and the row and column permutations that put it in base form:
	// bases[base][i][j] = m[rp[i]][cp[j]].
	canon map[uint32]canonForm

	splits int // F(c) = Σ_k C(c,k)^3, the splits of one band
}

type matrix [3][3]uint8

type canonForm struct {
	base   int
	rp, cp [3]uint8
}

var shapes [MaxC + 1]struct {
	once sync.Once
	s    *Shape
}

// ShapeFor returns the tables of boxes 3 × c, built once per c.
func ShapeFor(c int) *Shape {
	if c < MinC || c > MaxC {
		panic(fmt.Sprintf("triple: c = %d out of range", c))
	}
	e := &shapes[c]
	e.once.Do(func() { e.s = newShape(c) })
	return e.s
}

// N is the number of symbols, 3C.
func (s *Shape) N() int { return s.n }

// Parts lists every unordered partition of the symbols into three C-sets,
// by index (see Index); the slice is shared, not to be changed.
func (s *Shape) Parts() []Partition { return s.parts }

// NumBases is the number of bases, numbered 0, 1, … in increasing order of
// their least matrix.
func (s *Shape) NumBases() int { return len(s.bases) }

// NumSplits is F(C) = Σ_k C(C,k)³, the number of splits of a band.
func (s *Shape) NumSplits() int { return s.splits }

func newShape(c int) *Shape {
	n := 3 * c
	s := &Shape{c: c, n: n, all: uint16(1)<<n - 1}
	s.rankA = make([]int16, 1<<n)
	for i := range s.rankA {
		s.rankA[i] = -1
	}
	nA := 0
	for a := range 1 << n {
		if a&1 == 1 && bits.OnesCount(uint(a)) == c {
			s.rankA[a] = int16(nA)
			nA++
		}
	}
	s.idx = make([][]int16, nA)
	for a := range 1 << n {
		if s.rankA[a] < 0 {
			continue
		}
		row := make([]int16, 1<<n)
		for i := range row {
			row[i] = -1
		}
		s.idx[s.rankA[a]] = row
		rest := s.all &^ uint16(a)
		low := rest & -rest
		for b := range 1 << n {
			if uint16(b)&low == 0 || uint16(b)&^rest != 0 || bits.OnesCount(uint(b)) != c {
				continue
			}
			row[b] = int16(len(s.parts))
			s.parts = append(s.parts, Partition{uint16(a), uint16(b), rest &^ uint16(b)})
		}
	}
	s.buildBases()
	for k := 0; k <= c; k++ {
		b := binom(c, k)
		s.splits += b * b * b
	}
	return s
}

func binom(n, k int) int {
	if k < 0 || k > n {
		return 0
	}
	r := 1
	for i := range k {
		r = r * (n - i) / (i + 1)
	}
	return r
}

// Index returns the index of the partition {a, b, all−a−b}, the two parts
// given in any order.
func (s *Shape) Index(a, b uint16) int {
	d := s.all &^ (a | b)
	switch {
	case b&1 == 1:
		a, b = b, a
	case d&1 == 1:
		a, d = d, a
	}
	// a holds symbol 0; b must hold the least of the rest.
	if d&-d < b&-b {
		b = d
	}
	return int(s.idx[s.rankA[a]][b])
}

// code packs a matrix of entries ≤ c in base c+1.
func (s *Shape) code(m *matrix) uint32 {
	var k uint32
	for i := range 3 {
		for j := range 3 {
			k = k*uint32(s.c+1) + uint32(m[i][j])
		}
	}
	return k
}

var perms3 = [6][3]uint8{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}

// buildBases lists the matrices with all line sums c and their least forms
// under row and column permutations.
func (s *Shape) buildBases() {
	c := s.c
	s.canon = make(map[uint32]canonForm)
	var all []matrix
	var m matrix
	for a := 0; a <= c; a++ {
		for b := 0; a+b <= c; b++ {
			for d := 0; d <= c; d++ {
				for e := 0; d+e <= c; e++ {
					m[0] = [3]uint8{uint8(a), uint8(b), uint8(c - a - b)}
					m[1] = [3]uint8{uint8(d), uint8(e), uint8(c - d - e)}
					ok := true
					for j := range 3 {
						v := c - int(m[0][j]) - int(m[1][j])
						if v < 0 {
							ok = false
						}
						m[2][j] = uint8(v)
					}
					if ok {
						all = append(all, m)
					}
				}
			}
		}
	}
	type least struct {
		code   uint32
		rp, cp [3]uint8
	}
	forms := make(map[uint32]least, len(all))
	baseOf := map[uint32]int{}
	for _, m := range all {
		best := least{code: 1<<32 - 1}
		for _, rp := range perms3 {
			for _, cp := range perms3 {
				var t matrix
				for i := range 3 {
					for j := range 3 {
						t[i][j] = m[rp[i]][cp[j]]
					}
				}
				if k := s.code(&t); k < best.code {
					best = least{k, rp, cp}
				}
			}
		}
		forms[s.code(&m)] = best
		baseOf[best.code] = 0
	}
	// Number the bases in increasing order of their least code.
	codes := make([]uint32, 0, len(baseOf))
	for k := range baseOf {
		codes = append(codes, k)
	}
	slices.Sort(codes)
	for i, k := range codes {
		baseOf[k] = i
		s.bases = append(s.bases, s.decode(k))
	}
	for k, f := range forms {
		s.canon[k] = canonForm{base: baseOf[f.code], rp: f.rp, cp: f.cp}
	}
}

// decode inverts code.
func (s *Shape) decode(k uint32) matrix {
	var t matrix
	for p := 8; p >= 0; p-- {
		t[p/3][p%3] = uint8(k % uint32(s.c+1))
		k /= uint32(s.c + 1)
	}
	return t
}

// intersect returns the matrix |P_i ∩ Q_j|.
func intersect(p, q *[3]uint16) matrix {
	var m matrix
	for i := range 3 {
		for j := range 3 {
			m[i][j] = uint8(bits.OnesCount16(p[i] & q[j]))
		}
	}
	return m
}

// BaseOf returns the base of the pair of partitions (p, q).
func (s *Shape) BaseOf(p, q *[3]uint16) int {
	m := intersect(p, q)
	return s.canon[s.code(&m)].base
}

// Frame returns the standard pair of partitions of base b: Id, whose part i
// is the symbols iC … iC+C-1, and the partition B whose part j is the union
// over i of the cells (i, j), cell (i, j) being the next b[i][j] symbols of
// part i of Id.
func (s *Shape) Frame(b int) (id, q [3]uint16) {
	m := s.bases[b]
	for i := range 3 {
		next := i * s.c
		for j := range 3 {
			for range m[i][j] {
				id[i] |= 1 << next
				q[j] |= 1 << next
				next++
			}
		}
	}
	return id, q
}

// cellStart returns the first symbol of cell (i, j) of base b.
func (s *Shape) cellStart(b, i, j int) int {
	m := s.bases[b]
	st := i * s.c
	for jj := range j {
		st += int(m[i][jj])
	}
	return st
}

// Relabel maps symbols to symbols; it maps a mask by two table lookups.
type Relabel struct {
	// Perm[x] is the image of symbol x; call Build after setting it.
	Perm   [maxN]uint8
	lo, hi [64]uint16
}

// Build fills the lookup tables of Mask from Perm, for n symbols.
func (r *Relabel) Build(n int) {
	for m := range 64 {
		var lo, hi uint16
		for x := range 6 {
			if m>>x&1 == 1 {
				lo |= 1 << r.Perm[x]
				if x+6 < n {
					hi |= 1 << r.Perm[x+6]
				}
			}
		}
		r.lo[m], r.hi[m] = lo, hi
	}
}

// Mask returns the image of the symbol set m.
func (r *Relabel) Mask(m uint16) uint16 { return r.lo[m&63] | r.hi[m>>6] }

// Apply returns the index of the image of partition p.
func (s *Shape) Apply(r *Relabel, p *Partition) int {
	return s.Index(r.Mask(p[0]), r.Mask(p[1]))
}

// Normalise sets r to a relabelling that maps the pair (p, q) of
// partitions (parts in any order) to the frame of its base, and returns the
// base.
func (s *Shape) Normalise(p, q *[3]uint16, r *Relabel) int {
	m := intersect(p, q)
	f := s.canon[s.code(&m)]
	for i := range 3 {
		next := i * s.c
		for j := range 3 {
			cell := p[f.rp[i]] & q[f.cp[j]]
			for ; cell != 0; cell &= cell - 1 {
				r.Perm[bits.TrailingZeros16(cell)] = uint8(next)
				next++
			}
		}
	}
	r.Build(s.n)
	return f.base
}

func bitIndex(m uint16) int { return bits.TrailingZeros16(m) }
