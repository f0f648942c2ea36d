package symunits

import (
	"context"
	"math/big"
	"testing"

	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/bandcols"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/stacks"
)

// TestFixedFromBandcolsUnits recounts every 4×2 class whose 2×4 transpose
// bandcols counts from unit results "bandcols-part N_k", one per σ type,
// and compares FixedFromUnits' F with package stacks' count of the transpose.
func TestFixedFromBandcolsUnits(t *testing.T) {
	s := symmetry.Shape{R: 4, C: 2}
	g, err := Group(s, false)
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, c := range g.Classes[1:] {
		s2, e2, err := BandcolsElement(s, c.Index)
		if err != nil {
			continue
		}
		seen++
		parts := s.N()/2 + 1
		ids := make([]string, parts)
		results := map[string][]byte{}
		for k := range parts {
			n, err := bandcols.FixedType(context.Background(), s2, e2, k)
			if err != nil {
				t.Fatal(err)
			}
			ids[k] = CheckPrefix + PartID(s, c.Index, k, parts)
			results[ids[k]] = []byte(MethodBandcolsPart + " " + n.String())
		}
		f, method, err := FixedFromUnits(ids, results)
		if err != nil {
			t.Fatalf("class %d: %v", c.Index, err)
		}
		want, err := stacks.Fixed(context.Background(), s2, e2)
		if err != nil {
			t.Fatal(err)
		}
		if f.Cmp(want) != 0 || method != MethodBandcols {
			t.Errorf("4x2 class %d: %v by %s, want %v by %s", c.Index, f, method, want, MethodBandcols)
		}
		// a part's count changed by one: the division or the total fails
		results[ids[0]] = []byte(MethodBandcolsPart + " " + new(big.Int).Add(mustInt(t, results[ids[0]]), big.NewInt(1)).String())
		if f2, _, err := FixedFromUnits(ids, results); err == nil && f2.Cmp(want) == 0 {
			t.Errorf("4x2 class %d: a wrong part passed", c.Index)
		}
	}
	if seen != 9 {
		t.Errorf("%d 4×2 classes with a bandcols recount, want the 9 involutive exchanges of 2×4", seen)
	}
}

func mustInt(t *testing.T, result []byte) *big.Int {
	t.Helper()
	var m string
	n := new(big.Int)
	for i, b := range result {
		if b == ' ' {
			m = string(result[i+1:])
			break
		}
	}
	if _, ok := n.SetString(m, 10); !ok {
		t.Fatalf("result %q", result)
	}
	return n
}
