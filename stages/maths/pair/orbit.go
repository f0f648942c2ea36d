package pair

import (
	"context"
	"encoding/hex"
	"fmt"
	"math/big"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
)

// An Orbit is an orbit of B_c on the pattern multisets T of c (see the
// package documentation): every member has the same stack count E.
type Orbit struct {
	// C is the number of box columns (and of bands); the grid side is 2C.
	C int
	// Rep is the least member of the orbit: 2C patterns in increasing order,
	// least as a list in lexicographic order.
	Rep []uint8
	// Size is the number of multisets in the orbit, |B_c| / |Stab(Rep)|.
	Size uint64
	// Weight is Σ over the members T of n!/Π_p m_p!, the number of tuples σ
	// of row sets whose pattern multiset lies in the orbit. It is Size times
	// the multinomial of Rep and fits 64 bits for c ≤ MaxC (at most
	// 46,080·12! < 2^45).
	Weight uint64
}

// String returns the orbit's serial form, "c:" followed by two lower-case
// hexadecimal digits per pattern of Rep, e.g. "2:00010203" (the 2×2 orbit of
// the four distinct patterns). ParseOrbit reads it back.
func (o Orbit) String() string {
	return strconv.Itoa(o.C) + ":" + hex.EncodeToString(o.Rep)
}

// ParseOrbit reads an orbit written by Orbit.String. The patterns must be the
// orbit's representative (its least member, sorted); Size and Weight are
// recomputed.
func ParseOrbit(s string) (Orbit, error) {
	cs, hx, ok := strings.Cut(s, ":")
	if !ok {
		return Orbit{}, fmt.Errorf("pair: orbit %q: want c:hex", s)
	}
	c, err := strconv.Atoi(cs)
	if err != nil {
		return Orbit{}, fmt.Errorf("pair: orbit %q: %v", s, err)
	}
	pats, err := hex.DecodeString(hx)
	if err != nil {
		return Orbit{}, fmt.Errorf("pair: orbit %q: %v", s, err)
	}
	o, err := NewOrbit(c, pats)
	if err != nil {
		return Orbit{}, err
	}
	if !slices.Equal(o.Rep, pats) {
		return Orbit{}, fmt.Errorf("pair: orbit %q: patterns are not the representative %s", s, o)
	}
	return o, nil
}

// NewOrbit returns the orbit of the pattern multiset given by patterns (in
// any order): its representative, size and weight.
func NewOrbit(c int, patterns []uint8) (Orbit, error) {
	if err := checkPatterns(c, patterns); err != nil {
		return Orbit{}, err
	}
	rep := canonical(c, patterns)
	size := groupFor(c).order() / stabiliser(c, rep)
	w, err := mul64(size, multinomial(rep))
	if err != nil {
		return Orbit{}, err
	}
	return Orbit{C: c, Rep: rep, Size: size, Weight: w}, nil
}

// NumTuples returns C(2c, c)^c, the number of tuples σ = (s_0, …, s_{c-1}) of
// c-subsets of the 2c symbols: the sum of the weights of all orbits.
func NumTuples(c int) *big.Int {
	b := new(big.Int).Binomial(int64(2*c), int64(c))
	return b.Exp(b, big.NewInt(int64(c)), nil)
}

// Orbits returns the orbits of B_c on the pattern multisets of c, for
// 1 ≤ c ≤ MaxListC, ordered by representative (lexicographically). It walks
// the multisets that contain pattern 0 (every orbit has some); at the first
// member met of an orbit it generates the whole orbit (the images under all
// c!·2^c elements), takes the least as the representative and marks the
// others as met. The order, and so every sum over the list, is the same on
// every run. For c = 5 it takes about 0.2 s.
func Orbits(ctx context.Context, c int) ([]Orbit, error) {
	if err := checkC(c); err != nil {
		return nil, err
	}
	if c > MaxListC {
		return nil, fmt.Errorf("pair: c = %d: listing the orbits walks every multiset (2,284,361,552 for c = 6); Orbits takes c ≤ %d, NumOrbits counts them and SampleOrbits samples them", c, MaxListC)
	}
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

// Batches splits orbits into consecutive batches of at most size orbits (the
// last may be shorter), for work units; size < 1 is taken as 1.
func Batches(orbits []Orbit, size int) [][]Orbit {
	size = max(1, size)
	var out [][]Orbit
	for lo := 0; lo < len(orbits); lo += size {
		out = append(out, orbits[lo:min(lo+size, len(orbits))])
	}
	return out
}

// SampleOrbits draws k tuples σ of row sets uniformly at random (each s_i a
// uniform c-subset, from a PCG generator seeded with seed) and returns the
// orbit of each. An orbit O is drawn with probability W(O)/NumTuples(c), not
// uniformly; a uniform mean over orbits of some f is estimated by
// Σ f(O)/W(O) / Σ 1/W(O) over the sample.
func SampleOrbits(c, k int, seed uint64) ([]Orbit, error) {
	if err := checkC(c); err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(seed, 0x5ad0c0de))
	n := 2 * c
	out := make([]Orbit, 0, k)
	sym := make([]int, n)
	for range k {
		pats := make([]uint8, n)
		for i := range c {
			for x := range sym {
				sym[x] = x
			}
			for j := range c { // partial Fisher–Yates: sym[:c] is the set
				r := j + rng.IntN(n-j)
				sym[j], sym[r] = sym[r], sym[j]
				pats[sym[j]] |= 1 << i
			}
		}
		o, err := NewOrbit(c, pats)
		if err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	return out, nil
}
