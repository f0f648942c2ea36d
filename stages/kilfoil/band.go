package kilfoil

import (
	"fmt"
	"math/big"
	"math/bits"
	"runtime"
	"sort"
	"sync"

	"github.com/sudoku-census/sudoku-census/stages/grid"
)

// MaxSide is the largest box side (R or C) the band counter accepts. The
// estimate of an R×C shape needs the bands of both R×C and C×R, so both
// sides are bounded. The dynamic programme is over subsets of the R rows of
// a band; for R = 5 it takes well under a second.
const MaxSide = 5

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
// A(i,j) of C symbols that row i holds in box j, such that every row holds
// each symbol once and every box holds each symbol once.
//
// Call the row of the first box that holds a symbol its type. A symbol's
// rows in boxes 2..R are distinct and differ from its type, so after boxes
// 1..j every symbol has a set U of j used rows, and only the counts n(U) of
// symbols per set matter for what can follow. Box j+1 sends each symbol to
// one row outside its U, every row receiving exactly C symbols; sending
// k(U,i) of the n(U) interchangeable-so-far but distinct symbols to row i
// can be done in n(U)!/∏ᵢ k(U,i)! ways. M is the weighted number of paths
// from n({i}) = C for every i to n({1..R}) = N. States equal up to a
// relabelling of the rows have the same future, so each level keeps one
// state per orbit, under the least permuted vector, and the sum of the path
// weights over the orbit.
func BandCompletions(s grid.Shape) (*big.Int, error) {
	if s.R < 1 || s.C < 1 || s.R > MaxSide || s.C > MaxSide {
		return nil, fmt.Errorf("band count of %v: box sides must be between 1 and %d", s, MaxSide)
	}
	r, c := s.R, s.C
	levels := make([]*subsetLevel, r+1)
	for j := 0; j <= r; j++ {
		levels[j] = newSubsetLevel(r, j)
	}
	start := make([]uint8, len(levels[1].masks))
	for i := range start {
		start[i] = uint8(c)
	}
	states := map[string]*big.Int{string(start): big.NewInt(1)}
	binom := binomials(r * c)
	for j := 1; j < r; j++ {
		states = advance(states, levels[j], levels[j+1], c, binom)
	}
	if len(states) != 1 {
		return nil, fmt.Errorf("band count of %v: %d final states, want 1", s, len(states))
	}
	for _, m := range states {
		return m, nil
	}
	panic("unreachable")
}

// advance returns the states of level j+1 and their path weights, given
// those of level j. The source states are dealt round-robin to one worker
// per processor; as the sums are exact, the merge order cannot change them.
func advance(states map[string]*big.Int, from, to *subsetLevel, c int, binom [][]uint64) map[string]*big.Int {
	keys := sortedKeys(states)
	workers := min(runtime.GOMAXPROCS(0), len(keys))
	parts := make([]map[string]*big.Int, workers)
	var wg sync.WaitGroup
	for w := range parts {
		wg.Go(func() {
			next := make(map[string]*big.Int)
			step := newTransition(from, to, c, binom)
			term := new(big.Int)
			for k := w; k < len(keys); k += workers {
				paths := states[keys[k]]
				for target, weight := range step.targets([]byte(keys[k])) {
					canon := to.canonical([]byte(target))
					sum, ok := next[canon]
					if !ok {
						sum = new(big.Int)
						next[canon] = sum
					}
					sum.Add(sum, term.Mul(paths, term.SetUint64(weight)))
				}
			}
			parts[w] = next
		})
	}
	wg.Wait()
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
	return merged
}

// subsetLevel lists the subsets of {0..r−1} with j elements, as bit masks
// in increasing order, and how each row relabelling permutes them.
type subsetLevel struct {
	r     int
	masks []uint8
	index [1 << MaxSide]int
	// perms[p][k] is the index of the image of masks[k] under the p-th
	// permutation of the rows.
	perms [][]int
}

func newSubsetLevel(r, j int) *subsetLevel {
	l := &subsetLevel{r: r}
	for m := 0; m < 1<<r; m++ {
		if bits.OnesCount(uint(m)) == j {
			l.index[m] = len(l.masks)
			l.masks = append(l.masks, uint8(m))
		}
	}
	for _, p := range permutations(r) {
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
	}
	return l
}

// canonical returns the least vector, in lexicographic order, among the
// images of v under all row relabellings.
func (l *subsetLevel) canonical(v []byte) string {
	best := append([]byte(nil), v...)
	cand := make([]byte, len(v))
	for _, img := range l.perms {
		for k, x := range v {
			cand[img[k]] = x
		}
		if string(cand) < string(best) {
			copy(best, cand)
		}
	}
	return string(best)
}

// transition enumerates the ways box j+1 can be filled from a state of
// level j.
type transition struct {
	from, to *subsetLevel
	c        int
	binom    [][]uint64
	// per call
	src  []byte
	dst  []byte
	room []int // symbols row i can still take in the new box
	// later[u][i] counts the symbols of the sets after masks[u] that may
	// go to row i: room beyond that can no longer be filled.
	later [][]int
	out   map[string]uint64
}

func newTransition(from, to *subsetLevel, c int, binom [][]uint64) *transition {
	later := make([][]int, len(from.masks))
	for u := range later {
		later[u] = make([]int, from.r)
	}
	return &transition{
		from: from, to: to, c: c, binom: binom,
		dst:   make([]byte, len(to.masks)),
		room:  make([]int, from.r),
		later: later,
	}
}

// targets returns, for each state of level j+1 reachable from src, the
// number of ways to reach it. The weights fit in a uint64: their sum is
// the number of ways to send each of N ≤ 25 symbols to one of at most
// R−1 ≤ 4 rows, at most 4^25 = 2^50.
func (t *transition) targets(src []byte) map[string]uint64 {
	t.src = src
	clear(t.dst)
	for i := range t.room {
		t.room[i] = t.c
	}
	for u := len(src) - 1; u >= 0; u-- {
		for i := range t.later[u] {
			t.later[u][i] = 0
			if u+1 < len(src) {
				t.later[u][i] = t.later[u+1][i]
				if t.from.masks[u+1]&(1<<i) == 0 {
					t.later[u][i] += int(src[u+1])
				}
			}
		}
	}
	t.out = make(map[string]uint64)
	t.place(0, 0, int(src[0]), 1)
	return t.out
}

// place distributes the left symbols of set masks[u] still unplaced among
// rows row.. outside the set, then moves on to the next set.
func (t *transition) place(u, row, left int, weight uint64) {
	if left == 0 {
		u++
		for u < len(t.src) && t.src[u] == 0 {
			u++
		}
		if u == len(t.src) {
			t.out[string(t.dst)] += weight
			return
		}
		t.place(u, 0, int(t.src[u]), weight)
		return
	}
	mask := t.from.masks[u]
	for mask&(1<<row) != 0 {
		row++
	}
	last := row + 1
	for last < t.from.r && mask&(1<<last) != 0 {
		last++
	}
	least := 0 // the last row outside the set takes all that is left
	if last == t.from.r {
		least = left
	}
	into := t.to.index[mask|1<<row]
	for k := min(left, t.room[row]); k >= least; k-- {
		t.room[row] -= k
		if t.fillable(u, row, mask, left-k) {
			t.dst[into] += byte(k)
			t.place(u, row+1, left-k, weight*t.binom[left][k])
			t.dst[into] -= byte(k)
		}
		t.room[row] += k
	}
}

// fillable reports whether every row's room can still be met by the
// symbols yet to be placed: the rest of set masks[u], which may go to rows
// after row outside the set, and the later sets.
func (t *transition) fillable(u, row int, mask uint8, rest int) bool {
	for i, room := range t.room {
		avail := t.later[u][i]
		if i > row && mask&(1<<i) == 0 {
			avail += rest
		}
		if room > avail {
			return false
		}
	}
	return true
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

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
