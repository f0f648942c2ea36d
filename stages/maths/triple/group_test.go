package triple

import "testing"

func TestStabilisers(t *testing.T) {
	for c := MinC; c <= MaxC; c++ {
		s := shapeFor(c)
		totalReps := 0
		for b := range s.bases {
			g := s.stabOf(b)
			id, q := s.frame(b)
			var n uint64
			g.each(func(p perm) {
				n++
				if n%97 != 1 && g.order() > 5000 {
					return
				}
				for _, part := range [][3]uint16{id, q} {
					var img [3]uint16
					for i := range 3 {
						img[i] = p.mask(part[i])
					}
					if s.index(img[0], img[1]) != s.index(part[0], part[1]) {
						t.Fatalf("c=%d base %d: element %v moves the frame", c, b, p)
					}
				}
			})
			if n != g.order() {
				t.Fatalf("c=%d base %d: %d elements, order %d", c, b, n, g.order())
			}
			rep, to := g.partOrbits()
			reps := 0
			for i := range rep {
				if int(rep[i]) == i {
					reps++
				}
				if s.applyIndex(&to[i], i) != int(rep[i]) {
					t.Fatalf("c=%d base %d: to[%d] does not map to its representative", c, b, i)
				}
			}
			totalReps += reps
			t.Logf("c=%d base %d %v: |stab| = %d, %d orbits on partitions", c, b, s.bases[b], g.order(), reps)
		}
		t.Logf("c=%d: %d (base, partition orbit) pairs", c, totalReps)
	}
}
