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
	stacks := StacksIDs()
	if len(stacks) != 1975 || stacks[0] != StacksPrefix+"00000" || stacks[1974] != StacksPrefix+"01974" {
		t.Fatalf("stack-count ids: %d, first %q, last %q", len(stacks), stacks[0], stacks[len(stacks)-1])
	}
	for _, tc := range []struct {
		id   string
		c    int
		kind Kind
	}{{"pair-c5-0000032", 5, KindSum}, {"multisets-c4", 4, KindMultisets}, {ids[0], 6, KindSum}, {ids[1974], 6, KindSum},
		{stacks[0], 6, KindStacks}, {stacks[1974], 6, KindStacks}} {
		c, kind, err := Parse(tc.id)
		if err != nil || c != tc.c || kind != tc.kind {
			t.Errorf("Parse(%q) = %d, %v, %v; want %d, %v", tc.id, c, kind, err, tc.c, tc.kind)
		}
		if held := Bundle.Holds(tc.id); held != (tc.c == 6) {
			t.Errorf("Bundle.Holds(%q) = %v", tc.id, held)
		}
	}
	for _, bad := range []string{"", "pair-c5", BundlePrefix + "01975", BundlePrefix + "1", "pair6-k0-00001",
		StacksPrefix + "01975", StacksPrefix + "1", BundlePrefix + "stacks00001"} {
		if _, _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q): no error", bad)
		}
		if Bundle.Holds(bad) {
			t.Errorf("Bundle.Holds(%q)", bad)
		}
	}
}

// TestParseStacks: a stack-count result reads back only when written as
// FormatStacks writes it, with the number of counts asked for.
func TestParseStacks(t *testing.T) {
	es := []uint64{0, 7, 18446744073709551615}
	text := FormatStacks(es)
	if text != "0 7 18446744073709551615" {
		t.Fatalf("FormatStacks = %q", text)
	}
	got, err := ParseStacks("u", []byte(text), 3)
	if err != nil || len(got) != 3 || got[2] != es[2] {
		t.Fatalf("ParseStacks(%q) = %v, %v", text, got, err)
	}
	for _, bad := range []string{"0 7", "0 7 18446744073709551616", "0  7 1", "0 7 1 ", "00 7 1", "+0 7 1", "0 7 -1", "0,7,1", ""} {
		if got, err := ParseStacks("u", []byte(bad), 3); err == nil {
			t.Errorf("ParseStacks(%q) = %v, want an error", bad, got)
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
		// The stack-count unit of the same orbits: its E give the sum
		// unit's row, and an E changed by one does not.
		sid := StacksIDs()[u]
		es, err := Compute(pc.ForUnit(ctx, sid), sid, 0)
		if err != nil {
			t.Fatal(err)
		}
		plan, err := PlanOf(pc.ForUnit(ctx, sid), BundleWidth)
		if err != nil {
			t.Fatal(err)
		}
		held, err := UnitStacks(plan, u, es, []byte(rows[id].Result))
		if err != nil {
			t.Errorf("unit %s: %v", sid, err)
		}
		if what, err := recheckUnit(pc.ForUnit(ctx, sid), sid, es, 19); err != nil {
			t.Errorf("unit %s: %v", sid, err)
		} else {
			t.Log(sid, what)
		}
		held[len(held)-1]++
		if _, err := UnitStacks(plan, u, []byte(FormatStacks(held)), []byte(rows[id].Result)); err == nil {
			t.Errorf("unit %s: a changed stack count passes the check against the sum", sid)
		}
	}
}
