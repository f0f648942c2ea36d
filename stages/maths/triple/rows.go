package triple

import (
	"context"
	"fmt"
	"math/bits"
	"slices"

	"github.com/sudoku-census/sudoku-census/stages/maths/triplestacks"
)

// # The kernel's layout: rows over the last band's completions
//
// In the inner loop of Completions the last band's split runs fastest, and
// with the plain tables each term reads a stack count at a scattered place
// of a slice (3·10⁷ keys per base for C = 4): a cache miss per term. Rows
// rearranges the same counts so that the last band's terms are read from
// one short contiguous row.
//
// Relabel σ (bands 0 and 1 forming base b) by a normaliser λ and then by the
// element μ of the frame's stabiliser that takes λ(R) to the representative
// r of its orbit, R being the first stack's last band (the same for all of
// a gangster's terms). The last band of σ then ranges over the partitions
// compatible with r: those the splits of r give, compat(r) (at most F(C)).
// For C = 4 the remaining band 2 becomes some partition x, and the elements
// ν of the stabiliser that also fix r (the residual group of (b, r)) map x
// to the representative x' of its residual orbit and compat(r) onto itself,
// so
//
//	E(Id, B_b, x, q) = E(Id, B_b, x', ν(q))   for q ∈ compat(r).
//
// A row holds E(Id, B_b, x', q) for q ∈ compat(r) in increasing order of q;
// for C = 3 there is no band 2 and one row per (b, r).
type Rows struct {
	t      *Tables
	combo  [][]int32             // combo[b][r]: the combination (b, r) for representatives r, else -1
	canon  [][]uint16            // canon[b][p]: the representative of p's orbit under the stabiliser of b
	to     [][]triplestacks.Perm // to[b][p]: an element of that stabiliser taking p to it
	c      []comboInfo           // by combination
	vals   []uint16              // the rows, each stride long: indices into ev
	stride int                   // F(C) rounded up to a multiple of 16 (whole cache lines for C = 4)
	ev     []uint32              // the distinct stack counts, increasing
	rows   int
}

type comboInfo struct {
	b, r   int
	compat []uint16 // sorted partition indices
	pos    []int16  // pos[q]: position of q in compat, or -1
	// C = 4: for each partition x of band 2, its row and the index of the
	// residual element ν taking it to the row's representative.
	rowOf []int32
	nuOf  []uint16
	nuPos [][]uint16 // nuPos[k][i]: position of ν_k(compat[i]); nuPos[0] is the identity
	row   int32      // C = 3: the combination's one row
}

// maxResidual bounds the residual groups used to share rows; a combination
// with a larger residual group keeps one row per partition of band 2.
const maxResidual = 2048

// NewRows builds the rows from the tables.
func NewRows(ctx context.Context, t *Tables) (*Rows, error) {
	s := t.s
	c := t.C
	if c < 3 {
		return nil, fmt.Errorf("triple: rows need c ≥ 3, have %d", c)
	}
	P := len(s.Parts())
	stride := (s.NumSplits() + 16) &^ 15 // at least one padding slot
	w := &Rows{stride: stride, t: t, combo: make([][]int32, s.NumBases()), canon: make([][]uint16, s.NumBases()), to: make([][]triplestacks.Perm, s.NumBases())}
	// Pass 1: combinations, compat lists, residual orbits; count rows.
	for b := range s.NumBases() {
		g := s.StabOf(b)
		rep, to := g.PartOrbits()
		w.canon[b], w.to[b] = rep, to
		w.combo[b] = make([]int32, P)
		var els []triplestacks.Perm
		if c == 4 {
			g.Each(func(p triplestacks.Perm) { els = append(els, p) })
		}
		for r := range P {
			w.combo[b][r] = -1
			if int(rep[r]) != r {
				continue
			}
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			ci := comboInfo{b: b, r: r, pos: make([]int16, P)}
			seen := map[int]bool{}
			for _, q := range s.SplitsOf(s.Parts()[r]) {
				i := s.Index(q.S[0], q.S[1])
				if !seen[i] {
					seen[i] = true
					ci.compat = append(ci.compat, uint16(i))
				}
			}
			slices.Sort(ci.compat)
			for i := range ci.pos {
				ci.pos[i] = -1
			}
			for i, q := range ci.compat {
				ci.pos[q] = int16(i)
			}
			if c == 3 {
				ci.row = int32(w.rows)
				w.rows++
			} else {
				var res []triplestacks.Perm
				for _, mu := range els {
					if s.ApplyIndex(&mu, r) == r {
						res = append(res, mu)
					}
				}
				if len(res) > maxResidual {
					res = res[:1] // the identity only
				}
				ci.nuPos = make([][]uint16, len(res))
				for k, mu := range res {
					inv := mu.Inverse()
					np := make([]uint16, len(ci.compat))
					for i, q := range ci.compat {
						p := ci.pos[s.ApplyIndex(&inv, int(q))]
						if p < 0 {
							return nil, fmt.Errorf("triple: residual element leaves compat")
						}
						np[i] = uint16(p)
					}
					ci.nuPos[k] = np
				}
				ci.rowOf = make([]int32, P)
				ci.nuOf = make([]uint16, P)
				for i := range ci.rowOf {
					ci.rowOf[i] = -1
				}
				for x := range P {
					if ci.rowOf[x] >= 0 {
						continue
					}
					row := int32(w.rows)
					w.rows++
					for k, mu := range res {
						y := s.ApplyIndex(&mu, x)
						if ci.rowOf[y] < 0 {
							// y = μ(x): μ⁻¹ (nuPos[k]) takes y back to x.
							ci.rowOf[y], ci.nuOf[y] = row, uint16(k)
						}
					}
				}
			}
			w.combo[b][r] = int32(len(w.c))
			w.c = append(w.c, ci)
		}
	}
	// Pass 2: fill the rows with the indices of the counts among the
	// distinct counts (few: 5,240 for C = 4), which halves the memory the
	// kernel streams through; the counts themselves stay in cache.
	idx := newValueIndex()
	w.vals = make([]uint16, w.rows*stride+512) // a whole [512] array from any row start
	for _, ci := range w.c {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		e := t.E[ci.b]
		if c == 3 {
			row := w.vals[int(ci.row)*stride:]
			for i, q := range ci.compat {
				row[i] = idx.of(e[q])
			}
			continue
		}
		for x := range P {
			if ci.nuOf[x] != 0 {
				continue // not its row's representative
			}
			row := w.vals[int(ci.rowOf[x])*stride:]
			for i, q := range ci.compat {
				row[i] = idx.of(e[x*P+int(q)])
			}
		}
	}
	if idx.overflow || idx.n >= 1<<16-1 {
		return nil, fmt.Errorf("triple: more than 65,535 distinct stack counts")
	}
	// The padding slots (and the unused tail of short rows) point at an
	// extra count 0.
	zero := uint16(idx.n)
	w.ev = append(idx.values(), 0)
	for r := range w.rows {
		row := w.vals[r*stride : (r+1)*stride]
		for i := s.NumSplits(); i < stride; i++ {
			row[i] = zero
		}
	}
	for _, ci := range w.c {
		for r := range w.rowsOf(&ci) {
			row := w.vals[int(r)*stride : (int(r)+1)*stride]
			for i := len(ci.compat); i < s.NumSplits(); i++ {
				row[i] = zero
			}
		}
	}
	// dotRows sums F(C) products in 64 bits.
	top := uint64(0)
	for _, v := range w.ev {
		top = max(top, uint64(v))
	}
	if hi, _ := bits.Mul64(top*top, uint64(stride)); hi != 0 {
		return nil, fmt.Errorf("triple: stack counts up to %d overflow the row sums", top)
	}
	return w, nil
}

// rowsOf returns the rows of a combination.
func (w *Rows) rowsOf(ci *comboInfo) []int32 {
	if w.t.C == 3 {
		return []int32{ci.row}
	}
	var out []int32
	for x, r := range ci.rowOf {
		if ci.nuOf[x] == 0 {
			out = append(out, r)
		}
	}
	return out
}

// Bytes returns the memory the rows take (the stack counts themselves).
func (w *Rows) Bytes() int64 { return int64(len(w.vals)) * 2 }

// Completions returns the part of F(g) (as 128 bits) that the given pairs
// of the gangster's plan contribute, each orbit's sum times its size;
// summed over all the plan's pairs it equals Tables.Completions(g, -1).
func (w *Rows) Completions(ctx context.Context, g Gangster, pairs []PairRep) (hi, lo uint64, err error) {
	t := w.t
	c := t.C
	sp, last := t.gangsterSplits(g)
	stride := w.stride
	nl := len(sp[c-1])
	n2 := len(sp[2])
	p2, p3 := make([]int32, nl), make([]int32, nl)
	c2, c3 := newNuCache(nl, stride), newNuCache(nl, stride)
	gen := int32(0)
	row2, row3 := make([]int32, n2), make([]int32, n2)
	nu2, nu3 := make([]uint16, n2), make([]uint16, n2)
	var k2, k3 side
	for pi, pr := range pairs {
		if pi&255 == 0 {
			if err := ctx.Err(); err != nil {
				return 0, 0, err
			}
		}
		ci2, ci3 := w.framePair(&k2, &k3, &sp[0][pr.B0], &sp[1][pr.B1], last, sp[c-1], p2, p3)
		var ph, pl uint64 // this pair's sum
		if c == 3 {
			_, pl = dotRows(w.ev, w.vals[int(ci2.row)*stride:], w.vals[int(ci3.row)*stride:], p2, p3)
		} else {
			w.band2Rows(&k2, &k3, ci2, ci3, sp[2], row2, row3, nu2, nu3)
			gen++
			for k := range min(ahead, n2) {
				prefetch(w.vals[int(row2[k])*stride:][:stride])
				prefetch(w.vals[int(row3[k])*stride:][:stride])
			}
			for k := range n2 {
				if k+ahead < n2 {
					// Ask for the rows a few splits ahead, so that they
					// load while these are summed.
					prefetch(w.vals[int(row2[k+ahead])*stride:][:stride])
					prefetch(w.vals[int(row3[k+ahead])*stride:][:stride])
				}
				i2, i3 := p2, p3
				if nu2[k] != 0 {
					i2 = c2.get(gen, ci2.nuPos, nu2[k], p2)
				}
				if nu3[k] != 0 {
					i3 = c3.get(gen, ci3.nuPos, nu3[k], p3)
				}
				_, l := dotRows(w.ev, w.vals[int(row2[k])*stride:], w.vals[int(row3[k])*stride:], i2, i3)
				var carry uint64
				pl, carry = bits.Add64(pl, l, 0)
				ph += carry
			}
		}
		hi, lo = addTimes(hi, lo, ph, pl, pr.Mult)
	}
	return hi, lo, nil
}

// ahead is how many band-2 splits ahead the kernel prefetches rows.
var ahead = 3

// side holds the relabelling of one of the two stacks for the current
// bands 0 and 1.
type side struct {
	r   triplestacks.Relabel
	lam triplestacks.Relabel
}

// frame normalises the pair (p, q) of bands 0 and 1, takes the first
// stack's last band to its representative, and returns the combination; k.r
// is the relabelling λ then μ.
func (w *Rows) frame(k *side, p, q *[3]uint16, last *triplestacks.Partition) *comboInfo {
	s := w.t.s
	b := s.Normalise(p, q, &k.lam)
	x := s.Apply(&k.lam, last)
	mu := &w.to[b][x]
	for y := range s.N() {
		k.r.Perm[y] = mu[k.lam.Perm[y]]
	}
	k.r.Build(s.N())
	return &w.c[w.combo[b][w.canon[b][x]]]
}

// framePair frames the pair (s0, s1) of splits of bands 0 and 1 for the
// second stack (k2) and the third (k3), and sets p2[k], p3[k] to the
// positions of the last band's k-th split in the two combinations.
func (w *Rows) framePair(k2, k3 *side, s0, s1 *triplestacks.Split, last *triplestacks.Partition, spLast []triplestacks.Split, p2, p3 []int32) (ci2, ci3 *comboInfo) {
	s := w.t.s
	ci2 = w.frame(k2, &s0.S, &s1.S, last)
	ci3 = w.frame(k3, &s0.B, &s1.B, last)
	for k, q := range spLast {
		p2[k] = int32(ci2.pos[s.Index(k2.r.Mask(q.S[0]), k2.r.Mask(q.S[1]))])
		p3[k] = int32(ci3.pos[s.Index(k3.r.Mask(q.B[0]), k3.r.Mask(q.B[1]))])
	}
	return ci2, ci3
}

// band2Rows sets, for each split of band 2, the row and residual element of
// its second-stack part in ci2 (row2, nu2) and of its third-stack part in
// ci3 (row3, nu3).
func (w *Rows) band2Rows(k2, k3 *side, ci2, ci3 *comboInfo, sp2 []triplestacks.Split, row2, row3 []int32, nu2, nu3 []uint16) {
	s := w.t.s
	for k, q := range sp2 {
		x := s.Index(k2.r.Mask(q.S[0]), k2.r.Mask(q.S[1]))
		row2[k], nu2[k] = ci2.rowOf[x], ci2.nuOf[x]
		y := s.Index(k3.r.Mask(q.B[0]), k3.r.Mask(q.B[1]))
		row3[k], nu3[k] = ci3.rowOf[y], ci3.nuOf[y]
	}
}

// addTimes returns (hi, lo) + mult·(ph, pl), all 128-bit: a pair's sum
// times the size of its orbit added to the total.
func addTimes(hi, lo, ph, pl uint64, mult uint32) (uint64, uint64) {
	mh, ml := bits.Mul64(pl, uint64(mult))
	var carry uint64
	lo, carry = bits.Add64(lo, ml, 0)
	return hi + ph*uint64(mult) + mh + carry, lo
}

// dotRows returns Σ_j a[ia[j]]·b[ib[j]] as 128 bits. Every stack count is
// below 2^27.6 (the largest, 576³ for C = 4), so a product is below 2^55.1
// and a sum of F(C) ≤ 346 of them below 2^63.6: the sum fits 64 bits.
func dotRows(ev []uint32, a, b []uint16, ia, ib []int32) (hi, lo uint64) {
	return 0, dotGo(ev, a, b, ia, ib)
}

func dotGo(ev []uint32, a, b []uint16, ia, ib []int32) uint64 {
	ib = ib[:len(ia)]
	var sum uint64
	for j, x := range ia {
		sum += uint64(ev[a[x]]) * uint64(ev[b[ib[j]]])
	}
	return sum
}

// nuCache keeps, for the current bands 0 and 1, the last band's positions
// composed with each residual element met so far: one composition per
// element instead of one per band-2 split.
type nuCache struct {
	stamp  []int32 // stamp[ν]: generation of the cached composition
	slot   []int32
	buf    [][]int32
	n      int
	stride int
	used   int
	gen    int32
}

func newNuCache(n, stride int) *nuCache {
	return &nuCache{stamp: make([]int32, maxResidual), slot: make([]int32, maxResidual), n: n, stride: stride}
}

func (c *nuCache) get(gen int32, nuPos [][]uint16, nu uint16, p []int32) []int32 {
	if c.gen != gen {
		c.gen, c.used = gen, 0
	}
	if c.stamp[nu] == gen {
		return c.buf[c.slot[nu]]
	}
	if c.used == len(c.buf) {
		c.buf = append(c.buf, make([]int32, c.n))
	}
	a := c.buf[c.used]
	np := nuPos[nu]
	for j, q := range p[:c.n] {
		a[j] = int32(np[q])
	}
	c.stamp[nu], c.slot[nu] = gen, int32(c.used)
	c.used++
	return a
}

// valueIndex numbers distinct stack counts (an open-addressing hash set).
type valueIndex struct {
	keys     []uint32 // 0 = empty (stack counts are positive)
	ids      []uint16
	n        int
	overflow bool
}

func newValueIndex() *valueIndex {
	return &valueIndex{keys: make([]uint32, 1<<17), ids: make([]uint16, 1<<17)}
}

func (v *valueIndex) of(x uint32) uint16 {
	if x == 0 {
		panic("triple: a zero stack count")
	}
	mask := uint32(len(v.keys) - 1)
	for i := (x * 0x9e3779b1) >> 15 & mask; ; i = (i + 1) & mask {
		switch v.keys[i] {
		case x:
			return v.ids[i]
		case 0:
			if v.n >= 1<<16 {
				v.overflow = true
				return 0
			}
			v.keys[i], v.ids[i] = x, uint16(v.n)
			v.n++
			return v.ids[i]
		}
	}
}

// values returns the counts by index.
func (v *valueIndex) values() []uint32 {
	out := make([]uint32, v.n)
	for i, k := range v.keys {
		if k != 0 {
			out[v.ids[i]] = k
		}
	}
	return out
}
