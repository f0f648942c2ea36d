// Package pairindep is a second, independent count of the Sudoku grids
// whose boxes have 2 rows and c columns, for c ≤ 5, meant to check package
// pair: it shares no code with it and organises every step differently. Its
// stack count E(T) also reaches c = 6, to check pair's on 2×6 orbits. It
// uses only the standard library.
//
// Both rest on the pair method (see package pair for the derivation):
//
//	grids = Σ_T n!/Π_p m_p! · E(T)²,
//
// summed over the multisets T of n = 2c patterns in {0,1}^c with every bit
// set in exactly c of them, m_p the multiplicity of pattern p and E(T) the
// number of stacks (2c rows × c columns; each column and each 2 × c box
// holds every symbol once) whose upper row of band i holds the symbols with
// bit i set.
//
// Where pair groups the multisets into orbits of the symmetry group and
// weighs each orbit, this package walks every multiset (589,392 for c = 5)
// with its own enumeration, computes n!/Π m_p! for each, and uses symmetry
// only to avoid recomputing E. E(T) does not change when the bands are
// permuted (the stack's rows move in pairs) or when the two rows of a band
// are exchanged (a bit of every pattern is complemented). Each multiset is
// keyed by its least image under the band permutations (6,846 classes for
// c = 5); each class by its least image under band permutations and
// complements together (355 classes), found by trying all c!·2^c elements;
// and E is counted once per class of the second kind. Orbit sizes and
// weights are never used: the weight of every multiset is added on its own.
//
// E(T) is counted from the other side of the stack. Write the stack row by
// row: the c symbols of a row go to the c columns one each, and a symbol may
// not take a column it already has in another row. After some rows are
// filled, what matters for the rest is, for each column, the set of symbols
// it already holds; columns are interchangeable, so the state is the
// multiset of those c sets. A dynamic programme over the rows (in an order
// chosen to keep few symbols partly placed) keeps the number of partial
// stacks per state. Package pair instead goes symbol by symbol with the sets
// of rows per column.
package pairindep

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"math/bits"
	"runtime/debug"
	"sync"
	"sync/atomic"

	"github.com/sudoku-census/sudoku-census/stages/maths/parallel"
)

// MaxC is the widest box Count counts: for c = 6 it would walk
// 2,284,361,552 multisets.
const MaxC = 5

// MaxStacksC is the widest box Stacks counts: a state packs c symbol sets of
// 2c bits into two words.
const MaxStacksC = 6

// ErrOverflow is returned when a stack count exceeds 64 bits (it does not
// for c ≤ MaxStacksC; the check keeps results exact).
var ErrOverflow = errors.New("pairindep: stack count exceeds 2^64")

func checkC(c int) error {
	if c < 1 || c > MaxC {
		return fmt.Errorf("pairindep: c = %d: want 1 ≤ c ≤ %d", c, MaxC)
	}
	return nil
}

// Count returns the number of Sudoku grids with boxes of 2 rows × c columns,
// 1 ≤ c ≤ MaxC, using workers goroutines (at least one). The terms are added
// over the multisets in a fixed order, so the result does not depend on
// workers.
//
// The steps: walk every multiset T, noting n!/Π m_p! and its patterns; key
// each by its least image under the band permutations (in parallel); for
// each distinct key, find the least image of that class under the band
// permutations combined with complementing bits (exchanging the rows of
// some bands), which E also ignores; count E once per distinct class of
// that kind (in parallel); add up the weighted squares in walk order.
func Count(ctx context.Context, c, workers int) (*big.Int, error) {
	if err := checkC(c); err != nil {
		return nil, err
	}
	n := 2 * c
	fact := factorials(n)
	var all [][]uint8 // the multisets, as pattern lists
	var weights []uint64
	seen := 0
	err := walkMultisets(c, func(counts []int) error {
		seen++
		if seen%2048 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		pats := make([]uint8, 0, n)
		w := fact[n]
		for p, m := range counts {
			for range m {
				pats = append(pats, uint8(p))
			}
			w /= fact[m]
		}
		all = append(all, pats)
		weights = append(weights, w)
		return nil
	})
	if err != nil {
		return nil, err
	}
	perms := bandPermutations(c)
	bandKey := make([]uint64, len(all))
	err = parallelFor(ctx, len(all), workers, func(i int) error {
		bandKey[i] = leastBandImage(all[i], perms)
		return nil
	})
	if err != nil {
		return nil, err
	}
	// Classes under band permutations, numbered in walk order.
	classOf := map[uint64]int{}
	var members []int // a multiset of each class
	class := make([]int, len(all))
	for i, k := range bandKey {
		j, ok := classOf[k]
		if !ok {
			j = len(members)
			classOf[k] = j
			members = append(members, i)
		}
		class[i] = j
	}
	fullKey := make([]uint64, len(members))
	err = parallelFor(ctx, len(members), workers, func(j int) error {
		fullKey[j] = leastImage(all[members[j]], perms)
		return nil
	})
	if err != nil {
		return nil, err
	}
	// Distinct classes under the whole group, numbered in walk order.
	slotOf := map[uint64]int{}
	var reps []int
	slot := make([]int, len(members))
	for j, k := range fullKey {
		s, ok := slotOf[k]
		if !ok {
			s = len(reps)
			slotOf[k] = s
			reps = append(reps, members[j])
		}
		slot[j] = s
	}
	es := make([]uint64, len(reps))
	err = parallelFor(ctx, len(reps), workers, func(s int) error {
		e, err := stacks(ctx, c, all[reps[s]])
		es[s] = e
		return err
	})
	if err != nil {
		return nil, err
	}
	total := new(big.Int)
	t := new(big.Int)
	for i, w := range weights {
		t.SetUint64(es[slot[class[i]]])
		t.Mul(t, t)
		t.Mul(t, new(big.Int).SetUint64(w))
		total.Add(total, t)
	}
	return total, nil
}

// parallelFor calls fn(i) for i in [0, n) on workers goroutines, which take
// the indices in turn, and returns the error of the lowest index that
// failed, or ctx's error (a panic in fn is returned as a *parallel.PanicError; after
// an error or cancellation the workers stop taking indices).
func parallelFor(ctx context.Context, n, workers int, fn func(i int) error) error {
	workers = max(1, min(workers, n))
	var mu sync.Mutex
	firstAt, first := n, error(nil)
	fail := func(i int, err error) {
		mu.Lock()
		if i < firstAt {
			firstAt, first = i, err
		}
		mu.Unlock()
	}
	var next atomic.Int64
	var failed atomic.Bool
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			i := -1
			defer func() {
				if v := recover(); v != nil {
					fail(i, &parallel.PanicError{Value: v, Stack: debug.Stack()})
					failed.Store(true)
				}
			}()
			for {
				i = int(next.Add(1) - 1)
				if i >= n || failed.Load() {
					return
				}
				if i%256 == 0 {
					if err := ctx.Err(); err != nil {
						fail(i, err)
						failed.Store(true)
						return
					}
				}
				if hook != nil {
					hook(i)
				}
				if err := fn(i); err != nil {
					fail(i, err)
					failed.Store(true)
					return
				}
			}
		}()
	}
	wg.Wait()
	if first != nil {
		return first
	}
	return ctx.Err()
}

// hook, when set by a test, is called by a worker before each index.
var hook func(i int)

func factorials(n int) []uint64 {
	f := make([]uint64, n+1)
	f[0] = 1
	for i := 1; i <= n; i++ {
		f[i] = f[i-1] * uint64(i)
	}
	return f
}

// walkMultisets calls visit with the multiplicity of every pattern
// (counts[p] = m_p) for each multiset of c, in a fixed order. It decides the
// multiplicities of the patterns 0, 1, …, 2^c - 1 in turn, entering only
// branches that can still be completed (memoised on the next pattern, the
// patterns left and the ones still owed to each bit).
func walkMultisets(c int, visit func(counts []int) error) error {
	n := 2 * c
	np := 1 << c
	counts := make([]int, np)
	owed := make([]int, c)
	for i := range owed {
		owed[i] = c
	}
	// can[(p·(n+1)+left)·(c+1)^c + owed] ∈ {0 unknown, 1 no, 2 yes}
	radix := 1
	for range c {
		radix *= c + 1
	}
	can := make([]uint8, (np+1)*(n+1)*radix)
	code := func() int {
		k := 0
		for i := c - 1; i >= 0; i-- {
			k = k*(c+1) + owed[i]
		}
		return k
	}
	var feasible func(p, left int) bool
	feasible = func(p, left int) bool {
		for _, o := range owed {
			if o < 0 || o > left {
				return false
			}
		}
		if left == 0 {
			return true
		}
		if p == np {
			return false
		}
		idx := (p*(n+1)+left)*radix + code()
		if can[idx] != 0 {
			return can[idx] == 2
		}
		ok := false
		for m := 0; m <= left && !ok; m++ {
			addPattern(owed, p, -m)
			ok = feasible(p+1, left-m)
			addPattern(owed, p, m)
		}
		can[idx] = 1
		if ok {
			can[idx] = 2
		}
		return ok
	}
	var rec func(p, left int) error
	rec = func(p, left int) error {
		if left == 0 {
			return visit(counts)
		}
		for m := left; m >= 0; m-- {
			addPattern(owed, p, -m)
			if feasible(p+1, left-m) {
				counts[p] = m
				if err := rec(p+1, left-m); err != nil {
					return err
				}
				counts[p] = 0
			}
			addPattern(owed, p, m)
		}
		return nil
	}
	return rec(0, n)
}

// addPattern adds m to owed[i] for every bit i of p.
func addPattern(owed []int, p, m int) {
	for i := range owed {
		if p>>i&1 == 1 {
			owed[i] += m
		}
	}
}

// bandPermutations returns, for each permutation of the c bands, the table
// of its action on patterns.
func bandPermutations(c int) [][]uint8 {
	var out [][]uint8
	img := make([]int, c)
	var used int
	var gen func(i int)
	gen = func(i int) {
		if i == c {
			t := make([]uint8, 1<<c)
			for p := range t {
				q := 0
				for b := 0; b < c; b++ {
					q |= (p >> b & 1) << img[b]
				}
				t[p] = uint8(q)
			}
			out = append(out, t)
			return
		}
		for v := 0; v < c; v++ {
			if used>>v&1 == 0 {
				used |= 1 << v
				img[i] = v
				gen(i + 1)
				used &^= 1 << v
			}
		}
	}
	gen(0)
	return out
}

// leastBandImage returns the least, over the band permutations perms, of
// the image of the multiset pats written as a word: the image's patterns in
// decreasing order, 5 bits each (c ≤ 5, so 10 patterns fill 50 bits). An
// image is abandoned as soon as its leading patterns exceed the best's.
func leastBandImage(pats []uint8, perms [][]uint8) uint64 {
	n := len(pats)
	best := ^uint64(0)
	var count [32]uint8
	for _, t := range perms {
		var present uint32
		for _, p := range pats {
			q := t[p]
			present |= 1 << q
			count[q]++
		}
		var k uint64
		emitted := 0
		tied := true // the patterns so far equal the best's
		for present != 0 {
			q := 31 - bits.LeadingZeros32(present)
			present &^= 1 << q
			for ; count[q] > 0; count[q]-- {
				if !tied && k == ^uint64(0) {
					continue // abandoned: only clear the counts
				}
				k = k<<5 | uint64(q)
				emitted++
				if tied {
					if b := best >> (5 * (n - emitted)); k > b {
						tied, k = false, ^uint64(0)
					} else if k < b {
						tied = false
					}
				}
			}
		}
		if k < best {
			best = k
		}
	}
	return best
}

// leastImage returns the least image of pats under the whole group: band
// permutations combined with complementing any set of bits.
func leastImage(pats []uint8, perms [][]uint8) uint64 {
	c := len(pats) / 2
	best := ^uint64(0)
	flipped := make([]uint8, len(pats))
	for m := 0; m < 1<<c; m++ {
		for j, p := range pats {
			flipped[j] = p ^ uint8(m)
		}
		if k := leastBandImage(flipped, perms); k < best {
			best = k
		}
	}
	return best
}

// Stacks returns E(T) for the multiset T given by patterns (2c patterns,
// any order, every bit set in exactly c of them), 1 ≤ c ≤ MaxStacksC.
func Stacks(ctx context.Context, c int, patterns []uint8) (uint64, error) {
	if c < 1 || c > MaxStacksC {
		return 0, fmt.Errorf("pairindep: Stacks: c = %d: want 1 ≤ c ≤ %d", c, MaxStacksC)
	}
	if len(patterns) != 2*c {
		return 0, fmt.Errorf("pairindep: %d patterns for c = %d", len(patterns), c)
	}
	for i := 0; i < c; i++ {
		ones := 0
		for _, p := range patterns {
			if p>>c != 0 {
				return 0, fmt.Errorf("pairindep: pattern %d too wide for c = %d", p, c)
			}
			ones += int(p >> i & 1)
		}
		if ones != c {
			return 0, fmt.Errorf("pairindep: bit %d set in %d patterns, want %d", i, ones, c)
		}
	}
	return stacks(ctx, c, patterns)
}

// stacks counts the stacks of a valid multiset row by row: the state after
// some rows is the sorted list of the symbol sets of the c columns, the
// first c-1 packed 2c bits each into one word (60 bits for c = 6) and the
// last in a second.
func stacks(ctx context.Context, c int, patterns []uint8) (uint64, error) {
	n := 2 * c
	// Row 2i is the upper row of band i (the symbols with bit i set), row
	// 2i+1 the lower.
	rowSyms := make([][]int, n)
	for x, p := range patterns {
		for i := 0; i < c; i++ {
			r := 2*i + 1 - int(p>>i&1)
			rowSyms[r] = append(rowSyms[r], x)
		}
	}
	order := rowOrder(c, rowSyms)
	width := uint(n)
	field := uint64(1)<<width - 1
	cur := map[[2]uint64]uint64{{}: 1}
	cols := make([]uint64, c)
	taken := make([]bool, c)
	var next map[[2]uint64]uint64
	overflow := false
	var assign func(k int, w uint64)
	var row []int
	assign = func(k int, w uint64) {
		if k == len(row) {
			var sorted [MaxStacksC]uint64
			copy(sorted[:], cols)
			for a := 1; a < c; a++ { // insertion sort, increasing
				for b := a; b > 0 && sorted[b] < sorted[b-1]; b-- {
					sorted[b], sorted[b-1] = sorted[b-1], sorted[b]
				}
			}
			key := [2]uint64{1: sorted[c-1]}
			for _, s := range sorted[:c-1] {
				key[0] = key[0]<<width | s
			}
			sum, carry := bits.Add64(next[key], w, 0)
			if carry != 0 {
				overflow = true
			}
			next[key] = sum
			return
		}
		// Free columns holding the same set give the same state whichever
		// of them x takes: try the first of each such group, with the
		// count multiplied by the group's size.
		x := row[k]
	columns:
		for j := 0; j < c; j++ {
			if taken[j] || cols[j]>>x&1 == 1 {
				continue
			}
			same := uint64(1)
			for i := 0; i < c; i++ {
				if i != j && !taken[i] && cols[i] == cols[j] {
					if i < j {
						continue columns // tried with column i
					}
					same++
				}
			}
			hi, lo := bits.Mul64(w, same)
			if hi != 0 {
				overflow = true
				return
			}
			taken[j] = true
			cols[j] |= 1 << x
			assign(k+1, lo)
			cols[j] &^= 1 << x
			taken[j] = false
		}
	}
	steps := 0
	for _, r := range order {
		row = rowSyms[r]
		next = make(map[[2]uint64]uint64, 2*len(cur))
		for key, w := range cur {
			steps++
			if steps%1024 == 0 {
				if err := ctx.Err(); err != nil {
					return 0, err
				}
			}
			cols[c-1] = key[1]
			for j := c - 2; j >= 0; j-- {
				cols[j] = key[0] & field
				key[0] >>= width
			}
			assign(0, w)
		}
		if overflow {
			return 0, ErrOverflow
		}
		cur = next
	}
	var e uint64
	for _, w := range cur {
		e += w
	}
	return e, nil
}

// rowOrder returns the order in which to fill the rows: the one minimising
// the sum, over the prefixes, of Π_x C(c, k_x), where k_x counts the rows of
// the prefix holding symbol x (a rough count of the states), found by a
// dynamic programme over the sets of rows.
func rowOrder(c int, rowSyms [][]int) []int {
	n := 2 * c
	binom := make([]float64, c+1)
	for k := 0; k <= c; k++ {
		binom[k] = 1
		for i := 0; i < k; i++ {
			binom[k] = binom[k] * float64(c-i) / float64(i+1)
		}
	}
	best := make([]float64, 1<<n)
	last := make([]int, 1<<n)
	inRows := make([]int, n)
	for set := 1; set < 1<<n; set++ {
		for x := range inRows {
			inRows[x] = 0
		}
		for r := 0; r < n; r++ {
			if set>>r&1 == 1 {
				for _, x := range rowSyms[r] {
					inRows[x]++
				}
			}
		}
		cost := 1.0
		for _, k := range inRows {
			cost *= binom[k]
		}
		best[set] = -1
		for r := 0; r < n; r++ {
			if set>>r&1 == 1 {
				if v := best[set&^(1<<r)] + cost; best[set] < 0 || v < best[set] {
					best[set], last[set] = v, r
				}
			}
		}
	}
	order := make([]int, n)
	for set, j := 1<<n-1, n-1; j >= 0; j-- {
		order[j] = last[set]
		set &^= 1 << last[set]
	}
	return order
}
