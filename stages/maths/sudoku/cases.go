package sudoku

// The top row of a band with canonical B1 puts three of the digits 4-9 in
// B2 and the other three in B3. The 20 top-row cases are the 20 choices of
// B2's three digits, numbered 1-20 in the dictionary order of the sorted
// triples: case 1 is {4,5,6}, case 2 {4,5,7}, ..., case 20 {7,8,9}. The case
// is pure when B2's digits are one row of B1 ({4,5,6}, case 1, or {7,8,9},
// case 20) and mixed otherwise.
//
// A pure case completes to 6^6 bands: rows 2 and 3 of B2 and B3 are forced
// up to the order inside each of the six block rows. A mixed case completes
// to 3 × 6^6: besides those orders, the one digit of {1,2,3} that joins the
// two leftover digits in row 2 of B2 can be chosen three ways.

// TopRowCases is the number of top-row cases.
const TopRowCases = 20

// topRowCase[m] is the case of B2's top-row digit set m (a bit set), or 0.
var topRowCase [1 << 10]uint8

// caseDigits[k-1] is case k's set of B2 top-row digits.
var caseDigits [TopRowCases][3]uint8

func init() {
	k := 0
	for a := uint8(4); a <= 9; a++ {
		for b := a + 1; b <= 9; b++ {
			for c := b + 1; c <= 9; c++ {
				caseDigits[k] = [3]uint8{a, b, c}
				k++
				topRowCase[1<<a|1<<b|1<<c] = uint8(k)
			}
		}
	}
}

// TopRowCase returns the case 1-20 of b, which must be valid with canonical
// B1.
func (b Band) TopRowCase() int {
	return int(topRowCase[1<<b[0][3]|1<<b[0][4]|1<<b[0][5]])
}

// CaseDigits returns the three digits of B2's top row in case k (1-20), in
// increasing order.
func CaseDigits(k int) [3]uint8 { return caseDigits[k-1] }

// IsPure reports whether top-row case k is pure: B2's top row holds the
// digits of row 2 or of row 3 of B1.
func IsPure(k int) bool { return k == 1 || k == TopRowCases }

// CaseBands is the number of bands with canonical B1 in top-row case k:
// 6^6 when pure, 3 × 6^6 when mixed.
func CaseBands(k int) int {
	if IsPure(k) {
		return 46_656
	}
	return 3 * 46_656
}

// Kind is "pure" or "mixed", the kind of top-row case k.
func Kind(k int) string {
	if IsPure(k) {
		return "pure"
	}
	return "mixed"
}
