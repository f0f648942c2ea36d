package triplestacks

import "math/bits"

// Split is one way to complete a band of the first stack: the row sets of
// the band in the second stack (S) and in the third (B), each as the three
// rows' symbol sets (row v of the first stack holds A_v; its symbols go to
// rows v+1 and v+2 of the second stack, the rest of the third).
type Split struct {
	S, B [3]uint16
}

// SplitsOf lists the splits of a band whose first-stack rows are a: for
// each row v a set X_v ⊂ A_v goes to row v+1 (mod 3) of the second stack
// and A_v − X_v to row v+2; the rows of the second stack then hold C
// symbols each exactly when the X_v have equal sizes k, which gives
// Σ_k C(C,k)³ splits. The third stack's rows are what is left:
// B_w = all − A_w − S_w, and the split X ↦ A − X exchanges S and B.
func (s *Shape) SplitsOf(a [3]uint16) []Split {
	var out []Split
	subsets := func(m uint16, k int) []uint16 {
		var r []uint16
		for x := m; ; x = (x - 1) & m {
			if bits.OnesCount16(x) == k {
				r = append(r, x)
			}
			if x == 0 {
				break
			}
		}
		return r
	}
	for k := 0; k <= s.c; k++ {
		for _, x0 := range subsets(a[0], k) {
			for _, x1 := range subsets(a[1], k) {
				for _, x2 := range subsets(a[2], k) {
					x := [3]uint16{x0, x1, x2}
					var sp Split
					for w := range 3 {
						sp.S[w] = x[(w+2)%3] | (a[(w+1)%3] &^ x[(w+1)%3])
					}
					for w := range 3 {
						sp.B[w] = s.all &^ (a[w] | sp.S[w])
					}
					out = append(out, sp)
				}
			}
		}
	}
	return out
}
