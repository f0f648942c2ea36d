package sudoku

import (
	"fmt"
	"strings"
)

// Permutations3 lists the six permutations of {0, 1, 2} in lexicographic
// order; the first is the identity.
var Permutations3 = [6][3]int{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}

// CanonicalB1 is the band's first block after relabelling: row r, column c
// holds 3r+c+1.
var CanonicalB1 = [3][3]uint8{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}

// Valid reports whether every row and every block of b holds each of the
// digits 1-9 exactly once. (Columns need no check: a column of a band lies
// inside one block.)
func (b Band) Valid() bool {
	var blocks [3]uint16
	for r := range 3 {
		var row uint16
		for c := range 9 {
			d := b[r][c]
			if d < 1 || d > 9 {
				return false
			}
			row |= 1 << d
			blocks[c/3] |= 1 << d
		}
		if row != allDigits {
			return false
		}
	}
	return blocks == [3]uint16{allDigits, allDigits, allDigits}
}

// allDigits is the set {1, ..., 9} as a bit set (bit d for digit d).
const allDigits uint16 = 0x3fe

// HasCanonicalB1 reports whether B1 is 123/456/789.
func (b Band) HasCanonicalB1() bool {
	for r := range 3 {
		if [3]uint8(b[r][:3]) != CanonicalB1[r] {
			return false
		}
	}
	return true
}

// RelabelB1 returns b with its digits renamed so that B1 becomes
// 123/456/789: the digit in row r, column c < 3 is renamed 3r+c+1 wherever
// it occurs. b must be valid.
func (b Band) RelabelB1() Band {
	var name [10]uint8
	for r := range 3 {
		for c := range 3 {
			name[b[r][c]] = uint8(3*r + c + 1)
		}
	}
	for r := range 3 {
		for c := range 9 {
			b[r][c] = name[b[r][c]]
		}
	}
	return b
}

// SortColumns is the first step of the lexicographic reduction: it orders
// the three columns of B2, and those of B3, so that their top-row digits
// increase.
func (b Band) SortColumns() Band {
	for _, c := range [2]int{3, 6} {
		// A three-element sorting network on the top-row digits.
		if b[0][c] > b[0][c+1] {
			b.swapColumns(c, c+1)
		}
		if b[0][c+1] > b[0][c+2] {
			b.swapColumns(c+1, c+2)
		}
		if b[0][c] > b[0][c+1] {
			b.swapColumns(c, c+1)
		}
	}
	return b
}

func (b *Band) swapColumns(i, j int) {
	for r := range 3 {
		b[r][i], b[r][j] = b[r][j], b[r][i]
	}
}

// LexReduce returns the lexicographic reduction of b: SortColumns, then B2
// and B3 exchanged if B3's top row comes first in dictionary order. The top
// rows of B2 and B3 hold disjoint digits, so after sorting the comparison is
// decided by their first digits. Of the 72 bands that column permutations
// inside B2 and B3 and the exchange relate, exactly one is reduced, and all
// 72 reduce to it.
func (b Band) LexReduce() Band {
	b = b.SortColumns()
	if b[0][6] < b[0][3] {
		for r := range 3 {
			var tmp [3]uint8
			copy(tmp[:], b[r][3:6])
			copy(b[r][3:6], b[r][6:9])
			copy(b[r][6:9], tmp[:])
		}
	}
	return b
}

// Reduce returns the representative of b's class under relabelling, column
// permutations inside B2 and B3 and the exchange of B2 and B3: B1 relabelled
// to canonical form, then lexicographically reduced. b must be valid.
func (b Band) Reduce() Band { return b.RelabelB1().LexReduce() }

// IsReduced reports whether b is its own lexicographic reduction with B1
// canonical, that is, a member of the 36,288-band catalogue (if valid).
func (b Band) IsReduced() bool {
	return b.HasCanonicalB1() &&
		b[0][3] < b[0][4] && b[0][4] < b[0][5] &&
		b[0][6] < b[0][7] && b[0][7] < b[0][8] &&
		b[0][3] < b[0][6]
}

// PermuteRows returns the band whose row i is row p[i] of b.
func (b Band) PermuteRows(p [3]int) Band {
	return Band{b[p[0]], b[p[1]], b[p[2]]}
}

// PermuteColumns returns the band whose column j is column p[j] of b.
func (b Band) PermuteColumns(p [9]int) Band {
	var out Band
	for r := range 3 {
		for j, c := range p {
			out[r][j] = b[r][c]
		}
	}
	return out
}

// ColumnSets returns, for each column, the set of its three digits as a bit
// set (bit d for digit d). The completions of a band to a grid depend only
// on these sets: rows 4-9 must put in each column the six digits the band
// leaves out of it.
func (b Band) ColumnSets() [9]uint16 {
	var s [9]uint16
	for c := range 9 {
		s[c] = 1<<b[0][c] | 1<<b[1][c] | 1<<b[2][c]
	}
	return s
}

// Rows returns the three rows as 9-digit strings, for example
// "123456789".
func (b Band) Rows() [3]string {
	var rows [3]string
	for r := range 3 {
		var buf [9]byte
		for c := range 9 {
			buf[c] = '0' + b[r][c]
		}
		rows[r] = string(buf[:])
	}
	return rows
}

// String writes the band as its three rows separated by slashes.
func (b Band) String() string {
	rows := b.Rows()
	return strings.Join(rows[:], "/")
}

// ParseBand reads a band from its three rows, each nine digits 1-9, and
// checks that it is valid.
func ParseBand(row1, row2, row3 string) (Band, error) {
	var b Band
	for r, row := range [3]string{row1, row2, row3} {
		if len(row) != 9 {
			return Band{}, fmt.Errorf("band row %d %q: want 9 digits", r+1, row)
		}
		for c := range 9 {
			d := row[c]
			if d < '1' || d > '9' {
				return Band{}, fmt.Errorf("band row %d %q: want digits 1-9", r+1, row)
			}
			b[r][c] = d - '0'
		}
	}
	if !b.Valid() {
		return Band{}, fmt.Errorf("band %s: a row or block repeats a digit", b)
	}
	return b, nil
}
