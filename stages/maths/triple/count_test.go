package triple

import (
	"context"
	"math/big"
	"testing"
)

func TestCountKnown(t *testing.T) {
	want := map[int]string{2: "28200960", 3: "6670903752021072936960"}
	for c := 2; c <= 3; c++ {
		got, tab, err := Count(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		var w, stacks big.Int
		for _, g := range tab.Gangsters {
			w.Add(&w, new(big.Int).SetUint64(g.Weight))
			x := new(big.Int).SetUint64(g.Weight)
			stacks.Add(&stacks, x.Mul(x, new(big.Int).SetUint64(g.E)))
		}
		t.Logf("c=%d: %d gangsters, %d key orbits, weights %v, stacks %v", c, len(tab.Gangsters), tab.Orbits, &w, &stacks)
		if got.String() != want[c] {
			t.Errorf("c=%d: %v grids, want %s", c, got, want[c])
		}
	}
}

// TestRowsKnown counts 3×3 again through the rows layout.
func TestRowsKnown(t *testing.T) {
	ctx := context.Background()
	tab, err := BuildTables(ctx, 3)
	if err != nil {
		t.Fatal(err)
	}
	w, err := NewRows(ctx, tab)
	if err != nil {
		t.Fatal(err)
	}
	total := new(big.Int)
	for _, g := range tab.Gangsters {
		pl, err := tab.NewPlan(g)
		if err != nil {
			t.Fatal(err)
		}
		hi, lo, err := w.Completions(ctx, g, pl.Pairs)
		if err != nil {
			t.Fatal(err)
		}
		h2, l2, _ := tab.Completions(ctx, g, -1)
		if hi != h2 || lo != l2 {
			t.Fatalf("gangster %v: rows %d:%d, tables %d:%d", g, hi, lo, h2, l2)
		}
		f := new(big.Int).Lsh(new(big.Int).SetUint64(hi), 64)
		f.Or(f, new(big.Int).SetUint64(lo))
		f.Mul(f, new(big.Int).SetUint64(g.Weight*g.E))
		total.Add(total, f)
	}
	if total.String() != "6670903752021072936960" {
		t.Errorf("rows: %v", total)
	}
}

// TestCountRowsKnown counts 3×3 again through the permuted kernel of
// CountRows, gangster by gangster against the tables.
func TestCountRowsKnown(t *testing.T) {
	ctx := context.Background()
	tab, err := BuildTables(ctx, 3)
	if err != nil {
		t.Fatal(err)
	}
	w, err := NewRows(ctx, tab)
	if err != nil {
		t.Fatal(err)
	}
	cr, err := NewCountRows(ctx, w)
	if err != nil {
		t.Fatal(err)
	}
	total := new(big.Int)
	for _, g := range tab.Gangsters {
		pl, err := tab.NewPlan(g)
		if err != nil {
			t.Fatal(err)
		}
		hi, lo, err := cr.Completions(ctx, g, pl.Pairs)
		if err != nil {
			t.Fatal(err)
		}
		h2, l2, _ := tab.Completions(ctx, g, -1)
		if hi != h2 || lo != l2 {
			t.Fatalf("gangster %v: count rows %d:%d, tables %d:%d", g, hi, lo, h2, l2)
		}
		f := new(big.Int).Lsh(new(big.Int).SetUint64(hi), 64)
		f.Or(f, new(big.Int).SetUint64(lo))
		f.Mul(f, new(big.Int).SetUint64(g.Weight*g.E))
		total.Add(total, f)
	}
	if total.String() != "6670903752021072936960" {
		t.Errorf("count rows: %v", total)
	}
}
