package halves

import (
	"context"
	"fmt"
	"testing"
)

func TestCountKnown(t *testing.T) {
	want := map[int]string{2: "28200960", 3: "6670903752021072936960"}
	for c := 2; c <= 3; c++ {
		t.Run(fmt.Sprintf("3x%d", c), func(t *testing.T) {
			got, terms, err := Count(context.Background(), c)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("3×%d: %d signature classes", c, terms)
			if got.String() != want[c] {
				t.Errorf("3×%d: %v grids, want %s", c, got, want[c])
			}
		})
	}
}

func TestCountCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := Count(ctx, 3); err == nil {
		t.Fatal("Count with a cancelled context returned no error")
	}
	if _, _, err := Count(context.Background(), 4); err == nil {
		t.Fatal("Count(4) should refuse: it needs the full symmetry group")
	}
}
