package halves

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"math/bits"
	"slices"

	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
)

// MaxC is the widest box the kernel handles (a stack's triples pack into
// 48 bits).
const MaxC = 4

// ErrOverflow reports a half count that does not fit 128 bits.
var ErrOverflow = errors.New("halves: half count exceeds 2^128")

// CheckC reports whether c is a box width the kernel handles.
func CheckC(c int) error {
	if c < 2 || c > MaxC {
		return fmt.Errorf("halves: box width %d, want 2 to %d", c, MaxC)
	}
	return nil
}

// Counter counts the halves of one shape: HalfCount(k, sig) is the number of
// 3k × 3C arrays (k bands) whose column j holds the symbols sig[j].
type Counter struct {
	c    int
	full uint16
	band *bandCounter
}

// NewCounter returns a counter for boxes of 3 rows and c columns.
func NewCounter(c int) (*Counter, error) {
	if err := CheckC(c); err != nil {
		return nil, err
	}
	return &Counter{c: c, full: uint16(1)<<(3*c) - 1, band: newBandCounter(c)}, nil
}

// StackSplits lists the ways to take one band out of a stack of a k-band
// signature: a 3-subset t_j of every column m_j (the C masks of cols) such
// that the t_j partition the symbols. Each split is C masks.
func (h *Counter) StackSplits(cols []uint16) [][]uint16 {
	c := h.c
	var out [][]uint16
	t := make([]uint16, c)
	var rec func(x int)
	rec = func(x int) {
		if x == 3*c {
			out = append(out, slices.Clone(t))
			return
		}
		bit := uint16(1) << x
		for j := range c {
			if cols[j]&bit != 0 && bits.OnesCount16(t[j]) < 3 {
				t[j] |= bit
				rec(x + 1)
				t[j] &^= bit
			}
		}
	}
	rec(0)
	return out
}

// HalfCount returns the number of k-band halves with column sets sig
// (3C masks of 3k symbols; in each stack every symbol in exactly k
// columns), as 128 bits: the band count for k = 1, else the sum over the
// first band's column triples (a split of every stack) of that band's
// count times the count of the k-1 bands below it.
func (h *Counter) HalfCount(ctx context.Context, k int, sig []uint16) (hi, lo uint64, err error) {
	if k == 1 {
		return 0, h.band.count(sig), nil
	}
	c := h.c
	var sp [3][][]uint16
	for s := range 3 {
		sp[s] = h.StackSplits(sig[s*c : (s+1)*c])
		if len(sp[s]) == 0 {
			return 0, 0, nil
		}
	}
	return h.halfCountWith(ctx, k, sig, sp[0], sp[1], sp[2])
}

// halfCountWith is HalfCount's sum over the given splits of the three
// stacks (a sample restricts stack 0's).
func (h *Counter) halfCountWith(ctx context.Context, k int, sig []uint16, sp0, sp1, sp2 [][]uint16) (hi, lo uint64, err error) {
	c := h.c
	band := make([]uint16, 3*c)
	rest := make([]uint16, 3*c)
	kd := make([]uint64, len(sp2))
	kdRest := make([]uint64, len(sp2))
	for _, a := range sp0 {
		if err := ctx.Err(); err != nil {
			return 0, 0, err
		}
		for j := range c {
			band[j], rest[j] = a[j], sig[j]&^a[j]
		}
		// The band's memo key depends on a through a relabelling only:
		// hoist it and stack 2's packed triples out of the inner loops.
		pa, pr := relabelBy(c, band[:c]), relabelBy(c, rest[:c])
		for i, d := range sp2 {
			for j := range c {
				rest[2*c+j] = sig[2*c+j] &^ d[j]
			}
			kd[i], kdRest[i] = pa.pack(c, d), pr.pack(c, rest[2*c:])
		}
		for _, b := range sp1 {
			for j := range c {
				band[c+j], rest[c+j] = b[j], sig[c+j]&^b[j]
			}
			kb, kbRest := pa.pack(c, b), pr.pack(c, rest[c:2*c])
			for i, d := range sp2 {
				if k == 2 {
					nb := h.band.countKey(bandKey{kb, kd[i]})
					if nb == 0 {
						continue
					}
					if err := h.add(&hi, &lo, nb, 0, h.band.countKey(bandKey{kbRest, kdRest[i]})); err != nil {
						return 0, 0, err
					}
					continue
				}
				for j := range c {
					band[2*c+j], rest[2*c+j] = d[j], sig[2*c+j]&^d[j]
				}
				nb := h.band.count(band)
				if nb == 0 {
					continue
				}
				rh, rl, err := h.HalfCount(ctx, k-1, rest)
				if err != nil {
					return 0, 0, err
				}
				if err := h.add(&hi, &lo, nb, rh, rl); err != nil {
					return 0, 0, err
				}
			}
		}
	}
	return hi, lo, nil
}

// add adds n·(rh, rl) to the 128-bit (hi, lo), or reports overflow.
func (h *Counter) add(hi, lo *uint64, n, rh, rl uint64) error {
	ph, pl := bits.Mul64(n, rl)
	qh, ql := bits.Mul64(n, rh)
	if qh != 0 {
		return ErrOverflow
	}
	var carry uint64
	ph, carry = bits.Add64(ph, ql, 0)
	if carry != 0 {
		return ErrOverflow
	}
	*lo, carry = bits.Add64(*lo, pl, 0)
	*hi, carry = bits.Add64(*hi, ph, carry)
	if carry != 0 {
		return ErrOverflow
	}
	return nil
}

// Join returns H_k(sig)·H_{C-k}(sigᶜ), the grids whose top k bands have
// column sets sig: the bottom C-k bands then have the complements.
func (h *Counter) Join(ctx context.Context, k int, sig []uint16) (*big.Int, error) {
	th, tl, err := h.HalfCount(ctx, k, sig)
	if err != nil || th == 0 && tl == 0 {
		return new(big.Int), err
	}
	comp := make([]uint16, len(sig))
	for j, m := range sig {
		comp[j] = h.full &^ m
	}
	bh, bl, err := h.HalfCount(ctx, h.c-k, comp)
	if err != nil {
		return nil, err
	}
	return new(big.Int).Mul(grid.Uint128{Hi: th, Lo: tl}.Big(), grid.Uint128{Hi: bh, Lo: bl}.Big()), nil
}

// TopBands is the number of bands above the cut: ⌈C/2⌉.
func TopBands(c int) int { return (c + 1) / 2 }
