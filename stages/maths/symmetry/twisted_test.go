package symmetry

import (
	"context"
	"math/big"
	"testing"
)

// TestStacksMatchSearch checks the stack method against the search on
// every class without transposition of the shapes with boxes of 2 rows or
// 2 columns up to 8×8.
func TestStacksMatchSearch(t *testing.T) {
	shapes := []Shape{{2, 1}, {1, 2}, {2, 2}, {2, 3}, {3, 2}, {2, 4}, {4, 2}}
	grids := []string{"2", "2", "288", "28200960", "28200960", "29136487207403520", "29136487207403520"}
	if testing.Short() {
		shapes = shapes[:5]
	}
	for i, s := range shapes {
		g, err := NewGroup(s, false)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range g.Classes {
			var want *big.Int
			if c.Index == 0 {
				// the search would count every grid one by one
				n, _ := new(big.Int).SetString(grids[i], 10)
				want, err = IdentityFixed(s, n)
			} else {
				want, err = Fixed(context.Background(), s, c)
			}
			if err != nil {
				t.Fatal(err)
			}
			got, err := FixedByStacks(context.Background(), s, c.Rep)
			if err != nil {
				t.Fatalf("%v class %d (%s): %v", s, c.Index, c.Desc, err)
			}
			if got.Cmp(want) != 0 {
				t.Errorf("%v class %d (%s): stacks %v, search %v", s, c.Index, c.Desc, got, want)
			}
		}
	}
}
