package symunits

import (
	"context"
	"strings"
	"testing"

	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/stackjoin"
)

// TestBundleHolds checks which ids the 12×12 bundle holds: the canonical
// ids of the 488 2×6 and 316 3×4 classes that admit a relabelling type
// (heldClasses checks the numbers), nothing else, and each family's
// kernel.
func TestBundleHolds(t *testing.T) {
	for id, want := range map[string]bool{
		"2x6.class0009": true, "2x6.class0010": true, "2x6.class3896": true,
		"2x6.class0001": false, "2x6.class0011": false, "2x6.class5004": false, "2x6.class0142": true,
		"2x6.class0000": false, "2x6.class5005": false, "2x6.class009": false, "2x6.class00090": false,
		"6x2.class0001": false, "2x5.class001": false, "3x3.class020": false, "2x6.class-001": false, "2x6": false,
		"3x4.class0046.part000of256": true, "3x4.class2887": true, "3x4.class2887.part15of16": false, "3x4.class0046": false,
		"3x4.class0000": false, "3x4.class0000.part000of256": false, "3x4.class3315": false, "4x3.class0046.part000of256": false,
		"3x4.class046.part000of256": false, "3x4.class0001": false, "3x4.class0001.part000of256": false, "3x4.class0046.part00of16": false,
		"3x4.class0104.part007of256": true, "3x4.class0011.part255of256": true, "3x4.class0104": false, "3x4.class0104.part256of256": false,
		"3x4.class0104.part7of256": false, "3x4.class0104.part07of256": false, "3x4.class0104.part007of64": false, "3x4.class0104.part007": false,
		"3x4.class2887.part000of256": false, "2x6.class0010.part000of256": false,
	} {
		if got := Bundle.Holds(id); got != want {
			t.Errorf("Holds(%q) = %v, want %v", id, got, want)
		}
	}
	for id, want := range map[string]string{"2x6.class0010": "symmetry stack method (stacks.Fixed) v1", "3x4.class0046.part000of256": "symmetry R-stack method (stackjoin.FixedWorkers) v2",
		"3x4.class2887": "symmetry R-stack method (stackjoin.FixedWorkers) v2"} {
		if got := Bundle.KernelOf(id); got != want {
			t.Errorf("KernelOf(%q) = %q, want %q", id, got, want)
		}
	}
	for _, id := range []string{"3x3.class020", "2x5.class1234", "2x6.class0142", "3x4.class0104"} {
		if s, i, err := ParseUnit(id); err != nil || UnitID(s, i) != id {
			t.Errorf("ParseUnit(%q) = %v, %d, %v: want it back", id, s, i, err)
		}
	}
}

// TestUnitOf6x2 checks that the classes of 6×2 take the units of the 2×6
// classes of their transposes one to one (UnitOf checks sizes and orders),
// and, on one class, that this gives the count the stack method gives for
// the 6×2 representative itself (2×6 class 20, a nonzero count in about a
// CPU-second).
func TestUnitOf6x2(t *testing.T) {
	if testing.Short() {
		t.Skip("builds both 12×12 groups")
	}
	s62 := symmetry.Shape{R: 6, C: 2}
	g, err := Group(s62, false)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	var of20 *symmetry.Class
	for _, c := range g.Classes[1:] {
		id, err := UnitOf(s62, c)
		if err != nil {
			t.Fatal(err)
		}
		if k, dup := seen[id]; dup || !strings.HasPrefix(id, "2x6.class") {
			t.Fatalf("6x2 class %d takes unit %s (also class %d? %v)", c.Index, id, k, dup)
		}
		seen[id] = c.Index
		if id == UnitID(BundleShape, 20) {
			of20 = &c
		}
	}
	if len(seen) != bundleClasses-1 || of20 == nil {
		t.Fatalf("%d units taken, want %d, with 2x6 class 20", len(seen), bundleClasses-1)
	}
	ctx := context.Background()
	direct, err := fixedOf(ctx, s62, false, of20.Index, nil)
	if err != nil {
		t.Fatal(err)
	}
	mapped, err := fixedOf(ctx, BundleShape, false, 20, nil)
	if err != nil {
		t.Fatal(err)
	}
	if string(direct) != string(mapped) || string(mapped) == "stacks 0" {
		t.Errorf("6x2 class %d (%s): %s; its 2x6 unit gives %s", of20.Index, of20.Desc, direct, mapped)
	}
}

// TestUnitOf4x3 checks that the classes of 4×3 take the units of the 3×4
// classes of their transposes one to one (UnitOf checks sizes and orders),
// and, on two classes, that the R-stack method on the 3×4 unit gives what
// the search gives for the 4×3 representative itself: two methods that
// share no counting code, on the two orientations.
func TestUnitOf4x3(t *testing.T) {
	if testing.Short() {
		t.Skip("builds both 3×4 groups")
	}
	s43 := symmetry.Shape{R: 4, C: 3}
	g, err := Group(s43, false)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	byUnit := map[string]symmetry.Class{}
	for _, c := range g.Classes[1:] {
		id, err := UnitOf(s43, c)
		if err != nil {
			t.Fatal(err)
		}
		if k, dup := seen[id]; dup || !strings.HasPrefix(id, "3x4.class") {
			t.Fatalf("4x3 class %d takes unit %s (also class %d? %v)", c.Index, id, k, dup)
		}
		seen[id] = c.Index
		byUnit[id] = c
	}
	if len(seen) != joinClasses-1 {
		t.Fatalf("%d units taken, want %d", len(seen), joinClasses-1)
	}
	ctx := context.Background()
	nonzero := 0
	for _, i := range []int{1676, 2827} { // two quick classes with σ types (package stackjoin's quick3x4)
		c, ok := byUnit[UnitID(JoinShape, i)]
		if !ok {
			t.Fatalf("no 4x3 class takes 3x4 class %d", i)
		}
		direct, err := fixedOf(ctx, s43, false, c.Index, nil)
		if err != nil {
			t.Fatal(err)
		}
		mapped, err := fixedOf(ctx, JoinShape, false, i, nil)
		if err != nil {
			t.Fatal(err)
		}
		_, d, _ := strings.Cut(string(direct), " ")
		m, n, _ := strings.Cut(string(mapped), " ")
		if !strings.HasPrefix(string(direct), MethodSearch+" ") || m != MethodStackjoin || d != n {
			t.Errorf("4x3 class %d (%s): %s; its 3x4 unit gives %s", c.Index, c.Desc, direct, mapped)
		}
		if n != "0" {
			nonzero++
		}
	}
	if nonzero == 0 {
		t.Error("both classes fix no grid: the comparison shows nothing")
	}
}

// TestSplitClassFromParts computes the 256 part units of 3×4 class 11 (the
// search's heaviest plan, seconds for the R-stack method) as a run would,
// and checks that the class's count from them equals the R-stack method on
// the whole class, and that a missing or malformed part is refused.
func TestSplitClassFromParts(t *testing.T) {
	if testing.Short() {
		t.Skip("counts 3×4 class 11 twice")
	}
	ctx := context.Background()
	f := FamilyOf(JoinShape)
	ids := f.UnitIDs(11)
	if len(ids) != joinParts || ids[7] != "3x4.class0011.part007of256" {
		t.Fatalf("units of class 11: %v", ids)
	}
	results := map[string][]byte{}
	for k, id := range ids {
		r, err := PartOf(ctx, JoinShape, 11, k, joinParts)
		if err != nil {
			t.Fatal(err)
		}
		results[id] = r
	}
	got, method, err := FixedFromUnits(ids, results)
	if err != nil {
		t.Fatal(err)
	}
	g, err := Group(JoinShape, false)
	if err != nil {
		t.Fatal(err)
	}
	want, err := stackjoin.FixedWorkers(ctx, JoinShape, g.Classes[11].Rep, 2)
	if err != nil {
		t.Fatal(err)
	}
	if got.Cmp(want) != 0 || method != MethodStackjoin || want.Sign() <= 0 {
		t.Errorf("class 11 from its parts: %v (%s), whole %v", got, method, want)
	}
	delete(results, ids[3])
	if _, _, err := FixedFromUnits(ids, results); err == nil || !strings.Contains(err.Error(), "no result of unit 3x4.class0011.part003of256") {
		t.Errorf("a part missing: %v", err)
	}
	for _, bad := range []string{"stackjoin 12", "", "stackjoin-part", "stackjoin-part -5", "stackjoin-part 1.5", "stackjoin-part NaN", "stackjoin-part 1e30"} {
		results[ids[3]] = []byte(bad)
		if _, _, err := FixedFromUnits(ids, results); err == nil || !strings.Contains(err.Error(), `is not "stackjoin-part" and counts`) {
			t.Errorf("a part %q: %v", bad, err)
		}
	}
	for _, bad := range []string{"", "stackjoin", "stackjoin -1", "stackjoin 1 2", "stackjoin x", "search 0.5"} {
		if _, _, err := FixedFromUnits([]string{"u"}, map[string][]byte{"u": []byte(bad)}); err == nil || !strings.Contains(err.Error(), "is not a method and a count") {
			t.Errorf("a class result %q: %v", bad, err)
		}
	}
}

// TestOrbitBlame checks whom the recount of the 2×6 classes by the sum over
// pattern orbits blames: one class off names that class's unit of this
// stage's bundle first; several off name those units and the shapes
// stage's stack-count units (a stack count every recount reads) alike.
func TestOrbitBlame(t *testing.T) {
	one := orbitBlame([]orbitMismatch{{class: 21, unit: "2x6.class0021", has: "stacks 5", sum: "stacks 7"}}, 16, "data/orbit_stacks.parquet").Error()
	if !strings.Contains(one, "other 15 classes so recounted agree: unit 2x6.class0021 of "+Bundle.Path()+" is the likely wrong one") ||
		!strings.Contains(one, "else the stack-count units pair6-k1-stacks-*") {
		t.Errorf("one class off: %s", one)
	}
	many := orbitBlame([]orbitMismatch{{class: 10, unit: "2x6.class0010"}, {class: 21, unit: "2x6.class0021"}}, 16, "data/orbit_stacks.parquet").Error()
	if !strings.Contains(many, "2 of the 16 classes") || !strings.Contains(many, "2x6.class0010, 2x6.class0021") ||
		!strings.Contains(many, "either those units of "+Bundle.Path()+" or a stack count they all read, from the stack-count units pair6-k1-stacks-*") {
		t.Errorf("two classes off: %s", many)
	}
}
