package pair

import (
	"context"
	"encoding/hex"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/sudoku-census/sudoku-census/stages/maths/pairstacks"
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
// 1 ≤ c ≤ MaxC, ordered by representative (lexicographically), by orderly
// generation (see orderly): 355 orbits for c = 5 in about 10 ms, 63,199 for
// c = 6 in about 4 s. The order, and so every sum over the list, is the same
// on every run.
func Orbits(ctx context.Context, c int) ([]Orbit, error) {
	if err := pairstacks.CheckC(c); err != nil {
		return nil, err
	}
	return orderlyOrbits(ctx, c, 1)
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
