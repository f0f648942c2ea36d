package symmetry

import (
	"context"
	"math/big"
	"testing"
)

func TestCanonicalFormsFind4x4WithoutTransposition(t *testing.T) {
	// Without transposition the two 4×4 classes split into three.
	n, err := CountByCanonicalForms(context.Background(), Shape{R: 2, C: 2}, false)
	if err != nil || n != 3 {
		t.Fatalf("4×4 without transposition: %d, %v; want 3", n, err)
	}
}

func TestGroupOrders(t *testing.T) {
	for _, c := range []struct {
		s         Shape
		transpose bool
		order     string
		classes   int
	}{
		{Shape{R: 3, C: 3}, true, "3359232", 275},
		{Shape{R: 2, C: 3}, false, "3456", 90},
		{Shape{R: 2, C: 2}, true, "128", 0},
	} {
		g, err := NewGroup(c.s, c.transpose)
		if err != nil {
			t.Fatal(err)
		}
		if g.Order.String() != c.order || (c.classes != 0 && len(g.Classes) != c.classes) {
			t.Errorf("%v: order %v, %d classes; want %s, %d", c.s, g.Order, len(g.Classes), c.order, c.classes)
		}
	}
}

func TestIdentityFixed(t *testing.T) {
	n, _ := new(big.Int).SetString("6670903752021072936960", 10)
	f, err := IdentityFixed(Shape{R: 3, C: 3}, n)
	if err != nil || f.String() != "18383222420692992" {
		t.Fatalf("F(identity) for 9×9: %v, %v; want 18383222420692992", f, err)
	}
	if _, err := IdentityFixed(Shape{R: 3, C: 3}, big.NewInt(1)); err == nil {
		t.Fatal("1 grid of 9×9 divided by 9! without an error")
	}
}

// TestClassOfPowers checks ClassOf and Power on every class: a
// representative lies in its own class, its power by its order is the
// identity, and every power lies in a class of an order dividing it.
func TestClassOfPowers(t *testing.T) {
	for _, c := range []struct {
		s         Shape
		transpose bool
	}{{Shape{R: 2, C: 3}, false}, {Shape{R: 2, C: 2}, true}, {Shape{R: 3, C: 3}, true}, {Shape{R: 2, C: 5}, false}} {
		g, err := NewGroup(c.s, c.transpose)
		if err != nil {
			t.Fatal(err)
		}
		for _, cl := range g.Classes {
			if i, err := g.ClassOf(cl.Rep); err != nil || i != cl.Index {
				t.Fatalf("%v class %d: ClassOf gives %d, %v", c.s, cl.Index, i, err)
			}
			if !cl.Rep.Power(cl.Order).IsIdentity() || (cl.Order > 1 && cl.Rep.Power(1).Describe(c.s) != cl.Desc) {
				t.Fatalf("%v class %d: powers 1 and %d of %s are wrong", c.s, cl.Index, cl.Order, cl.Desc)
			}
			for k := range cl.Order {
				i, err := g.ClassOf(cl.Rep.Power(k))
				if err != nil {
					t.Fatal(err)
				}
				if cl.Order/gcdInt(cl.Order, k) != g.Classes[i].Order {
					t.Fatalf("%v class %d: power %d is in class %d of order %d", c.s, cl.Index, k, i, g.Classes[i].Order)
				}
			}
		}
	}
}

func gcdInt(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}
