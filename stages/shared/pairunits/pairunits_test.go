package pairunits

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/sudoku-census/sudoku-census/pipeline"
)

// TestParse: every kind of unit id gives its width, and anything else is
// refused, including a bundled unit beyond the last.
func TestParse(t *testing.T) {
	ids := BundleIDs()
	if len(ids) != 1975 || ids[0] != BundlePrefix+"00000" || ids[1974] != BundlePrefix+"01974" {
		t.Fatalf("bundle ids: %d, first %q, last %q", len(ids), ids[0], ids[len(ids)-1])
	}
	for _, tc := range []struct {
		id        string
		c         int
		multisets bool
	}{{"pair-c5-0000032", 5, false}, {"multisets-c4", 4, true}, {ids[0], 6, false}, {ids[1974], 6, false}} {
		c, multisets, err := Parse(tc.id)
		if err != nil || c != tc.c || multisets != tc.multisets {
			t.Errorf("Parse(%q) = %d, %v, %v; want %d, %v", tc.id, c, multisets, err, tc.c, tc.multisets)
		}
	}
	for _, bad := range []string{"", "pair-c5", BundlePrefix + "01975", BundlePrefix + "1", "pair6-k0-00001"} {
		if _, _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q): no error", bad)
		}
	}
}

// TestBundleUnitsRecompute recomputes three cheap units of the committed
// bundle (the last, and two drawn among those projected at most 5
// CPU-seconds) on their own, as verify --recompute does, and compares them
// byte for byte with the bundle's rows, then rechecks an orbit of each by
// pairindep; a unit's sum must differ from its neighbour's row, so a plan
// shifted by whole units fails too.
func TestBundleUnitsRecompute(t *testing.T) {
	if testing.Short() {
		t.Skip("plans the 63,199 orbits of 2x6")
	}
	root := "../../.."
	rows, err := pipeline.ReadBundle(root, Bundle, BundleIDs())
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != BundleUnits {
		t.Skipf("the bundle holds %d of %d units", len(rows), BundleUnits)
	}
	ctx := context.Background()
	pc := pipeline.NewPass(ctx, pipeline.PassSpec{Stage: &pipeline.Stage{Name: "shapes"}, Root: root, Log: slog.Default()})
	ids := BundleIDs()
	var cheap []string
	for _, id := range ids {
		cost, err := unitCost(pc.ForUnit(ctx, id), id)
		if err != nil {
			t.Fatal(err)
		}
		if cost <= 5*time.Second {
			cheap = append(cheap, id)
		}
	}
	if len(cheap) < 100 || cheap[len(cheap)-1] != ids[len(ids)-1] {
		t.Fatalf("%d units projected within 5 CPU-seconds, the last %s", len(cheap), cheap[len(cheap)-1])
	}
	rng := rand.New(rand.NewPCG(19, 1))
	for _, id := range []string{ids[len(ids)-1], cheap[rng.IntN(len(cheap))], cheap[rng.IntN(len(cheap))]} {
		got, err := Compute(pc.ForUnit(ctx, id), id, 0)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != rows[id].Result {
			t.Errorf("unit %s: recomputed %s, the bundle holds %s", id, got, rows[id].Result)
		}
		u, _ := bundleUnit(id)
		if next := ids[(u+1)%len(ids)]; string(got) == rows[next].Result {
			t.Errorf("unit %s: recomputed sum equals unit %s's row", id, next)
		}
		what, err := recheckUnit(pc.ForUnit(ctx, id), id, got, 19)
		if err != nil {
			t.Errorf("unit %s: %v", id, err)
		}
		t.Log(id, what)
	}
}
