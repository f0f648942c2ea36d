// Package literature holds the numbers of grids that the literature gives,
// with their sources: the yardstick the exact counts are checked against
// (the shapes stage compares each count it makes with the published one)
// and the estimates held against where this pipeline has no exact count of
// its own. The estimating stages never read it.
package literature

import (
	"fmt"
	"math/big"

	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
)

// File is this file's path in the repository: the source of every count
// it gives, which the HTML report links each quoted count to.
const File = "stages/shared/literature/literature.go"

// Count is a number of grids the literature gives for one box shape, with
// its source.
type Count struct {
	Shape grid.Shape
	Grids *big.Int
	// Cite is the BibTeX key of the source in paper/references.bib.
	Cite string
	// Source says who computed it and how, briefly.
	Source string
}

// published lists the counts the literature gives, R ≤ C; the transposed
// shape has the same count (transpose every grid).
var published = []struct {
	r, c         int
	grids        string
	cite, source string
}{
	{2, 2, "288", "OEISA107739", "OEIS A107739"},
	{2, 3, "28200960", "PettersenHand2006", "Pettersen, 2006: counted by hand"},
	{2, 4, "29136487207403520", "Russell2005", "Russell, 2005"},
	{3, 3, "6670903752021072936960", "FelgenhauerJarvis2005", "Felgenhauer and Jarvis, 2005"},
	{2, 5, "1903816047972624930994913280000", "Pettersen2005", "Pettersen, 2005: 355 classes of first bands, about 10 hours"},
	{2, 6, "38296278920738107863746324732012492486187417600000", "Pettersen2006", "Pettersen, 2006: 63,199 classes of first bands, weeks of computing; re-verified in 2026 by a public C++20 program (about 24 hours on 24 threads)"},
	{3, 4, "81171437193104932746936103027318645818654720000", "PettersenSilver2006", "Pettersen and Silver, 2006 (about 2,568 CPU-hours); recomputed by Silver in 2022"},
}

// Grids returns the literature's number of grids of shape s, if it has
// one.
func Grids(s grid.Shape) (Count, bool) {
	for _, p := range published {
		if (s.R == p.r && s.C == p.c) || (s.R == p.c && s.C == p.r) {
			n, _ := new(big.Int).SetString(p.grids, 10)
			return Count{Shape: s, Grids: n, Cite: p.cite, Source: p.source}, true
		}
	}
	return Count{}, false
}

// Check compares a count with the literature's, if it has one: an error if
// they differ, else "published: <source>", the entry naming the source for
// a checked_by column ("" when the literature has no count for s).
func Check(s grid.Shape, count *big.Int) (string, error) {
	pub, ok := Grids(s)
	if !ok {
		return "", nil
	}
	if pub.Grids.Cmp(count) != 0 {
		return "", fmt.Errorf("counted %v grids, the literature (%s) %v", count, pub.Source, pub.Grids)
	}
	return "published: " + pub.Source, nil
}
