package triple

import (
	"context"
	"fmt"
	"math/bits"
	"unsafe"

	"github.com/sudoku-census/sudoku-census/stages/maths/triplestacks"
)

// permRows is the rows with the counts themselves (4 bytes each) and, per
// combination and residual element, the inverse of its position map.
type permRows struct {
	w      *Rows
	vals   []uint32 // vals[r*stride+i] = ev[w.vals[r*stride+i]], then padding
	nuInv  [][][]uint16
	rowMod int32 // experiment: fold the rows into the first rowMod
	narrow bool  // experiment: read the two-byte indices and ev
	noDot  bool  // experiment: skip the dot products
	noPre  bool  // experiment: no prefetch
	ev     *[8192]uint32
}

func newPermRows(w *Rows) *permRows {
	pr := &permRows{w: w, vals: make([]uint32, len(w.vals)+512)}
	for i, v := range w.vals {
		pr.vals[i] = w.ev[v]
	}
	pr.ev = new([8192]uint32)
	copy(pr.ev[:], w.ev)
	pr.nuInv = make([][][]uint16, len(w.c))
	for ci := range w.c {
		c := &w.c[ci]
		pr.nuInv[ci] = make([][]uint16, len(c.nuPos))
		for k, np := range c.nuPos {
			inv := make([]uint16, len(np))
			for i, p := range np {
				inv[p] = uint16(i)
			}
			pr.nuInv[ci][k] = inv
		}
	}
	return pr
}

// Completions is Rows.Completions with each dot product taken along one
// contiguous row and one permuted row.
func (pr *permRows) Completions(ctx context.Context, g Gangster, pairs []PairRep) (hi, lo uint64, err error) {
	w := pr.w
	t := w.t
	s := t.s
	c := t.C
	bands := t.bands(g.Base, g.Key)
	sp := make([][]triplestacks.Split, c)
	for i := range c {
		sp[i] = s.SplitsOf(bands[i])
	}
	last := (*triplestacks.Partition)(&bands[c-1])
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
	cache := newPiCache(2 * nl)
	for pi, prr := range pairs {
		if pi&255 == 0 {
			if err := ctx.Err(); err != nil {
				return 0, 0, err
			}
		}
		s0, s1 := &sp[0][prr.B0], &sp[1][prr.B1]
		ci2 := w.frame(&k2, &s0.S, &s1.S, last)
		ci3 := w.frame(&k3, &s0.B, &s1.B, last)
		c2i := w.combo[ci2.b][ci2.r]
		for k, q := range sp[c-1] {
			p2[k] = int32(ci2.pos[s.Index(k2.r.Mask(q.S[0]), k2.r.Mask(q.S[1]))])
			p3[k] = int32(ci3.pos[s.Index(k3.r.Mask(q.B[0]), k3.r.Mask(q.B[1]))])
		}
		if c == 3 {
			row2[0], row3[0] = ci2.row, ci3.row
		} else {
			for k, q := range sp[2] {
				x := s.Index(k2.r.Mask(q.S[0]), k2.r.Mask(q.S[1]))
				row2[k], nu2[k] = ci2.rowOf[x], ci2.nuOf[x]
				y := s.Index(k3.r.Mask(q.B[0]), k3.r.Mask(q.B[1]))
				row3[k], nu3[k] = ci3.rowOf[y], ci3.nuOf[y]
			}
		}
		var ph, pl uint64
		// The last band's splits map onto the positions of the band-2 row
		// (compat(r)); a few partitions come from two splits (k = 0 and
		// k = C both give the band itself). The first split at each
		// position goes into the permutation π₀ from positions of the
		// band-2 row to positions of the band-3 row, the others into
		// extra (position, position) pairs.
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
		for k := range n2 {
			if k+ahead < n2 && !pr.noPre {
				if pr.narrow {
					prefetch(w.vals[int(row2[k+ahead])*stride:][:stride])
					prefetch(w.vals[int(row3[k+ahead])*stride:][:stride])
				} else {
					prefetch32(pr.vals[int(row2[k+ahead])*stride:][:stride])
					prefetch32(pr.vals[int(row3[k+ahead])*stride:][:stride])
				}
			}
			a, b := nu2[k], nu3[k]
			rr2, rr3 := row2[k], row3[k]
			if pr.rowMod > 0 {
				rr2, rr3 = rr2%pr.rowMod, rr3%pr.rowMod
			}
			var l uint64
			if pr.narrow && a == 0 && b == 0 {
				l = dotPerm16(pr.ev, (*[512]uint16)(w.vals[int(rr2)*stride:]), (*[512]uint16)(w.vals[int(rr3)*stride:]), pi0[:n])
				r2, r3 := (*[512]uint16)(w.vals[int(rr2)*stride:]), (*[512]uint16)(w.vals[int(rr3)*stride:])
				for _, e := range extra {
					l += uint64(w.ev[r2[e[0]&511]]) * uint64(w.ev[r3[e[1]&511]])
				}
				var carry uint64
				pl, carry = bits.Add64(pl, l, 0)
				ph += carry
				continue
			}
			r2, r3 := (*[512]uint32)(pr.vals[int(rr2)*stride:]), (*[512]uint32)(pr.vals[int(rr3)*stride:])
			if pr.noDot {
				l = uint64(r2[0]) * uint64(r3[0])
			} else if a == 0 && b == 0 {
				l = dotPerm(r2, r3, pi0[:n])
				for _, e := range extra {
					l += uint64(r2[e[0]&511]) * uint64(r3[e[1]&511])
				}
			} else {
				perm := cache.get(uint32(a)<<16 | uint32(b))
				if perm.fresh {
					// Position i of the row is ν₂ of the position
					// ν₂⁻¹(i); its partner in the other row is ν₃ of π₀
					// of that.
					inv2 := pr.nuInv[c2i][a]
					n2p, n3p := ci2.nuPos[a], ci3.nuPos[b]
					for i := range n {
						perm.p[i] = n3p[pi0[inv2[i]]]
					}
					for x, e := range extra {
						perm.p[n+2*x], perm.p[n+2*x+1] = n2p[e[0]], n3p[e[1]]
					}
				}
				l = dotPerm(r2, r3, perm.p[:n])
				for x := range extra {
					l += uint64(r2[perm.p[n+2*x]&511]) * uint64(r3[perm.p[n+2*x+1]&511])
				}
			}
			var carry uint64
			pl, carry = bits.Add64(pl, l, 0)
			ph += carry
		}
		mh, ml := bits.Mul64(pl, uint64(prr.Mult))
		var carry uint64
		lo, carry = bits.Add64(lo, ml, 0)
		hi += ph*uint64(prr.Mult) + mh + carry
	}
	return hi, lo, nil
}

// prefetch32 asks for the cache lines of a row of counts.
func prefetch32(a []uint32) { prefetch(unsafe.Slice((*uint16)(unsafe.Pointer(&a[0])), 2*len(a))) }

// dotPerm returns Σ_i a[i]·b[perm[i]] (fits 64 bits, see dotRows).
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

// dotPerm16 is dotPerm on rows of indices into ev.
func dotPerm16(ev *[8192]uint32, a, b *[512]uint16, perm []uint16) uint64 {
	var s0, s1, s2, s3 uint64
	n := len(perm) &^ 3
	i := 0
	for ; i < n; i += 4 {
		p := perm[i : i+4 : i+4]
		s0 += uint64(ev[a[i&511]&8191]) * uint64(ev[b[p[0]&511]&8191])
		s1 += uint64(ev[a[(i+1)&511]&8191]) * uint64(ev[b[p[1]&511]&8191])
		s2 += uint64(ev[a[(i+2)&511]&8191]) * uint64(ev[b[p[2]&511]&8191])
		s3 += uint64(ev[a[(i+3)&511]&8191]) * uint64(ev[b[p[3]&511]&8191])
	}
	for ; i < len(perm); i++ {
		s0 += uint64(ev[a[i&511]&8191]) * uint64(ev[b[perm[i]&511]&8191])
	}
	return s0 + s1 + s2 + s3
}

// piCache keeps the permutations built for the current pair, by key.
type piCache struct {
	keys []uint32
	slot []int32
	buf  [][]uint16
	used int
	n    int
}

type cachedPerm struct {
	p     []uint16
	fresh bool // to be filled by the caller
}

func newPiCache(n int) *piCache {
	return &piCache{keys: make([]uint32, 1024), slot: make([]int32, 1024), n: n}
}

func (c *piCache) reset() {
	if c.used > 0 {
		clear(c.slot)
		c.used = 0
	}
}

func (c *piCache) get(key uint32) cachedPerm {
	m := uint32(len(c.keys) - 1)
	for h := (key * 0x9e3779b1) >> 20 & m; ; h = (h + 1) & m {
		if c.slot[h] == 0 {
			if c.used == len(c.buf) {
				c.buf = append(c.buf, make([]uint16, c.n))
			}
			out := c.buf[c.used]
			c.used++
			c.keys[h], c.slot[h] = key, int32(c.used)
			return cachedPerm{out, true}
		}
		if c.keys[h] == key {
			return cachedPerm{c.buf[c.slot[h]-1], false}
		}
	}
}
