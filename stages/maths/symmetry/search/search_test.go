package search

import (
	"context"
	"fmt"
	"math/big"
	"slices"
	"testing"

	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/perm"
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
	fixed := []*big.Int{id}
	for _, c := range g.Classes[1:] {
		f, err := Fixed(context.Background(), s, c)
		if err != nil {
			t.Fatalf("%v class %d (%s): %v", s, c.Index, c.Desc, err)
		}
		fixed = append(fixed, f)
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
	if err := g.CheckPowers(fixed); err != nil {
		t.Fatal(err)
	}
	return sum, orbits, fixing, elements, g
}

// TestCheckPowersCatchesAWrongCount checks that CheckPowers, which passes on
// the true fixed counts of 2×3 (burnside calls it), fails when the count of
// any class of even order is one off.
func TestCheckPowersCatchesAWrongCount(t *testing.T) {
	s := symmetry.Shape{R: 2, C: 3}
	g, err := symmetry.NewGroup(s, false)
	if err != nil {
		t.Fatal(err)
	}
	id, err := symmetry.IdentityFixed(s, big.NewInt(28200960))
	if err != nil {
		t.Fatal(err)
	}
	fixed := []*big.Int{id}
	for _, c := range g.Classes[1:] {
		f, err := Fixed(context.Background(), s, c)
		if err != nil {
			t.Fatal(err)
		}
		fixed = append(fixed, f)
	}
	if err := g.CheckPowers(fixed); err != nil {
		t.Fatal(err)
	}
	tried := 0
	for _, c := range g.Classes {
		if c.Order%2 != 0 {
			continue
		}
		wrong := slices.Clone(fixed)
		wrong[c.Index] = new(big.Int).Add(fixed[c.Index], big.NewInt(1))
		if g.CheckPowers(wrong) == nil {
			t.Errorf("class %d (%s, order %d) one off: CheckPowers passes", c.Index, c.Desc, c.Order)
		}
		tried++
	}
	if tried == 0 {
		t.Fatal("no class of even order")
	}
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

// TestSigmaTypesByUnitImages checks SigmaTypes on every class of 2×4, 3×3,
// 2×5, 2×6, 3×4 and the transposes (12×12 not in short mode: about 30 s)
// against a second implementation of its condition, which follows each row,
// column and box as a set of cells through Element.Apply and compares σ^ℓ
// with g^ℓ on it by cycle type. Every Burnside method and stackjoin sum
// over SigmaTypes' list, so this test is the second count of the classes
// that no relabelling type allows (F = 0: 1,174 of 2×5's, 4,516 of 2×6's,
// 2,998 of 3×4's) and what keeps a type missing from the list from
// escaping two counts that agree.
func TestSigmaTypesByUnitImages(t *testing.T) {
	for _, c := range []struct {
		s         symmetry.Shape
		transpose bool
	}{{symmetry.Shape{R: 2, C: 4}, false}, {symmetry.Shape{R: 3, C: 3}, true}, {symmetry.Shape{R: 2, C: 5}, false}, {symmetry.Shape{R: 5, C: 2}, false},
		{symmetry.Shape{R: 2, C: 6}, false}, {symmetry.Shape{R: 6, C: 2}, false}, {symmetry.Shape{R: 3, C: 4}, false}, {symmetry.Shape{R: 4, C: 3}, false}} {
		if testing.Short() && c.s.N() == 12 {
			continue
		}
		g, err := symmetry.NewGroup(c.s, c.transpose)
		if err != nil {
			t.Fatal(err)
		}
		none := 0
		for _, cl := range g.Classes {
			got, want := fmt.Sprint(SigmaTypes(c.s, cl.Rep)), fmt.Sprint(sigmaTypesByUnitImages(c.s, cl.Rep))
			if got != want {
				t.Errorf("%v class %d (%s): SigmaTypes %s, by unit images %s", c.s, cl.Index, cl.Desc, got, want)
			}
			if want == "[]" {
				none++
			}
		}
		t.Logf("%v: %d of %d classes allow no relabelling type", c.s, none, len(g.Classes))
	}
}

func sigmaTypesByUnitImages(s symmetry.Shape, e symmetry.Element) [][]int {
	n := s.N()
	type cell struct{ r, c int }
	var units [][]cell
	for i := range n {
		var row, col, box []cell
		for j := range n {
			row = append(row, cell{i, j})
			col = append(col, cell{j, i})
			box = append(box, cell{(i/s.R)*s.R + j/s.C, (i%s.R)*s.C + j%s.C})
		}
		units = append(units, row, col, box)
	}
	type condition struct {
		l   int
		typ string
	}
	var conds []condition
	for _, u := range units {
		place := map[cell]int{}
		for k, x := range u {
			place[x] = k
		}
		img := u // img[k] = g^l(u[k])
		for l := 1; ; l++ {
			next := make([]cell, len(img))
			inside := true
			for k, x := range img {
				r, c := e.Apply(x.r, x.c)
				next[k] = cell{r, c}
				_, ok := place[next[k]]
				inside = inside && ok
			}
			img = next
			if inside {
				on := make([]int, len(u))
				for k := range u {
					on[k] = place[img[k]]
				}
				conds = append(conds, condition{l, fmt.Sprint(perm.CycleType(on))})
				break
			}
		}
	}
	var out [][]int
	for _, lam := range perm.Partitions(n) {
		sigma := perm.WithCycleType(lam)
		ok := true
		for _, c := range conds {
			pow := perm.Identity(n)
			for range c.l {
				pow = perm.Compose(sigma, pow)
			}
			ok = ok && fmt.Sprint(perm.CycleType(pow)) == c.typ
		}
		if ok {
			out = append(out, lam)
		}
	}
	return out
}
