package walkbands

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
)

// Conditional Monte Carlo on the last band. A walk (or stochastic
// enumeration) of package walks with its Variant's LastBand set fills, in MRV order, only the cells of the
// first N − R rows (the bands but the last), and then counts the
// completions of the last band exactly instead of sampling them.
//
// Why the count is cheap: once rows 0…N−R−1 are full, column j lacks
// exactly R symbols, a set S_j, and each symbol is missing from exactly R
// columns (it sits once in each full row, in N − R distinct columns). The
// last band's boxes are empty, so a completion is an R×N array whose column
// j is an ordering of S_j, whose rows hold distinct symbols, and whose boxes
// do (the S_j of a box's C columns disjoint: checked once, else 0). For
// R = 1 the completion is forced. For R = 2 put a symbol as an edge between
// the two columns lacking it: every column has degree 2, so the graph is a
// union of cycles, and each cycle is filled in exactly 2 ways (the symbol
// on top alternates around the cycle), so the count is 2^cycles. For R = 3
// the top row is a system of distinct representatives of the S_j (a
// perfect matching of columns and symbols), enumerated by depth-first
// search, and the two rows left are the R = 2 case on what remains.
//
// Speed (the stack estimator spends most of a sample here, 85% on
// 30×30): the search keeps, as the top row takes symbols, the columns
// holding each symbol and the columns grouped by their symbols left, so
// that it finds its next column and a leaf its cycles without rescanning;
// the counts and the work counted are those of the plain scan (the same
// samples' moments, byte for byte, on eight variants from 9×9 to 25×25).
// BenchmarkSample-style timing on the shared machine: 16×16 stackshybrid@8
// (12 exact columns) 2.1–2.3 → 1.65–1.68 ms a sample, 25×25 stackshybrid
// 64 → 42 ms.
//
// Unbiasedness: the MRV choice among the cells of the upper bands is a
// function of the partial grid, so the upper bands' placements form a
// search tree of depth (N − R)·N whose leaves are the fillings of the upper
// bands reached without a dead end. Scoring a leaf by its exact number of
// completions L makes Knuth's estimator (and stochastic enumeration, by the
// argument in walks.Enumerator's doc with L at depth (N − R)·N instead of 1 at
// depth N²) unbiased for Σ L = the number of grids. A cell of the last band
// left without candidates ends the walk early with 0, which is its exact
// count. All variance below depth (N − R)·N is gone.
//
// The counts are exact in uint64 with every addition checked: the number of
// matchings of an R-regular bipartite graph on N + N vertices is at most
// (R!)^(N/R) (Brégman), times at most 2^(N/2) cycles, which walks.NewSampler
// checks against 2^64 with the budget (LastBandFits).

// LastBand counts the completions of the last band of one shape.
type LastBand struct {
	// Work is the work of the counts (sets and columns examined) since the
	// caller last set it to 0.
	Work    int64
	n, r, c int
	first   int      // first cell of the last band, (N − R)·N
	sets    []uint64 // S_j of the last sample
	cols    []uint64 // columns whose set holds each symbol (cycles)
	used    uint64   // symbols taken by the top row so far (R = 3)
	// kept: cols is kept up to date by top as the top row takes symbols
	// (every symbol was in exactly 3 sets), so a leaf need not rebuild it,
	// and so are free[j], the symbols of column j's set not used yet, and
	// byFree[k], the columns with k of them: top finds its column without
	// scanning
	kept   bool
	free   [64]uint8
	byFree [4]uint64
}

// MaxLastBandHeight is the largest box height R whose last band LastBand
// counts: the counts above are closed forms for R ≤ 3.
const MaxLastBandHeight = 3

// NewLastBand returns a counter of the last band's completions of shape s
// (R ≤ MaxLastBandHeight).
func NewLastBand(s grid.Shape) (*LastBand, error) {
	if s.R < 1 || s.R > MaxLastBandHeight || s.C < 1 || s.N() > grid.MaxN {
		return nil, fmt.Errorf("walks: the last band is counted exactly for box height 1 ≤ R ≤ %d, not %s (count the transposed shape C×R: same number of grids)", MaxLastBandHeight, s)
	}
	n := s.N()
	return &LastBand{n: n, r: s.R, c: s.C, first: (n - s.R) * n, sets: make([]uint64, n), cols: make([]uint64, n)}, nil
}

// NewBandColourings returns a counter of the completions of any band of n
// columns, boxes c columns wide, whose column j must hold the r symbols of
// cand[j] (Count reads cand[0…n)): LastBand's count, that is the number of
// proper r-edge-colourings by the rows of the graph joining each column to
// its symbols, for 1 ≤ r ≤ MaxLastBandHeight. Package walks's stack
// estimator counts its bands with it.
func NewBandColourings(n, r, c int) (*LastBand, error) {
	if r < 1 || r > MaxLastBandHeight || c < 1 || n%c != 0 || n > grid.MaxN {
		return nil, fmt.Errorf("walks: band colourings need 1 ≤ r ≤ %d and boxes of c ≥ 1 columns dividing n ≤ %d, not r = %d, c = %d, n = %d", MaxLastBandHeight, grid.MaxN, r, c, n)
	}
	return &LastBand{n: n, r: r, c: c, sets: make([]uint64, n), cols: make([]uint64, n)}, nil
}

// FirstCell is the first cell of the last band, (N − R)·N: the cells
// before it are the upper bands'.
func (lb *LastBand) FirstCell() int { return lb.first }

// Cells is the number of cells of the last band, R·N.
func (lb *LastBand) Cells() int { return lb.r * lb.n }

// LastBandFits reports whether every count of shape s, summed over budget
// nodes, fits in uint64: log2 of (R!)^(N/R)·2^(N/2)·budget below 63.
func LastBandFits(s grid.Shape, budget int) bool {
	n := float64(s.N())
	fact := []float64{1, 1, 2, 6}[s.R]
	return n/float64(s.R)*math.Log2(fact)+n/2+math.Log2(float64(max(1, budget))) < 63
}

// RestrictUpper returns the constraint mask, of words 64-bit words, that
// keeps MRV in the upper bands: the cells of rows 0…N−R−1.
func (lb *LastBand) RestrictUpper(words int) []uint64 {
	mask := make([]uint64, words)
	for c := range lb.first {
		mask[c/64] |= 1 << (c % 64)
	}
	return mask
}

// Count returns the number of completions of the last band, the upper
// bands being full, from the candidates cand of every cell, bit s−1 for
// symbol s (those of the last band's top row are the S_j, its boxes and
// rows being empty). ok is false if a sum overflowed (never within
// LastBandFits).
func (lb *LastBand) Count(cand []uint64) (n uint64, ok bool) {
	for j := range lb.n {
		lb.sets[j] = cand[lb.first+j]
		if bits.OnesCount64(lb.sets[j]) != lb.r {
			return 0, true
		}
	}
	lb.Work += int64(lb.n)
	// Each box of the band holds every symbol once: its columns' sets are
	// disjoint.
	for b := 0; b < lb.n; b += lb.c {
		var seen uint64
		for _, s := range lb.sets[b : b+lb.c] {
			if seen&s != 0 {
				return 0, true
			}
			seen |= s
		}
	}
	switch lb.r {
	case 1:
		return 1, true // distinct singletons: the boxes (one per row) cover it
	case 2:
		return lb.cycles(lb.sets), true
	}
	lb.used = 0
	lb.kept = lb.symbolColumns(lb.sets, 3)
	if lb.kept {
		for j := range lb.n {
			lb.free[j] = 3
		}
		lb.byFree = [4]uint64{3: 1<<lb.n - 1}
	}
	return lb.top(0)
}

// top counts the R = 3 completions: the columns not in done pick their
// top-row symbol among those not used yet, the column with the fewest
// choices first (none: no completion); at the end the sets left (2
// symbols each) are the R = 2 case.
func (lb *LastBand) top(done uint64) (uint64, bool) {
	best := -1
	if lb.kept {
		// the scan below, read off byFree, with the same work counted
		open := (uint64(1)<<lb.n - 1) &^ done
		if z := lb.byFree[0] & open; z != 0 {
			lb.Work += int64(bits.OnesCount64(open & ((z&-z)<<1 - 1)))
			return 0, true
		}
		lb.Work += int64(bits.OnesCount64(open))
		for k := 1; k <= 3; k++ {
			if m := lb.byFree[k] & open; m != 0 {
				best = bits.TrailingZeros64(m)
				break
			}
		}
	} else {
		fewest := lb.r + 1
		for j := range lb.n {
			if done&(1<<j) != 0 {
				continue
			}
			k := bits.OnesCount64(lb.sets[j] &^ lb.used)
			lb.Work++
			if k < fewest {
				best, fewest = j, k
				if k == 0 {
					return 0, true
				}
			}
		}
	}
	if best < 0 {
		lb.Work += int64(lb.n)
		if lb.kept { // each symbol left in exactly 2 sets: cycles' check passes
			lb.Work += int64(lb.n)
			return lb.walkCycles(lb.sets), true
		}
		return lb.cycles(lb.sets), true
	}
	set := lb.sets[best]
	var total uint64
	for m := set &^ lb.used; m != 0; m &= m - 1 {
		bit := m & -m
		lb.sets[best] = set &^ bit
		lb.used |= bit
		y := bits.TrailingZeros64(bit)
		lb.cols[y] &^= 1 << best
		losers := lb.cols[y] &^ done // open columns that lose symbol y
		lb.moveFree(losers, -1)
		k, ok := lb.top(done | 1<<best)
		lb.moveFree(losers, 1)
		lb.cols[y] |= 1 << best
		lb.used &^= bit
		var carry uint64
		total, carry = bits.Add64(total, k, 0)
		if !ok || carry != 0 {
			lb.sets[best] = set
			return 0, false
		}
	}
	lb.sets[best] = set
	return total, true
}

// moveFree adds d (±1) to free[j] of the columns j in cols, in byFree
// too (only while kept).
func (lb *LastBand) moveFree(cols uint64, d int) {
	if !lb.kept {
		return
	}
	for m := cols; m != 0; m &= m - 1 {
		j := bits.TrailingZeros64(m)
		k := lb.free[j]
		lb.byFree[k] &^= 1 << j
		k = uint8(int(k) + d)
		lb.byFree[k] |= 1 << j
		lb.free[j] = k
	}
}

// cycles returns 2^(number of cycles) of the graph whose vertices are the
// columns and whose edges are the symbols, each joining the two columns
// whose sets (two symbols each) hold it: the number of ways to split every
// set between two rows with distinct symbols in each row. 0 if a symbol is
// not in exactly two sets.
func (lb *LastBand) cycles(sets []uint64) uint64 {
	if !lb.symbolColumns(sets, 2) {
		return 0
	}
	lb.Work += int64(lb.n)
	return lb.walkCycles(sets)
}

// symbolColumns sets cols to the columns whose set holds each symbol and
// reports whether every symbol is in exactly degree sets.
func (lb *LastBand) symbolColumns(sets []uint64, degree int) bool {
	for s := range lb.n {
		lb.cols[s] = 0
	}
	for j, set := range sets {
		for m := set; m != 0; m &= m - 1 {
			lb.cols[bits.TrailingZeros64(m)] |= 1 << j
		}
	}
	for s := range lb.n {
		if bits.OnesCount64(lb.cols[s]) != degree {
			return false
		}
	}
	return true
}

// walkCycles is cycles once cols holds each symbol's two columns.
func (lb *LastBand) walkCycles(sets []uint64) uint64 {
	var seen uint64 // columns visited
	var count uint64 = 1
	for start := range sets {
		if seen&(1<<start) != 0 {
			continue
		}
		// Walk the cycle: leave each column by the symbol it was not
		// entered by, to the other column holding that symbol.
		col, via := start, uint64(0)
		for {
			seen |= 1 << col
			out := sets[col] &^ via
			out &= -out // on the first step either symbol
			col = bits.TrailingZeros64(lb.cols[bits.TrailingZeros64(out)] &^ (1 << col))
			via = out
			if col == start {
				break
			}
		}
		count <<= 1
	}
	return count
}
