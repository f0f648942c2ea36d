// Package bandpair counts the completions of a first band to a full 9×9
// Sudoku grid exactly by the band-pair method, and totals a census of the
// grids from the counts of the classes of first bands.
//
// Let b be a first band (rows 1-3) and R_j the six digits missing from its
// column j. A completion is a second band and a third band whose column j
// sets are S_j and R_j \ S_j for some choice of 3-sets S_j ⊂ R_j. For the
// second band's blocks to hold 1-9, the three S_j of each block must
// partition {1..9}; then the third band's blocks do too, because each digit
// of a block misses exactly two of the block's columns of b and the second
// band takes it in one of them. Hence
//
//	completions(b) = Σ_S N(S) · N(R \ S),
//
// where N(S) is the number of bands whose column j holds exactly the set S_j
// (see [BandsWithColumnSets]).
//
// Within a block the choice factorises: the three digits of column c of b
// miss the other two columns, and if k of the digits of column c+1 go to
// column c (mod 3) in S, every other count is forced, giving Σ_k C(3,k)³ =
// 56 splits per block and 56³ = 175616 in all, whatever b is.
//
// Since the count depends only on b's column sets, it is also unchanged by
// relabelling digits, permuting columns within blocks and permuting blocks;
// [Counter.Key] names the orbit of b's column sets under these operations.
// The 36,288 lexicographically reduced bands fall into exactly 44 orbits,
// with 44 distinct counts.
//
// Package backtrack counts the same completions by a method that shares no
// counting code with this one.
package bandpair

import (
	"fmt"
	"math/bits"
	"runtime"

	"github.com/sudoku-census/sudoku-census/stages/maths/parallel"
	"github.com/sudoku-census/sudoku-census/stages/maths/sudoku"
)

// allDigits is the mask of the digits 1-9: digit d is bit d-1.
const allDigits = 1<<9 - 1

// ColumnSets is the digit set of each column of a band, as masks with digit d
// at bit d-1.
type ColumnSets [9]uint16

// ColumnSetsOf returns the column sets of a band.
func ColumnSetsOf(b sudoku.Band) ColumnSets {
	var s ColumnSets
	for c, set := range b.ColumnSets() { // bit d for digit d
		s[c] = set >> 1
	}
	return s
}

// Valid reports whether s can be the column sets of a band: every set has
// three digits and the three sets of each block partition {1..9}.
func (s ColumnSets) Valid() bool {
	for k := range 3 {
		var union uint16
		for _, m := range s[3*k : 3*k+3] {
			if bits.OnesCount16(m) != 3 || union&m != 0 {
				return false
			}
			union |= m
		}
		if union != allDigits {
			return false
		}
	}
	return true
}

// BandsWithColumnSets returns N(S), the number of bands (rows are
// permutations of 1-9, blocks hold 1-9) whose column j holds exactly the
// set s[j]; it is 0 unless s is [ColumnSets.Valid].
//
// Given valid S, the blocks hold 1-9 whatever the order inside each column,
// so a band is a choice, for each of the 27 incidences (column j, digit
// d ∈ S_j), of a row, such that the three digits of a column take distinct
// rows and the three columns holding a digit (one per block) do too. That is
// a proper 3-edge-colouring, by rows, of the 3-regular bipartite graph G(S)
// joining column j to the digits of S_j. Row 1 of the band is a perfect
// matching M of G(S), and G(S) − M is a disjoint union of even cycles, each
// coloured by rows 2 and 3 in exactly two ways, so
//
//	N(S) = Σ_M 2^cycles(G(S) − M).
//
// By Brègman's bound G(S) has at most (3!)^(9/3) = 216 perfect matchings, and
// a 2-regular simple bipartite graph on 18 vertices has at most 4 cycles, so
// N(S) ≤ 216·16 = 3456.
func BandsWithColumnSets(s ColumnSets) uint64 {
	if !s.Valid() {
		return 0
	}
	var g graph
	for j, set := range s {
		g.digits[j] = set
		for m := set; m != 0; m &= m - 1 {
			g.columns[bits.TrailingZeros16(m)] |= 1 << j
		}
	}
	// Shifting the rows cyclically maps bands to bands, so the lowest digit
	// of column 1 is in row 1 in exactly a third of them.
	low := bits.TrailingZeros16(s[0])
	g.matchedTo[low] = 0
	return 3 * g.colourings(1, 1<<low)
}

// graph is G(S) with a partial matching: digits[j] is the digit set of
// column j and columns[d] the columns holding digit d+1, both as masks, and
// matchedTo[d] the column that row 1 gives digit d+1.
type graph struct {
	digits    [9]uint16
	columns   [9]uint16
	matchedTo [9]uint8
}

// colourings returns Σ 2^cycles over the perfect matchings that extend the
// matching of columns 0..j-1, which uses the digits in used.
func (g *graph) colourings(j int, used uint16) uint64 {
	if j == 9 {
		return 1 << g.cyclesWithoutMatching()
	}
	var total uint64
	for free := g.digits[j] &^ used; free != 0; free &= free - 1 {
		d := bits.TrailingZeros16(free)
		g.matchedTo[d] = uint8(j)
		total += g.colourings(j+1, used|1<<d)
	}
	return total
}

// cyclesWithoutMatching returns the number of cycles of G(S) − M for a
// perfect matching M: there each column keeps two digits and each digit two
// columns, so following column → digit → the digit's other column traces
// the cycles.
func (g *graph) cyclesWithoutMatching() int {
	var other [9]uint16 // other[d]: digit d+1's two unmatched columns
	for d := range 9 {
		other[d] = g.columns[d] &^ (1 << g.matchedTo[d])
	}
	cycles := 0
	var seen uint16 // columns already on a cycle
	for start := range 9 {
		if seen&(1<<start) != 0 {
			continue
		}
		cycles++
		col, from := start, -1 // from: the digit we arrived by
		for {
			seen |= 1 << col
			rest := g.digits[col]
			for m := rest; m != 0; m &= m - 1 {
				if d := bits.TrailingZeros16(m); d != from && g.matchedTo[d] != uint8(col) {
					col, from = bits.TrailingZeros16(other[d]&^(1<<col)), d
					break
				}
			}
			if col == start {
				break
			}
		}
	}
	return cycles
}

// blockSplit is one way to split a block's missing digits between the second
// and third bands: the second band's sets for the block's three columns.
type blockSplit [3]uint16

// blockSplits returns the splits of one block whose columns miss the digit
// sets missing[0..2] (six digits each): all (S_0, S_1, S_2) with S_c ⊂
// missing[c], |S_c| = 3, partitioning {1..9}. There are 56 for the missing
// sets of any valid band.
func blockSplits(missing [3]uint16) []blockSplit {
	var out []blockSplit
	for s0 := range uint16(allDigits + 1) {
		if s0&^missing[0] != 0 || bits.OnesCount16(s0) != 3 {
			continue
		}
		for s1 := range uint16(allDigits + 1) {
			if s1&^missing[1] != 0 || bits.OnesCount16(s1) != 3 || s1&s0 != 0 {
				continue
			}
			s2 := allDigits &^ (s0 | s1)
			if s2&^missing[2] == 0 {
				out = append(out, blockSplit{s0, s1, s2})
			}
		}
	}
	return out
}

// partitionIndex numbers the 280 unordered partitions of {1..9} into three
// triples: the triple holding the smallest digit and the triple holding the
// smallest remaining digit determine the partition. Entries for pairs of
// masks that are not such a pair are -1.
var partitionIndex, partitionCount = func() (*[1 << 9][1 << 9]int16, int) {
	var idx [1 << 9][1 << 9]int16
	for a := range idx {
		for b := range idx[a] {
			idx[a][b] = -1
		}
	}
	n := 0
	for a := range uint16(allDigits + 1) {
		if a&1 == 0 || bits.OnesCount16(a) != 3 {
			continue
		}
		rest := allDigits &^ a
		low := rest & -rest
		for b := range uint16(allDigits + 1) {
			if b&low == 0 || b&^rest != 0 || bits.OnesCount16(b) != 3 {
				continue
			}
			idx[a][b] = int16(n)
			n++
		}
	}
	return &idx, n
}()

// relabelling maps digits (as single-bit masks) to digits so that the three
// sets of a block become {1,2,3}, {4,5,6}, {7,8,9} in order.
type relabelling [9]uint16

func relabellingOf(block blockSplit) relabelling {
	var m relabelling
	next := 0
	for _, set := range block {
		for rest := set; rest != 0; rest &= rest - 1 {
			m[bits.TrailingZeros16(rest)] = 1 << next
			next++
		}
	}
	return m
}

func (m *relabelling) apply(set uint16) uint16 {
	var out uint16
	for ; set != 0; set &= set - 1 {
		out |= m[bits.TrailingZeros16(set)]
	}
	return out
}

// partition returns the index of the unordered partition that block forms
// after relabelling by m.
func (m *relabelling) partition(block blockSplit) int {
	var a, b uint16
	for _, set := range block {
		switch r := m.apply(set); {
		case r&1 != 0:
			a = r
		case b == 0 || r&-r < b&-b:
			b = r // the other triple with the smaller lowest digit
		}
	}
	return int(partitionIndex[a][b])
}

// Counter computes completions by the band-pair method from a table of
// N(S) keyed by a form N is invariant under: relabel the digits so that
// block 1's sets are {1,2,3}, {4,5,6}, {7,8,9} in order; blocks 2 and 3 are
// then unordered partitions of {1..9} (the order of the columns within a
// block, and the order of blocks 2 and 3, do not change N). The tables are
// read-only once built, so a Counter is safe for concurrent use.
type Counter struct {
	table []uint64 // N for blocks 2 and 3 = partitions p2, p3 at p2·280 + p3
	// orbit[p2·280 + p3] is the least p2'·280 + p3' (p2' ≤ p3') over the
	// 216 relabellings that keep block 1 standard and the order of blocks 2
	// and 3: the canonical form [Counter.Key] minimises further.
	orbit []int32
}

// NewCounter builds the tables over all 280² pairs of partitions, split
// between workers goroutines by rows (GOMAXPROCS when workers < 1); the
// tables do not depend on workers. N is symmetric in the two partitions, so
// half of it is computed.
func NewCounter(workers int) (*Counter, error) {
	if workers < 1 {
		workers = runtime.GOMAXPROCS(0)
	}
	n := partitionCount
	c := &Counter{table: make([]uint64, n*n), orbit: make([]int32, n*n)}
	err := parallel.Run(workers, func(w int) error {
		for p2 := w; p2 < n; p2 += workers {
			for p3 := range n {
				if p3 >= p2 {
					c.table[p2*n+p3] = BandsWithColumnSets(standardSets(p2, p3))
				}
				best := int32(n * n)
				for _, act := range standardRelabellings {
					x, y := int32(act[p2]), int32(act[p3])
					best = min(best, min(x, y)*int32(n)+max(x, y))
				}
				c.orbit[p2*n+p3] = best
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for p2 := range n {
		for p3 := range p2 {
			c.table[p2*n+p3] = c.table[p3*n+p2]
		}
	}
	return c, nil
}

// bands returns N for a band whose block 1 relabels to the standard form and
// whose blocks 2 and 3 then form partitions p2 and p3.
func (c *Counter) bands(p2, p3 int) uint64 {
	return c.table[p2*partitionCount+p3]
}

// partitionSets lists the triples of each partition index, in the order the
// index reads them (the triple with digit 1, the next, the rest).
var partitionSets = func() [][3]uint16 {
	out := make([][3]uint16, partitionCount)
	for a := range partitionIndex {
		for b, i := range partitionIndex[a] {
			if i >= 0 {
				out[i] = [3]uint16{uint16(a), uint16(b), allDigits &^ uint16(a|b)}
			}
		}
	}
	return out
}()

// standardSets returns column sets with block 1 = {1,2,3},{4,5,6},{7,8,9}
// and blocks 2 and 3 the partitions p2 and p3.
func standardSets(p2, p3 int) ColumnSets {
	s := ColumnSets{0b111, 0b111 << 3, 0b111 << 6}
	copy(s[3:6], partitionSets[p2][:])
	copy(s[6:9], partitionSets[p3][:])
	return s
}

// Completions returns the number of ways to complete the first band b to a
// full Sudoku grid, by the band-pair method, and the number of second bands
// that fit under b (Σ_S N(S): bands with valid rows and blocks and no digit
// repeated in a column of b). Both fit in uint64: there are 56³ splits and
// N ≤ 3456, so completions < 175616·3456² ≈ 2.1·10¹². It fails if b is not a
// valid band.
func (c *Counter) Completions(b sudoku.Band) (completions, secondBands uint64, err error) {
	if !b.Valid() {
		return 0, 0, fmt.Errorf("band %s: a row or block repeats a digit", b)
	}
	top := ColumnSetsOf(b)
	var missing ColumnSets
	for j := range 9 {
		missing[j] = allDigits &^ top[j]
	}
	var splits [3][]blockSplit
	for k := range 3 {
		splits[k] = blockSplits([3]uint16(missing[3*k : 3*k+3]))
	}
	complement := func(k int, s blockSplit) blockSplit {
		return blockSplit{missing[3*k] &^ s[0], missing[3*k+1] &^ s[1], missing[3*k+2] &^ s[2]}
	}
	n1, n2 := len(splits[1]), len(splits[2])
	// Partition indices of blocks 2 and 3 for the second (lower) and third
	// band, under the relabelling fixed by block 1's split.
	second1, third1 := make([]int, n1), make([]int, n1)
	second2, third2 := make([]int, n2), make([]int, n2)
	for _, s0 := range splits[0] {
		mSecond, mThird := relabellingOf(s0), relabellingOf(complement(0, s0))
		for i, s := range splits[1] {
			second1[i], third1[i] = mSecond.partition(s), mThird.partition(complement(1, s))
		}
		for i, s := range splits[2] {
			second2[i], third2[i] = mSecond.partition(s), mThird.partition(complement(2, s))
		}
		for i := range n1 {
			for j := range n2 {
				nSecond := c.bands(second1[i], second2[j])
				completions += nSecond * c.bands(third1[i], third2[j])
				secondBands += nSecond
			}
		}
	}
	return completions, secondBands, nil
}

// Key returns a number that two bands share exactly when their column sets
// are related by relabelling the digits, permuting the columns within blocks
// and permuting the blocks; bands with equal keys have equal completions and
// equal second bands (both depend only on the column sets, and those
// operations carry completions one-to-one to completions). It is the least,
// over the 3·6 choices of a block to put first and an order of its columns
// and the 216 relabellings that keep the standard form, of the table key:
// the pair of partitions the other two blocks form, smaller first.
func (c *Counter) Key(b sudoku.Band) int {
	s := ColumnSetsOf(b)
	best := partitionCount * partitionCount
	for k := range 3 {
		first := blockSplit(s[3*k : 3*k+3])
		o1, o2 := (k+1)%3, (k+2)%3
		for _, p := range sudoku.Permutations3 {
			m := relabellingOf(blockSplit{first[p[0]], first[p[1]], first[p[2]]})
			a, b := m.partition(blockSplit(s[3*o1:3*o1+3])), m.partition(blockSplit(s[3*o2:3*o2+3]))
			best = min(best, int(c.orbit[a*partitionCount+b]))
		}
	}
	return best
}

// standardRelabellings lists how each of the 3!³ = 216 relabellings that
// permute the digits within {1,2,3}, within {4,5,6} and within {7,8,9} acts
// on the partition indices.
var standardRelabellings = func() [][]int16 {
	var out [][]int16
	for _, p0 := range sudoku.Permutations3 {
		for _, p1 := range sudoku.Permutations3 {
			for _, p2 := range sudoku.Permutations3 {
				var m relabelling
				for i, p := range [3][3]int{p0, p1, p2} {
					for j := range 3 {
						m[3*i+j] = 1 << (3*i + p[j])
					}
				}
				act := make([]int16, partitionCount)
				for q, sets := range partitionSets {
					act[q] = int16(m.partition(sets))
				}
				out = append(out, act)
			}
		}
	}
	return out
}()
