package symchecks

import (
	"context"
	"math/big"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/multisets"
	"github.com/sudoku-census/sudoku-census/stages/shared/symunits"
)

// TestChecksBundleHolds checks which ids the checks bundle holds: the 5×2
// check units of the 85 classes with a relabelling type, the 21 heavy
// ones in 64 parts, and nothing of the 12×12 bundle.
func TestChecksBundleHolds(t *testing.T) {
	for id, want := range map[string]bool{
		"check.5x2.class009":             true,
		"check.5x2.class057":             true,
		"check.5x2.class081.part00of64":  true,
		"check.5x2.class081.part63of64":  true,
		"check.5x2.class081":             false, // split
		"check.5x2.class009.part00of64":  false, // whole
		"check.5x2.class081.part064of64": false,
		"check.5x2.class081.part64of64":  false,
		"check.5x2.class001":             false, // no relabelling type
		"check.2x5.class009":             false, // 2×5 takes 5×2's units
		"check.3x2.class004":             false, // computed in the run
		"5x2.class009":                   false,
		"check.2x6.class0010":            false, // 2×6 takes 6×2's units
		"check.6x2.class1613":            true,
		"check.6x2.class1613.part00of64": false, // whole
		"check.6x2.class0001":            false, // no relabelling type
		"check.6x2.class172":             false, // 4 digits at side 12
	} {
		if got := Bundle.Holds(id); got != want {
			t.Errorf("Bundle.Holds(%q) = %v, want %v", id, got, want)
		}
		if symunits.Bundle.Holds(id) {
			t.Errorf("the 12×12 bundle holds %q", id)
		}
	}
	n := 0
	g, err := symunits.Group(checkBundleShape, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range g.Classes[1:] {
		ids := checkUnitIDs(checkBundleShape, c.Index)
		if Bundle.Holds(ids[0]) {
			n++
			if _, heavy := checkHeavyCPUHours[c.Index]; heavy != (len(ids) == checkParts) {
				t.Errorf("class %d: %d units", c.Index, len(ids))
			}
		}
	}
	if n != 85 || len(checkHeavyCPUHours) != 21 || len(checkWeightOrder5x2) != 21 {
		t.Errorf("%d classes held, %d heavy, %d in weight order; want 85, 21, 21", n, len(checkHeavyCPUHours), len(checkWeightOrder5x2))
	}
	g25, err := symunits.Group(symmetry.Shape{R: 2, C: 5}, false)
	if err != nil {
		t.Fatal(err)
	}
	recounted := false // a class the multisets recount has come
	for _, i := range checkWeightOrder5x2 {
		if _, ok := checkHeavyCPUHours[i]; !ok {
			t.Errorf("class %d in the weight order is not heavy", i)
		}
		// The classes no other method recounts come first.
		j, err := checkClassOf(checkBundleShape, false, symmetry.Shape{R: 2, C: 5}, g.Classes[i])
		if err != nil {
			t.Fatal(err)
		}
		applies := multisets.Applies(5, g25.Classes[j].Rep)
		if recounted && !applies {
			t.Errorf("class %d, which only the R-stack method recounts, comes after one the multisets recount", i)
		}
		recounted = recounted || applies
	}
}

// TestCompareLiterature checks the three outcomes of the literature check:
// agreement, a fatal difference and a recorded one.
func TestCompareLiterature(t *testing.T) {
	s := symmetry.Shape{R: 2, C: 5}
	n := big.NewInt(1000)
	if text, err := compareLiterature(s, n, Published{}); text != "" || err != nil {
		t.Errorf("nothing Published: %q, %v; want nothing", text, err)
	}
	if text, err := compareLiterature(s, n, Published{"1000", "OEIS X", ""}); text != "equal to the literature: OEIS X" || err != nil {
		t.Errorf("equal: %q, %v", text, err)
	}
	if _, err := compareLiterature(s, n, Published{"1001", "OEIS X", ""}); err == nil || !strings.Contains(err.Error(), "OEIS X") {
		t.Errorf("undisputed difference: %v; want an error naming the source", err)
	}
	text, err := compareLiterature(s, n, Published{"1007", "OEIS X", "no method given"})
	if err != nil || text != "differs from the literature (OEIS X: 1007) by -7: no method given" {
		t.Errorf("disputed difference: %q, %v", text, err)
	}
	// Only 2x5 and 5x2 are disputed: every smaller count must agree.
	for k, lit := range literature {
		if lit.Disputed != "" && k.s.N() != 10 {
			t.Errorf("%v: disputed; only the 2x5 term of A291188 is", k.s)
		}
	}
}

// TestCheck6x2UnitEqualsStage computes the check unit of 6×2 class 1613
// (light: one relabelling type, a second or two) and compares its F with
// the stage's first count of the 2×6 class of its transpose, 1656, as the
// committed 12×12 bundle keeps it (the stack method); then Of takes it as
// a whole second count of that 2×6 class, and refuses it one more.
func TestCheck6x2UnitEqualsStage(t *testing.T) {
	if testing.Short() {
		t.Skip("lists a 6×2 first row's 7,484,400 partitions")
	}
	s26 := symmetry.Shape{R: 2, C: 6}
	first := symunits.UnitID(s26, 1656)
	rows, err := pipeline.ReadBundle(filepath.Join("..", "..", ".."), symunits.Bundle, []string{first})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := rows[first]; !ok {
		t.Skipf("the 12×12 bundle of this tree lacks %s", first)
	}
	want, _, err := symunits.FixedFromUnits([]string{first}, map[string][]byte{first: []byte(rows[first].Result)})
	if err != nil {
		t.Fatal(err)
	}
	g26, err := symunits.Group(s26, false)
	if err != nil {
		t.Fatal(err)
	}
	c := g26.Classes[1656]
	i, err := checkClassOf(s26, false, check6x2Shape, c)
	if err != nil || i != 1613 {
		t.Fatalf("2x6 class 1656 is recounted by 6x2 class %d (%v), want 1613", i, err)
	}
	ids := checkUnitIDs(check6x2Shape, i)
	if len(ids) != 1 || ids[0] != "check.6x2.class1613" || !Bundle.Holds(ids[0]) {
		t.Fatalf("units %v: want check.6x2.class1613, held by the checks bundle", ids)
	}
	result, err := Compute(context.Background(), ids[0])
	if err != nil {
		t.Fatal(err)
	}
	got, method, err := symunits.FixedFromUnits(ids, map[string][]byte{ids[0]: result})
	if err != nil || method != symunits.MethodStackjoin || got.Cmp(want) != 0 || got.Sign() <= 0 {
		t.Fatalf("%s: %q (%v), the stage's F %v", ids[0], result, err, want)
	}
	chk, used, err := Of(s26, false, c, want, symunits.MethodStacks, map[string][]byte{ids[0]: result}, nil, nil, nil)
	if err != nil || chk == nil || chk.Half || chk.Method != symunits.MethodStackjoin || !slices.Equal(used, ids) {
		t.Fatalf("Of: %+v, %v, %v; want a whole stackjoin second count from %v", chk, used, err, ids)
	}
	if _, _, err := Of(s26, false, c, new(big.Int).Add(want, big.NewInt(1)), symunits.MethodStacks, map[string][]byte{ids[0]: result}, nil, nil, nil); err == nil {
		t.Fatal("Of took a second count that differs from the first")
	}
}

// TestCheck6x2Listing lists the 6×2 check units of 2x6 and 6x2 from an
// empty bundle: within the default limits only classes counted whole,
// totalling minutes; within the long run's (7 and 80 CPU-hours), the split
// classes after them, heaviest first, each part of a class in order; and a
// run whose missing units pass symmetry.max_cpu_hours refused, naming the
// shapes.
func TestCheck6x2Listing(t *testing.T) {
	root := t.TempDir()
	shapes := []symmetry.Shape{{R: 2, C: 6}, {R: 6, C: 2}}
	noTranspose := func(symmetry.Shape) bool { return false }
	ids, err := listIDs(root, check6x2Shape, shapes, noTranspose, 0.4, 1)
	if err != nil {
		t.Fatal(err)
	}
	hours := 0.0
	for _, id := range ids {
		_, i, _, parts, err := parseCheckUnit(id)
		if err != nil || parts != 1 {
			t.Fatalf("default limits: unit %s (%v); want only classes counted whole", id, err)
		}
		hours += checkClassCPUHours(check6x2Shape, i)
	}
	const fewMinutes = 10.0 / 60 // CPU-hours the default run may spend on new 6×2 units
	if len(ids) == 0 || hours > fewMinutes {
		t.Errorf("default limits: %d units projecting %.3g CPU-hours; want some, within %.3g", len(ids), hours, fewMinutes)
	}
	// No R-stack class's parts are timed yet: the long run lists the same
	// units, then the σ types of the classes package bandcols recounts.
	var byTypes []string
	for _, i := range checkWeightOrder6x2 {
		if isBandcols(check6x2Shape, i) {
			byTypes = append(byTypes, checkUnitIDs(check6x2Shape, i)...)
		}
	}
	if long, err := listIDs(root, check6x2Shape, shapes, noTranspose, 7, 80); err != nil || !slices.Equal(long, append(slices.Clone(ids), byTypes...)) {
		t.Fatalf("long run, no split class timed: %d units (%v), want the %d whole ones and %d by σ types", len(long), err, len(ids), len(byTypes))
	}
	// Two classes timed (as their measurements would enter them, the
	// lighter first in the table): listed after the whole ones, heaviest
	// first, each part of a class in order, within the long run's limits.
	saved := checkSplit6x2
	defer func() { checkSplit6x2 = saved }()
	heavy, light := rStackClasses6x2()[0], rStackClasses6x2()[1]
	checkSplit6x2 = map[int]splitClass{light: {parts: 4, hours: 2}, heavy: {parts: 8, hours: 4}}
	if _, err := listIDs(root, check6x2Shape, shapes, noTranspose, 0.4, 1); err != nil {
		t.Fatalf("default limits, two classes timed: %v", err)
	}
	long, err := listIDs(root, check6x2Shape, shapes, noTranspose, 7, 80)
	if err != nil {
		t.Fatal(err)
	}
	var split []string
	for k := range 8 {
		split = append(split, symunits.CheckPrefix+symunits.PartID(check6x2Shape, heavy, k, 8))
	}
	for k := range 4 {
		split = append(split, symunits.CheckPrefix+symunits.PartID(check6x2Shape, light, k, 4))
	}
	want := slices.Clone(ids)
	for _, i := range checkWeightOrder6x2 {
		if _, timed := checkSplit6x2[i]; timed || isBandcols(check6x2Shape, i) {
			want = append(want, checkUnitIDs(check6x2Shape, i)...)
		}
	}
	if !slices.Equal(long, want) {
		t.Errorf("long run: %d units ending %v; want the %d whole ones, then by weight the split ones and the bandcols classes", len(long), long[max(0, len(long)-3):], len(ids))
	}
	if got, err := listIDs(root, check6x2Shape, shapes, noTranspose, 3, 80); err != nil || !slices.Equal(got, append(slices.Clone(ids), split[8:]...)) {
		t.Errorf("a class limit of 3 CPU-hours: %d units (%v); want the whole ones and the 2-hour class's 4 parts", len(got), err)
	}
	_, err = listIDs(root, check6x2Shape, shapes, noTranspose, 5, 1)
	if err == nil || !strings.Contains(err.Error(), "symmetry.max_cpu_hours") || !strings.Contains(err.Error(), "2x6 and 6x2") || !strings.Contains(err.Error(), "lacks") {
		t.Errorf("6 CPU-hours of new units within 1: %v; want symmetry.max_cpu_hours refused, naming 2x6 and 6x2", err)
	}
}

// TestCheckKernels checks that the parts of a split 6×2 class name
// stackjoin.FixedPartByFirstRows' division, while 5×2's parts and the
// classes counted whole keep the kernel their bundled units were made by.
func TestCheckKernels(t *testing.T) {
	saved := checkSplit6x2
	defer func() { checkSplit6x2 = saved }()
	first := rStackClasses6x2()[0]
	checkSplit6x2 = map[int]splitClass{first: {parts: 1024, hours: 100}}
	split6 := symunits.CheckPrefix + symunits.PartID(check6x2Shape, first, 3, 1024)
	split5 := symunits.CheckPrefix + symunits.PartID(checkBundleShape, checkWeightOrder5x2[0], 3, checkParts)
	whole6 := "" // a light class's unit
	for i := 1; whole6 == ""; i++ {
		if id := symunits.CheckPrefix + symunits.UnitID(check6x2Shape, i); checksBundleHolds(id) && !slices.Contains(checkWeightOrder6x2, i) {
			whole6 = id
		}
	}
	for id, want := range map[string]string{split6: checkKernelByFirstRows, split5: checkKernel, whole6: checkKernel} {
		if got := Bundle.KernelOf(id); got != want {
			t.Errorf("%s: kernel %q, want %q", id, got, want)
		}
	}
	if checkKernel == checkKernelByFirstRows || !strings.Contains(checkKernelByFirstRows, "FixedPartByFirstRows") {
		t.Errorf("kernels %q and %q: want the split 6×2 one to name FixedPartByFirstRows", checkKernel, checkKernelByFirstRows)
	}
}

// rStackClasses6x2 is checkWeightOrder6x2 without the classes package
// bandcols recounts: those the R-stack method would split.
func rStackClasses6x2() []int {
	var out []int
	for _, i := range checkWeightOrder6x2 {
		if !isBandcols(check6x2Shape, i) {
			out = append(out, i)
		}
	}
	return out
}

// TestBandcolsUnits checks the units of the 6×2 classes package bandcols
// recounts: one per σ type, named by its kernel, kept by the bundle, and
// class 172's part 0 (σ = id, about 5 CPU-s; skipped with -short)
// computing N_0, the number of 2×6 stacks.
func TestBandcolsUnits(t *testing.T) {
	cs := check6x2Shape
	for i, sc := range checkBandcols6x2 {
		ids := checkUnitIDs(cs, i)
		if len(ids) != sc.parts || sc.parts != cs.N()/2+1 {
			t.Fatalf("class %d: %d units, %d parts, want one per σ type (%d)", i, len(ids), sc.parts, cs.N()/2+1)
		}
		for _, id := range ids {
			if _, _, _, _, err := parseCheckUnit(id); err != nil {
				t.Fatal(err)
			}
			if Bundle.KernelOf(id) != checkKernelBandcols || !Bundle.Holds(id) {
				t.Errorf("%s: kernel %q, held %v", id, Bundle.KernelOf(id), Bundle.Holds(id))
			}
		}
		if testing.Short() || i != 172 {
			continue // the others' N_0 has band pairs' constraints: no other count of it
		}
		got, err := Compute(context.Background(), ids[0])
		if err != nil {
			t.Fatal(err)
		}
		if want := symunits.MethodBandcolsPart + " 4876139207527966044188061990912000"; string(got) != want {
			t.Errorf("%s: %q, want %q", ids[0], got, want)
		}
	}
}

// TestHeldClassesListed checks that a class whose units the bundle holds
// whole is listed whatever symmetry.check_max_class_cpu_hours says, and
// one it holds in part only within the limit: class 172's seven units
// (results made up: listing reads only the ids) in a bundle of a temporary
// root, then six of them.
func TestHeldClassesListed(t *testing.T) {
	shapes := []symmetry.Shape{{R: 2, C: 6}, {R: 6, C: 2}}
	noTranspose := func(symmetry.Shape) bool { return false }
	ids := checkUnitIDs(check6x2Shape, 172)
	for _, held := range []int{7, 6} {
		root := t.TempDir()
		var rows []pipeline.BundleRow
		for _, id := range ids[:held] {
			rows = append(rows, pipeline.NewBundleRow(Bundle, id, []byte(symunits.MethodBandcolsPart+" 1"), time.Second))
		}
		if err := pipeline.AddToBundle(root, Bundle, rows); err != nil {
			t.Fatal(err)
		}
		got, err := listIDs(root, check6x2Shape, shapes, noTranspose, 0.4, 1)
		if err != nil {
			t.Fatal(err)
		}
		listed := 0
		for _, id := range got {
			if slices.Contains(ids, id) {
				listed++
			}
		}
		if want := map[int]int{7: 7, 6: 0}[held]; listed != want {
			t.Errorf("%d of class 172's units held: %d listed at 0.4 CPU-hours a class, want %d", held, listed, want)
		}
	}
}
