package sudoku_test

import (
	"fmt"

	"github.com/sudoku-census/sudoku-census/stages/maths/sudoku"
)

// Exchanging the first two rows of a reduced band and reducing again gives
// another member of its class (figures 2.5-2.7 of the thesis).
func ExampleBand_Reduce() {
	b, err := sudoku.ParseBand("123489567", "456127389", "789356124")
	if err != nil {
		panic(err)
	}
	fmt.Println(b.PermuteRows([3]int{1, 0, 2}))
	fmt.Println(b.PermuteRows([3]int{1, 0, 2}).Reduce())
	// Output:
	// 456127389/123489567/789356124
	// 123457689/456189237/789623451
}

func ExampleBand_TopRowCase() {
	b, _ := sudoku.ParseBand("123458679", "456179238", "789236145")
	c := b.TopRowCase()
	fmt.Println(c, sudoku.CaseDigits(c), sudoku.Kind(c), sudoku.CaseBands(c))
	// Output: 3 [4 5 8] mixed 139968
}
