package present

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
	"github.com/sudoku-census/sudoku-census/stages/presentation/typeset"
	"github.com/sudoku-census/sudoku-census/stages/symmetry"
)

// EssentiallyDifferent is one shape's count of grids up to symmetry and
// relabelling, by Burnside's lemma.
type EssentiallyDifferent struct {
	Shape         grid.Shape
	Group         string
	GroupOrder    *big.Int
	Classes       int
	ClassesFixing int
	IdentityFixed *big.Int
	BurnsideSum   *big.Int
	Count         *big.Int
	CheckedBy     string
	// Literature is the published count (nil: none) and LiteratureSource
	// where it is published.
	Literature       *big.Int
	LiteratureSource string
	// BundleCPUSeconds is the CPU time of the classes kept in a committed
	// bundle (0: none).
	BundleCPUSeconds float64
	// VerifiedShare is the share of the non-identity Burnside sum recounted
	// equal by an independent method, as the stage writes it (6 decimals).
	VerifiedShare string
	From          typeset.Source // its row of data/essentially_different.parquet
}

// FullShare is the verified_share of a shape whose whole non-identity
// Burnside sum a second count equals (the stage writes 6 decimals, rounded
// down, so only an exact 1 prints so).
const FullShare = "1.000000"

// VerifiedPercent is VerifiedShare in per cent with 2 decimals, rounded
// down (exactly: 0.999996 is 99.99, not 100.00), so that no statement of it
// claims more than the stage measured; ok is false when the share is
// missing or not a number in [0, 1].
func (e EssentiallyDifferent) VerifiedPercent() (pct string, ok bool) {
	share, ok := new(big.Rat).SetString(e.VerifiedShare)
	if !ok || share.Sign() < 0 || share.Cmp(big.NewRat(1, 1)) > 0 {
		return "", false
	}
	hundredths := new(big.Int).Quo(new(big.Int).Mul(share.Num(), big.NewInt(10000)), share.Denom())
	q, r := new(big.Int).QuoRem(hundredths, big.NewInt(100), new(big.Int))
	return fmt.Sprintf("%v.%02d", q, r.Int64()), true
}

// New reports whether no count of the shape's essentially different grids
// has been published: the count is a new result of this project.
func (e EssentiallyDifferent) New() bool { return e.Literature == nil }

// DiffersFromLiterature reports whether a published count exists and
// differs from the stage's.
func (e EssentiallyDifferent) DiffersFromLiterature() bool {
	return e.Literature != nil && e.Literature.Cmp(e.Count) != 0
}

// SymmetryClass is one conjugacy class of a shape's group that fixes at
// least one grid up to relabelling.
type SymmetryClass struct {
	Shape          grid.Shape
	Class          int
	Size           *big.Int
	Order          int
	Representative string
	Fixed          *big.Int
	// Method names how Fixed was counted (identity, search, stacks, ...).
	Method string
	// CheckMethod names the second count of Fixed ("" when none) and
	// CheckFixed is that count (nil when none; the stage fails unless it
	// equals Fixed).
	CheckMethod string
	CheckFixed  *big.Int
	From        typeset.Source // its row of data/symmetry_classes.parquet
}

// Correction returns the first shape (in the stage's order) whose count
// differs from the published one and whose whole non-identity Burnside sum
// a second count equals: the count the paper states as a correction, with
// its table of classes (CorrectionTable).
func (r *Results) Correction() (EssentiallyDifferent, bool) {
	for _, e := range r.Symmetry {
		if e.DiffersFromLiterature() && e.VerifiedShare == FullShare {
			return e, true
		}
	}
	return EssentiallyDifferent{}, false
}

// CheckedShare returns the share of shape s's non-identity Burnside sum
// Σ|class|·F carried by the classes whose second count's method name
// contains method, how many such classes there are, and whether s has a
// class that is not the identity.
func CheckedShare(classes []SymmetryClass, s grid.Shape, method string) (share *big.Rat, checked int, ok bool) {
	total, part := new(big.Int), new(big.Int)
	for _, c := range classes {
		if c.Shape != s || c.Order == 1 {
			continue
		}
		term := new(big.Int).Mul(c.Size, c.Fixed)
		total.Add(total, term)
		if strings.Contains(c.CheckMethod, method) {
			part.Add(part, term)
			checked++
		}
	}
	if total.Sign() == 0 {
		return nil, 0, false
	}
	return new(big.Rat).SetFrac(part, total), checked, true
}

// readSymmetry reads the symmetry stage's two tables, keeping only the
// classes that fix a grid.
func readSymmetry(p *pipeline.Pass, r *Results) error {
	rows, err := symmetry.Counts.Read(p)
	if err != nil {
		return err
	}
	for _, row := range rows {
		s, err := grid.ParseShape(row.Shape)
		if err != nil {
			return err
		}
		e := EssentiallyDifferent{Shape: s, Group: row.Group, Classes: int(row.Classes), ClassesFixing: int(row.ClassesFixing), CheckedBy: row.CheckedBy,
			BundleCPUSeconds: row.BundleCPUSeconds, VerifiedShare: row.VerifiedShare, From: typeset.Row(symmetry.Counts.Path, "shape", row.Shape)}
		for _, f := range []struct {
			dst  **big.Int
			name string
			text string
		}{{&e.GroupOrder, "group_order", row.GroupOrder}, {&e.IdentityFixed, "identity_fixed", row.IdentityFixed},
			{&e.BurnsideSum, "burnside_sum", row.BurnsideSum}, {&e.Count, "essentially_different", row.EssentiallyDifferent}} {
			if *f.dst, err = ParseInt(symmetry.Counts.Name+"."+f.name, f.text); err != nil {
				return err
			}
		}
		if row.Literature != "" {
			if e.Literature, err = ParseInt(symmetry.Counts.Name+".literature", row.Literature); err != nil {
				return err
			}
			e.LiteratureSource = row.LiteratureSource
		}
		r.Symmetry = append(r.Symmetry, e)
	}
	classes, err := symmetry.Classes.Read(p)
	if err != nil {
		return err
	}
	for _, row := range classes {
		fixed, err := ParseInt(symmetry.Classes.Name+".fixed", row.Fixed)
		if err != nil {
			return err
		}
		if fixed.Sign() == 0 {
			continue
		}
		s, err := grid.ParseShape(row.Shape)
		if err != nil {
			return err
		}
		size, err := ParseInt(symmetry.Classes.Name+".size", row.Size)
		if err != nil {
			return err
		}
		var checkFixed *big.Int
		if row.CheckFixed != "" {
			if checkFixed, err = ParseInt(symmetry.Classes.Name+".check_fixed", row.CheckFixed); err != nil {
				return err
			}
		}
		r.SymmetryClasses = append(r.SymmetryClasses, SymmetryClass{Shape: s, Class: int(row.Class), Size: size,
			Order: int(row.Order), Representative: row.Representative, Fixed: fixed, Method: row.Method,
			CheckMethod: row.CheckMethod, CheckFixed: checkFixed,
			From: typeset.Row(symmetry.Classes.Path, "shape", row.Shape, "class", row.Class)})
	}
	return nil
}
