package symmetry

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/pipeline/engine"
	"github.com/sudoku-census/sudoku-census/pipeline/pipelinetest"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry"
)

// TestBundleHolds checks which ids the 12×12 bundle holds: the canonical
// ids of the 488 2×6 classes that admit a relabelling type (heldClasses
// checks the number), nothing else.
func TestBundleHolds(t *testing.T) {
	for id, want := range map[string]bool{
		"2x6.class0009": true, "2x6.class0010": true, "2x6.class3896": true,
		"2x6.class0001": false, "2x6.class0011": false, "2x6.class5004": false, "2x6.class0142": true,
		"2x6.class0000": false, "2x6.class5005": false, "2x6.class009": false, "2x6.class00090": false,
		"6x2.class0001": false, "2x5.class001": false, "3x3.class020": false, "2x6.class-001": false, "2x6": false,
	} {
		if got := Bundle.Holds(id); got != want {
			t.Errorf("Holds(%q) = %v, want %v", id, got, want)
		}
	}
	for _, id := range []string{"3x3.class020", "2x5.class1234", "2x6.class0142"} {
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
	direct, err := fixedOf(ctx, s62, false, of20.Index)
	if err != nil {
		t.Fatal(err)
	}
	mapped, err := fixedOf(ctx, bundleShape, false, 20)
	if err != nil {
		t.Fatal(err)
	}
	if string(direct) != string(mapped) || string(mapped) == "stacks 0" {
		t.Errorf("6x2 class %d (%s): %s; its 2x6 unit gives %s", of20.Index, of20.Desc, direct, mapped)
	}
}

// TestStage12FromBundle runs the stage on 2x6 and 6x2 (shapes from its
// committed bundle) with made-up bundles of the 12×12 classes: without one
// the stage refuses to start, naming symmetry.max_cpu_hours; with one
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
	stages := pipelinetest.Closure(Stage)
	pipelinetest.CopySources(t, root, stages)
	cfg := filepath.Join(t.TempDir(), "empty.yaml")
	if err := os.WriteFile(cfg, []byte("# defaults\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func() error {
		e, err := engine.New(engine.Options{Root: root, Stages: stages, ConfigFile: cfg, Set: []string{
			"exact.crosscheck=none", "shapes.shapes=2x6,6x2", "shapes.check=", "symmetry.shapes=2x6,6x2"}})
		if err != nil {
			return err
		}
		_, err = e.Run(context.Background(), nil, engine.RunOptions{})
		return err
	}
	if err := run(); err == nil || !strings.Contains(err.Error(), "symmetry.max_cpu_hours") {
		t.Fatalf("no 12×12 bundle: %v; want symmetry.max_cpu_hours refused", err)
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
}

// TestUnitCost checks the bundle's Cost against the committed bundle: the
// classes counted by pattern orbits cost the whole orbit pass whatever
// they recorded (class 10 recorded the stack method's time), the others
// what their row records (class 37), and a unit the bundle lacks or an id
// of no class is an error.
func TestUnitCost(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the 2×6 group")
	}
	root := filepath.Join("..", "..")
	rows, err := pipeline.ReadBundle(root, Bundle, []string{"2x6.class0037"})
	if err != nil || len(rows) != 1 {
		t.Skipf("class 37 is not in this tree's bundle: %v", err)
	}
	ctx := context.Background()
	pc := pipeline.NewPass(ctx, pipeline.PassSpec{Stage: &pipeline.Stage{Name: "symmetry"}, Root: root, Log: slog.Default()})
	for _, id := range []string{"2x6.class0010", "2x6.class0142", "2x6.class0153", "2x6.class0164", "2x6.class0175"} {
		if cost, err := unitCost(pc.ForUnit(ctx, id), id); err != nil || cost != orbitPassCPU {
			t.Errorf("Cost(%s) = %v, %v; want the orbit pass, %v", id, cost, err, orbitPassCPU)
		}
	}
	want := time.Duration(rows["2x6.class0037"].CPUSeconds * float64(time.Second))
	if cost, err := unitCost(pc.ForUnit(ctx, "2x6.class0037"), "2x6.class0037"); err != nil || cost != want || cost < time.Minute {
		t.Errorf("Cost(2x6.class0037) = %v, %v; want its recorded %v", cost, err, want)
	}
	for _, id := range []string{"2x6.class0174", "2x6.class9999", "2x6"} {
		if _, err := unitCost(pc.ForUnit(ctx, id), id); err == nil {
			t.Errorf("Cost(%s): no error", id)
		}
	}
}
