package longruns

import (
	"bytes"
	"context"
	"math"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
)

func mustShape(t *testing.T, s string) grid.Shape {
	t.Helper()
	shape, err := grid.ParseShape(s)
	if err != nil {
		t.Fatal(err)
	}
	return shape
}

// longUnits are units of every variant, with the parameters the stage
// gives them.
func longUnits(t *testing.T) []Unit {
	set := Params{HybridOrder: "cover", SEOrder: "cover", Alpha: 1e-05,
		HybridK: map[string]int{"3x3": 60, "2x3": 0}, SEBudget: map[string]int{"3x3": 30, "2x3": 10000, "4x4": 100}}
	var out []Unit
	for i, name := range Names {
		for _, s := range []string{"2x3", "3x3"} {
			shape := mustShape(t, s)
			out = append(out, Unit{Shape: shape, Variant: set.Variant(name, shape), Seed: uint64(i) * 0x9e3779b97f4a7c15,
				BlockSize: 1 + i*1000, First: 64 * i, Last: 64*i + 63})
		}
	}
	set.Alpha = 0.25
	out = append(out, Unit{Shape: mustShape(t, "4x4"), Variant: set.Variant("lookahead", mustShape(t, "4x4")),
		Seed: math.MaxUint64, BlockSize: 1 << 30, First: (1<<24 - 16), Last: 1<<24 - 1})
	return out
}

// TestUnitIDs checks that a long unit's id reads back as the unit, and
// that every other string is refused in one line.
func TestUnitIDs(t *testing.T) {
	// The knuth stage's default parameters: no 4x4 budget.
	defaults := Params{HybridOrder: "cover", SEOrder: "mrv", Alpha: 0.25,
		HybridK: map[string]int{"2x2": 8, "2x3": 20, "3x3": 60}, SEBudget: map[string]int{"2x2": 10, "2x3": 10, "3x3": 30}}
	for _, u := range longUnits(t) {
		got, err := parse(u.ID())
		if err != nil || !reflect.DeepEqual(got, u) {
			t.Errorf("parse(%q) = %+v, %v; want %+v", u.ID(), got, err, u)
		}
		if !Bundle.Holds(u.ID()) {
			t.Errorf("the bundle does not hold %s", u.ID())
		}
	}
	if id := (Unit{Shape: mustShape(t, "4x4"), Variant: defaults.Variant("lookahead", mustShape(t, "4x4")),
		Seed: 1, BlockSize: 1000, First: 32, Last: 47}).ID(); id != "long.4x4.lookahead.mrv.k256.b0.a0p25.s1.n1000.32-47" {
		t.Errorf("id %s", id) // the default configuration has no 4x4 budget: 0
	}
	good := "long.4x4.se.mrv.k256.b100.a0.s1.n1000.32-47"
	if _, err := parse(good); err != nil {
		t.Fatal(err)
	}
	// stackshybrid: its exact matching columns in the b field, 0 for the
	// default (walks.StacksHybridColumns), so the 25x25 units keep their ids.
	hybrid := func(exact map[string]int) string {
		p := defaults
		p.StacksExact = exact
		return Unit{Shape: mustShape(t, "4x3"), Variant: p.Variant("stackshybrid", mustShape(t, "4x3")), Seed: 1, BlockSize: 1000, First: 0, Last: 15}.ID()
	}
	if id := hybrid(nil); id != "long.4x3.stackshybrid.rowmajor.k144.b0.a0.s1.n1000.0-15" {
		t.Errorf("default stackshybrid id %s", id)
	}
	six := hybrid(map[string]int{"4x3": 6})
	if u, err := parse(six); six != "long.4x3.stackshybrid.rowmajor.k144.b6.a0.s1.n1000.0-15" || err != nil || u.Variant.StacksExact != 6 {
		t.Errorf("stackshybrid with 6 exact columns: id %s, %+v, %v", six, u.Variant, err)
	}
	if _, err := parse(strings.Replace(six, ".stackshybrid.", ".stacks.", 1)); err == nil {
		t.Error("stacks with exact columns in its b field: no error")
	}
	// Its candidate draws in the a field when more than 1 (1 is the
	// default's a0: one unit, one id).
	p := defaults
	p.StacksExact, p.StacksDraws = map[string]int{"4x3": 6}, map[string]int{"4x3": 8}
	eight := Unit{Shape: mustShape(t, "4x3"), Variant: p.Variant("stackshybrid", mustShape(t, "4x3")), Seed: 1, BlockSize: 1000, First: 0, Last: 15}.ID()
	if u, err := parse(eight); eight != "long.4x3.stackshybrid.rowmajor.k144.b6.a8.s1.n1000.0-15" || err != nil || u.Variant.StacksDraws != 8 || u.Variant.Alpha != 0 {
		t.Errorf("stackshybrid with 8 candidate draws: id %s, %+v, %v", eight, u.Variant, err)
	}
	p.StacksDraws = map[string]int{"4x3": 1}
	if id := (Unit{Shape: mustShape(t, "4x3"), Variant: p.Variant("stackshybrid", mustShape(t, "4x3")), Seed: 1, BlockSize: 1000, First: 0, Last: 15}.ID()); id != six {
		t.Errorf("stackshybrid with 1 candidate draw: id %s, want %s", id, six)
	}
	for _, a := range []string{".a1.", ".a2p5.", ".a257.", ".a1e9.", ".aNaN.", ".a08."} {
		if _, err := parse(strings.Replace(eight, ".a8.", a, 1)); err == nil {
			t.Errorf("stackshybrid with a field %s: no error", a)
		}
	}
	if _, err := parse(strings.Replace(eight, ".stackshybrid.", ".stacks.", 1)); err == nil {
		t.Error("stacks with candidate draws in its a field: no error")
	}
	for _, id := range []string{
		"", "long", "3x3.mrv.0-624", good + ".", "." + good, strings.Replace(good, "long", "LONG", 1),
		strings.Replace(good, "4x4", "04x4", 1), strings.Replace(good, "4x4", "4X4", 1), strings.Replace(good, "4x4", "7x7", 1),
		strings.Replace(good, ".se.", ".dfs.", 1), strings.Replace(good, ".mrv.", ".spiral.", 1),
		strings.Replace(good, ".mrv.", ".rowmajor.", 1), // se orders mrv or cover only
		strings.Replace(good, "k256", "k255", 1),        // se fills every cell
		strings.Replace(good, "k256", "k0256", 1), strings.Replace(good, "k256", "k+256", 1), strings.Replace(good, "k256", "256", 1),
		strings.Replace(good, "b100", "b0", 1), strings.Replace(good, "b100", "b10001", 1), strings.Replace(good, "b100", "b-1", 1),
		strings.Replace(good, "a0", "a0p25", 1), // alpha is lookahead's
		strings.Replace(good, "a0", "a-0", 1), strings.Replace(good, "a0", "aNaN", 1), strings.Replace(good, "a0", "a0p0", 1),
		strings.Replace(good, "s1", "s01", 1), strings.Replace(good, "s1", "s18446744073709551616", 1),
		strings.Replace(good, "n1000", "n0", 1), strings.Replace(good, "n1000", "n1073741825", 1),
		strings.Replace(good, "32-47", "32-46", 1), strings.Replace(good, "32-47", "33-48", 1), strings.Replace(good, "32-47", "47-32", 1),
		strings.Replace(good, "32-47", "32", 1), strings.Replace(good, "32-47", "032-47", 1),
		strings.Replace(good, "32-47", "16777216-16777231", 1),
		strings.Replace(good, "32-47", "18446744073709551600-15", 1),
		"long.4x4.bandselast.mrv.k256.b100.a0.s1.n1000.32-47", // box height 4: no last band
		"long.6x2.bandmrv.mrv.k144.b0.a0.s1.n1000.0-15",       // box height 6: no first band
		"long.3x3.mrv.mrv.k81.b100.a0.s1.n1000.0-63",          // a walk has no budget
		good + "\nlong.4x4.se.mrv.k256.b100.a0.s1.n1000.48-63", good + "\x00", strings.Repeat("long.", 30),
		"long.4x4.se.mrv.k256.b100.a0.s1.n1000.32-47.", "long.4x4.se.mrv.k256.b100.a0.s1.n1000.32-4７",
	} {
		u, err := parse(id)
		if err == nil {
			t.Errorf("parse(%q) = %+v, want an error", id, u)
			continue
		}
		if msg := err.Error(); strings.Contains(msg, "\n") || len(msg) > 400 || !strings.Contains(msg, "want long.<shape>") {
			t.Errorf("parse(%q): error %q is not one line giving the form", id, msg)
		}
		if Bundle.Holds(id) {
			t.Errorf("the bundle holds %q", id)
		}
	}
}

// TestUnitIsPure checks that a long unit's result is a function of its
// id alone: the same bytes computed twice and on one core or two, and
// decodable as its blocks.
func TestUnitIsPure(t *testing.T) {
	for _, id := range []string{
		"long.2x3.se.mrv.k36.b10.a0.s7.n20.64-127",
		"long.3x3.bandse.mrv.k81.b5.a0.s1.n3.0-63",
		"long.2x3.lookahead.mrv.k36.b4.a0p25.s1.n10.0-63",
		"long.2x3.hybrid.cover.k18.b0.a0.s2.n10.128-191",
	} {
		u, err := parse(id)
		if err != nil {
			t.Fatal(err)
		}
		var results [][]byte
		for _, procs := range []int{1, 2, 2} {
			prev := runtime.GOMAXPROCS(procs)
			r, err := Compute(context.Background(), id)
			runtime.GOMAXPROCS(prev)
			if err != nil {
				t.Fatal(err)
			}
			results = append(results, r)
		}
		for i, r := range results[1:] {
			if !bytes.Equal(r, results[0]) {
				t.Errorf("%s: computation %d differs from the first (GOMAXPROCS 1)", id, i+1)
			}
		}
		blocks, err := u.decode(results[0])
		if err != nil || len(blocks) != 64 {
			t.Fatalf("%s: %d blocks, %v", id, len(blocks), err)
		}
		if bad := append([]byte("x"), results[0]...); func() bool { _, err := u.decode(bad); return err == nil }() {
			t.Errorf("%s: a damaged result decodes", id)
		}
	}
}

// TestLongGoal checks the run report's verdict on a long run's goal: met
// at or below the goal, else the CPU time the run would need, c·(h/g)².
func TestLongGoal(t *testing.T) {
	for _, c := range []struct {
		h, g, cpu float64
		met       bool
		more      float64
	}{
		{0.0009, 0.001, 3600, true, 0},
		{0.001, 0.001, 3600, true, 0},
		{0.002, 0.001, 3600, false, 14400},
		{0.075, 0.05, 1000, false, 2250},
		{math.Inf(1), 0.01, 10, false, math.Inf(1)},
		{math.NaN(), 0.01, 10, false, math.Inf(1)},
	} {
		met, more := meetsGoal(c.h, c.g, c.cpu)
		same := math.IsInf(c.more, 1) && math.IsInf(more, 1) || math.Abs(more-c.more) <= 1e-9*c.more
		if met != c.met || !same {
			t.Errorf("meetsGoal(%g, %g, %g) = %v, %g; want %v, %g", c.h, c.g, c.cpu, met, more, c.met, c.more)
		}
	}
}
