package symmetry

import (
	"context"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/pipeline/engine"
	"github.com/sudoku-census/sudoku-census/pipeline/pipelinetest"
	"github.com/sudoku-census/sudoku-census/pipeline/store"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/search"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/stackjoin"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/stacks"
	"github.com/sudoku-census/sudoku-census/stages/shapes"
	"github.com/sudoku-census/sudoku-census/stages/shared/pairunits"
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
		if s, i, err := parseUnit(id); err != nil || unitID(s, i) != id {
			t.Errorf("parseUnit(%q) = %v, %d, %v: want it back", id, s, i, err)
		}
	}
}

// TestUnitOf6x2 checks that the classes of 6×2 take the units of the 2×6
// classes of their transposes one to one (unitOf checks sizes and orders),
// and, on one class, that this gives the count the stack method gives for
// the 6×2 representative itself (2×6 class 20, a nonzero count in about a
// CPU-second).
func TestUnitOf6x2(t *testing.T) {
	if testing.Short() {
		t.Skip("builds both 12×12 groups")
	}
	s62 := symmetry.Shape{R: 6, C: 2}
	g, err := groupOf(s62, false)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	var of20 *symmetry.Class
	for _, c := range g.Classes[1:] {
		id, err := unitOf(s62, c)
		if err != nil {
			t.Fatal(err)
		}
		if k, dup := seen[id]; dup || !strings.HasPrefix(id, "2x6.class") {
			t.Fatalf("6x2 class %d takes unit %s (also class %d? %v)", c.Index, id, k, dup)
		}
		seen[id] = c.Index
		if id == unitID(bundleShape, 20) {
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
	mapped, err := fixedOf(ctx, bundleShape, false, 20, nil)
	if err != nil {
		t.Fatal(err)
	}
	if string(direct) != string(mapped) || string(mapped) == "stacks 0" {
		t.Errorf("6x2 class %d (%s): %s; its 2x6 unit gives %s", of20.Index, of20.Desc, direct, mapped)
	}
}

// TestStage12FromBundle runs the stage on 2x6 and 6x2 (shapes from its
// committed bundle) with made-up bundles of the 12×12 classes: without one
// the stage refuses to start, naming symmetry.max_cpu_hours, and with that
// cost accepted, naming shapes.orbit_stacks (the classes counted by pattern
// orbits need the shapes stage's stack counts); with one
// whose class 9 fixes 1 grid and the others none, the Burnside sum is no
// multiple of |G| and the run fails; with every class 0 the checks pass
// (F(identity) is a multiple of |G| and of every element order, so they
// cannot see a class left at 0: hence the bundle, recomputed by census
// verify --recompute, and the tests of package stacks) and both
// orientations get the identity term, F(identity)/|G|.
func TestStage12FromBundle(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the exact stage")
	}
	root := t.TempDir()
	shapesBundle := filepath.Join(root, pipeline.BundlesDir, "shapes-2x6.parquet")
	data, err := os.ReadFile(filepath.Join("..", "..", pipeline.BundlesDir, "shapes-2x6.parquet"))
	if err != nil {
		t.Skip("no 2x6 shapes bundle in this tree:", err)
	}
	if err := os.MkdirAll(filepath.Dir(shapesBundle), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(shapesBundle, data, 0o644); err != nil {
		t.Fatal(err)
	}
	run := stageRunner(t, root, "exact.crosscheck=none", "shapes.shapes=2x6,6x2", "shapes.check=", "symmetry.shapes=2x6,6x2")
	if err := run(); err == nil || !strings.Contains(err.Error(), "symmetry.max_cpu_hours") {
		t.Fatalf("no 12×12 bundle: %v; want symmetry.max_cpu_hours refused", err)
	}
	if err := run("symmetry.max_cpu_hours=100"); err == nil || !strings.Contains(err.Error(), "shapes.orbit_stacks=true") {
		t.Fatalf("no 12×12 bundle, its cost accepted: %v; want the run refused for lack of shapes.orbit_stacks", err)
	}
	write := func(class9 string) {
		var rows []pipeline.BundleRow
		for i := 1; i < bundleClasses; i++ {
			id, result := unitID(bundleShape, i), "stacks 0"
			if !Bundle.Holds(id) {
				continue
			}
			if i == 9 {
				result = class9
			}
			rows = append(rows, pipeline.NewBundleRow(Bundle, id, []byte(result), 0))
		}
		if len(rows) != bundledClasses {
			t.Fatalf("%d units held, want %d", len(rows), bundledClasses)
		}
		if err := pipeline.AddToBundle(root, Bundle, rows); err != nil {
			t.Fatal(err)
		}
	}
	write("stacks 1")
	if err := run(); err == nil || !strings.Contains(err.Error(), "not a multiple of the group order") {
		t.Fatalf("class 9 fixing 1: %v; want the Burnside sum refused", err)
	}
	write("stacks 0")
	if err := run(); err != nil {
		t.Fatal(err)
	}
	rows, err := Counts.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	const identityTerm = "1673447740694242402965537030144" // F(identity)/|G|
	if len(rows) != 2 || rows[0].Shape != "2x6" || rows[1].Shape != "6x2" {
		t.Fatalf("rows %+v: want 2x6 and 6x2", rows)
	}
	for _, r := range rows {
		if r.EssentiallyDifferent != identityTerm || r.Classes != bundleClasses || r.ClassesFixing != 1 ||
			r.GroupOrder != "47775744000" || !strings.Contains(r.CheckedBy, Bundle.Path()) || r.Literature != "" {
			t.Errorf("%+v: want the identity term %s, 5005 classes, 1 fixing, |G| = 47775744000, the bundle named", r, identityTerm)
		}
	}
	classes, err := Classes.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(classes) != 2*bundleClasses || classes[bundleClasses+1].Shape != "6x2" || classes[bundleClasses+1].Method != "stacks" {
		t.Errorf("%d class rows, row %d %+v: want 2×5005, 6x2 by the stacks", len(classes), bundleClasses+1, classes[bundleClasses+1])
	}
	// With the orbits' stack counts the run recounts the 16 classes counted
	// by the orbit sum, and their rows of 0 fail it.
	stackUnits, err := pipeline.ReadBundle(root, pairunits.Bundle, pairunits.StacksIDs())
	if err != nil {
		t.Fatal(err)
	}
	if len(stackUnits) != pairunits.BundleUnits {
		t.Logf("the shapes bundle holds %d of the %d stack-count units: the orbit sum's recount is not tested", len(stackUnits), pairunits.BundleUnits)
		return
	}
	if err := run("shapes.orbit_stacks=true"); err == nil || !strings.Contains(err.Error(), "the sum over pattern orbits gives") || !strings.Contains(err.Error(), pairunits.StacksPrefix) {
		t.Fatalf("every class fixing 0, with the orbits' stack counts: %v; want the orbit sum's recount to refuse class 10", err)
	}
}

// TestOrbitStacksFrom takes the stack counts of 2×2 to 2×4 from the shapes
// stage, as a 2×6 unit does, and checks that the sum over pattern orbits
// then gives the stack method's count on every involutive exchange, and
// that rows missing an orbit, repeating one, with a wrong weight, or of
// no such width are refused.
func TestOrbitStacksFrom(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the exact stage")
	}
	root := pipelinetest.Run(t, pipelinetest.Options{Stages: pipelinetest.Closure(shapes.Stage), Set: []string{
		"exact.crosscheck=none", "shapes.shapes=2x2,2x3,2x4", "shapes.check=", "shapes.orbit_stacks=true"}})
	rows, err := shapes.OrbitStacks.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	exchanges := 0
	for c := 2; c <= 4; c++ {
		s := symmetry.Shape{R: 2, C: c}
		orbits, es, err := orbitStacksFrom(ctx, rows, c)
		if err != nil {
			t.Fatal(err)
		}
		g, err := groupOf(s, false)
		if err != nil {
			t.Fatal(err)
		}
		for _, class := range g.Classes {
			if !stacks.InvolutiveExchange(s, class.Rep) {
				continue
			}
			exchanges++
			got, err := stacks.FixedFromOrbits(s, class.Rep, orbits, es)
			if err != nil {
				t.Fatal(err)
			}
			want, err := stacks.Fixed(ctx, s, class.Rep)
			if err != nil || got.Cmp(want) != 0 {
				t.Errorf("%v class %d (%s): %v from the shapes stage's stack counts, the stack method %v (%v)", s, class.Index, class.Desc, got, want, err)
			}
		}
	}
	if exchanges < 10 {
		t.Fatalf("%d involutive exchanges on 2x2 to 2x4", exchanges)
	}
	var four []shapes.OrbitStackRow
	for _, r := range rows {
		if r.Width == 4 {
			four = append(four, r)
		}
	}
	heavier := slices.Clone(four)
	heavier[3].Weight++
	for name, bad := range map[string][]shapes.OrbitStackRow{
		"an orbit missing": four[1:], "an orbit twice": append(slices.Clone(four), four[2]),
		"a wrong weight": heavier, "a missing orbit replaced by a repeat": append(slices.Clone(four[1:]), four[2]),
	} {
		if _, _, err := orbitStacksFrom(ctx, bad, 4); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if _, _, err := orbitStacksFrom(ctx, rows, 5); err == nil || !strings.Contains(err.Error(), "shapes.orbit_stacks=true") {
		t.Errorf("no rows of width 5: %v, want shapes.orbit_stacks=true named", err)
	}
}

// TestOrbitSumAgrees2x6 compares the two methods at 2×6: the bundle's rows
// of classes 10, 21 and 32 were counted by the stack method (twisted stack
// counts over pattern assignments), and the sum over pattern orbits must
// give them again from the stack counts of the shapes stage's bundled
// units (which the shapes stage checks against its sum units on the way).
func TestOrbitSumAgrees2x6(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the exact stage and plans the 2x6 orbits")
	}
	tree := filepath.Join("..", "..", pipeline.BundlesDir)
	have, err := pipeline.ReadBundle(filepath.Join("..", ".."), pairunits.Bundle, pairunits.StacksIDs())
	if err != nil {
		t.Fatal(err)
	}
	if len(have) != pairunits.BundleUnits {
		t.Skipf("the shapes bundle holds %d of the %d stack-count units", len(have), pairunits.BundleUnits)
	}
	root := t.TempDir()
	for _, name := range []string{"shapes-2x6.parquet", "symmetry-12.parquet"} {
		data, err := os.ReadFile(filepath.Join(tree, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(root, pipeline.BundlesDir), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, pipeline.BundlesDir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	stages := pipelinetest.Closure(shapes.Stage)
	pipelinetest.CopySources(t, root, stages)
	cfg := filepath.Join(t.TempDir(), "empty.yaml")
	if err := os.WriteFile(cfg, []byte("# defaults\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e, err := engine.New(engine.Options{Root: root, Stages: stages, ConfigFile: cfg, Set: []string{
		"exact.crosscheck=none", "shapes.shapes=2x6", "shapes.check=", "shapes.orbit_stacks=true"}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := e.Run(ctx, nil, engine.RunOptions{}); err != nil {
		t.Fatal(err)
	}
	rows, err := shapes.OrbitStacks.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	orbits, es, err := orbitStacksFrom(ctx, rows, 6)
	if err != nil {
		t.Fatal(err)
	}
	g, err := groupOf(bundleShape, false)
	if err != nil {
		t.Fatal(err)
	}
	ids := []string{unitID(bundleShape, 10), unitID(bundleShape, 21), unitID(bundleShape, 32)}
	held, err := pipeline.ReadBundle(root, Bundle, ids)
	if err != nil || len(held) != len(ids) {
		t.Fatalf("the 12×12 bundle holds %d of classes 10, 21 and 32: %v", len(held), err)
	}
	for _, id := range ids {
		_, i, _ := parseUnit(id)
		f, err := stacks.FixedFromOrbits(bundleShape, g.Classes[i].Rep, orbits, es)
		if err != nil {
			t.Fatal(err)
		}
		if got := methodStacks + " " + f.String(); got != held[id].Result || f.Sign() <= 0 {
			t.Errorf("class %d: %q by the sum over pattern orbits, %q by the stack method", i, got, held[id].Result)
		}
	}

	// Once the 12×12 bundle is complete, the stage counts 2x6 and 6x2 from
	// it, its checks pass, and the run recounts the 16 orbit-sum classes.
	all, err := pipeline.ReadBundle(root, Bundle, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != bundledClasses {
		t.Logf("the 12×12 bundle holds %d of its %d units: the 2x6 count is not tested", len(all), bundledClasses)
		return
	}
	symmetryStages := pipelinetest.Closure(Stage)
	pipelinetest.CopySources(t, root, symmetryStages)
	e, err = engine.New(engine.Options{Root: root, Stages: symmetryStages, ConfigFile: cfg, Set: []string{
		"exact.crosscheck=none", "shapes.shapes=2x6,6x2", "shapes.check=", "shapes.orbit_stacks=true", "symmetry.shapes=2x6,6x2"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Run(ctx, nil, engine.RunOptions{}); err != nil {
		t.Fatal(err)
	}
	counts, err := Counts.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	const identityTerm = "1673447740694242402965537030144" // F(identity)/|G|, a lower bound
	low, _ := new(big.Int).SetString(identityTerm, 10)
	if len(counts) != 2 {
		t.Fatalf("%d rows, want 2x6 and 6x2", len(counts))
	}
	for _, r := range counts {
		n, ok := new(big.Int).SetString(r.EssentiallyDifferent, 10)
		if !ok || n.Cmp(low) <= 0 || r.EssentiallyDifferent != counts[0].EssentiallyDifferent || r.BundleCPUSeconds <= 0 ||
			!strings.Contains(r.CheckedBy, fmt.Sprintf(orbitRecountText, 16)) {
			t.Errorf("%s: %s essentially different (want above the identity term %s and equal for both orientations), bundle CPU %v s, checked by %q",
				r.Shape, r.EssentiallyDifferent, identityTerm, r.BundleCPUSeconds, r.CheckedBy)
		}
	}
}

// TestUnitOf4x3 checks that the classes of 4×3 take the units of the 3×4
// classes of their transposes one to one (unitOf checks sizes and orders),
// and, on two classes, that the R-stack method on the 3×4 unit gives what
// the search gives for the 4×3 representative itself: two methods that
// share no counting code, on the two orientations.
func TestUnitOf4x3(t *testing.T) {
	if testing.Short() {
		t.Skip("builds both 3×4 groups")
	}
	s43 := symmetry.Shape{R: 4, C: 3}
	g, err := groupOf(s43, false)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	byUnit := map[string]symmetry.Class{}
	for _, c := range g.Classes[1:] {
		id, err := unitOf(s43, c)
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
		c, ok := byUnit[unitID(joinShape, i)]
		if !ok {
			t.Fatalf("no 4x3 class takes 3x4 class %d", i)
		}
		direct, err := fixedOf(ctx, s43, false, c.Index, nil)
		if err != nil {
			t.Fatal(err)
		}
		mapped, err := fixedOf(ctx, joinShape, false, i, nil)
		if err != nil {
			t.Fatal(err)
		}
		_, d, _ := strings.Cut(string(direct), " ")
		m, n, _ := strings.Cut(string(mapped), " ")
		if !strings.HasPrefix(string(direct), methodSearch+" ") || m != methodStackjoin || d != n {
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

// TestStage3x4FromBundle runs the stage on 3x4 and 4x3 with made-up
// bundles of the 3×4 classes: without one the stage refuses to start,
// naming symmetry.max_cpu_hours; with every class 0 the Burnside sum is no
// multiple of |G| (unlike 2×6, the identity's term alone is not: the 3×4
// sum checks the other classes modulo |G| = 2,579,890,176) and the run
// fails; a class fixing more grids than F(identity) fails it too.
func TestStage3x4FromBundle(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the 3×4 group")
	}
	root := t.TempDir()
	run := stageRunner(t, root, "exact.crosscheck=none", "shapes.shapes=2x2", "shapes.check=", "symmetry.shapes=3x4,4x3")
	if err := run(); err == nil || !strings.Contains(err.Error(), "symmetry.max_cpu_hours") {
		t.Fatalf("no 3×4 bundle: %v; want symmetry.max_cpu_hours refused", err)
	}
	var rows []pipeline.BundleRow
	g, err := groupOf(joinShape, false)
	if err != nil {
		t.Fatal(err)
	}
	classes := 0
	for i := 1; i < joinClasses; i++ {
		for _, id := range families[1].unitIDs(i) {
			if !Bundle.Holds(id) {
				continue
			}
			result := methodStackjoinPart + strings.Repeat(" 0", len(search.SigmaTypes(joinShape, g.Classes[i].Rep)))
			if !strings.Contains(id, ".part") {
				result = methodStackjoin + " 0"
			}
			rows = append(rows, pipeline.NewBundleRow(Bundle, id, []byte(result), 0))
			if !strings.Contains(id, ".part") || strings.Contains(id, ".part000of") {
				classes++
			}
		}
	}
	if want := (joinedClasses - len(joinHeavyCPUHours)) + len(joinHeavyCPUHours)*joinParts; len(rows) != want || classes != joinedClasses || rows[0].Kernel != families[1].kernel {
		t.Fatalf("%d units held of %d classes, want %d of %d, of kernel %q", len(rows), classes, want, joinedClasses, families[1].kernel)
	}
	if err := pipeline.AddToBundle(root, Bundle, rows); err != nil {
		t.Fatal(err)
	}
	if err := run(); err == nil || !strings.Contains(err.Error(), "3x4: the Burnside sum 169459636863644991471711374298788659200 is not a multiple of the group order 2579890176") {
		t.Fatalf("every 3×4 class fixing 0: %v; want the Burnside sum (the identity's term alone) refused", err)
	}
	// A class fixing more grids than there are is refused before the sum.
	root = t.TempDir()
	run = stageRunner(t, root, "exact.crosscheck=none", "shapes.shapes=2x2", "shapes.check=", "symmetry.shapes=3x4")
	for i, row := range rows {
		if !strings.Contains(row.Unit, ".part") {
			rows[i] = pipeline.NewBundleRow(Bundle, row.Unit, []byte(methodStackjoin+" 1"+strings.Repeat("0", 40)), 0)
			break
		}
	}
	if err := pipeline.AddToBundle(root, Bundle, rows); err != nil {
		t.Fatal(err)
	}
	if err := run(); err == nil || !strings.Contains(err.Error(), "is more than F(identity) = 169459636863644991471711374298788659200") {
		t.Fatalf("a class fixing 10^40 3×4 grids: %v; want it refused as more than F(identity)", err)
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
	f := familyOf(joinShape)
	ids := f.unitIDs(11)
	if len(ids) != joinParts || ids[7] != "3x4.class0011.part007of256" {
		t.Fatalf("units of class 11: %v", ids)
	}
	results := map[string][]byte{}
	for k, id := range ids {
		r, err := partOf(ctx, joinShape, 11, k, joinParts)
		if err != nil {
			t.Fatal(err)
		}
		results[id] = r
	}
	got, method, err := fixedFromUnits(ids, results)
	if err != nil {
		t.Fatal(err)
	}
	g, err := groupOf(joinShape, false)
	if err != nil {
		t.Fatal(err)
	}
	want, err := stackjoin.FixedWorkers(ctx, joinShape, g.Classes[11].Rep, 2)
	if err != nil {
		t.Fatal(err)
	}
	if got.Cmp(want) != 0 || method != methodStackjoin || want.Sign() <= 0 {
		t.Errorf("class 11 from its parts: %v (%s), whole %v", got, method, want)
	}
	delete(results, ids[3])
	if _, _, err := fixedFromUnits(ids, results); err == nil || !strings.Contains(err.Error(), "no result of unit 3x4.class0011.part003of256") {
		t.Errorf("a part missing: %v", err)
	}
	for _, bad := range []string{"stackjoin 12", "", "stackjoin-part", "stackjoin-part -5", "stackjoin-part 1.5", "stackjoin-part NaN", "stackjoin-part 1e30"} {
		results[ids[3]] = []byte(bad)
		if _, _, err := fixedFromUnits(ids, results); err == nil || !strings.Contains(err.Error(), `is not "stackjoin-part" and counts`) {
			t.Errorf("a part %q: %v", bad, err)
		}
	}
	for _, bad := range []string{"", "stackjoin", "stackjoin -1", "stackjoin 1 2", "stackjoin x", "search 0.5"} {
		if _, _, err := fixedFromUnits([]string{"u"}, map[string][]byte{"u": []byte(bad)}); err == nil || !strings.Contains(err.Error(), "is not a method and a count") {
			t.Errorf("a class result %q: %v", bad, err)
		}
	}
}

// stageRunner copies the stage's sources into root and returns a function
// that runs the stage there with the defaults, base and then set.
func stageRunner(t *testing.T, root string, base ...string) func(set ...string) error {
	t.Helper()
	stages := pipelinetest.Closure(Stage)
	pipelinetest.CopySources(t, root, stages)
	cfg := filepath.Join(t.TempDir(), "empty.yaml")
	if err := os.WriteFile(cfg, []byte("# defaults\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return func(set ...string) error {
		e, err := engine.New(engine.Options{Root: root, Stages: stages, ConfigFile: cfg, Set: append(slices.Clone(base), set...)})
		if err != nil {
			return err
		}
		_, err = e.Run(context.Background(), nil, engine.RunOptions{})
		return err
	}
}

// TestStageFailsOnUnequalCheck runs the stage on 3×2, whose classes the
// R-stack method recounts, then replaces one check unit's result by a
// count one more than the class's F and reruns the stage on the units kept
// (a tampered unit file, as a tampered bundle row would be): it must fail
// naming the class.
func TestStageFailsOnUnequalCheck(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the exact stage")
	}
	root := t.TempDir()
	stages := pipelinetest.Closure(Stage)
	pipelinetest.CopySources(t, root, stages)
	cfg := filepath.Join(t.TempDir(), "empty.yaml")
	if err := os.WriteFile(cfg, []byte("# defaults\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func() error {
		e, err := engine.New(engine.Options{Root: root, Stages: stages, ConfigFile: cfg, Set: []string{
			"exact.crosscheck=none", "shapes.shapes=2x2,3x2", "shapes.check=2x2", "symmetry.shapes=3x2"}})
		if err != nil {
			return err
		}
		_, err = e.Run(context.Background(), nil, engine.RunOptions{})
		return err
	}
	if err := run(); err != nil {
		t.Fatal(err)
	}
	classes, err := Classes.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	victim := -1
	var f *big.Int
	for _, c := range classes {
		if c.Class > 0 && c.Fixed != "0" && c.CheckMethod == methodStackjoin && c.CheckFixed == c.Fixed {
			victim, f = int(c.Class), new(big.Int)
			f.SetString(c.Fixed, 10)
			break
		}
	}
	if victim < 0 {
		t.Fatal("no 3x2 class fixing a grid has a second count")
	}
	id := checkPrefix + unitID(symmetry.Shape{R: 3, C: 2}, victim)
	paths, err := filepath.Glob(filepath.Join(root, "data", "units", Stage.Name, "*", id))
	if err != nil || len(paths) != 1 {
		t.Fatalf("unit files of %s: %v, %v; want one", id, paths, err)
	}
	dir := filepath.Dir(paths[0])
	wrong := methodStackjoin + " " + new(big.Int).Add(f, big.NewInt(1)).String()
	if err := store.WriteUnit(dir, filepath.Base(dir), id, []byte(wrong), 0); err != nil {
		t.Fatal(err)
	}
	// The stage stale (an output gone, its run cache record too) and its
	// units kept: the rerun merges them.
	if err := os.Remove(filepath.Join(root, Classes.Path)); err != nil {
		t.Fatal(err)
	}
	// Every run record of the stage: the units' directory is keyed without
	// the bundles, the record by the fingerprint, which holds them.
	if err := os.RemoveAll(filepath.Dir(store.CacheRun(root, Stage.Name, "any"))); err != nil {
		t.Fatal(err)
	}
	err = run()
	if want := fmt.Sprintf("3x2 class %d ", victim); err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "the second count (stackjoin) gives F = "+wrong[len(methodStackjoin)+1:]+", the first (search) "+f.String()) {
		t.Fatalf("check unit %s edited to %q: %v; want the stage to fail naming %q", id, wrong, err, want)
	}
}

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
		"check.2x6.class0010":            false,
	} {
		if got := ChecksBundle.Holds(id); got != want {
			t.Errorf("ChecksBundle.Holds(%q) = %v, want %v", id, got, want)
		}
		if Bundle.Holds(id) {
			t.Errorf("the 12×12 bundle holds %q", id)
		}
	}
	n := 0
	g, err := groupOf(checkBundleShape, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range g.Classes[1:] {
		ids := checkUnitIDs(checkBundleShape, c.Index)
		if ChecksBundle.Holds(ids[0]) {
			n++
			if _, heavy := checkHeavyCPUHours[c.Index]; heavy != (len(ids) == checkParts) {
				t.Errorf("class %d: %d units", c.Index, len(ids))
			}
		}
	}
	if n != 85 || len(checkHeavyCPUHours) != 21 || len(checkWeightOrder5x2) != 21 {
		t.Errorf("%d classes held, %d heavy, %d in weight order; want 85, 21, 21", n, len(checkHeavyCPUHours), len(checkWeightOrder5x2))
	}
	for _, i := range checkWeightOrder5x2 {
		if _, ok := checkHeavyCPUHours[i]; !ok {
			t.Errorf("class %d in the weight order is not heavy", i)
		}
	}
}
