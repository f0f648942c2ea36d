package shapes

import (
	"math/big"
	"math/bits"
	"sync"
	"sync/atomic"
)

// The pair method counts grids whose boxes have 2 rows and C columns
// (side n = 2C, so the grid has two stacks and C bands).
//
// Stack signature. In the left stack, row 2i (the upper row of band i)
// holds some C-set s_i of the n symbols and row 2i+1 its complement, since
// their box holds every symbol once. The right stack's row r holds the
// complement of the left stack's row r. Given the left stack, any right
// stack whose rows hold those complements completes the grid: rows are
// then full, and each right box holds s̄_i ∪ s_i, every symbol. So
//
//	grids = Σ_σ E(σ)·E(σ̄),
//
// summed over the C^n-tuples σ = (s_0, …, s_{C-1}), where E(σ) counts the
// stacks (n rows × C columns, every column a permutation of the symbols)
// whose rows hold σ's sets, and σ̄ complements each set. Exchanging rows 2i
// and 2i+1 of every band maps the stacks of σ̄ one to one onto those of σ
// (columns stay permutations), so E(σ̄) = E(σ) and grids = Σ_σ E(σ)².
//
// Symbol patterns. E(σ) is unchanged by relabelling symbols, so it depends
// only on the multiset T of patterns p_x ∈ {0,1}^C, where bit i of p_x says
// whether symbol x lies in s_i; each bit is set in exactly C patterns. The
// tuples σ with pattern multiset T number n!/Π_p c_p!, with c_p the
// multiplicity of pattern p, so
//
//	grids = Σ_T n!/Π_p c_p! · E(T)².
//
// Counting stacks. In a stack, symbol x lies in band i exactly once (the
// box holds it once) and in column j exactly once, so the columns it takes
// in bands 0, …, C-1 form a permutation of the C columns. In band i, the C
// symbols of s_i (upper row) take the C columns one each, and so do the C
// symbols of its complement (lower row). E(T) counts these assignments band
// by band, memoising on the set of columns each symbol has used; columns are
// interchangeable, so band 0's upper row is fixed in order and the count
// multiplied by C!.

// maxPairC is the widest box the pair method takes: the memo key packs C
// bits for each of the 2C symbols into 64 bits.
const maxPairC = 5

// patternMultisets calls visit with every multiset T of n = 2c patterns in
// {0,1}^c whose bits are each set in exactly c patterns, as a count per
// pattern (counts[p] = c_p), always in the same order. There are 28 for
// c = 3, 1,450 for c = 4 and 589,392 for c = 5.
func patternMultisets(c int, visit func(counts []int)) {
	n, patterns := 2*c, 1<<c
	counts := make([]int, patterns)
	sums := make([]int, c) // patterns so far with bit i set
	var rec func(p, left int)
	rec = func(p, left int) {
		for i := range c {
			if sums[i] > c || sums[i]+left < c {
				return
			}
		}
		if left == 0 {
			visit(counts)
			return
		}
		if p == patterns {
			return
		}
		for k := left; k >= 0; k-- {
			counts[p] = k
			for i := range c {
				if p>>i&1 == 1 {
					sums[i] += k
				}
			}
			rec(p+1, left-k)
			for i := range c {
				if p>>i&1 == 1 {
					sums[i] -= k
				}
			}
		}
		counts[p] = 0
	}
	rec(0, n)
}

// stackCounter counts the stacks E(T) of one pattern multiset.
type stackCounter struct {
	c        int
	patterns []uint8 // pattern of each symbol
	memo     map[uint64]uint64
}

// stacks returns E(T) for the symbols' patterns.
func (s *stackCounter) stacks(patterns []uint8) uint64 {
	s.patterns = patterns
	clear(s.memo)
	// Band 0: its upper row's symbols take columns 0, 1, … in order (the
	// factor c! below restores the other orders).
	var state uint64
	col := 0
	for x, p := range patterns {
		if p&1 == 1 {
			state |= 1 << (uint(x*s.c) + uint(col))
			col++
		}
	}
	return factorial(s.c) * s.lower(0, state)
}

// fromBand counts the ways to fill bands i… given the columns each symbol
// has used (state: c bits per symbol).
func (s *stackCounter) fromBand(i int, state uint64) uint64 {
	if i == s.c {
		return 1
	}
	if v, ok := s.memo[state]; ok {
		return v
	}
	v := s.upper(i, 0, state, 0)
	s.memo[state] = v
	return v
}

// upper assigns the columns of band i's upper-row symbols from symbol x on
// (taken: the columns already given to this row), then the lower row.
func (s *stackCounter) upper(i, x int, state uint64, taken uint) uint64 {
	for x < len(s.patterns) && s.patterns[x]>>i&1 == 0 {
		x++
	}
	if x == len(s.patterns) {
		return s.lower(i, state)
	}
	used := uint(state>>(uint(x*s.c))) & (1<<s.c - 1)
	var total uint64
	for free := ^(used | taken) & (1<<s.c - 1); free != 0; free &= free - 1 {
		bit := free & -free
		total += s.upper(i, x+1, state|uint64(bit)<<uint(x*s.c), taken|bit)
	}
	return total
}

// lower assigns the columns of band i's lower-row symbols, then moves on to
// band i+1.
func (s *stackCounter) lower(i int, state uint64) uint64 {
	return s.lowerFrom(i, 0, state, 0)
}

func (s *stackCounter) lowerFrom(i, x int, state uint64, taken uint) uint64 {
	for x < len(s.patterns) && s.patterns[x]>>i&1 == 1 {
		x++
	}
	if x == len(s.patterns) {
		return s.fromBand(i+1, state)
	}
	used := uint(state>>(uint(x*s.c))) & (1<<s.c - 1)
	var total uint64
	for free := ^(used | taken) & (1<<s.c - 1); free != 0; free &= free - 1 {
		bit := free & -free
		total += s.lowerFrom(i, x+1, state|uint64(bit)<<uint(x*s.c), taken|bit)
	}
	return total
}

func factorial(k int) uint64 {
	f := uint64(1)
	for i := 2; i <= k; i++ {
		f *= uint64(i)
	}
	return f
}

// PairCount returns the number of grids with boxes of 2 rows × c columns
// (equal to that for c rows × 2 columns, the transpose), for 1 ≤ c ≤
// maxPairC, with workers goroutines; the sum is taken in a fixed order.
func PairCount(c, workers int) *big.Int {
	n := 2 * c
	var jobs [][]uint8
	var weights []uint64
	patternMultisets(c, func(counts []int) {
		var pats []uint8
		w := factorial(n)
		for p, k := range counts {
			for range k {
				pats = append(pats, uint8(p))
			}
			w /= factorial(k)
		}
		jobs = append(jobs, pats)
		weights = append(weights, w)
	})
	sq := make([][2]uint64, len(jobs)) // E(T)², 128 bits
	var next atomic.Int64
	var wg sync.WaitGroup
	for range max(1, workers) {
		wg.Go(func() {
			s := &stackCounter{c: c, memo: map[uint64]uint64{}}
			for {
				j := int(next.Add(1) - 1)
				if j >= len(jobs) {
					return
				}
				e := s.stacks(jobs[j])
				hi, lo := bits.Mul64(e, e)
				sq[j] = [2]uint64{hi, lo}
			}
		})
	}
	wg.Wait()
	total, term := new(big.Int), new(big.Int)
	for j, e2 := range sq {
		term.SetUint64(e2[0]).Lsh(term, 64).Or(term, new(big.Int).SetUint64(e2[1]))
		total.Add(total, term.Mul(term, new(big.Int).SetUint64(weights[j])))
	}
	return total
}
