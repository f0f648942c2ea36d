package pair

import (
	"math/bits"
	"slices"

	"github.com/sudoku-census/sudoku-census/stages/maths/pairstacks"
)

// element is g ∈ B_c: p ↦ π(p) ⊕ mask, π = groupFor(c).perms[perm].
type element struct {
	perm int
	mask uint8
}

// canonicalWith returns the canonical form of the multiset patterns (any
// size; see canonical) and an element g with g(patterns) = that form. The
// least image contains the pattern 0 (else shifting some member to 0 would
// give a smaller one), so g maps some p ∈ T to 0, i.e. mask = π(p), and the
// image of T is π(T ⊕ p): c!·(distinct members) candidates instead of
// c!·2^c.
func canonicalWith(c int, patterns []uint8) ([]uint8, element) {
	g := groupFor(c)
	n := len(patterns)
	best := make([]uint8, n)
	img := make([]uint8, n)
	var at element
	first := true
	var seen uint64
	for _, p := range patterns {
		if seen>>p&1 == 1 {
			continue
		}
		seen |= 1 << p
		for k, t := range g.perms {
			for j, q := range patterns {
				img[j] = t[q^p]
			}
			sortSmall(img)
			if first || slices.Compare(img, best) < 0 {
				copy(best, img)
				// t(q ⊕ p) = t(q) ⊕ t(p): the mask is t(p).
				at = element{perm: k, mask: t[p]}
				first = false
			}
		}
	}
	return best, at
}

// rows returns ρ_g. Symbol x with pattern p sits in row 2i of band i when
// bit i of p is 1 and in row 2i+1 when it is 0; g moves bit i to bit π(i)
// and then complements the mask's bits, so row 2i+s goes to row
// 2π(i) + (s ⊕ mask bit π(i)).
func (e element) rows(c int) pairstacks.RowPerm {
	t := groupFor(c).perms[e.perm]
	var r pairstacks.RowPerm
	for i := range c {
		pi := bits.TrailingZeros8(t[1<<i])
		flip := int(e.mask>>pi) & 1
		r[2*i] = int8(2*pi + flip)
		r[2*i+1] = int8(2*pi + (1 ^ flip))
	}
	return r
}
