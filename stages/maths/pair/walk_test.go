package pair

import (
	"context"
	"slices"
)

// walkOrbits is the reference for Orbits, sharing none of its search: it
// returns the orbits of c ≤ 5 ordered by representative. It walks
// the multisets that contain pattern 0 (every orbit has some); at the first
// member met of an orbit it generates the whole orbit (the images under all
// c!·2^c elements), takes the least as the representative and marks the
// others as met. For c = 5 it takes about 0.2 s; for c = 6 (2,284,361,552
// multisets) it is out of reach.
func walkOrbits(ctx context.Context, c int) ([]Orbit, error) {
	g := groupFor(c)
	n := 2 * c
	seen := make(map[uint64]struct{})
	var orbits []Orbit
	img := make([]uint8, n)
	var images []uint64
	visited := 0
	err := multisets(c, func(pats []uint8) error {
		visited++
		if visited&4095 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		// Every orbit has members containing pattern 0 (shift any member p
		// to 0 by m = p), its least member among them, so only those are
		// looked at and marked.
		if pats[0] != 0 {
			return nil
		}
		if _, ok := seen[pack(pats)]; ok {
			return nil
		}
		images = images[:0]
		for _, t := range g.perms {
			for m := range uint8(1) << c {
				for j, p := range pats {
					img[j] = t[p] ^ m
				}
				sortSmall(img)
				images = append(images, pack(img))
			}
		}
		slices.Sort(images)
		images = slices.Compact(images)
		for _, k := range images {
			if k>>(6*(n-1)) == 0 { // contains pattern 0
				seen[k] = struct{}{}
			}
		}
		size := uint64(len(images))
		rep := unpack(images[0], n)
		orbits = append(orbits, Orbit{C: c, Rep: rep, Size: size, Weight: size * multinomial(rep)})
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(orbits, func(a, b Orbit) int { return slices.Compare(a.Rep, b.Rep) })
	return orbits, nil
}

// pack packs at most 10 sorted patterns of 6 bits into a word, the first
// in the highest bits, so that words compare as the lists do.
func pack(sorted []uint8) uint64 {
	var k uint64
	for _, p := range sorted {
		k = k<<6 | uint64(p)
	}
	return k
}

// unpack inverts pack for n patterns.
func unpack(k uint64, n int) []uint8 {
	out := make([]uint8, n)
	for j := n - 1; j >= 0; j-- {
		out[j] = uint8(k & 63)
		k >>= 6
	}
	return out
}

// multisets calls visit with every pattern multiset T of c, as a sorted
// list (visit must not keep the slice), each once, in a fixed order. It
// builds T band by band: after bits 0, …, k-1 the symbols fall into groups
// with equal k-bit prefixes, and bit k is set in a of the m symbols of each
// group, the a's adding up to c. Symbols of a group are interchangeable, so
// every multiset arises from exactly one choice of the a's, and bounding
// each a by what the later groups can still take leaves no dead ends.
func multisets(c int, visit func([]uint8) error) error {
	n := 2 * c
	type group struct {
		prefix uint8
		m      int
	}
	levels := make([][]group, c+1)
	for k := range levels {
		levels[k] = make([]group, 0, n)
	}
	levels[0] = append(levels[0], group{0, n})
	pats := make([]uint8, 0, n)
	var band func(k int) error
	var split func(k, e, left, rest int) error
	band = func(k int) error {
		if k == c {
			pats = pats[:0]
			for _, g := range levels[c] {
				for range g.m {
					pats = append(pats, g.prefix)
				}
			}
			sortSmall(pats)
			return visit(pats)
		}
		levels[k+1] = levels[k+1][:0]
		return split(k, 0, c, n)
	}
	// split chooses how many symbols of group e (and later) of level k get
	// bit k, with left ones still to give and rest symbols in groups e….
	split = func(k, e, left, rest int) error {
		gs := levels[k]
		if e == len(gs) {
			return band(k + 1)
		}
		g := gs[e]
		rest -= g.m
		mark := len(levels[k+1])
		for a := min(g.m, left); a >= 0 && left-a <= rest; a-- {
			next := levels[k+1][:mark]
			if a > 0 {
				next = append(next, group{g.prefix | 1<<k, a})
			}
			if a < g.m {
				next = append(next, group{g.prefix, g.m - a})
			}
			levels[k+1] = next
			if err := split(k, e+1, left-a, rest); err != nil {
				return err
			}
		}
		levels[k+1] = levels[k+1][:mark]
		return nil
	}
	return band(0)
}
