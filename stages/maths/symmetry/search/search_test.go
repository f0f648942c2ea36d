package search

import (
	"context"
	"math/big"
	"testing"

	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry"
)

// burnside returns the Burnside sum and the number of orbits of shape s,
// with F(identity) from the known number of grids, and the number of
// classes that fix at least one grid.
func burnside(t *testing.T, s symmetry.Shape, transpose bool, grids string) (sum, orbits *big.Int, fixing int, g *symmetry.Group) {
	sum, orbits, fixing, _, g = burnsideElements(t, s, transpose, grids)
	return sum, orbits, fixing, g
}

// burnsideElements is burnside, with the number of elements of G that fix
// a grid up to relabelling.
func burnsideElements(t *testing.T, s symmetry.Shape, transpose bool, grids string) (sum, orbits *big.Int, fixing int, elements *big.Int, g *symmetry.Group) {
	t.Helper()
	g, err := symmetry.NewGroup(s, transpose)
	if err != nil {
		t.Fatal(err)
	}
	n, _ := new(big.Int).SetString(grids, 10)
	id, err := symmetry.IdentityFixed(s, n)
	if err != nil {
		t.Fatal(err)
	}
	sum = new(big.Int).Set(id)
	fixing = 1
	elements = big.NewInt(1)
	for _, c := range g.Classes[1:] {
		f, err := Fixed(context.Background(), s, c)
		if err != nil {
			t.Fatalf("%v class %d (%s): %v", s, c.Index, c.Desc, err)
		}
		if f.Sign() > 0 {
			fixing++
			elements.Add(elements, c.Size)
		}
		sum.Add(sum, new(big.Int).Mul(f, c.Size))
	}
	orbits, rem := new(big.Int).QuoRem(sum, g.Order, new(big.Int))
	if rem.Sign() != 0 {
		t.Fatalf("%v: Burnside sum %v is not a multiple of |G| = %v", s, sum, g.Order)
	}
	return sum, orbits, fixing, elements, g
}

func TestSmallShapesKnownAndByCanonicalForms(t *testing.T) {
	for _, c := range []struct {
		s         symmetry.Shape
		transpose bool
		grids     string
		want      int64 // 0: not in the literature, only cross-checked
	}{
		{symmetry.Shape{R: 2, C: 2}, true, "288", 2}, // with transposition: 2
		{symmetry.Shape{R: 2, C: 2}, false, "288", 0},
		{symmetry.Shape{R: 2, C: 3}, false, "28200960", 49},
		{symmetry.Shape{R: 3, C: 2}, false, "28200960", 49},
		{symmetry.Shape{R: 1, C: 3}, false, "12", 0}, // 3×3 Latin squares with rows as boxes
	} {
		_, orbits, _, _ := burnside(t, c.s, c.transpose, c.grids)
		if testing.Short() && c.s.N() == 6 {
			continue // the canonical forms of 6×6 take seconds, minutes under -race
		}
		if c.want != 0 && orbits.Int64() != c.want {
			t.Errorf("%v transpose=%v: %v essentially different grids, want %d", c.s, c.transpose, orbits, c.want)
		}
		canon, err := symmetry.CountByCanonicalForms(context.Background(), c.s, c.transpose)
		if err != nil {
			t.Fatal(err)
		}
		if canon != orbits.Int64() {
			t.Errorf("%v transpose=%v: Burnside gives %v, canonical forms %d", c.s, c.transpose, orbits, canon)
		}
	}
}

func Test8x8(t *testing.T) {
	if testing.Short() {
		t.Skip("about 15 s")
	}
	// OEIS A291188: 1,673,187 essentially different 8×8 grids (2×4 boxes).
	for _, s := range []symmetry.Shape{{R: 2, C: 4}, {R: 4, C: 2}} {
		if _, orbits, _, _ := burnside(t, s, false, "29136487207403520"); orbits.String() != "1673187" {
			t.Errorf("%v: %v essentially different grids, want 1673187", s, orbits)
		}
	}
}

func Test9x9RussellJarvis(t *testing.T) {
	if testing.Short() {
		t.Skip("about 20 s")
	}
	// Russell and Jarvis: 27 classes, 311,409 elements in all, fix a grid.
	sum, orbits, fixing, elements, g := burnsideElements(t, symmetry.Shape{R: 3, C: 3}, true, "6670903752021072936960")
	if elements.String() != "311409" {
		t.Errorf("9×9: %v elements fix a grid, want 311409", elements)
	}
	if g.Order.String() != "3359232" || len(g.Classes) != 275 {
		t.Errorf("9×9 group: order %v, %d classes; want 3359232, 275", g.Order, len(g.Classes))
	}
	if sum.String() != "18384171550626816" || orbits.String() != "5472730538" || fixing != 27 {
		t.Errorf("9×9: Burnside sum %v, %v essentially different, %d classes fixing a grid; want 18384171550626816, 5472730538, 27", sum, orbits, fixing)
	}
}

func TestFixedStopsOnCancel(t *testing.T) {
	g, _ := symmetry.NewGroup(symmetry.Shape{R: 3, C: 3}, true)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Fixed(ctx, symmetry.Shape{R: 3, C: 3}, g.Classes[20]); err == nil {
		t.Fatal("a cancelled count returned no error")
	}
}

func BenchmarkFixed9x9SlowestClass(b *testing.B) {
	g, _ := symmetry.NewGroup(symmetry.Shape{R: 3, C: 3}, true)
	var slowest symmetry.Class
	for _, c := range g.Classes {
		if c.Desc == "bands id; stacks id; transpose" {
			slowest = c
		}
	}
	for b.Loop() {
		if _, err := Fixed(context.Background(), symmetry.Shape{R: 3, C: 3}, slowest); err != nil {
			b.Fatal(err)
		}
	}
}
