package triplestacks

import "testing"

func TestStabilisers(t *testing.T) {
	for c := MinC; c <= MaxC; c++ {
		s := ShapeFor(c)
		totalReps := 0
		for b := range s.bases {
			g := s.StabOf(b)
			id, q := s.Frame(b)
			var n uint64
			g.Each(func(p Perm) {
				n++
				if n%97 != 1 && g.Order() > 5000 {
					return
				}
				for _, part := range [][3]uint16{id, q} {
					var img [3]uint16
					for i := range 3 {
						img[i] = p.Mask(part[i])
					}
					if s.Index(img[0], img[1]) != s.Index(part[0], part[1]) {
						t.Fatalf("c=%d base %d: element %v moves the frame", c, b, p)
					}
				}
			})
			if n != g.Order() {
				t.Fatalf("c=%d base %d: %d elements, order %d", c, b, n, g.Order())
			}
			rep, to := g.PartOrbits()
			reps := 0
			for i := range rep {
				if int(rep[i]) == i {
					reps++
				}
				if s.ApplyIndex(&to[i], i) != int(rep[i]) {
					t.Fatalf("c=%d base %d: to[%d] does not map to its representative", c, b, i)
				}
			}
			totalReps += reps
			t.Logf("c=%d base %d %v: |Stab| = %d, %d orbits on partitions", c, b, s.bases[b], g.Order(), reps)
		}
		t.Logf("c=%d: %d (base, partition orbit) pairs", c, totalReps)
	}
}
