package symmetry_test

import (
	"encoding/csv"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sudoku-census/sudoku-census/pipeline/pipelinetest"
	"github.com/sudoku-census/sudoku-census/stages/symmetry"
)

// small runs the stage on the 4×4 and 6×6 shapes, checked by canonical
// forms.
var small = pipelinetest.Options{Stages: pipelinetest.Closure(symmetry.Stage), Set: []string{
	"exact.crosscheck=none", "shapes.shapes=2x2,2x3,3x2,3x3", "shapes.check=2x2", "symmetry.shapes=2x2,2x3,3x2"}}

// TestStage checks the counts of the literature: 2 essentially different
// 4×4 grids (with transposition) and 49 of 6×6.
func TestStage(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the exact stage")
	}
	root := pipelinetest.Run(t, small)
	rows, err := symmetry.Counts.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"2x2": "2", "2x3": "49", "3x2": "49"}
	if len(rows) != 3 {
		t.Fatalf("%d rows, want 3", len(rows))
	}
	for _, r := range rows {
		if r.EssentiallyDifferent != want[r.Shape] || !strings.Contains(r.CheckedBy, "canonical forms") {
			t.Errorf("%s: %s essentially different, checked by %q; want %s by canonical forms", r.Shape, r.EssentiallyDifferent, r.CheckedBy, want[r.Shape])
		}
	}
	// Every count equals the literature: the corrections file is its header.
	if recs := corrections(t, root); len(recs) != 1 {
		t.Errorf("symmetry_corrections.csv has %d records, want the header alone", len(recs))
	}
	if !strings.Contains(rows[1].CheckedBy, "equal to the literature: OEIS A291188") {
		t.Errorf("2x3 checked by %q: want the literature", rows[1].CheckedBy)
	}
	if rows[0].Group == rows[1].Group || !strings.Contains(rows[0].Group, "transposition") {
		t.Errorf("groups %q, %q: want transposition in the 2x2 group only", rows[0].Group, rows[1].Group)
	}
	classes, err := symmetry.Classes.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	if classes[0].Shape != "2x2" || classes[0].Class != 0 || classes[0].Fixed != "12" || classes[0].Representative != "bands id; stacks id" || classes[0].Method != "identity" {
		t.Errorf("first class row %+v: want the identity of 2x2, fixing 288/4! = 12", classes[0])
	}
	checked, bothWays := 0, 0
	for _, c := range classes {
		want := "search" // the stack method is for side 10
		if c.Class == 0 {
			want = "identity"
		}
		if c.Method != want {
			t.Errorf("%s class %d: method %q, want %s", c.Shape, c.Class, c.Method, want)
		}
		// Every non-identity class that fixes a grid is recounted by the
		// R-stack method on 2x2 or 3x2 (for 2x3 on the transpose), equal;
		// but the 2x2 classes with transposition, which it does not count.
		// A class without a relabelling type (F = 0) is not recounted.
		// The classes that exchange the stacks by an involution are also
		// recounted by package multisets.
		recounted := (c.CheckMethod == "stackjoin" || c.CheckMethod == "stackjoin+multisets") && c.CheckFixed == c.Fixed
		if c.CheckMethod == "stackjoin+multisets" && c.Fixed != "0" {
			bothWays++
		}
		wantRecount := c.Class > 0 && !strings.Contains(c.Representative, "transpose")
		if (recounted != wantRecount && !(c.Fixed == "0" && c.CheckMethod == "")) || (c.CheckMethod == "" && c.CheckFixed != "") || c.CheckCPUSeconds != 0 {
			t.Errorf("%s class %d (%s): F %s, second count %q %q (%g s)", c.Shape, c.Class, c.Representative, c.Fixed, c.CheckMethod, c.CheckFixed, c.CheckCPUSeconds)
		}
		if recounted && c.Fixed != "0" {
			checked++
		}
	}
	if checked == 0 || bothWays == 0 {
		t.Errorf("%d classes fixing a grid recounted, %d of them by multisets too", checked, bothWays)
	}
	// 2x3 and 3x2: every class recounted; 2x2: the classes with
	// transposition are not.
	for _, r := range rows {
		full := r.VerifiedShare == "1.000000"
		if full != (r.Shape != "2x2") || len(r.VerifiedShare) != len("0.000000") {
			t.Errorf("%s: verified_share %q", r.Shape, r.VerifiedShare)
		}
	}
}

// TestConfigErrors checks the one-line errors of bad keys.
func TestConfigErrors(t *testing.T) {
	for _, c := range []struct{ set, key string }{
		{"symmetry.shapes=4x4", "symmetry.shapes"},
		{"symmetry.shapes=3x5", "symmetry.shapes"},
		{"symmetry.shapes=2x7", "symmetry.shapes"},
		{"symmetry.max_cpu_hours=-1", "symmetry.max_cpu_hours"},
		{"symmetry.max_cpu_hours=abc", "symmetry.max_cpu_hours"},
		{"symmetry.check_max_class_cpu_hours=-0.5", "symmetry.check_max_class_cpu_hours"},
		{"symmetry.check_max_class_cpu_hours=8761", "symmetry.check_max_class_cpu_hours"},
		{"symmetry.shapes=2x2,2x2", "symmetry.shapes"},
		{"symmetry.shapes=", "symmetry.shapes"},
	} {
		pipelinetest.Rejects(t, small, c.set, c.key)
	}
}

// TestStage2x5 runs the stage on 2×5 and 5×2, every class by the stack
// method, and checks that the count is recorded against OEIS A291188's
// term, which it does not equal (see the package doc, "2×5"), with the
// same count for both orientations.
func TestStage2x5(t *testing.T) {
	if testing.Short() {
		t.Skip("about two minutes")
	}
	root := pipelinetest.Run(t, pipelinetest.Options{Stages: pipelinetest.Closure(symmetry.Stage), Set: []string{
		"exact.crosscheck=none", "shapes.shapes=2x2,2x5,5x2", "shapes.check=2x2", "symmetry.shapes=2x5,5x2",
		"symmetry.check_max_class_cpu_hours=0"}}) // the second counts of 5x2: TestChecksBundleHolds, TestStageFailsOnUnequalCheck
	rows, err := symmetry.Counts.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[0].EssentiallyDifferent != rows[1].EssentiallyDifferent {
		t.Fatalf("rows %+v: want 2x5 and 5x2 with one count", rows)
	}
	for _, r := range rows {
		if r.Literature != "4743933602050718" || r.LiteratureSource != "OEIS A291188" {
			t.Errorf("%s: literature %q from %q; want A291188's term", r.Shape, r.Literature, r.LiteratureSource)
		}
		if !strings.Contains(r.CheckedBy, "differs from the literature (OEIS A291188: 4743933602050718) by ") || !strings.Contains(r.CheckedBy, "stack method") {
			t.Errorf("%s checked by %q", r.Shape, r.CheckedBy)
		}
		// The count of this stage's independent checks (package stacks' tests).
		if r.EssentiallyDifferent != "4743933427433330" || r.ClassesFixing != 68 || r.Classes != 1260 {
			t.Errorf("%s: %s essentially different, %d of %d classes fixing; want 4743933427433330, 68 of 1260", r.Shape, r.EssentiallyDifferent, r.ClassesFixing, r.Classes)
		}
		// Without the check units, the six stack exchanges that fix a grid,
		// recounted by package multisets, are the verified share.
		if r.VerifiedShare != "0.462569" && r.VerifiedShare != "0.462570" {
			t.Errorf("%s: verified_share %q, want the stack exchanges' 0.46257", r.Shape, r.VerifiedShare)
		}
	}
	// The corrections file: the 68 classes fixing a grid of each shape,
	// whose terms sum to the Burnside sum, its quotient the count.
	recs := corrections(t, root)
	sums := map[string]*big.Int{}
	for _, rec := range recs[1:] {
		shape, groupOrder, burnside, count, term := rec[0], rec[1], rec[2], rec[3], rec[14]
		if sums[shape] == nil {
			sums[shape] = new(big.Int)
		}
		tm, ok := new(big.Int).SetString(term, 10)
		if !ok {
			t.Fatalf("term %q", term)
		}
		sums[shape].Add(sums[shape], tm)
		g, _ := new(big.Int).SetString(groupOrder, 10)
		b, _ := new(big.Int).SetString(burnside, 10)
		if q := new(big.Int).Quo(b, g); q.String() != count || rec[4] != "4743933602050718" {
			t.Errorf("%s: %v/%v = %v, count %s, literature %s", shape, b, g, q, count, rec[4])
		}
	}
	if len(recs) != 1+2*68 || len(sums) != 2 {
		t.Fatalf("%d records over %d shapes, want a header and 68 classes of 2x5 and of 5x2", len(recs), len(sums))
	}
	for _, r := range rows {
		if sums[r.Shape].String() != r.BurnsideSum {
			t.Errorf("%s: the terms sum to %v, the Burnside sum is %s", r.Shape, sums[r.Shape], r.BurnsideSum)
		}
	}
	classes, err := symmetry.Classes.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, shape := range []string{"2x5", "5x2"} {
		n := 0
		for _, c := range classes {
			if c.Shape == shape && c.CheckMethod == "multisets" && c.Fixed != "0" {
				if c.CheckFixed != c.Fixed {
					t.Errorf("%s class %d: multisets %s, stack method %s", shape, c.Class, c.CheckFixed, c.Fixed)
				}
				n++
			}
		}
		if n != 6 {
			t.Errorf("%s: %d classes fixing a grid recounted by multisets, want the 6 stack exchanges", shape, n)
		}
	}
}

// corrections reads data/symmetry_corrections.csv under root, header first.
func corrections(t *testing.T, root string) [][]string {
	t.Helper()
	f, err := os.Open(filepath.Join(root, symmetry.Corrections.Path))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) == 0 || recs[0][0] != "shape" || recs[0][14] != "term" {
		t.Fatalf("header %v", recs)
	}
	return recs
}
