package sudoku

// Key is a band with canonical B1 packed into 60 bits, for maps, sorting and
// union-find. Each row of a valid band is a permutation of 1-9, so its last
// digit follows from the others and B1 is fixed; what remains is the digits
// of columns 4-8 (0-based 3-7) of the three rows, fifteen 4-bit digits,
// stored row by row with the first in the most significant place. Keys
// therefore sort in the dictionary order of the bands' 27 digits.
type Key uint64

// Key packs b, which must be valid with canonical B1.
func (b Band) Key() Key {
	var k Key
	for r := range 3 {
		for c := 3; c < 8; c++ {
			k = k<<4 | Key(b[r][c])
		}
	}
	return k
}

// Band unpacks k.
func (k Key) Band() Band {
	var b Band
	for r := range 3 {
		copy(b[r][:3], CanonicalB1[r][:])
		sum := uint8(1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9)
		for c := range 8 {
			if c >= 3 {
				b[r][c] = uint8(k>>(4*(14-5*r-(c-3)))) & 0xf
			}
			sum -= b[r][c]
		}
		b[r][8] = sum
	}
	return b
}
