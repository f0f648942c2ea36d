// Package symchecks is the symmetry stage's second counts: every class of
// the shapes with boxes of two rows or two columns (side at most 12) is
// recounted by the R-stack method (package stackjoin) on the orientation
// with boxes of two columns, R×2, as check units "check.<R>x2.class<index>"
// (parts: ".part<k>of<parts>"); 2×c and c×2 share the units, a 2×c class
// taking the c×2 class of its transpose. The 5×2 and 6×2 recounts take
// CPU-hours: the committed bundle data/bundles/symmetry-checks.parquet
// keeps them (Bundle), the heavy classes split into parts, and ListAll
// refuses a run whose missing units exceed symmetry.max_cpu_hours. A 6×2
// class is listed only with a projection measured (checkWeightOrder6x2);
// classes 172, 173 and 174 (2×6 classes 142, 153 and 164) are recounted
// instead by package bandcols on their transposes, one unit per σ type
// (checkBandcols6x2); a class whose units the bundle holds whole is listed
// whatever its projection. The classes of 2×c
// and c×2 (c ≤ 5) that exchange the stacks by an involution are also
// recounted in the run by package multisets (MultisetCounts).
//
// Of gives a class's second count and fails when it differs from the
// first; VerifiedShare is the share of the Burnside sum so verified;
// CheckLiterature compares a count of essentially different grids with
// the literature's, the last check.
package symchecks

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"math"
	"math/big"
	"runtime"
	"slices"
	"strings"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/bandcols"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/search"
	"github.com/sudoku-census/sudoku-census/stages/maths/symmetry/stackjoin"
	"github.com/sudoku-census/sudoku-census/stages/shared/symunits"
)

// shapeOf returns the shape whose classes recount those of s, and
// whether s has second counts at all: boxes of two rows or two columns,
// side at most 12.
func shapeOf(s symmetry.Shape) (symmetry.Shape, bool) {
	if s.N() > 12 || s.R < 2 || s.C < 2 || (s.R != 2 && s.C != 2) {
		return symmetry.Shape{}, false
	}
	if s.C != 2 {
		return symmetry.Shape{R: s.C, C: s.R}, true
	}
	return s, true
}

// checkBundleShape is the shape whose check units Bundle keeps: the
// 5×2 recounts of 2×5 and 5×2 take CPU-hours (the others seconds).
var checkBundleShape = symmetry.Shape{R: 5, C: 2}

// checkParts is the number of parts of a split 5×2 class's recount.
const checkParts = 64

// checkHeavyCPUHours is the projected CPU time of the 5×2 classes whose
// R-stack count is split into checkParts parts: each class's measured
// cost, the sum of its 64 units' CPU time in the bundle rounded up to 0.01
// (runs of 2026-12-06, after the kernel's speed-up of that day; the
// largest 69, 0.34 h; the 8 classes the multisets also recount, a third
// count, 0.04 to 0.29 h, where the kernel before the speed-up projected
// 0.42 to 4.3). The keys and checkParts name the units: changing them
// leaves the bundle's rows of those classes foreign, so they stay fixed
// once units are kept.
var checkHeavyCPUHours = map[int]float64{
	11: 0.01, 22: 0.01, 23: 0.02, 34: 0.01, 35: 0.02, 46: 0.01, 47: 0.01,
	58: 0.02, 59: 0.02, 68: 0.03, 69: 0.34, 70: 0.14, 71: 0.05,
	72: 0.06, 73: 0.06, 81: 0.29, 74: 0.04,
	75: 0.05, 80: 0.04, 82: 0.15, 83: 0.20,
}

// check6x2Shape is the shape whose check units recount 2×6 and 6×2 by
// the R-stack method, kept by Bundle beside 5×2's.
var check6x2Shape = symmetry.Shape{R: 6, C: 2}

// isBundled reports whether Bundle keeps the check units of cs.
func isBundled(cs symmetry.Shape) bool { return cs == checkBundleShape || cs == check6x2Shape }

// A splitClass is a 6×2 class whose recount is split into parts: so many
// that no part passes about 5 CPU-minutes by the parts timed, and the
// class's projected CPU-hours.
type splitClass struct {
	parts int
	hours float64
}

// checkWeightOrder6x2 is the 6×2 classes (6×2 numbering) whose whole
// count passed its time limit in stackjoin's TestSurvey6x2 (on one core,
// the machine shared: 25 to 90 s wall) or was not tried, heaviest first by
// the weight |class|·F in the 2×6 Burnside sum (the stage's counts; the
// orbit sum recounts half of 2×6 classes 10, 21 and 32, here 160, 161 and 162,
// no other method the rest). A run computes the split ones in this order;
// one not in checkSplit6x2 has no projection and is not listed.
var checkWeightOrder6x2 = []int{
	172, 173, 159, 94, 145, 78, 146, 174, 93, 144, 30, 126, 77, 149, 46, 148,
	147, 125, 95, 79, 175, 29, 151, 31, 45, 110, 168, 47, 165, 127, 150, 163,
	142, 14, 92, 109, 171, 141, 167, 124, 111, 154, 76, 152, 120, 15, 62, 143,
	13, 161, 155, 162, 61, 44, 28, 160, 63, 153, 140, 170, 108, 164, 158, 157,
	60, 166, 12, 156, 169, 190, 192, 185, 191, 180, 186, 189, 177, 183, 677,
	868, 376, 869, 860, 357, 430, 484, 538, 821, 886, 887, 230, 861, 854, 856,
	249, 836, 870, 303, 850, 871, 857, 697, 888, 855, 765, 889, 696, 1950,
	896, 1871, 1951, 1842, 1841, 1844, 1922, 1921, 1924, 1853, 1920, 1928,
	1860, 910, 2314, 573, 731, 732, 766, 858, 859, 862, 863, 864, 865, 866,
	867, 876, 890, 891,
}

// checkSplit6x2 is the classes of checkWeightOrder6x2 whose parts have
// been timed (TestSurvey6x2 with STACKJOIN_SAMPLE: the mean CPU time of a
// seeded sample of parts times the parts, rounded up): none yet. Their
// parts are stackjoin.FixedPartByFirstRows' (checkKernelByFirstRows):
// FixedPart's, splitting each first row's memo over many parts, passed 150
// CPU-s in part 5 of 65,536 of class 172. Timed on 2026-12-07 (one core,
// the machine's 2 loaded 10-17, the memo keyed up to row swaps), no class
// had every sampled part finish, so none has a projection: a part of 1,024
// (about 6 of class 172's 5,778 first rows) passed 120 CPU-s on 172, 60 on
// 173 and 159, 40 on 174; a part of 64 (6 of the 388 first rows of the
// classes with one σ type) passed 45 on 146, 78, 94 and 145. Alone (a
// part a first row, STACKJOIN_PAST=1), 7 of 20 sampled first rows of 146
// passed 5 CPU-s (its first row 165 passed 60), the 13 others took 0.1-1.7;
// 7 of 10 of 172's passed 10, the others 0.1-4.8. Read as samples (not
// bounds), class 172 takes over 0.7·5,778·10 s, 11 CPU-hours, 146 over
// 0.35·388·5 s; whether a part of one first row stays within 5 minutes is
// not known. The keys and
// parts name the units: changing them leaves the bundle's rows of those
// classes foreign, so they stay fixed once units are kept.
var checkSplit6x2 = map[int]splitClass{}

// checkBandcols6x2 is the 6×2 classes recounted by package bandcols on
// their 2×6 transposes (involutive stack exchanges), one unit per σ type
// (part k: the involutions with k 2-cycles, N_k), instead of the R-stack
// method, each with bandcols' TestProjectLastLayer's projection (20-30
// states sampled per type and half), the interval's top rounded up:
// 172 (2×6 class 142, 49% of the sum, single bands) 3.2 CPU-hours [2.7,
// 3.6], its heaviest parts (k = 4, 5) about 1.1-1.4 each; 173 (2×6 class
// 153, 8.2%, one band pair, two halves to count) 5.4 [4.3, 6.4]; 174 (2×6
// class 164, 2.3%, two band pairs) 2.7 [2.2, 3.3]. A class is listed when
// symmetry.check_max_class_cpu_hours allows its projection or the bundle
// holds all its units.
var checkBandcols6x2 = map[int]splitClass{
	172: {parts: 7, hours: 3.7},
	173: {parts: 7, hours: 6.5},
	174: {parts: 7, hours: 3.3},
}

// isBandcols reports whether class i of cs is recounted by package bandcols.
func isBandcols(cs symmetry.Shape, i int) bool {
	_, ok := checkBandcols6x2[i]
	return ok && cs == check6x2Shape
}

// check6x2LightCPUHours is the projection of any other 6×2 class with a
// relabelling type, counted whole: the mean CPU time of the 350 whose whole
// count TestSurvey6x2 timed (one core, one process keeping the stack
// counts and first rows across classes, as a run does; 7.0 CPU-minutes in
// all, the longest 17.18 s), rounded up.
const check6x2LightCPUHours = 0.00034

// checkLightCPUHours is the projection of any other 5×2 class's recount
// (most took seconds within a work budget of 10^6, 2026-11-28), but class
// 57, counted in full in 6 minutes (2026-11-29).
const (
	checkLightCPUHours = 0.01
	check57CPUHours    = 0.1
)

// checkWeightOrder5x2 is the order in which a run computes the split 5×2
// classes, so that a stopped run has recounted as much of the sum as it
// could: first the classes no other method recounts, then those whose 2×5
// transposes exchange the stacks by an involution (81, 82, 83, 75, 80, 72,
// 73, 74), which package multisets already recounts in seconds; each part
// by the weight |class|·F in the Burnside sum, heaviest first (from the
// stage's counts, 2026-12-06; 73 and 74 fix no grid).
var checkWeightOrder5x2 = []int{47, 23, 46, 58, 59, 22, 68, 35, 34, 11, 70, 71, 69, 81, 82, 83, 75, 80, 72, 73, 74}

// checkClassCPUHours is the projected CPU time of the recount of class i of
// the check shape cs.
func checkClassCPUHours(cs symmetry.Shape, i int) float64 {
	if cs == check6x2Shape {
		if sc, ok := checkBandcols6x2[i]; ok {
			return sc.hours
		}
		if sc, ok := checkSplit6x2[i]; ok {
			return sc.hours
		}
		if slices.Contains(checkWeightOrder6x2, i) {
			return math.Inf(1) // heavy, its parts not timed: never listed
		}
		return check6x2LightCPUHours
	}
	if cs != checkBundleShape {
		return 0
	}
	if h, ok := checkHeavyCPUHours[i]; ok {
		return h
	}
	if i == 57 {
		return check57CPUHours
	}
	return checkLightCPUHours
}

// checkPartsOf is the number of units of the recount of class i of cs.
func checkPartsOf(cs symmetry.Shape, i int) int {
	if isBandcols(cs, i) {
		return checkBandcols6x2[i].parts
	}
	if sc, ok := checkSplit6x2[i]; ok && cs == check6x2Shape {
		return sc.parts
	}
	if _, ok := checkHeavyCPUHours[i]; ok && cs == checkBundleShape {
		return checkParts
	}
	return 1
}

// checkUnitIDs returns the units of the recount of class i of cs.
func checkUnitIDs(cs symmetry.Shape, i int) []string {
	n := checkPartsOf(cs, i)
	if n == 1 {
		return []string{symunits.CheckPrefix + symunits.UnitID(cs, i)}
	}
	ids := make([]string, n)
	for k := range n {
		ids[k] = symunits.CheckPrefix + symunits.PartID(cs, i, k, n)
	}
	return ids
}

// parseCheckUnit returns the shape, class, part and parts of a check unit.
func parseCheckUnit(id string) (s symmetry.Shape, class, part, parts int, err error) {
	rest, ok := strings.CutPrefix(id, symunits.CheckPrefix)
	if !ok {
		return symmetry.Shape{}, 0, 0, 0, fmt.Errorf("unit %q: a check unit starts with %q", id, symunits.CheckPrefix)
	}
	s, class, part, parts, err = symunits.ParseUnitPart(rest)
	if err != nil {
		return symmetry.Shape{}, 0, 0, 0, err
	}
	if cs, ok := shapeOf(s); !ok || cs != s || parts != checkPartsOf(s, class) {
		return symmetry.Shape{}, 0, 0, 0, fmt.Errorf("unit %q: not a check unit of this stage", id)
	}
	return s, class, part, parts, nil
}

// checkClassOf returns the class of cs (the check shape of s) that
// recounts class c of s: the class of the same element (of its transpose
// for 2×c) in the group of cs without transposition, which has the same F.
// In a group with transposition a class may hold two of those, so only
// without it are the sizes equal (checked).
func checkClassOf(s symmetry.Shape, transpose bool, cs symmetry.Shape, c symmetry.Class) (int, error) {
	g, err := symunits.Group(cs, false)
	if err != nil {
		return 0, err
	}
	e := c.Rep
	if cs != s {
		e = symmetry.Element{Rows: c.Rep.Cols, Cols: c.Rep.Rows}
	}
	i, err := g.ClassOf(e)
	if err != nil {
		return 0, err
	}
	if !transpose && (g.Classes[i].Size.Cmp(c.Size) != 0 || g.Classes[i].Order != c.Order) {
		return 0, fmt.Errorf("%v class %d (%s): %v class %d, of size %v and order %d, not %v and %d",
			s, c.Index, c.Desc, cs, i, g.Classes[i].Size, g.Classes[i].Order, c.Size, c.Order)
	}
	return i, nil
}

// checkedClasses returns the classes of cs that recount a non-identity
// class without transposition of a shape of shapes (cs is their check
// shape; transpose tells which groups have transposition), in class
// order: those with a relabelling type (the others fix no grid, which both
// methods find at once) whose projection maxClassHours covers
// (symmetry.check_max_class_cpu_hours) or that held reports whole in the
// bundle (a committed recount is always used).
func checkedClasses(cs symmetry.Shape, shapes []symmetry.Shape, transpose func(symmetry.Shape) bool, maxClassHours float64, held func(int) bool) ([]int, error) {
	g, err := symunits.Group(cs, false)
	if err != nil {
		return nil, err
	}
	need := map[int]bool{}
	for _, s := range shapes {
		gs, err := symunits.Group(s, transpose(s))
		if err != nil {
			return nil, err
		}
		for _, c := range gs.Classes[1:] {
			if c.Rep.Transpose {
				continue
			}
			i, err := checkClassOf(s, transpose(s), cs, c)
			if err != nil {
				return nil, err
			}
			need[i] = true
		}
	}
	var out []int
	for _, c := range g.Classes[1:] {
		if need[c.Index] && len(search.SigmaTypes(cs, c.Rep)) > 0 && (checkClassCPUHours(cs, c.Index) <= maxClassHours || held(c.Index)) {
			out = append(out, c.Index)
		}
	}
	return out, nil
}

// listIDs lists the check units of cs for shapes (checkedClasses): the
// classes counted whole in class order, then the split ones by
// checkWeightOrder5x2 or checkWeightOrder6x2. For the shapes Bundle keeps
// it refuses when the units Bundle lacks need more than maxHours
// (symmetry.max_cpu_hours).
func listIDs(root string, cs symmetry.Shape, shapes []symmetry.Shape, transpose func(symmetry.Shape) bool, maxClassHours, maxHours float64) ([]string, error) {
	var have map[string]pipeline.BundleRow
	if isBundled(cs) {
		var err error
		if have, err = pipeline.ReadBundle(root, Bundle, nil); err != nil {
			return nil, err
		}
	}
	held := func(i int) bool {
		for _, id := range checkUnitIDs(cs, i) {
			if _, ok := have[id]; !ok {
				return false
			}
		}
		return true
	}
	classes, err := checkedClasses(cs, shapes, transpose, maxClassHours, held)
	if err != nil {
		return nil, err
	}
	order := checkWeightOrder5x2
	if cs == check6x2Shape {
		order = checkWeightOrder6x2
	}
	rank := func(i int) int {
		if k := slices.Index(order, i); k >= 0 {
			return k
		}
		return len(order)
	}
	slices.SortStableFunc(classes, func(a, b int) int {
		split := func(i int) int { return min(checkPartsOf(cs, i)-1, 1) } // whole ones first
		return cmp.Or(cmp.Compare(split(a), split(b)), cmp.Compare(rank(a), rank(b)))
	})
	var ids []string
	for _, i := range classes {
		ids = append(ids, checkUnitIDs(cs, i)...)
	}
	if !isBundled(cs) {
		return ids, nil
	}
	missing, hours := 0, 0.0
	for _, id := range ids {
		if _, ok := have[id]; !ok {
			_, i, _, parts, _ := parseCheckUnit(id)
			missing++
			hours += checkClassCPUHours(cs, i) / float64(parts)
		}
	}
	if hours > maxHours {
		return nil, pipeline.Invalid("symmetry.max_cpu_hours", maxHours, fmt.Sprintf(
			"at least %.2g to recount %v and %v (or lower symmetry.check_max_class_cpu_hours): %s lacks %d of its %d units of %v, which need about %.2g CPU-hours",
			hours, symmetry.Shape{R: cs.C, C: cs.R}, cs, Bundle.Path(), missing, len(ids), cs, hours))
	}
	return ids, nil
}

// checkKernel names the code that computes the check units; the parts of
// a split 6×2 class are FixedPartByFirstRows's, named by checkKernelByFirstRows.
var (
	checkKernel            = fmt.Sprintf("symmetry check: R-stack method (stackjoin.FixedWorkers, FixedPart) v%d", stackjoin.KernelVersion)
	checkKernelByFirstRows = fmt.Sprintf("symmetry check: R-stack method (stackjoin.FixedPartByFirstRows) v%d, first-row shares v%d", stackjoin.KernelVersion, stackjoin.FirstRowShareVersion)
	checkKernelBandcols    = fmt.Sprintf("symmetry check: band-column method on the 2×c transpose (bandcols.FixedType, part k the σ type with k 2-cycles) v%d", bandcols.KernelVersion)
)

// Bundle keeps the second counts of the 5×2 and 6×2 classes (those of
// 2×5, 5×2, 2×6 and 6×2), each a function of its id alone: "stackjoin <F>" or, for a part
// of a split class, "stackjoin-part <sum> …".
var Bundle = &pipeline.Bundle{
	Name: "symmetry-checks",
	KernelOf: func(id string) string {
		if !checksBundleHolds(id) {
			return ""
		}
		s, i, _, parts, _ := parseCheckUnit(id)
		if isBandcols(s, i) {
			return checkKernelBandcols
		}
		if s == check6x2Shape && parts > 1 {
			return checkKernelByFirstRows
		}
		return checkKernel
	},
	Holds: checksBundleHolds,
	Work: func(id string) string {
		s, i, part, parts, err := parseCheckUnit(id)
		if err != nil {
			return ""
		}
		g, err := symunits.Group(s, false)
		if err != nil || i >= len(g.Classes) {
			return ""
		}
		what := "grids fixed up to relabelling"
		if isBandcols(s, i) {
			return fmt.Sprintf("%v class %d (%s): the left stacks of the %v transpose fixed with an involution of %d 2-cycles, by the band-column method, a second count of this class and of the %v class of its transpose", s, i, g.Classes[i].Desc, symmetry.Shape{R: s.C, C: s.R}, part, symmetry.Shape{R: s.C, C: s.R})
		}
		if parts > 1 {
			what = fmt.Sprintf("part %d of %d of the sums giving the grids fixed up to relabelling", part, parts)
		}
		return fmt.Sprintf("%v class %d (%s): %s, by the R-stack method, a second count of this class and of the %v class of its transpose", s, i, g.Classes[i].Desc, what, symmetry.Shape{R: s.C, C: s.R})
	},
}

// checksBundleHolds reports whether id is a check unit of a 5×2 or 6×2
// class with a relabelling type.
func checksBundleHolds(id string) bool {
	s, i, _, _, err := parseCheckUnit(id)
	if err != nil || !isBundled(s) {
		return false
	}
	g, err := symunits.Group(s, false)
	return err == nil && i >= 1 && i < len(g.Classes) && len(search.SigmaTypes(s, g.Classes[i].Rep)) > 0
}

// Compute computes a check unit on every core: "stackjoin <F>", or a
// part's sums.
func Compute(ctx context.Context, id string) ([]byte, error) {
	s, i, part, parts, err := parseCheckUnit(id)
	if err != nil {
		return nil, err
	}
	if isBandcols(s, i) {
		s2, e2, err := symunits.BandcolsElement(s, i)
		if err != nil {
			return nil, err
		}
		n, err := bandcols.FixedType(ctx, s2, e2, part)
		if err != nil {
			return nil, err
		}
		return []byte(symunits.MethodBandcolsPart + " " + n.String()), nil
	}
	if parts > 1 {
		return symunits.PartOf(ctx, s, i, part, parts)
	}
	g, err := symunits.Group(s, false)
	if err != nil {
		return nil, err
	}
	c, err := g.Class(i)
	if err != nil {
		return nil, err
	}
	f, err := stackjoin.FixedWorkers(ctx, s, c.Rep, runtime.GOMAXPROCS(0))
	if err != nil {
		return nil, err
	}
	return []byte(symunits.MethodStackjoin + " " + f.String()), nil
}

// A Second is a class's second count.
type Second struct {
	Method     string
	Fixed      *big.Int
	CPUSeconds float64 // the CPU time the bundle records; 0 for one made in the run
	// Half: the method shares counting code with the first (it counts as
	// half in verified_share).
	Half bool
}

// classCount returns the second count of class c of shape s (its group
// with transposition when transpose) from the
// check units' results, nil when the configuration lists none for it.
// It returns the units it used.
func classCount(s symmetry.Shape, transpose bool, c symmetry.Class, resultOf map[string][]byte, cpuOf map[string]float64) (*Second, []string, error) {
	cs, ok := shapeOf(s)
	if !ok || c.Rep.Transpose {
		return nil, nil, nil
	}
	i, err := checkClassOf(s, transpose, cs, c)
	if err != nil {
		return nil, nil, err
	}
	ids := checkUnitIDs(cs, i)
	if _, listed := resultOf[ids[0]]; !listed {
		return nil, nil, nil
	}
	f, method, err := symunits.FixedFromUnits(ids, resultOf)
	if err != nil {
		return nil, nil, err
	}
	cpu := 0.0
	for _, id := range ids {
		cpu += cpuOf[id]
	}
	return &Second{Method: method, Fixed: f, CPUSeconds: cpu}, ids, nil
}

// CPUSeconds returns the CPU time Bundle records for each of
// the listed check units it holds.
func CPUSeconds(root string, ids []string) (map[string]float64, error) {
	var mine []string
	for _, id := range ids {
		if Bundle.Holds(id) {
			mine = append(mine, id)
		}
	}
	out := map[string]float64{}
	if len(mine) == 0 {
		return out, nil
	}
	rows, err := pipeline.ReadBundle(root, Bundle, mine)
	if err != nil {
		return nil, err
	}
	for _, id := range slices.Sorted(maps.Keys(rows)) {
		out[id] = rows[id].CPUSeconds
	}
	return out, nil
}

// compare fails when a second count differs from the first.
func compare(s symmetry.Shape, c symmetry.Class, fixed *big.Int, method string, chk *Second) error {
	if chk != nil && chk.Fixed.Cmp(fixed) != 0 {
		return fmt.Errorf("%v class %d (%s): the second count (%s) gives F = %v, the first (%s) %v", s, c.Index, c.Desc, chk.Method, chk.Fixed, method, fixed)
	}
	return nil
}

// VerifiedShare returns num/den rounded down to 6 decimals, "" when den is
// 0 (no class but the identity fixes a grid).
func VerifiedShare(num *big.Rat, den *big.Int) string {
	if den.Sign() == 0 {
		return ""
	}
	q := new(big.Rat).Quo(num, new(big.Rat).SetInt(den))
	q.Mul(q, new(big.Rat).SetInt64(1_000_000))
	micro := new(big.Int).Quo(q.Num(), q.Denom()) // floor: both non-negative
	whole, frac := new(big.Int).QuoRem(micro, big.NewInt(1_000_000), new(big.Int))
	return fmt.Sprintf("%v.%06d", whole, frac.Int64())
}

// orbitSecond returns the orbit-sum recount of class c of 2×6 or 6×2 (by
// its transpose's 2×6 class) when it is a second count, nil otherwise.
func orbitSecond(s symmetry.Shape, c symmetry.Class, second map[int]*big.Int) (*Second, error) {
	id, err := symunits.UnitOf(s, c)
	if err != nil {
		return nil, err
	}
	_, i, err := symunits.ParseUnit(id)
	if err != nil {
		return nil, err
	}
	f, ok := second[i]
	if !ok {
		return nil, nil
	}
	// Both methods are package stacks': they share its group and relabelling
	// code, and the orbit sum's exchange terms (NewOrbitExchange) are its own.
	return &Second{Method: methodOrbitSum, Fixed: f, Half: true}, nil
}

// methodOrbitSum names the orbit-sum recount as a second count.
const methodOrbitSum = "orbit-sum"

// Of returns the second count of class c of shape s (its group with
// transposition when transpose), after checking that it equals the first,
// F = fixed by method: from the check units' results (resultOf, with the
// CPU times cpuOf of those the bundle holds), or for a class of 2×6 or
// 6×2 without one from orbitSums, the run's recounts of the 2×6 classes
// by the sum over pattern orbits (symunits.Bundled); and for a stack
// exchange of 2×c or c×2 (c ≤ 5) from multisetCounts (MultisetCounts),
// alone or beside the first; nil when the class has none. It returns the
// check units it used.
func Of(s symmetry.Shape, transpose bool, c symmetry.Class, fixed *big.Int, method string, resultOf map[string][]byte,
	cpuOf map[string]float64, orbitSums map[int]*big.Int, multisetCounts map[int]map[int]*big.Int) (*Second, []string, error) {
	chk, ids, err := classCount(s, transpose, c, resultOf, cpuOf)
	if err != nil {
		return nil, nil, fmt.Errorf("%v class %d: second count: %w", s, c.Index, err)
	}
	if chk == nil && orbitSums != nil && symunits.FamilyOf(s) == symunits.FamilyOf(symunits.BundleShape) {
		if chk, err = orbitSecond(s, c, orbitSums); err != nil {
			return nil, nil, err
		}
	}
	if err := compare(s, c, fixed, method, chk); err != nil {
		return nil, nil, err
	}
	ms, err := multisetSecond(s, transpose, c, multisetCounts)
	if err != nil {
		return nil, nil, fmt.Errorf("%v class %d: second count: %w", s, c.Index, err)
	}
	if err := compare(s, c, fixed, method, ms); err != nil {
		return nil, nil, err
	}
	switch {
	case ms == nil:
	case chk == nil:
		chk = ms
	default:
		// Two second counts, each equal to the first: the table names both;
		// the class is verified whole when either shares no code with it.
		chk = &Second{Method: chk.Method + "+" + ms.Method, Fixed: chk.Fixed, CPUSeconds: chk.CPUSeconds, Half: chk.Half && ms.Half}
	}
	return chk, ids, nil
}

// Weight is the part of a class's Burnside term that its second count
// verifies: all of it, or half for a method sharing code with the first.
func (chk *Second) Weight(term *big.Int) *big.Rat {
	w := new(big.Rat).SetInt(term)
	if chk.Half {
		w.Quo(w, big.NewRat(2, 1))
	}
	return w
}

// IsUnit reports whether id is a check unit's.
func IsUnit(id string) bool { return strings.HasPrefix(id, symunits.CheckPrefix) }

// ListAll lists the check units of shapes, the configured shapes in
// order, by check shape in the order of their first shape (listIDs).
func ListAll(root string, shapes []symmetry.Shape, transpose func(symmetry.Shape) bool, maxClassHours, maxHours float64) ([]string, error) {
	var checkShapes []symmetry.Shape
	for _, s := range shapes {
		if cs, ok := shapeOf(s); ok && !slices.Contains(checkShapes, cs) {
			checkShapes = append(checkShapes, cs)
		}
	}
	var ids []string
	for _, cs := range checkShapes {
		var of []symmetry.Shape
		for _, s := range shapes {
			if t, ok := shapeOf(s); ok && t == cs {
				of = append(of, s)
			}
		}
		checks, err := listIDs(root, cs, of, transpose, maxClassHours, maxHours)
		if err != nil {
			return nil, err
		}
		ids = append(ids, checks...)
	}
	return ids, nil
}
