package triple

import (
	"context"
	"fmt"
	"math/bits"
	"unsafe"
)

// # The permuted kernel: rows of counts, one row read in order
//
// Rows' kernel gathers both rows of every dot product through the last
// band's positions (and the residual elements ν), and looks each index up
// among the distinct counts: six loads a term. For a pair of splits of
// bands 0 and 1 the last band's splits map onto the positions of the
// band-2 row (compat(r)) and of the band-3 row; taking the band-2 row in
// order, the partner of position i in the band-3 row is π(i), and π is the
// same for all the pair's band-2 splits with the same residual elements
// (ν₂, ν₃): π = ν₃ ∘ π₀ ∘ ν₂⁻¹. So a dot product is Σ_i a[i]·b[π(i)] over
// rows that hold the counts themselves: three loads a term, for twice the
// memory (4 bytes a count). A few positions come from two splits (k = 0 and
// k = C both give the band itself): the second split of such a position is
// an extra (position, position) pair.

// CountRows holds the rows with the stack counts themselves and, per
// combination and residual element, the inverse of its position map.
type CountRows struct {
	w     *Rows
	vals  []uint32     // vals[r*stride+i] = ev[w.vals[r*stride+i]], then a whole [512] of padding
	nuInv [][][]uint16 // nuInv[combination][k]: the inverse of nuPos[k]
	probe probe        // zero except in TestBreakdown3x4
}

// probe switches parts of the kernel off to split its cost (the sums are
// then wrong): rows folded into the first rowMod rows (held in cache), no
// dot products, no prefetching.
type probe struct {
	rowMod       int32
	noDot, noPre bool
}

// NewCountRows widens the rows of w to counts.
func NewCountRows(ctx context.Context, w *Rows) (*CountRows, error) {
	cr := &CountRows{w: w, vals: make([]uint32, len(w.vals)+512)}
	const block = 1 << 20
	for i := 0; i < len(w.vals); i += block {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		for j, v := range w.vals[i:min(i+block, len(w.vals))] {
			cr.vals[i+j] = w.ev[v]
		}
	}
	cr.nuInv = make([][][]uint16, len(w.c))
	for ci := range w.c {
		c := &w.c[ci]
		cr.nuInv[ci] = make([][]uint16, len(c.nuPos))
		for k, np := range c.nuPos {
			inv := make([]uint16, len(np))
			for i, p := range np {
				inv[p] = uint16(i)
			}
			cr.nuInv[ci][k] = inv
		}
	}
	return cr, nil
}

// Bytes returns the memory the rows of counts take.
func (cr *CountRows) Bytes() int64 { return int64(len(cr.vals)) * 4 }

// Completions is Rows.Completions by the permuted kernel: the same sum.
func (cr *CountRows) Completions(ctx context.Context, g Gangster, pairs []PairRep) (hi, lo uint64, err error) {
	w := cr.w
	t := w.t
	c := t.C
	sp, last := t.gangsterSplits(g)
	stride := w.stride
	nl := len(sp[c-1])
	n2 := 1 // C = 3: one row a combination
	if c == 4 {
		n2 = len(sp[2])
	}
	p2, p3 := make([]int32, nl), make([]int32, nl)
	pi0 := make([]uint16, nl)
	var extra [][2]uint16
	row2, row3 := make([]int32, n2), make([]int32, n2)
	nu2, nu3 := make([]uint16, n2), make([]uint16, n2)
	var k2, k3 side
	cache := newPermCache(2 * nl)
	for pi, pr := range pairs {
		if pi&255 == 0 {
			if err := ctx.Err(); err != nil {
				return 0, 0, err
			}
		}
		ci2, ci3 := w.framePair(&k2, &k3, &sp[0][pr.B0], &sp[1][pr.B1], last, sp[c-1], p2, p3)
		c2i := w.combo[ci2.b][ci2.r]
		if c == 3 {
			row2[0], row3[0] = ci2.row, ci3.row
		} else {
			w.band2Rows(&k2, &k3, ci2, ci3, sp[2], row2, row3, nu2, nu3)
		}
		// π₀ from the first split at each position of the band-2 row;
		// the other splits there go to extra.
		n := len(ci2.compat)
		for i := range n {
			pi0[i] = 0xffff
		}
		extra = extra[:0]
		for j := range nl {
			if pi0[p2[j]] == 0xffff {
				pi0[p2[j]] = uint16(p3[j])
			} else {
				extra = append(extra, [2]uint16{uint16(p2[j]), uint16(p3[j])})
			}
		}
		for i := range n {
			if pi0[i] == 0xffff {
				return 0, 0, fmt.Errorf("triple: position %d of combination (%d, %d) has no split", i, ci2.b, ci2.r)
			}
		}
		cache.reset()
		var ph, pl uint64 // this pair's sum
		for k := range n2 {
			if k+ahead < n2 && !cr.probe.noPre {
				prefetch32(cr.vals[int(row2[k+ahead])*stride:][:stride])
				prefetch32(cr.vals[int(row3[k+ahead])*stride:][:stride])
			}
			r2, r3 := row2[k], row3[k]
			if cr.probe.rowMod > 0 {
				r2, r3 = r2%cr.probe.rowMod, r3%cr.probe.rowMod
			}
			a, b := (*[512]uint32)(cr.vals[int(r2)*stride:]), (*[512]uint32)(cr.vals[int(r3)*stride:])
			var l uint64
			if cr.probe.noDot {
				l = uint64(a[0]) * uint64(b[0])
			} else if v2, v3 := nu2[k], nu3[k]; v2 == 0 && v3 == 0 {
				l = dotPerm(a, b, pi0[:n])
				for _, e := range extra {
					l += uint64(a[e[0]&511]) * uint64(b[e[1]&511])
				}
			} else {
				v2, v3 := nu2[k], nu3[k]
				perm, fresh := cache.get(uint32(v2)<<16 | uint32(v3))
				if fresh {
					// Position i of the row is ν₂ of position ν₂⁻¹(i) of
					// the pair's order; its partner is ν₃ of π₀ of that.
					inv2 := cr.nuInv[c2i][v2]
					n2p, n3p := ci2.nuPos[v2], ci3.nuPos[v3]
					for i := range n {
						perm[i] = n3p[pi0[inv2[i]]]
					}
					for x, e := range extra {
						perm[n+2*x], perm[n+2*x+1] = n2p[e[0]], n3p[e[1]]
					}
				}
				l = dotPerm(a, b, perm[:n])
				for x := range extra {
					l += uint64(a[perm[n+2*x]&511]) * uint64(b[perm[n+2*x+1]&511])
				}
			}
			// l < 2^64 (see dotRows).
			var carry uint64
			pl, carry = bits.Add64(pl, l, 0)
			ph += carry
		}
		hi, lo = addTimes(hi, lo, ph, pl, pr.Mult)
	}
	return hi, lo, nil
}

// prefetch32 asks for the cache lines of a row of counts.
func prefetch32(a []uint32) { prefetch(unsafe.Slice((*uint16)(unsafe.Pointer(&a[0])), 2*len(a))) }

// dotPerm returns Σ_i a[i]·b[perm[i]] (below 2^64, see dotRows); the masks
// keep the indices in the arrays without bounds checks.
func dotPerm(a, b *[512]uint32, perm []uint16) uint64 {
	var s0, s1, s2, s3 uint64
	n := len(perm) &^ 3
	i := 0
	for ; i < n; i += 4 {
		p := perm[i : i+4 : i+4]
		s0 += uint64(a[i&511]) * uint64(b[p[0]&511])
		s1 += uint64(a[(i+1)&511]) * uint64(b[p[1]&511])
		s2 += uint64(a[(i+2)&511]) * uint64(b[p[2]&511])
		s3 += uint64(a[(i+3)&511]) * uint64(b[p[3]&511])
	}
	for ; i < len(perm); i++ {
		s0 += uint64(a[i&511]) * uint64(b[perm[i]&511])
	}
	return s0 + s1 + s2 + s3
}

// permCache keeps the permutations built for the current pair, by their
// residual elements (ν₂, ν₃): at most F(C) a pair, in a table of 1,024.
type permCache struct {
	keys []uint32
	slot []int32 // 0 = empty, else 1 + the index in buf
	buf  [][]uint16
	used int
	n    int
}

func newPermCache(n int) *permCache {
	return &permCache{keys: make([]uint32, 1024), slot: make([]int32, 1024), n: n}
}

func (c *permCache) reset() {
	if c.used > 0 {
		clear(c.slot)
		c.used = 0
	}
}

// get returns the permutation of key and whether it is new (to be filled).
func (c *permCache) get(key uint32) ([]uint16, bool) {
	m := uint32(len(c.keys) - 1)
	for h := (key * 0x9e3779b1) >> 20 & m; ; h = (h + 1) & m {
		if c.slot[h] == 0 {
			if c.used == len(c.buf) {
				c.buf = append(c.buf, make([]uint16, c.n))
			}
			out := c.buf[c.used]
			c.used++
			c.keys[h], c.slot[h] = key, int32(c.used)
			return out, true
		}
		if c.keys[h] == key {
			return c.buf[c.slot[h]-1], false
		}
	}
}
