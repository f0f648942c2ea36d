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
