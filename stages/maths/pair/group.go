package pair

import (
	"fmt"
	"math/bits"
	"slices"
	"sync"

	"github.com/sudoku-census/sudoku-census/stages/maths/pairstacks"
)

// MaxC is the widest box the package handles: the stack count's limit
// (pairstacks.MaxC).
const MaxC = pairstacks.MaxC

// checkPatterns returns an error unless patterns is a multiset T for c: 2c
// patterns below 2^c with every bit set in exactly c of them.
func checkPatterns(c int, patterns []uint8) error {
	if err := pairstacks.CheckC(c); err != nil {
		return err
	}
	if len(patterns) != 2*c {
		return fmt.Errorf("pair: %d patterns for c = %d, want %d", len(patterns), c, 2*c)
	}
	var ones [MaxC]int
	for _, p := range patterns {
		if int(p) >= 1<<c {
			return fmt.Errorf("pair: pattern %#x has more than c = %d bits", p, c)
		}
		for i := range c {
			ones[i] += int(p >> i & 1)
		}
	}
	for i := range c {
		if ones[i] != c {
			return fmt.Errorf("pair: bit %d is set in %d patterns, want c = %d", i, ones[i], c)
		}
	}
	return nil
}

// group is the hyperoctahedral group B_c acting on c-bit patterns by
// p ↦ π(p) ⊕ m, where π permutes the bit positions (the bands) and m
// complements some of them (exchanges the two rows of those bands).
type group struct {
	c int
	// perms[k][p] = π_k(p) for the c! bit permutations, in lexicographic
	// order of (π_k(0), …, π_k(c-1)), starting with the identity.
	perms [][]uint8
}

// order returns |B_c| = c!·2^c.
func (g *group) order() uint64 { return uint64(len(g.perms)) << g.c }

var groups [MaxC + 1]struct {
	once sync.Once
	g    *group
}

// groupFor returns B_c, built once per c.
func groupFor(c int) *group {
	e := &groups[c]
	e.once.Do(func() {
		g := &group{c: c}
		for _, pi := range permutations(c) {
			t := make([]uint8, 1<<c)
			for p := range t {
				var q uint8
				for i := range c {
					q |= uint8(p>>i&1) << pi[i]
				}
				t[p] = q
			}
			g.perms = append(g.perms, t)
		}
		e.g = g
	})
	return e.g
}

// permutations returns the permutations of 0, …, k-1 in lexicographic order.
func permutations(k int) [][]int {
	var out [][]int
	cur := make([]int, 0, k)
	var used uint
	var rec func()
	rec = func() {
		if len(cur) == k {
			out = append(out, slices.Clone(cur))
			return
		}
		for v := range k {
			if used>>v&1 == 0 {
				used |= 1 << v
				cur = append(cur, v)
				rec()
				cur = cur[:len(cur)-1]
				used &^= 1 << v
			}
		}
	}
	rec()
	return out
}

// sortSmall sorts a short slice of patterns in place (insertion sort: the
// slices have at most 12 elements).
func sortSmall(a []uint8) {
	for i := 1; i < len(a); i++ {
		v := a[i]
		j := i
		for j > 0 && a[j-1] > v {
			a[j] = a[j-1]
			j--
		}
		a[j] = v
	}
}

// canonical returns the least member of the orbit of T (patterns, any
// order), as a sorted list, comparing sorted lists lexicographically (see
// canonicalWith).
func canonical(c int, patterns []uint8) []uint8 {
	least, _ := canonicalWith(c, patterns)
	return least
}

// stabiliser returns the number of elements of B_c that map T (sorted) onto
// itself. For each π the complement mask m must send π(T[0]) into T, so
// there are at most |T| candidates.
func stabiliser(c int, sorted []uint8) uint64 {
	g := groupFor(c)
	n := len(sorted)
	img := make([]uint8, n)
	var count uint64
	for _, t := range g.perms {
		var tried uint64
		for _, q := range sorted {
			m := t[sorted[0]] ^ q
			if tried>>m&1 == 1 {
				continue
			}
			tried |= 1 << m
			for j, p := range sorted {
				img[j] = t[p] ^ m
			}
			sortSmall(img)
			if slices.Equal(img, sorted) {
				count++
			}
		}
	}
	return count
}

// multinomial returns n!/Π_p m_p! for the multiplicities m_p of the sorted
// patterns: the number of tuples σ whose pattern multiset they are.
func multinomial(sorted []uint8) uint64 {
	// n ≤ 12, so n! < 2^29 and every intermediate value fits.
	f := pairstacks.Factorial(len(sorted))
	run := 1
	for j := 1; j <= len(sorted); j++ {
		if j < len(sorted) && sorted[j] == sorted[j-1] {
			run++
			continue
		}
		f /= pairstacks.Factorial(run)
		run = 1
	}
	return f
}

// mul64 returns a·b or pairstacks.ErrOverflow.
func mul64(a, b uint64) (uint64, error) {
	hi, lo := bits.Mul64(a, b)
	if hi != 0 {
		return 0, pairstacks.ErrOverflow
	}
	return lo, nil
}
