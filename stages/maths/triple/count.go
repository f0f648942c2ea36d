package triple

import (
	"context"
	"math/big"
	"math/bits"

	"github.com/sudoku-census/sudoku-census/stages/maths/triplestacks"
)

// Completions returns F(g) = Σ E(σ₂)·E(σ₃) over the pairs of second and
// third stacks (σ₂, σ₃) whose rows complete the rows of g's representative
// (as 128-bit hi, lo), computed from the tables; if part ≥ 0 only the terms
// whose band-0 split is the part-th of the half list are added (a sub-unit;
// see Parts), and the result is then not doubled.
func (t *Tables) Completions(ctx context.Context, g Gangster, part int) (hi, lo uint64, err error) {
	s := t.s
	c := t.C
	sp, _ := t.gangsterSplits(g)
	half := halfSplits(sp[0])
	if part >= 0 {
		half = half[part : part+1]
	}
	p := len(s.Parts())
	n := len(sp[2%c])
	x3, y3 := make([]int32, n), make([]int32, n)
	x4, y4 := make([]int32, n), make([]int32, n)
	var r2, r3 triplestacks.Relabel
	for bi, s0 := range half {
		if bi&7 == 0 {
			if err := ctx.Err(); err != nil {
				return 0, 0, err
			}
		}
		for _, s1 := range sp[1] {
			b2 := s.Normalise(&s0.S, &s1.S, &r2)
			b3 := s.Normalise(&s0.B, &s1.B, &r3)
			e2, e3 := t.E[b2], t.E[b3]
			switch c {
			case 2:
				h, l := bits.Mul64(uint64(e2[0]), uint64(e3[0]))
				var carry uint64
				lo, carry = bits.Add64(lo, l, 0)
				hi += h + carry
			case 3:
				for _, q := range sp[2] {
					a := uint64(e2[s.Index(r2.Mask(q.S[0]), r2.Mask(q.S[1]))])
					b := uint64(e3[s.Index(r3.Mask(q.B[0]), r3.Mask(q.B[1]))])
					h, l := bits.Mul64(a, b)
					var carry uint64
					lo, carry = bits.Add64(lo, l, 0)
					hi += h + carry
				}
			case 4:
				for k, q := range sp[2] {
					x3[k] = int32(s.Index(r2.Mask(q.S[0]), r2.Mask(q.S[1])) * p)
					y3[k] = int32(s.Index(r3.Mask(q.B[0]), r3.Mask(q.B[1])) * p)
				}
				for k, q := range sp[3] {
					x4[k] = int32(s.Index(r2.Mask(q.S[0]), r2.Mask(q.S[1])))
					y4[k] = int32(s.Index(r3.Mask(q.B[0]), r3.Mask(q.B[1])))
				}
				h, l := inner4(e2, e3, x3, y3, x4, y4)
				var carry uint64
				lo, carry = bits.Add64(lo, l, 0)
				hi += h + carry
			}
		}
	}
	if part < 0 {
		hi = hi<<1 | lo>>63
		lo <<= 1
	}
	return hi, lo, nil
}

// inner4 returns Σ_{k,j} e2[x3[k]+x4[j]]·e3[y3[k]+y4[j]] (128-bit): each
// product is below 2^64 and the row sums are carried.
func inner4(e2, e3 []uint32, x3, y3, x4, y4 []int32) (hi, lo uint64) {
	y4 = y4[:len(x4)]
	for k := range x3 {
		row2 := e2[x3[k]:]
		row3 := e3[y3[k]:]
		var rhi, rlo uint64
		for j, x := range x4 {
			prod := uint64(row2[x]) * uint64(row3[y4[j]])
			var carry uint64
			rlo, carry = bits.Add64(rlo, prod, 0)
			rhi += carry
		}
		var carry uint64
		lo, carry = bits.Add64(lo, rlo, 0)
		hi += rhi + carry
	}
	return hi, lo
}

// halfSplits returns one split of each pair {X, A − X} of band 0 (the one
// whose second-stack rows compare lower with its third-stack rows):
// exchanging the second and third stacks maps the terms of one onto those
// of the other, so F is twice the sum over these.
func halfSplits(sp []triplestacks.Split) []triplestacks.Split {
	var out []triplestacks.Split
	for _, q := range sp {
		if q.S[0] < q.B[0] || (q.S[0] == q.B[0] && q.S[1] < q.B[1]) {
			out = append(out, q)
		}
	}
	return out
}

// PlainPart returns the pairs that Tables.Completions(g, part) covers, each
// once: band 0's part-th split of the half list with every split of band 1.
func (t *Tables) PlainPart(g Gangster, part int) []PairRep {
	bands := t.bands(g.Base, g.Key)
	sp0 := t.s.SplitsOf(bands[0])
	var half []int
	for i, q := range sp0 {
		if q.S[0] < q.B[0] || (q.S[0] == q.B[0] && q.S[1] < q.B[1]) {
			half = append(half, i)
		}
	}
	n1 := len(t.s.SplitsOf(bands[1]))
	out := make([]PairRep, n1)
	for j := range out {
		out[j] = PairRep{B0: int16(half[part]), B1: int16(j), Mult: 1}
	}
	return out
}

// Parts returns the number of sub-units of a gangster: F(C)/2, the band-0
// splits of the plain kernel's half list, and the slices of a plan
// (Plan.Part).
func (t *Tables) Parts() int { return t.s.NumSplits() / 2 }

// CountShapeMaxC is the widest box CountShape counts: 3×3 takes half a
// CPU-second, 3×4 hundreds of CPU-hours.
const CountShapeMaxC = 3

// CountShape returns the number of grids with boxes of r rows × c columns
// when one side is 3 and the other 2 … CountShapeMaxC (a shape and its
// transpose have the same count); ok is false for any other shape.
func CountShape(ctx context.Context, r, c int) (n *big.Int, ok bool, err error) {
	if r != 3 {
		r, c = c, r
	}
	if r != 3 || c < 2 || c > CountShapeMaxC {
		return nil, false, nil
	}
	n, _, err = Count(ctx, c)
	return n, err == nil, err
}

// Count returns the number of Sudoku grids with boxes of 3 rows × c
// columns: Σ over the gangsters of Weight · E · F.
func Count(ctx context.Context, c int) (*big.Int, *Tables, error) {
	t, err := BuildTables(ctx, c)
	if err != nil {
		return nil, nil, err
	}
	total := new(big.Int)
	for _, g := range t.Gangsters {
		hi, lo, err := t.Completions(ctx, g, -1)
		if err != nil {
			return nil, nil, err
		}
		f := new(big.Int).Lsh(new(big.Int).SetUint64(hi), 64)
		f.Or(f, new(big.Int).SetUint64(lo))
		f.Mul(f, new(big.Int).SetUint64(g.Weight))
		f.Mul(f, new(big.Int).SetUint64(g.E))
		total.Add(total, f)
	}
	return total, t, nil
}
