package pair

import (
	"context"
	"math/bits"
	"slices"

	"github.com/sudoku-census/sudoku-census/stages/maths/pairstacks"
)

// orderly lists the orbit representatives of c by orderly generation
// (Read, Faradzev): it builds sorted pattern lists one pattern at a time, in
// increasing order, and keeps a prefix only when it is itself the least
// member of its orbit (as a multiset of that size). That loses nothing: if a
// sorted list T is least, so is T without its largest pattern, because
// adding one pattern to an image never raises any position of the image's
// sorted list. Prefixes that break the column condition (more than c ones
// or zeros in some bit) are cut too. The lists come out in lexicographic
// order, each least member once.
type orderly struct {
	c, n int
	// mult[p] is the multiplicity of pattern p in the prefix; top is the
	// prefix's largest pattern.
	mult [1 << MaxC]uint8
	top  int
	ones [MaxC]int
	list []uint8
	// img[v] = h(v) for the positions v fixed so far by the search in
	// least; free holds the bits that h's permutation has not used yet.
	img  [1 << MaxC]uint8
	free uint8
	// stab counts the elements h found to fix the prefix.
	stab   uint64
	order  uint64
	visits int
	// cut, when > 0, is the prefix size at which extend stops and keeps
	// the prefix in prefixes (see orderlyOrbits).
	cut      int
	prefixes [][]uint8
}

// orderlyOrbits returns the orbits of c in order of representative, using
// workers goroutines: the least prefixes of splitDepth patterns are listed
// first, then the subtree below each is searched on its own (a prefix's
// subtree holds a consecutive run of the serial search's output), and the
// runs are joined in prefix order, so the list is the same for any number
// of workers.
func orderlyOrbits(ctx context.Context, c, workers int) ([]Orbit, error) {
	o := newOrderly(c)
	if workers <= 1 {
		var out []Orbit
		err := o.extend(ctx, 0, &out)
		return out, err
	}
	o.cut = min(splitDepth, o.n-1)
	if err := o.extend(ctx, 0, nil); err != nil {
		return nil, err
	}
	runs := make([][]Orbit, len(o.prefixes))
	err := eachIndex(ctx, len(o.prefixes), workers, func(_, i int) error {
		sub := newOrderly(c)
		for _, p := range o.prefixes[i] {
			sub.push(int(p))
		}
		return sub.extend(ctx, sub.top, &runs[i])
	})
	if err != nil {
		return nil, err
	}
	var out []Orbit
	for _, run := range runs {
		out = append(out, run...)
	}
	return out, nil
}

// splitDepth is the prefix size at which orderlyOrbits hands subtrees to
// its workers: 3 gives a few hundred subtrees for c = 6, enough to keep two
// cores busy whatever their sizes.
const splitDepth = 3

func newOrderly(c int) *orderly {
	o := &orderly{c: c, n: 2 * c, order: groupFor(c).order()}
	o.list = make([]uint8, 0, o.n)
	return o
}

// extend tries every pattern p ≥ from as the next one of the prefix. With
// cut > 0 it stops at the least prefixes of cut patterns and keeps them in
// prefixes instead.
func (o *orderly) extend(ctx context.Context, from int, out *[]Orbit) error {
	k := len(o.list) + 1 // the prefix's size with p
	for p := from; p < 1<<o.c; p++ {
		if !o.fits(p, k) {
			continue
		}
		o.visits++
		if o.visits&4095 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		o.push(p)
		if o.least() {
			switch {
			case k == o.cut:
				o.prefixes = append(o.prefixes, slices.Clone(o.list))
			case k == o.n:
				rep := slices.Clone(o.list)
				size := o.order / o.stab
				*out = append(*out, Orbit{C: o.c, Rep: rep, Size: size, Weight: size * multinomial(rep)})
			default:
				if err := o.extend(ctx, p, out); err != nil {
					return err
				}
			}
		}
		o.pop(p)
	}
	return nil
}

// fits reports whether adding p keeps every bit at most c ones and at most
// c zeros among the k patterns.
func (o *orderly) fits(p, k int) bool {
	for i := range o.c {
		ones := o.ones[i] + p>>i&1
		if ones > o.c || k-ones > o.c {
			return false
		}
	}
	return true
}

func (o *orderly) push(p int) {
	o.list = append(o.list, uint8(p))
	o.mult[p]++
	o.top = p
	for i := range o.c {
		o.ones[i] += p >> i & 1
	}
}

func (o *orderly) pop(p int) {
	o.list = o.list[:len(o.list)-1]
	o.mult[p]--
	o.top = 0
	if len(o.list) > 0 {
		o.top = int(o.list[len(o.list)-1])
	}
	for i := range o.c {
		o.ones[i] -= p >> i & 1
	}
}

// least reports whether the prefix is the least member of its orbit, and
// sets stab to the order of its stabiliser. A sorted list A is below B
// exactly when, at the first pattern where their multiplicities differ, A
// has more copies; so the prefix is least when no h ∈ B_c gives the
// vector v ↦ mult[h(v)] a larger value at the first v where it differs
// from mult. The search fixes h(0) = m, then h(1), h(2), h(4), … (each
// choosing a bit of the permutation; the positions in between follow),
// comparing as it goes and leaving a branch at the first difference.
func (o *orderly) least() bool {
	o.stab = 0
	for m := range 1 << o.c {
		d := int(o.mult[m]) - int(o.mult[0])
		if d > 0 {
			return false
		}
		if d < 0 {
			continue
		}
		o.img[0] = uint8(m)
		o.free = 1<<o.c - 1
		if o.violated(1) {
			return false
		}
	}
	return true
}

// violated continues the search at position v with img[:v] fixed and equal
// so far; it reports whether some h extending them makes a smaller list.
func (o *orderly) violated(v int) bool {
	for ; v < 1<<o.c; v++ {
		if v > o.top {
			// Every pattern of the prefix is matched, so the image holds
			// nothing further: every way to finish h fixes the prefix.
			break
		}
		if v&(v-1) == 0 { // v = 2^j: choose where h sends bit j
			for f := o.free; f != 0; f &= f - 1 {
				b := uint8(f & -f)
				img := o.img[0] ^ b
				d := int(o.mult[img]) - int(o.mult[v])
				if d > 0 {
					return true
				}
				if d < 0 {
					continue
				}
				o.img[v] = img
				o.free &^= b
				bad := o.violated(v + 1)
				o.free |= b
				if bad {
					return true
				}
			}
			return false
		}
		low := v & -v
		img := o.img[v^low] ^ o.img[low] ^ o.img[0]
		o.img[v] = img
		d := int(o.mult[img]) - int(o.mult[v])
		if d > 0 {
			return true
		}
		if d < 0 {
			return false
		}
	}
	o.stab += pairstacks.Factorial(bits.OnesCount8(o.free))
	return false
}
