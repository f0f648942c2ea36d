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
