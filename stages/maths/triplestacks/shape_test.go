package triplestacks

import (
	"testing"
)

func TestShapeCounts(t *testing.T) {
	// partitions of 3c symbols into three c-sets: (3c)!/(c!^3·3!)
	want := map[int][3]int{2: {15, 10, 0}, 3: {280, 56, 0}, 4: {5775, 346, 9}}
	for c := MinC; c <= MaxC; c++ {
		s := ShapeFor(c)
		if len(s.parts) != want[c][0] || s.splits != want[c][1] {
			t.Errorf("c=%d: %d partitions, %d splits; want %v", c, len(s.parts), s.splits, want[c])
		}
		if c == 4 && len(s.bases) != 9 {
			t.Errorf("c=4: %d bases, want 9", len(s.bases))
		}
		t.Logf("c=%d: %d partitions, %d splits, %d bases", c, len(s.parts), s.splits, len(s.bases))
		for i, p := range s.parts {
			if s.Index(p[2], p[1]) != i || s.Index(p[1], p[0]) != i {
				t.Fatalf("c=%d: index of %v", c, p)
			}
		}
	}
}
