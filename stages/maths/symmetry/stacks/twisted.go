package stacks

import (
	"context"
	"errors"
	"math/bits"
	"slices"

	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/perm"
)

// errTwistedOverflow is returned when a twisted stack count passes 2^64.
var errTwistedOverflow = errors.New("symmetry: twisted stack count exceeds 2^64")

// maxTwistedC is the widest box the twisted stack counter handles: a state
// keeps one row set per column cycle, as a rankBits-bit rank, in 64 bits.
const maxTwistedC = 6

// rankBits is the width of a row set's rank in a packed state: the rank of a
// 2c-bit mask among those of its popcount is below C(12,6) = 924 < 2^10.
const rankBits = 10

// maxRows is the number of rows of the widest box, 2·maxTwistedC.
const maxRows = 2 * maxTwistedC

// maskRank[m] is the rank of the row set m among the maxRows-bit masks of
// its popcount, in increasing order; maskOfRank[k][i] is the mask of
// popcount k and rank i. Ranks are increasing in the mask within one
// popcount, so the least of equally full row sets has the least rank; and
// the masks below 2^(2c) come first, so the ranks are the same for every
// c ≤ maxTwistedC.
var maskRank, maskOfRank = rankTables()

func rankTables() ([]uint16, [][]uint16) {
	rank := make([]uint16, 1<<maxRows)
	of := make([][]uint16, maxRows+1)
	for m := range 1 << maxRows {
		k := bits.OnesCount(uint(m))
		rank[m] = uint16(len(of[k]))
		of[k] = append(of[k], uint16(m))
	}
	return rank, of
}

// twistedStacks counts the stacks of a grid with boxes of 2 rows and c
// columns (2c rows, c columns, every column and every 2 × c box holding
// each of the n = 2c symbols once) whose rows hold given symbols and that
// are fixed by a map h = (ρ', κ') up to the relabelling τ:
//
//	L(ρ'(r), κ'(j)) = τ(L(r, j)) for every row r and column j.
//
// Row 2i is the upper row of band i and 2i+1 the lower; rows[x] is the set
// of rows holding symbol x (one row per band, as a bit mask), and must
// satisfy rows[τ(x)] = ρ'(rows[x]) (else no stack is fixed).
//
// A stack is a proper c-edge-colouring of the graph joining each symbol to
// its rows, the colours being the columns (see package pair). Fixed stacks
// are the colourings with col(τx, ρ'r) = κ'(col(x, r)): the colours of a
// symbol x fix those of its whole τ-cycle x, τx, …, τ^{ℓ-1}x, and are
// consistent when col(x, ρ'^ℓ r) = κ'^ℓ(col(x, r)). The dynamic programme
// places one τ-cycle at a time; its state is the set of rows of each
// column, which is invariant (R[κ'(j)] = ρ'(R[j])) after every whole
// cycle, so the row sets on one column of each κ'-cycle determine it.
// Relabelling the columns by any π that commutes with κ' maps fixed
// colourings to fixed colourings, so states equal up to such a π have the
// same completions and are merged: the centraliser of κ' rotates each of
// its cycles (changing the stored row set R to ρ'^j(R)) and permutes the
// cycles of equal length. A state is the least image, packed in 64 bits as
// the ranks of its row sets (see maskRank).
type twistedStacks struct {
	c, n      int
	rows      []uint16
	tau, rho  []int
	kappa     []int
	rhoOrd    int
	rhoPow    [][]uint16 // rhoPow[j][m] = ρ'^j(m) for row masks m
	kapPow    [][]int    // kapPow[j][col] = κ'^j(col), j ≤ n
	cycStart  []int      // a column of each κ'-cycle, cycles ordered by length
	cycLen    []int
	symCycles [][]int // the τ-cycles of the symbols, in placement order
}

// newTwisted prepares the counter; it returns nil when rows is not
// compatible with (ρ', τ), in which case no stack is fixed.
func newTwisted(c int, rows []uint16, tau, rho, kappa []int) *twistedStacks {
	n := 2 * c
	t := &twistedStacks{c: c, n: n, rows: rows, tau: tau, rho: rho, kappa: kappa}
	for x := range n {
		if rows[tau[x]] != mapMask(rho, rows[x]) {
			return nil
		}
	}
	t.rhoOrd = perm.Order(rho)
	pow := perm.Identity(2 * c)
	for range t.rhoOrd {
		tab := make([]uint16, 1<<n)
		for m := range tab {
			tab[m] = mapMask(pow, uint16(m))
		}
		t.rhoPow = append(t.rhoPow, tab)
		pow = perm.Compose(rho, pow)
	}
	kp := perm.Identity(c)
	for range n + 1 {
		t.kapPow = append(t.kapPow, kp)
		kp = perm.Compose(kappa, kp)
	}
	// κ'-cycles, shortest first (so equal lengths are adjacent).
	seen := make([]bool, c)
	type cyc struct{ start, l int }
	var cycs []cyc
	for j := range c {
		if seen[j] {
			continue
		}
		l := 0
		for y := j; !seen[y]; y = kappa[y] {
			seen[y] = true
			l++
		}
		cycs = append(cycs, cyc{j, l})
	}
	slices.SortStableFunc(cycs, func(a, b cyc) int { return a.l - b.l })
	for _, cy := range cycs {
		t.cycStart = append(t.cycStart, cy.start)
		t.cycLen = append(t.cycLen, cy.l)
	}
	// τ-cycles of the symbols, ordered to keep few rows partly filled.
	seenX := make([]bool, n)
	var xc [][]int
	for x := range n {
		if seenX[x] {
			continue
		}
		var cy []int
		for y := x; !seenX[y]; y = tau[y] {
			seenX[y] = true
			cy = append(cy, y)
		}
		xc = append(xc, cy)
	}
	t.symCycles = cycleOrder(c, rows, xc)
	return t
}

// mapMask returns the image of the row set m under the row permutation p.
func mapMask(p []int, m uint16) uint16 {
	var out uint16
	for ; m != 0; m &= m - 1 {
		out |= 1 << p[bits.TrailingZeros16(m)]
	}
	return out
}

// cycleOrder orders the symbol cycles to keep the DP's layers small: the
// order minimises the sum over prefixes S of Π_r C(c, d_S(r)), d_S(r) the
// number of symbols of S in row r (a bound on the ways to fill the partly
// filled rows), by a dynamic programme over the subsets of cycles; ties go
// to the lower cycle, so the order is deterministic.
func cycleOrder(c int, rows []uint16, cycles [][]int) [][]int {
	k := len(cycles)
	binom := make([]uint64, c+1)
	for d := range c + 1 {
		binom[d] = binomialU(c, d)
	}
	size := 1 << k
	best := make([]uint64, size)
	from := make([]int, size)
	for S := 1; S < size; S++ {
		var d [16]int
		for i := range k {
			if S>>i&1 == 1 {
				for _, x := range cycles[i] {
					for m := rows[x]; m != 0; m &= m - 1 {
						d[bits.TrailingZeros16(m)]++
					}
				}
			}
		}
		cost := uint64(1)
		for r := range 2 * c {
			cost = satMulU(cost, binom[min(d[r], c)])
		}
		b := ^uint64(0)
		for i := range k {
			if S>>i&1 == 1 && best[S&^(1<<i)] < b {
				b, from[S] = best[S&^(1<<i)], i
			}
		}
		best[S] = satAddU(b, cost)
	}
	out := make([][]int, k)
	for S, j := size-1, k-1; S != 0; j-- {
		i := from[S]
		out[j] = cycles[i]
		S &^= 1 << i
	}
	return out
}

func binomialU(n, k int) uint64 {
	r := uint64(1)
	for i := range k {
		r = r * uint64(n-i) / uint64(i+1)
	}
	return r
}

func satMulU(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	if hi != 0 {
		return ^uint64(0)
	}
	return lo
}

func satAddU(a, b uint64) uint64 {
	s, carry := bits.Add64(a, b, 0)
	if carry != 0 {
		return ^uint64(0)
	}
	return s
}

// count returns the number of fixed stacks.
func (t *twistedStacks) count(ctx context.Context) (uint64, error) {
	cur, next := new(stateTable), new(stateTable)
	cur.reset(1)
	cur.add(0, 1)
	var R [maxTwistedC]uint16
	placed := 0 // symbols placed: the rows of every column
	for _, cy := range t.symCycles {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		next.reset(cur.n)
		x0, l := cy[0], len(cy)
		var rowOf [maxTwistedC]int // x0's row in each band
		for m := t.rows[x0]; m != 0; m &= m - 1 {
			r := bits.TrailingZeros16(m)
			rowOf[r/2] = r
		}
		seen := 0
		for i, k1 := range cur.keys {
			if k1 == 0 {
				continue
			}
			// A layer of 2×6 can hold millions of states: look at the
			// context every 2^14 of them, so that a cancelled count
			// stops within a fraction of a second.
			if seen++; seen%(1<<14) == 0 {
				if err := ctx.Err(); err != nil {
					return 0, err
				}
			}
			v := cur.vals[i]
			t.unpack(k1-1, placed, &R)
			t.place(&R, rowOf, l, func(S *[maxTwistedC]uint16) {
				next.add(t.canonical(S), v)
			})
		}
		if next.overflow {
			return 0, errTwistedOverflow
		}
		cur, next = next, cur
		placed += l
		if cur.n == 0 {
			return 0, nil
		}
	}
	var e uint64
	for _, v := range cur.vals {
		e += v
	}
	return e, nil
}

// stateTable is one layer of the twisted counter: packed states (below
// 2^60) with their numbers of partial colourings, in an open-addressing
// hash table with linear probing, faster than a Go map on layers of
// millions of states. A slot's key is the state plus one, 0 marking an
// empty slot (the empty state packs to 0).
type stateTable struct {
	keys, vals []uint64
	n          int  // states held
	shift      uint // 64 - log2(len(keys))
	overflow   bool // a count passed 2^64
}

// reset empties the table, sized for about hint states.
func (s *stateTable) reset(hint int) {
	size := 16
	for size < 2*hint {
		size *= 2
	}
	if len(s.keys) >= size && len(s.keys) <= 4*size {
		clear(s.keys)
		clear(s.vals)
	} else {
		s.keys, s.vals = make([]uint64, size), make([]uint64, size)
	}
	s.n, s.overflow = 0, false
	s.shift = uint(64 - bits.TrailingZeros(uint(len(s.keys))))
}

// add adds v to the count of state k.
func (s *stateTable) add(k, v uint64) {
	k1 := k + 1
	mask := uint64(len(s.keys) - 1)
	for i := (k1 * 0x9E3779B97F4A7C15) >> s.shift; ; i = (i + 1) & mask {
		switch s.keys[i] {
		case k1:
			sum, carry := bits.Add64(s.vals[i], v, 0)
			s.vals[i] = sum
			s.overflow = s.overflow || carry != 0
			return
		case 0:
			s.keys[i], s.vals[i] = k1, v
			if s.n++; 2*s.n > len(s.keys) {
				s.grow()
			}
			return
		}
	}
}

// grow doubles the table.
func (s *stateTable) grow() {
	keys, vals := s.keys, s.vals
	s.keys, s.vals = make([]uint64, 2*len(keys)), make([]uint64, 2*len(keys))
	s.shift--
	mask := uint64(len(s.keys) - 1)
	for j, k1 := range keys {
		if k1 == 0 {
			continue
		}
		i := (k1 * 0x9E3779B97F4A7C15) >> s.shift
		for s.keys[i] != 0 {
			i = (i + 1) & mask
		}
		s.keys[i], s.vals[i] = k1, vals[j]
	}
}

// unpack restores every column's row set from a state whose columns hold
// `placed` rows each.
func (t *twistedStacks) unpack(k uint64, placed int, R *[maxTwistedC]uint16) {
	const mask = uint64(1)<<rankBits - 1
	of := maskOfRank[placed]
	for i, j0 := range t.cycStart {
		v := of[k>>(uint(i)*rankBits)&mask]
		for j := range t.cycLen[i] {
			R[t.kapPow[j][j0]] = t.rhoPow[j%t.rhoOrd][v]
		}
	}
}

// canonical returns the least image of the invariant state R under the
// centraliser of κ', packed. Every column holds equally many rows, so the
// least row set has the least rank.
func (t *twistedStacks) canonical(R *[maxTwistedC]uint16) uint64 {
	var vals [maxTwistedC]uint16
	for i, j0 := range t.cycStart {
		v := R[j0]
		best := v
		for j := 1; j < t.cycLen[i]; j++ {
			if w := t.rhoPow[j%t.rhoOrd][v]; w < best {
				best = w
			}
		}
		vals[i] = best
	}
	// sort within runs of equal cycle length
	for i := 1; i < len(t.cycStart); i++ {
		for j := i; j > 0 && t.cycLen[j-1] == t.cycLen[j] && vals[j-1] > vals[j]; j-- {
			vals[j-1], vals[j] = vals[j], vals[j-1]
		}
	}
	var k uint64
	for i := range t.cycStart {
		k |= uint64(maskRank[vals[i]]) << (uint(i) * rankBits)
	}
	return k
}

// place calls emit with every state reached from R by placing the τ-cycle
// of x0 (length l): x0's row of band i goes to column β(i) for a bijection
// β, and then τ^k(x0)'s row ρ'^k(r) to column κ'^k(β(band of r)), k < l.
// Every (column, row) cell must be new, and the cycle must close:
// x0's row ρ'^l(r) is in column κ'^l(col of r).
func (t *twistedStacks) place(R *[maxTwistedC]uint16, rowOf [maxTwistedC]int, l int, emit func(*[maxTwistedC]uint16)) {
	c := t.c
	var beta [maxTwistedC]int
	S := *R
	var rec func(i int, used uint8)
	rec = func(i int, used uint8) {
		if i == c {
			// closure: col(x0, ρ'^l r_i) = κ'^l(β(i))
			rl := t.rhoPow[l%t.rhoOrd]
			kl := t.kapPow[l]
			for b := range c {
				r2 := rl[1<<rowOf[b]]
				b2 := bits.TrailingZeros16(r2) / 2
				if 1<<rowOf[b2] != int(r2) || beta[b2] != kl[beta[b]] {
					return
				}
			}
			emit(&S)
			return
		}
		r := rowOf[i]
		for col := range c {
			if used>>col&1 == 1 {
				continue
			}
			// the cells (κ'^k col, ρ'^k r), k < l
			ok := true
			var added [16]uint16
			var addedCol [16]int
			na := 0
			for k := range l {
				kc := t.kapPow[k][col]
				rm := t.rhoPow[k%t.rhoOrd][1<<r]
				if S[kc]&rm != 0 {
					ok = false
					break
				}
				S[kc] |= rm
				added[na], addedCol[na] = rm, kc
				na++
			}
			if ok {
				beta[i] = col
				rec(i+1, used|1<<col)
			}
			for a := range na {
				S[addedCol[a]] &^= added[a]
			}
		}
	}
	rec(0, 0)
}
