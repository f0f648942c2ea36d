package sudoku

import "iter"

// BandCount is the number of bands with canonical B1:
// 2 pure top rows × 6^6 + 18 mixed × 3 × 6^6 = 56 × 6^6.
const BandCount = 2_612_736

// ReducedCount is the number of lexicographically reduced bands,
// BandCount/72.
const ReducedCount = 36_288

// AllBands yields every valid band with canonical B1 once, in the dictionary
// order of its 27 digits read row by row.
func AllBands() iter.Seq[Band] {
	return func(yield func(Band) bool) {
		var b Band
		var rowUsed [3]uint16
		for r := range 3 {
			b[r] = [9]uint8{}
			copy(b[r][:3], CanonicalB1[r][:])
			for _, d := range CanonicalB1[r] {
				rowUsed[r] |= 1 << d
			}
		}
		var blockUsed [3]uint16 // of B2 and B3 (index 1, 2)
		// Fill the 18 free cells row by row, smallest digit first, so the
		// bands come out in dictionary order.
		var fill func(cell int) bool
		fill = func(cell int) bool {
			if cell == 18 {
				return yield(b)
			}
			r, c := cell/6, 3+cell%6
			k := c / 3
			free := allDigits &^ (rowUsed[r] | blockUsed[k])
			for d := uint8(1); d <= 9; d++ {
				bit := uint16(1) << d
				if free&bit == 0 {
					continue
				}
				b[r][c] = d
				rowUsed[r] |= bit
				blockUsed[k] |= bit
				ok := fill(cell + 1)
				rowUsed[r] &^= bit
				blockUsed[k] &^= bit
				if !ok {
					return false
				}
			}
			return true
		}
		fill(0)
	}
}
