package heuristic

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"math/big"
	"math/bits"
	"runtime"
	"slices"

	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
	"github.com/sudoku-census/sudoku-census/stages/maths/parallel"
)

// MaxSide is the largest box side (R or C) the band counter accepts, and
// MaxN the largest grid side N = R·C. The estimate of an R×C shape needs
// the bands of both R×C and C×R, so both sides are bounded. The dynamic
// programme is over subsets of the R rows of a band: a state holds at most
// C(6,3) = 20 counts of at most N ≤ 36, and the weights of one box's
// transition are at most (R−1)^N ≤ 5^36 < 2^84, kept in a checked 128-bit
// integer. 5×5 takes a few seconds,
// 5×4 under one, 6×2 (the stacks of the 2×6 shape) about 2 CPU-seconds,
// 5×6 about 20; 6×4, 6×5 and 6×6 are out of reach (see the package
// documentation).
const (
	MaxSide = 6
	MaxN    = 36
)

// Countable reports whether BandCompletions counts M(R,C) of shape s in
// reasonable time: every shape within the limits but six rows with four or
// more columns (see the package documentation); CompletionsSampler
// estimates the others.
func Countable(s grid.Shape) bool {
	return s.R >= 1 && s.C >= 1 && s.R <= MaxSide && s.C <= MaxSide && s.N() <= MaxN && (s.R < 6 || s.C < 4)
}

// BandCount returns b(R,C), the number of bands of shape s: arrays of R rows
// and N = RC columns, each row a permutation of 1..N, split into R boxes of
// R×C cells, each box holding 1..N. It is
//
//	b(R,C) = N! · (C!)^(R(R−1)) · M(R,C)
//
// with M = BandCompletions(s).
func BandCount(s grid.Shape) (*big.Int, error) {
	m, err := BandCompletions(s)
	if err != nil {
		return nil, err
	}
	return bandsFrom(s, m), nil
}

// bandsFrom returns N! · (C!)^(R(R−1)) · m.
func bandsFrom(s grid.Shape, m *big.Int) *big.Int {
	b := new(big.Int).MulRange(1, int64(s.N()))
	cFact := new(big.Int).MulRange(1, int64(s.C))
	b.Mul(b, new(big.Int).Exp(cFact, big.NewInt(int64(s.R*(s.R-1))), nil))
	return b.Mul(b, m)
}

// BandCompletions returns M(R,C): with the first box of a band fixed, the
// number of ways to choose, for every row i and every other box j, the set
// of C symbols that row i holds in box j, such that every row and every
// box holds each symbol once. The count is the dynamic programme over the
// sets of rows each symbol has used, box by box, described in the package
// documentation, with states kept one per orbit under row relabelling.
func BandCompletions(s grid.Shape) (*big.Int, error) {
	if s.R < 1 || s.C < 1 || s.R > MaxSide || s.C > MaxSide || s.N() > MaxN {
		return nil, fmt.Errorf("band count of %v: box sides must be between 1 and %d, with R·C at most %d", s, MaxSide, MaxN)
	}
	return completions(s, permutations(s.R), true)
}

// completions runs the dynamic programme of BandCompletions keeping one
// state per orbit under the given row relabellings, which must form a
// group: all of them, or the identity alone (every state kept apart, as
// the tests do to check the reduction). With meetHalfway it stops at the
// middle level (see meet) from 4 rows on; without, it runs to the last
// box, as the tests do to check the meeting.
func completions(s grid.Shape, relabellings [][]int, meetHalfway bool) (*big.Int, error) {
	r, c := s.R, s.C
	levels := make([]*subsetLevel, r+1)
	for j := 0; j <= r; j++ {
		levels[j] = newSubsetLevel(r, j, relabellings)
	}
	var start state
	for k := range levels[1].masks {
		start = start.add(k, c)
	}
	states := map[state]*big.Int{start: big.NewInt(1)}
	binom := binomials(r * c)
	// From 4 rows on, the programme stops at the middle level ⌈R/2⌉ and
	// meets the states of level ⌊R/2⌋ there (see meet).
	last := r
	if meetHalfway && r >= 4 {
		last = (r + 1) / 2
	}
	var half map[state]*big.Int
	for j := 1; j < last; j++ {
		if j == r/2 {
			half = states
		}
		var err error
		if states, err = advance(states, levels[j], levels[j+1], c, binom); err != nil {
			return nil, err
		}
	}
	if last < r {
		if r%2 == 0 {
			half = states
		}
		return meet(s, half, states, levels[r/2], levels[last])
	}
	if len(states) != 1 {
		return nil, fmt.Errorf("band count of %v: %d final states, want 1", s, len(states))
	}
	for _, m := range states {
		return m, nil
	}
	panic("unreachable")
}

// meet returns M from the path weights P of the orbits of levels j = ⌊R/2⌋
// and R−j. The completions of a state n of level j, for one labelling of
// which symbols hold which set, are the ways to give each symbol an order
// of the rows outside its set over boxes j+1..R; read backwards, these are
// paths of R−j boxes ending at the complementary state n̄(V) = n(V̄), with
// no box fixed: P(n̄)·(N!/(C!)^R) labelled paths in all, spread evenly over
// the N!/∏n(U)! labellings. So M = Σ_n P(n)·P(n̄)·∏n(U)!/(C!)^R over the
// states n of level j. A table holds one state per orbit with the weight
// of the whole orbit, |O|·P(n), and complementing maps orbits to orbits
// of the same size, hence the division by |O|. Every division must be
// exact; one that is not is reported, as a fault of the count.
func meet(s grid.Shape, low, high map[state]*big.Int, lowLevel, highLevel *subsetLevel) (*big.Int, error) {
	r := s.R
	sum, term, fact := new(big.Int), new(big.Int), new(big.Int)
	for n, paths := range low {
		var complement state
		term.Set(paths)
		for k, mask := range lowLevel.masks {
			cnt := n.count(k)
			complement = complement.add(highLevel.index[^mask&(1<<r-1)], cnt)
			term.Mul(term, fact.MulRange(1, int64(cnt)))
		}
		back, ok := high[highLevel.canonical(complement)]
		if !ok {
			continue // no path reaches the complement: n cannot be completed
		}
		term.Mul(term, back)
		orbit := int64(lowLevel.orbitSize(n))
		if _, rem := term.QuoRem(term, big.NewInt(orbit), fact); rem.Sign() != 0 {
			return nil, fmt.Errorf("band count of %v: an orbit's weight is not a multiple of its size %d", s, orbit)
		}
		sum.Add(sum, term)
	}
	den := new(big.Int).Exp(new(big.Int).MulRange(1, int64(s.C)), big.NewInt(int64(r)), nil)
	m, rem := new(big.Int).QuoRem(sum, den, new(big.Int))
	if rem.Sign() != 0 {
		return nil, fmt.Errorf("band count of %v: the meeting sum is not a multiple of (C!)^R", s)
	}
	return m, nil
}

// orbitSize returns the number of distinct images of v under the level's
// row relabellings.
func (l *subsetLevel) orbitSize(v state) int {
	images := make(map[state]struct{}, len(l.perms))
	for _, img := range l.perms {
		var w state
		for k := range l.masks {
			w = w.add(img[k], v.count(k))
		}
		images[w] = struct{}{}
	}
	return len(images)
}

// advance returns the states of level j+1 and their path weights, given
// those of level j. The source states are dealt round-robin to one worker
// per processor; as the sums are exact, the merge order cannot change them.
func advance(states map[state]*big.Int, from, to *subsetLevel, c int, binom [][]uint64) (map[state]*big.Int, error) {
	keys := slices.SortedFunc(maps.Keys(states), state.compare)
	workers := min(runtime.GOMAXPROCS(0), len(keys))
	parts := make([]map[state]*big.Int, workers)
	err := parallel.Run(workers, func(w int) error {
		next := make(map[state]*big.Int)
		step := newTransition(from, to, c, binom)
		term, weightBig := new(big.Int), new(big.Int)
		// canonOf remembers the representative of every target seen: the
		// same targets recur from many sources.
		canonOf := make(map[state]state)
		for k := w; k < len(keys); k += workers {
			paths := states[keys[k]]
			targets, err := step.targets(keys[k])
			if err != nil {
				return err
			}
			for target, weight := range targets {
				canon, ok := canonOf[target]
				if !ok {
					canon = to.canonical(target)
					canonOf[target] = canon
				}
				sum, ok := next[canon]
				if !ok {
					sum = new(big.Int)
					next[canon] = sum
				}
				if weight.Hi == 0 {
					weightBig.SetUint64(weight.Lo)
				} else {
					weightBig = weight.Big()
				}
				sum.Add(sum, term.Mul(paths, weightBig))
			}
		}
		parts[w] = next
		return nil
	})
	if err != nil {
		return nil, err
	}
	merged := parts[0]
	for _, part := range parts[1:] {
		for key, v := range part {
			if sum, ok := merged[key]; ok {
				sum.Add(sum, v)
			} else {
				merged[key] = v
			}
		}
	}
	return merged, nil
}

// A state is the vector of the counts n(U) of one level, packed 6 bits a
// count, 10 counts a word: the count of masks[k] in word k/10, bits 6(k%10)
// to 6(k%10)+5. Counts are at most N ≤ 36, and a level has at most
// C(6,3) = 20 sets.
type state [2]uint64

const (
	countBits, countMask = 6, 1<<6 - 1
	countsPerWord        = 64 / countBits
	maxSets              = 20 // C(MaxSide, MaxSide/2)
)

// count returns the k-th count.
func (v state) count(k int) int {
	return int(v[k/countsPerWord] >> (countBits * (k % countsPerWord)) & countMask)
}

// add returns v with n added to the k-th count.
func (v state) add(k, n int) state {
	v[k/countsPerWord] += uint64(n) << (countBits * (k % countsPerWord))
	return v
}

// compare orders states by their second word, then their first: the
// order in which canonical takes the least image.
func (v state) compare(w state) int {
	if c := cmp.Compare(v[1], w[1]); c != 0 {
		return c
	}
	return cmp.Compare(v[0], w[0])
}

// subsetLevel lists the subsets of {0..r−1} with j elements, as bit masks
// in increasing order, and how each of a group of row relabellings
// permutes them.
type subsetLevel struct {
	r     int
	masks []uint8
	index [1 << MaxSide]int
	// perms[p][k] is the index of the image of masks[k] under the p-th
	// permutation of the rows.
	perms [][]int
	// images[p] is perms[p] as the places the counts move to, those
	// landing in the second word of a state first.
	images [][]placement
}

// placement sends count from of a state to bits shift.. of word word.
type placement struct {
	from, word int
	shift      uint
}

func newSubsetLevel(r, j int, relabellings [][]int) *subsetLevel {
	l := &subsetLevel{r: r}
	for m := 0; m < 1<<r; m++ {
		if bits.OnesCount(uint(m)) == j {
			l.index[m] = len(l.masks)
			l.masks = append(l.masks, uint8(m))
		}
	}
	for _, p := range relabellings {
		img := make([]int, len(l.masks))
		for k, m := range l.masks {
			var pm uint8
			for i := 0; i < r; i++ {
				if m&(1<<i) != 0 {
					pm |= 1 << p[i]
				}
			}
			img[k] = l.index[pm]
		}
		l.perms = append(l.perms, img)
		var high, low []placement
		for k, to := range img {
			pl := placement{from: k, word: to / countsPerWord, shift: uint(countBits * (to % countsPerWord))}
			if pl.word == 1 {
				high = append(high, pl)
			} else {
				low = append(low, pl)
			}
		}
		l.images = append(l.images, append(high, low...))
	}
	return l
}

// canonical returns the least packed value among the images of v under
// all row relabellings: one representative per orbit.
func (l *subsetLevel) canonical(v state) state {
	var counts [maxSets]uint64
	for k := range l.masks {
		counts[k] = uint64(v.count(k))
	}
	best := v
	for _, img := range l.images {
		var w state
		for x, pl := range img {
			// The second word is complete once the placements into it
			// are done: an image already above best in it is dropped.
			if pl.word == 0 && w[1] > best[1] {
				break
			}
			w[pl.word] |= counts[pl.from] << pl.shift
			if x == len(img)-1 && w.compare(best) < 0 {
				best = w
			}
		}
	}
	return best
}

// transition counts the ways box j+1 can be filled from a state of level
// j. It sends the symbols of one set U after another and merges partial
// fillings that agree on all the rest depends on: the counts so far of the
// new sets, and the room left in each row of the new box.
type transition struct {
	from, to *subsetLevel
	c        int
	binom    [][]uint64
	// splits[n][p] lists the ways to split n symbols into p ordered parts
	// of at most c each.
	splits [][][][]int
}

// partial is a partly filled new box: the counts of the new sets so far,
// and the room left in row i in bits 3i to 3i+2 (room is at most C ≤ 6,
// for at most 6 rows).
type partial struct {
	counts state
	room   uint32
}

const roomBits = 3

func newTransition(from, to *subsetLevel, c int, binom [][]uint64) *transition {
	n := len(binom) - 1
	parts := from.r - bits.OnesCount8(from.masks[0])
	splits := make([][][][]int, n+1)
	for k := range splits {
		splits[k] = make([][][]int, parts+1)
		for p := range splits[k] {
			splits[k][p] = compositions(k, p, c)
		}
	}
	return &transition{from: from, to: to, c: c, binom: binom, splits: splits}
}

// targets returns, for each state of level j+1 reachable from src, the
// number of ways to reach it. The weights fit in 128 bits: their sum is
// the number of ways to send each of N ≤ 36 symbols to one of at most
// R−1 ≤ 5 rows, at most 5^36 < 2^84; every product is checked all the same.
func (t *transition) targets(src state) (map[state]grid.Uint128, error) {
	r := t.from.r
	var full uint32
	for i := 0; i < r; i++ {
		full |= uint32(t.c) << (roomBits * i)
	}
	// later[i] counts the symbols of the sets not yet sent that may go to
	// row i: room beyond that can no longer be filled.
	later := make([]int, r)
	for u, mask := range t.from.masks {
		for i := 0; i < r; i++ {
			if mask&(1<<i) == 0 {
				later[i] += src.count(u)
			}
		}
	}
	layer := map[partial]grid.Uint128{{room: full}: {Lo: 1}}
	rows := make([]int, 0, r)
	for u, mask := range t.from.masks {
		n := src.count(u)
		if n == 0 {
			continue
		}
		rows = rows[:0]
		for i := 0; i < r; i++ {
			if mask&(1<<i) == 0 {
				rows = append(rows, i)
				later[i] -= n
			}
		}
		next := make(map[partial]grid.Uint128, len(layer))
		for p, weight := range layer {
		split:
			for _, parts := range t.splits[n][len(rows)] {
				q, w, left := p, weight, n
				for x, k := range parts {
					i := rows[x]
					if int(q.room>>(roomBits*i)&(1<<roomBits-1)) < k {
						continue split
					}
					q.room -= uint32(k) << (roomBits * i)
					q.counts = q.counts.add(t.to.index[mask|1<<i], k)
					var overflow bool
					if w, overflow = w.Mul64(t.binom[left][k]); overflow {
						return nil, errWeightOverflow
					}
					left -= k
				}
				for i := 0; i < r; i++ {
					if int(q.room>>(roomBits*i)&(1<<roomBits-1)) > later[i] {
						continue split
					}
				}
				sum, overflow := next[q].Add(w)
				if overflow {
					return nil, errWeightOverflow
				}
				next[q] = sum
			}
		}
		layer = next
	}
	out := make(map[state]grid.Uint128, len(layer))
	for p, w := range layer {
		sum, overflow := out[p.counts].Add(w) // all room is used up: the counts sum to R·C
		if overflow {
			return nil, errWeightOverflow
		}
		out[p.counts] = sum
	}
	return out, nil
}

// errWeightOverflow reports a transition weight beyond 128 bits, which the
// bound (R−1)^N < 2^84 rules out.
var errWeightOverflow = errors.New("band count: a transition weight overflowed 128 bits")

// compositions lists the ways to write n as an ordered sum of p parts,
// each from 0 to most.
func compositions(n, p, most int) [][]int {
	if p == 0 {
		if n == 0 {
			return [][]int{{}}
		}
		return nil
	}
	var out [][]int
	for k := 0; k <= min(n, most); k++ {
		for _, rest := range compositions(n-k, p-1, most) {
			out = append(out, append([]int{k}, rest...))
		}
	}
	return out
}

// binomials returns Pascal's triangle up to n.
func binomials(n int) [][]uint64 {
	b := make([][]uint64, n+1)
	for i := range b {
		b[i] = make([]uint64, i+1)
		b[i][0], b[i][i] = 1, 1
		for k := 1; k < i; k++ {
			b[i][k] = b[i-1][k-1] + b[i-1][k]
		}
	}
	return b
}

// permutations returns all permutations of 0..r−1.
func permutations(r int) [][]int {
	if r == 0 {
		return [][]int{{}}
	}
	var out [][]int
	for _, p := range permutations(r - 1) {
		for pos := 0; pos <= len(p); pos++ {
			q := make([]int, 0, r)
			q = append(q, p[:pos]...)
			q = append(q, r-1)
			q = append(q, p[pos:]...)
			out = append(out, q)
		}
	}
	return out
}
