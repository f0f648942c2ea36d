package symunits

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"math/big"
	"strconv"
)

// The symmetry stage's rows (package symmetry's doc gives the columns),
// here so that the corrections file is written below the stage.

// ClassRow is one conjugacy class of the group of one shape. Size and Fixed
// are decimal strings: Fixed is F(g), the number of grids X with X∘g a
// relabelling of X, divided by N! (an integer).
type ClassRow struct {
	Shape          string `parquet:"shape"`
	Transpose      bool   `parquet:"transpose"`
	Class          int32  `parquet:"class"`
	Size           string `parquet:"size"`
	Order          int32  `parquet:"order"`
	Type           string `parquet:"type"`
	Representative string `parquet:"representative"`
	Fixed          string `parquet:"fixed"`
	// Method is how Fixed was counted: "identity" (the shapes stage's grid
	// count divided by N!), "search" or "stacks" (the stack method).
	Method string `parquet:"method"`
	// CheckMethod names the second count of F, "" when there is none;
	// CheckFixed is that count (equal to Fixed, or the stage fails), ""
	// when none, and CheckCPUSeconds the CPU time the checks bundle records
	// for it (0 for a count made in the run).
	CheckMethod     string  `parquet:"check_method"`
	CheckFixed      string  `parquet:"check_fixed"`
	CheckCPUSeconds float64 `parquet:"check_cpu_seconds"`
}

// CountRow is one shape's result. Decimal strings hold exact integers.
type CountRow struct {
	Shape                string `parquet:"shape"`
	Group                string `parquet:"group"`
	GroupOrder           string `parquet:"group_order"`
	Classes              int32  `parquet:"classes"`
	ClassesFixing        int32  `parquet:"classes_fixing"`
	Grids                string `parquet:"grids"`
	IdentityFixed        string `parquet:"identity_fixed"`
	BurnsideSum          string `parquet:"burnside_sum"`
	EssentiallyDifferent string `parquet:"essentially_different"`
	CheckedBy            string `parquet:"checked_by"`
	// Literature is the published count of essentially different grids, ""
	// where none is known, and LiteratureSource names where it is published.
	Literature       string `parquet:"literature"`
	LiteratureSource string `parquet:"literature_source"`
	// BundleCPUSeconds is the CPU time the committed bundle records for the
	// shape's bundled classes (2x6 and 6x2: its 488 units, each as measured
	// when it was computed); 0 for a shape without a bundle.
	BundleCPUSeconds float64 `parquet:"bundle_cpu_seconds"`
	// VerifiedShare is the fraction of the non-identity Burnside sum
	// Σ|class|·F whose F a second count equals, one sharing counting code
	// with the first counted as half: 6 decimals, rounded down; "" when no
	// class but the identity fixes a grid.
	VerifiedShare string `parquet:"verified_share"`
}

// correctionHeader names the CSV's columns. Each row is self-contained:
// Σ term over a shape's rows is burnside_sum, and burnside_sum / group_order
// is essentially_different (the classes that fix no grid add nothing).
var correctionHeader = []string{"shape", "group_order", "burnside_sum", "essentially_different", "literature", "literature_source",
	"class", "size", "order", "representative", "fixed", "method", "check_fixed", "check_method", "term"}

// CorrectionsCSV writes data/symmetry_corrections.csv: the header, then
// the rows of the classes fixing a grid of every shape whose count differs
// from its literature value, in the order of counts and classes.
func CorrectionsCSV(counts []CountRow, classes []ClassRow) ([]byte, error) {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	if err := w.Write(correctionHeader); err != nil {
		return nil, err
	}
	for _, s := range counts {
		if s.Literature == "" || s.Literature == s.EssentiallyDifferent {
			continue
		}
		for _, c := range classes {
			if c.Shape != s.Shape || c.Fixed == "0" {
				continue
			}
			size, okSize := new(big.Int).SetString(c.Size, 10)
			fixed, okFixed := new(big.Int).SetString(c.Fixed, 10)
			if !okSize || !okFixed {
				return nil, fmt.Errorf("%s class %d: size %q or fixed %q is not an integer", c.Shape, c.Class, c.Size, c.Fixed)
			}
			term := new(big.Int).Mul(size, fixed)
			if err := w.Write([]string{s.Shape, s.GroupOrder, s.BurnsideSum, s.EssentiallyDifferent, s.Literature, s.LiteratureSource,
				strconv.Itoa(int(c.Class)), c.Size, strconv.Itoa(int(c.Order)), c.Representative, c.Fixed, c.Method, c.CheckFixed, c.CheckMethod, term.String()}); err != nil {
				return nil, err
			}
		}
	}
	w.Flush()
	return b.Bytes(), w.Error()
}
