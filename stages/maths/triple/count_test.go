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
	w := newRows(t, tables3(t))
	checkKernel3x3(t, "rows", w.t, w.Completions)
}

// TestCountRowsKnown counts 3×3 again through the permuted kernel of
// CountRows.
func TestCountRowsKnown(t *testing.T) {
	cr := newCountRows(t, newRows(t, tables3(t)))
	checkKernel3x3(t, "count rows", cr.w.t, cr.Completions)
}

// tables3 builds the 3×3 tables.
func tables3(t *testing.T) *Tables {
	tab, err := BuildTables(context.Background(), 3)
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// newRows builds the rows of tab's stack counts.
func newRows(t *testing.T, tab *Tables) *Rows {
	w, err := NewRows(context.Background(), tab)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// newCountRows builds the rows of counts of w, for the permuted kernel.
func newCountRows(t *testing.T, w *Rows) *CountRows {
	cr, err := NewCountRows(context.Background(), w)
	if err != nil {
		t.Fatal(err)
	}
	return cr
}

// checkKernel3x3 counts 3×3 through a kernel on tab (Rows.Completions or
// CountRows.Completions) over each gangster's whole plan, checking it
// gangster by gangster against the plain tables kernel and the total
// against the known count.
func checkKernel3x3(t *testing.T, name string, tab *Tables, completions func(context.Context, Gangster, []PairRep) (uint64, uint64, error)) {
	t.Helper()
	ctx := context.Background()
	total := new(big.Int)
	for _, g := range tab.Gangsters {
		pl, err := tab.NewPlan(g)
		if err != nil {
			t.Fatal(err)
		}
		hi, lo, err := completions(ctx, g, pl.Pairs)
		if err != nil {
			t.Fatal(err)
		}
		h2, l2, err := tab.Completions(ctx, g, -1)
		if err != nil {
			t.Fatal(err)
		}
		if hi != h2 || lo != l2 {
			t.Fatalf("gangster %v: %s %d:%d, tables %d:%d", g, name, hi, lo, h2, l2)
		}
		f := new(big.Int).Lsh(new(big.Int).SetUint64(hi), 64)
		f.Or(f, new(big.Int).SetUint64(lo))
		f.Mul(f, new(big.Int).SetUint64(g.Weight*g.E))
		total.Add(total, f)
	}
	if total.String() != "6670903752021072936960" {
		t.Errorf("%s: %v grids, want 6670903752021072936960", name, total)
	}
}
