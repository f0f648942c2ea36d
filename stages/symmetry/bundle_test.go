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
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/stacks"
	"github.com/sudoku-census/sudoku-census/stages/shapes"
	"github.com/sudoku-census/sudoku-census/stages/shared/pairunits"
	"github.com/sudoku-census/sudoku-census/stages/shared/symunits"
)

// The 12×12 families' numbers, as package symunits checks them against
// the groups.
const (
	bundleClasses  = 5005 // classes of the 2×6 group
	bundledClasses = 488  // those with a relabelling type: the bundle's 2×6 units
	joinClasses    = 3315 // classes of the 3×4 group
	joinedClasses  = 316  // those with a relabelling type: the bundle's 3×4 classes
	joinHeavy      = 50   // 3×4 classes split into joinParts parts
	joinParts      = 256
)

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
	// No 6×2 check units: they take CPU-minutes and would refuse the fake
	// bundle's counts of 0 (TestCheck6x2* in package symchecks test them).
	run := stageRunner(t, root, "exact.crosscheck=none", "shapes.shapes=2x6,6x2", "shapes.check=", "symmetry.shapes=2x6,6x2", "symmetry.check_max_class_cpu_hours=0")
	if err := run(); err == nil || !strings.Contains(err.Error(), "symmetry.max_cpu_hours") {
		t.Fatalf("no 12×12 bundle: %v; want symmetry.max_cpu_hours refused", err)
	}
	if err := run("symmetry.max_cpu_hours=100"); err == nil || !strings.Contains(err.Error(), "shapes.orbit_stacks=true") {
		t.Fatalf("no 12×12 bundle, its cost accepted: %v; want the run refused for lack of shapes.orbit_stacks", err)
	}
	write := func(class9 string) {
		var rows []pipeline.BundleRow
		for i := 1; i < bundleClasses; i++ {
			id, result := symunits.UnitID(symunits.BundleShape, i), "stacks 0"
			if !symunits.Bundle.Holds(id) {
				continue
			}
			if i == 9 {
				result = class9
			}
			rows = append(rows, pipeline.NewBundleRow(symunits.Bundle, id, []byte(result), 0))
		}
		if len(rows) != bundledClasses {
			t.Fatalf("%d units held, want %d", len(rows), bundledClasses)
		}
		if err := pipeline.AddToBundle(root, symunits.Bundle, rows); err != nil {
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
			r.GroupOrder != "47775744000" || !strings.Contains(r.CheckedBy, symunits.Bundle.Path()) || r.Literature != "" {
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
		orbits, es, err := symunits.OrbitStacksFrom(ctx, orbitTableOf(rows), c)
		if err != nil {
			t.Fatal(err)
		}
		g, err := symunits.Group(s, false)
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
		if _, _, err := symunits.OrbitStacksFrom(ctx, orbitTableOf(bad), 4); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if _, _, err := symunits.OrbitStacksFrom(ctx, orbitTableOf(rows), 5); err == nil || !strings.Contains(err.Error(), "shapes.orbit_stacks=true") {
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
	orbits, es, err := symunits.OrbitStacksFrom(ctx, orbitTableOf(rows), 6)
	if err != nil {
		t.Fatal(err)
	}
	g, err := symunits.Group(symunits.BundleShape, false)
	if err != nil {
		t.Fatal(err)
	}
	ids := []string{symunits.UnitID(symunits.BundleShape, 10), symunits.UnitID(symunits.BundleShape, 21), symunits.UnitID(symunits.BundleShape, 32)}
	held, err := pipeline.ReadBundle(root, symunits.Bundle, ids)
	if err != nil || len(held) != len(ids) {
		t.Fatalf("the 12×12 bundle holds %d of classes 10, 21 and 32: %v", len(held), err)
	}
	for _, id := range ids {
		_, i, _ := symunits.ParseUnit(id)
		f, err := stacks.FixedFromOrbits(symunits.BundleShape, g.Classes[i].Rep, orbits, es)
		if err != nil {
			t.Fatal(err)
		}
		if got := symunits.MethodStacks + " " + f.String(); got != held[id].Result || f.Sign() <= 0 {
			t.Errorf("class %d: %q by the sum over pattern orbits, %q by the stack method", i, got, held[id].Result)
		}
	}

	// Once the 12×12 bundle is complete, the stage counts 2x6 and 6x2 from
	// it, its checks pass, and the run recounts the 16 orbit-sum classes.
	all, err := pipeline.ReadBundle(root, symunits.Bundle, nil)
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
		"exact.crosscheck=none", "shapes.shapes=2x6,6x2", "shapes.check=", "shapes.orbit_stacks=true", "symmetry.shapes=2x6,6x2",
		"symmetry.check_max_class_cpu_hours=0"}})
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
			!strings.Contains(r.CheckedBy, fmt.Sprintf(symunits.OrbitRecountText, 16)) {
			t.Errorf("%s: %s essentially different (want above the identity term %s and equal for both orientations), bundle CPU %v s, checked by %q",
				r.Shape, r.EssentiallyDifferent, identityTerm, r.BundleCPUSeconds, r.CheckedBy)
		}
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
	g, err := symunits.Group(symunits.JoinShape, false)
	if err != nil {
		t.Fatal(err)
	}
	classes := 0
	for i := 1; i < joinClasses; i++ {
		for _, id := range symunits.FamilyOf(symunits.JoinShape).UnitIDs(i) {
			if !symunits.Bundle.Holds(id) {
				continue
			}
			result := symunits.MethodStackjoinPart + strings.Repeat(" 0", len(search.SigmaTypes(symunits.JoinShape, g.Classes[i].Rep)))
			if !strings.Contains(id, ".part") {
				result = symunits.MethodStackjoin + " 0"
			}
			rows = append(rows, pipeline.NewBundleRow(symunits.Bundle, id, []byte(result), 0))
			if !strings.Contains(id, ".part") || strings.Contains(id, ".part000of") {
				classes++
			}
		}
	}
	if want := (joinedClasses - joinHeavy) + joinHeavy*joinParts; len(rows) != want || classes != joinedClasses || rows[0].Kernel != symunits.Bundle.KernelOf("3x4.class2887") {
		t.Fatalf("%d units held of %d classes, want %d of %d, of kernel %q", len(rows), classes, want, joinedClasses, symunits.Bundle.KernelOf("3x4.class2887"))
	}
	if err := pipeline.AddToBundle(root, symunits.Bundle, rows); err != nil {
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
			rows[i] = pipeline.NewBundleRow(symunits.Bundle, row.Unit, []byte(symunits.MethodStackjoin+" 1"+strings.Repeat("0", 40)), 0)
			break
		}
	}
	if err := pipeline.AddToBundle(root, symunits.Bundle, rows); err != nil {
		t.Fatal(err)
	}
	if err := run(); err == nil || !strings.Contains(err.Error(), "is more than F(identity) = 169459636863644991471711374298788659200") {
		t.Fatalf("a class fixing 10^40 3×4 grids: %v; want it refused as more than F(identity)", err)
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
		if c.Class > 0 && c.Fixed != "0" && c.CheckMethod == symunits.MethodStackjoin && c.CheckFixed == c.Fixed {
			victim, f = int(c.Class), new(big.Int)
			f.SetString(c.Fixed, 10)
			break
		}
	}
	if victim < 0 {
		t.Fatal("no 3x2 class fixing a grid has a second count")
	}
	id := symunits.CheckPrefix + symunits.UnitID(symmetry.Shape{R: 3, C: 2}, victim)
	paths, err := filepath.Glob(filepath.Join(root, "data", "units", Stage.Name, "*", id))
	if err != nil || len(paths) != 1 {
		t.Fatalf("unit files of %s: %v, %v; want one", id, paths, err)
	}
	dir := filepath.Dir(paths[0])
	wrong := symunits.MethodStackjoin + " " + new(big.Int).Add(f, big.NewInt(1)).String()
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
	if want := fmt.Sprintf("3x2 class %d ", victim); err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "the second count (stackjoin) gives F = "+wrong[len(symunits.MethodStackjoin)+1:]+", the first (search) "+f.String()) {
		t.Fatalf("check unit %s edited to %q: %v; want the stage to fail naming %q", id, wrong, err, want)
	}
}
