package symmetry

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"math/big"
	"strconv"

	"github.com/sudoku-census/sudoku-census/pipeline"
)

// Corrections is data/symmetry_corrections.csv: every class that fixes a
// grid, of every shape whose count differs from the published one, with
// both counts of its F: the table a reader can hand to the editors of the
// sequence (OEIS A291188 for 2×5). A header only when no count differs.
var Corrections = pipeline.NewFile("symmetry_corrections", "data/symmetry_corrections.csv",
	"the classes behind every count that differs from the literature: size, order, F by both methods, |class|·F")

// correctionHeader names the CSV's columns. Each row is self-contained:
// Σ term over a shape's rows is burnside_sum, and burnside_sum / group_order
// is essentially_different (the classes that fix no grid add nothing).
var correctionHeader = []string{"shape", "group_order", "burnside_sum", "essentially_different", "literature", "literature_source",
	"class", "size", "order", "representative", "fixed", "method", "check_fixed", "check_method", "term"}

// correctionsCSV writes the rows of classes whose shape's count differs from
// its literature value, in the order of counts and classes.
func correctionsCSV(counts []CountRow, classes []ClassRow) ([]byte, error) {
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
