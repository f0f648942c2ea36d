package shapes_test

import (
	"context"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sudoku-census/sudoku-census/pipeline/engine"

	"github.com/sudoku-census/sudoku-census/pipeline/pipelinetest"
	"github.com/sudoku-census/sudoku-census/stages/maths/pair"
	"github.com/sudoku-census/sudoku-census/stages/shapes"
)

// small counts the shapes up to 2x4 (and the 3x3 from the exact stage),
// every one checked by the multiset method.
var small = pipelinetest.Options{Stages: pipelinetest.Closure(shapes.Stage), Set: []string{
	"exact.crosscheck=none", "shapes.shapes=2x1,2x2,2x3,3x2,2x4,4x2,3x3", "shapes.check=2x1,2x2,2x3,3x2,2x4,4x2",
	"shapes.orbits_per_unit=5", "shapes.orbit_stacks=true"}}

// known are the counts of the literature (OEIS A107739; Pettersen 2006 for 2x3; Russell 2005;
// Felgenhauer and Jarvis 2005; Pettersen 2005 for 2x5).
var known = map[[2]int32]string{
	{2, 1}: "2", {2, 2}: "288", {2, 3}: "28200960", {3, 2}: "28200960",
	{2, 4}: "29136487207403520", {4, 2}: "29136487207403520",
	{2, 5}: "1903816047972624930994913280000", {5, 2}: "1903816047972624930994913280000",
	{3, 3}: "6670903752021072936960",
}

// TestStage runs the stage on the small shapes and checks every row against
// the literature and the methods that agreed on it, and the orbits' stack
// counts: as many orbits per width as Burnside's lemma counts, each once,
// their weights adding up to every tuple of row sets and their Σ W·E² to
// the literature's count.
func TestStage(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the exact stage")
	}
	root := pipelinetest.Run(t, small)
	rows, err := shapes.Table.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	stacks, err := shapes.OrbitStacks.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	for c := 1; c <= 4; c++ {
		seen := map[string]bool{}
		weights, squares := new(big.Int), new(big.Int)
		for _, r := range stacks {
			if int(r.Width) != c {
				continue
			}
			o, err := pair.ParseOrbit(r.Orbit)
			if err != nil || o.Weight != r.Weight || seen[r.Orbit] {
				t.Fatalf("width %d: orbit %q of weight %d: %v, %d, seen before %v", c, r.Orbit, r.Weight, err, o.Weight, seen[r.Orbit])
			}
			seen[r.Orbit] = true
			w := new(big.Int).SetUint64(r.Weight)
			weights.Add(weights, w)
			e := new(big.Int).SetUint64(r.Stacks)
			squares.Add(squares, w.Mul(w, e.Mul(e, e)))
		}
		n, err := pair.NumOrbits(context.Background(), c)
		if err != nil || int64(len(seen)) != n.Int64() || weights.Cmp(pair.NumTuples(c)) != 0 {
			t.Errorf("width %d: %d orbits of weight %v; want %v of weight %v (%v)", c, len(seen), weights, n, pair.NumTuples(c), err)
		}
		if want := known[[2]int32{2, int32(c)}]; squares.String() != want {
			t.Errorf("width %d: Σ W·E² = %v, want %s", c, squares, want)
		}
	}
	if len(rows) != 7 {
		t.Fatalf("%d rows, want the 7 shapes configured", len(rows))
	}
	for _, r := range rows {
		if want := known[[2]int32{r.Rows, r.Cols}]; r.Grids != want || r.Method == "" {
			t.Errorf("%dx%d: %s grids by %q, want %s", r.Rows, r.Cols, r.Grids, r.Method, want)
		}
		if published := strings.Contains(r.CheckedBy, "published: "); published != (r.Rows*r.Cols > 2) {
			t.Errorf("%dx%d: checked by %q; the literature has every shape but 2x1", r.Rows, r.Cols, r.CheckedBy)
		}
		side := r.Rows * r.Cols
		threeRows := (r.Rows == 3 && r.Cols <= 3) || (r.Cols == 3 && r.Rows <= 3)
		if gangster := strings.Contains(r.CheckedBy, "gangster: "); gangster != (threeRows && side > 3) {
			t.Errorf("%dx%d: checked by %q; the three-stack method counts 3x2, 2x3 and 3x3", r.Rows, r.Cols, r.CheckedBy)
		}
		switch {
		case r.Rows == 3 && r.Cols == 3:
		case !strings.Contains(r.CheckedBy, "multisets"):
			t.Errorf("%dx%d: checked by %q, want the multiset method", r.Rows, r.Cols, r.CheckedBy)
		case side <= 6 && !strings.Contains(r.CheckedBy, "backtracking"):
			t.Errorf("%dx%d: checked by %q, want backtracking too", r.Rows, r.Cols, r.CheckedBy)
		}
	}
}

// TestStage2x5 counts the 10×10 grids by both methods, as the default
// configuration does.
func TestStage2x5(t *testing.T) {
	if testing.Short() {
		t.Skip("counts 2x5 twice: minutes")
	}
	o := small
	o.Set = []string{"exact.crosscheck=none", "shapes.shapes=2x5,5x2", "shapes.check=2x5"}
	root := pipelinetest.Run(t, o)
	rows, err := shapes.Table.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	if stacks, err := shapes.OrbitStacks.Load(root); err != nil || len(stacks) != 0 {
		t.Errorf("without shapes.orbit_stacks: %d orbit rows (%v), want none", len(stacks), err)
	}
	if len(rows) != 2 {
		t.Fatalf("%d rows", len(rows))
	}
	for i, r := range rows {
		if want := known[[2]int32{r.Rows, r.Cols}]; r.Grids != want {
			t.Errorf("%dx%d: %s grids, want %s", r.Rows, r.Cols, r.Grids, want)
		}
		if checked := strings.Contains(r.CheckedBy, "multisets"); checked != (i == 0) {
			t.Errorf("%dx%d: checked by %q: shapes.check names 2x5 only", r.Rows, r.Cols, r.CheckedBy)
		}
	}
}

// TestOrbitBatchesAnySize: the count does not depend on how the orbits are
// cut into units.
func TestOrbitBatchesAnySize(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the exact stage")
	}
	o := small
	o.Set = []string{"exact.crosscheck=none", "shapes.shapes=2x4,3x3", "shapes.check=2x4", "shapes.orbits_per_unit=1"}
	one := pipelinetest.Run(t, o)
	o.Set[len(o.Set)-1] = "shapes.orbits_per_unit=100"
	many := pipelinetest.Run(t, o)
	a, errA := shapes.Table.Load(one)
	b, errB := shapes.Table.Load(many)
	if errA != nil || errB != nil || len(a) != 2 || a[0] != b[0] {
		t.Errorf("one orbit per unit %v (%v), 100 per unit %v (%v)", a, errA, b, errB)
	}
}

func TestConfigErrors(t *testing.T) {
	for _, tc := range []struct {
		set, key, want string
	}{
		{"shapes.shapes=3x4", "shapes.shapes", `value "3x4" is not allowed: box shapes RxC among`},
		{"shapes.shapes=2x2,banana", "shapes.shapes", `value "banana"`},
		{"shapes.shapes=2x2,02x2", "shapes.shapes", `value "02x2"`},
		{"shapes.shapes=2x2,2x2", "shapes.shapes", `value "2x2" is not allowed: each box shape once`},
		{"shapes.check=3x3", "shapes.check", `value "3x3"`},
		{"shapes.orbits_per_unit=0", "shapes.orbits_per_unit", `value 0`},
		{"shapes.max_cpu_hours=-1", "shapes.max_cpu_hours", `value -1`},
		{"shapes.orbit_stacks=1", "shapes.orbit_stacks", `value 1 is not allowed: true or false`},
	} {
		err := pipelinetest.Rejects(t, small, tc.set, tc.key)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("--set %s: %v, want one line containing %q", tc.set, err, tc.want)
		}
	}
	// 2x6 with its cost accepted, but not the multiset check, which would
	// walk 2.3·10⁹ multisets.
	wide := small
	wide.Set = []string{"exact.crosscheck=none", "shapes.shapes=2x6", "shapes.max_cpu_hours=79", "shapes.check=[]"}
	if err := pipelinetest.Rejects(t, wide, "shapes.check=2x6", "shapes.check"); err == nil || !strings.Contains(err.Error(), "width ≤ 5") {
		t.Errorf("--set shapes.check=2x6: %v", err)
	}
	if err := shapes.Stage.NewConfig().Validate(); err != nil {
		t.Errorf("default config: %v", err)
	}
	// Overriding shapes.shapes alone works: the default checks of shapes it
	// leaves out are ignored.
	empty := filepath.Join(t.TempDir(), "empty.yaml")
	if err := os.WriteFile(empty, []byte("# defaults\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, set := range []string{"shapes.shapes=[2x5]", "shapes.shapes=[3x3]", "shapes.shapes=[2x6]", "shapes.shapes=[6x2, 3x3]"} {
		if _, err := engine.New(engine.Options{Root: t.TempDir(), Stages: small.Stages, ConfigFile: empty, Set: []string{set}}); err != nil {
			t.Errorf("--set %s alone: %v", set, err)
		}
	}
}
