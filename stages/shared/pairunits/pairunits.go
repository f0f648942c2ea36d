// Package pairunits is the pipeline side of the pair method: the work units
// into which the shapes stage cuts a box width's sum over pattern orbits,
// and the committed bundle that keeps the 2x6 units across runs and
// machines. A unit id says all its work:
//
//   - "pair-c<c>-<first orbit>": orbitsPerUnit consecutive orbits of width
//     c's plan (pair.Plan), from first;
//   - "multisets-c<c>": the whole sum for width c, recounted by pairindep's
//     multiset method, which shares no counting code with pair;
//   - "pair6-k<kernel version>-<unit>": a 2x6 unit of the bundle, BundleOrbits
//     orbits; its size is fixed so that its result depends on its id alone;
//   - "pair6-k<kernel version>-stacks-<unit>": the stack count E(O) of each
//     orbit of the 2x6 unit of that number, also bundled, for the sum over
//     pattern orbits by which the symmetry stage counts the 2x6 classes
//     that exchange the stacks by involutions.
//
// A sum or multiset unit's result is its part of the count as a decimal
// string; a stack-count unit's is its orbits' E(O) in plan order, decimal,
// separated by single spaces (FormatStacks).
package pairunits

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
	"github.com/sudoku-census/sudoku-census/stages/maths/pair"
	"github.com/sudoku-census/sudoku-census/stages/maths/pairindep"
)

// The 2x6 count runs as units of BundleOrbits consecutive orbits of the
// kernel's plan, whose results are kept in the committed bundle
// data/bundles/shapes-2x6.parquet: a run takes the bundle's units and
// computes only the missing ones.
const (
	BundleWidth  = 6
	BundleOrbits = 32
)

// BundlePrefix starts every bundled unit id; it names the kernel version,
// so units of another version are other units.
var BundlePrefix = fmt.Sprintf("pair6-k%d-", pair.KernelVersion)

// StacksPrefix starts every stack-count unit id (see the package doc).
var StacksPrefix = BundlePrefix + "stacks-"

// Bundle is the committed bundle of 2x6 units: the sum units and the
// stack-count units.
var Bundle = &pipeline.Bundle{
	Name:   "shapes-2x6",
	Kernel: fmt.Sprintf("pair split-and-join kernel v%d", pair.KernelVersion),
	Holds: func(id string) bool {
		_, ok := bundleUnit(id)
		_, stacks := stacksUnit(id)
		return ok || stacks
	},
	Work: func(id string) string {
		if u, ok := stacksUnit(id); ok {
			lo, hi := unitOrbits(u)
			return fmt.Sprintf("2x6 orbits %d-%d of the kernel's plan: the stack count E of each", lo, hi-1)
		}
		u, _ := bundleUnit(id)
		lo, hi := unitOrbits(u)
		return fmt.Sprintf("2x6 orbits %d-%d of the kernel's plan", lo, hi-1)
	},
	Recheck: recheckUnit,
	Cost:    unitCost,
}

// bundleOrbitCount is the number of pattern orbits of 2x6 (checked against
// the plan, and by the plan against Burnside's lemma).
const bundleOrbitCount = 63199

// BundleUnits is the number of 2x6 units of each kind: the 63,199 orbits in
// units of 32.
const BundleUnits = (bundleOrbitCount + BundleOrbits - 1) / BundleOrbits

// projectedUnitCPUHours is the mean CPU time of a 2x6 unit, from a
// projection of the whole run (about 3.7 CPU-hours on this project's
// 2-core machine: each half table's build time taken as 3 µs per state,
// its states as Π C(6, d(r))/400,000, each join 100 ns per state of the
// smaller table, the cache simulated along the plan; the first measured
// units came within 25% of it). The cost falls steeply along the plan: the
// first hundred units take most of it.
const projectedUnitCPUHours = 3.7 / BundleUnits

// BundleIDs returns the ids of every 2x6 unit, in order.
func BundleIDs() []string {
	ids := make([]string, BundleUnits)
	for u := range ids {
		ids[u] = sumID(u)
	}
	return ids
}

// sumID is the id of 2x6 sum unit u, stacksID that of its stack-count unit.
func sumID(u int) string    { return fmt.Sprintf("%s%05d", BundlePrefix, u) }
func stacksID(u int) string { return fmt.Sprintf("%s%05d", StacksPrefix, u) }

// StacksIDs returns the ids of every 2x6 stack-count unit, in order.
func StacksIDs() []string {
	ids := make([]string, BundleUnits)
	for u := range ids {
		ids[u] = stacksID(u)
	}
	return ids
}

// bundleUnit returns the unit number of a 2x6 sum unit's id.
func bundleUnit(id string) (int, bool) {
	return unitNumber(id, BundlePrefix)
}

// stacksUnit returns the unit number of a 2x6 stack-count unit's id.
func stacksUnit(id string) (int, bool) {
	return unitNumber(id, StacksPrefix)
}

// unitNumber returns u from an id prefix + u in five digits, u < BundleUnits.
func unitNumber(id, prefix string) (int, bool) {
	rest, ok := strings.CutPrefix(id, prefix)
	if !ok || len(rest) != 5 {
		return 0, false
	}
	u, err := strconv.Atoi(rest)
	return u, err == nil && u >= 0 && u < BundleUnits
}

// anyBundleUnit returns the unit number of either kind of 2x6 unit.
func anyBundleUnit(id string) (int, bool) {
	if u, ok := bundleUnit(id); ok {
		return u, true
	}
	return stacksUnit(id)
}

// unitOrbits returns the plan's orbits lo, …, hi-1 of 2x6 unit u.
func unitOrbits(u int) (lo, hi int) {
	return u * BundleOrbits, min((u+1)*BundleOrbits, bundleOrbitCount)
}

// FormatStacks writes stack counts as a stack-count unit's result.
func FormatStacks(es []uint64) string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = strconv.FormatUint(e, 10)
	}
	return strings.Join(parts, " ")
}

// ParseStacks reads the result of stack-count unit id, which must be n
// counts written exactly as FormatStacks writes them.
func ParseStacks(id string, result []byte, n int) ([]uint64, error) {
	fields := strings.Split(string(result), " ")
	es := make([]uint64, 0, n)
	for _, f := range fields {
		e, err := strconv.ParseUint(f, 10, 64)
		if err != nil {
			break
		}
		es = append(es, e)
	}
	if len(es) != n || FormatStacks(es) != string(result) {
		return nil, fmt.Errorf("unit %s: result %.40q… is not %d stack counts, decimal, separated by single spaces", id, result, n)
	}
	return es, nil
}

// UnitStacks returns the stack counts of 2x6 unit u's orbits from the
// result of its stack-count unit, after checking them against the result
// of its sum unit (Σ W·E² over the same orbits of plan): the symmetry
// stage's orbit sum and the grid count then rest on the same numbers.
func UnitStacks(plan *pair.Plan, u int, stacksResult, sumResult []byte) ([]uint64, error) {
	lo, hi := unitOrbits(u)
	id := stacksID(u)
	es, err := ParseStacks(id, stacksResult, hi-lo)
	if err != nil {
		return nil, err
	}
	if got := WeightedSquares(plan.Orbits[lo:hi], es); got.String() != string(sumResult) {
		return nil, fmt.Errorf("unit %s: its stack counts give Σ W·E² = %v, the sum unit %s %s", id, got, sumID(u), sumResult)
	}
	return es, nil
}

// WeightedSquares returns Σ W(O)·E(O)² over orbits and their stack counts:
// the pair method's sum.
func WeightedSquares(orbits []pair.Orbit, es []uint64) *big.Int {
	sum, t := new(big.Int), new(big.Int)
	for i, o := range orbits {
		t.SetUint64(es[i])
		t.Mul(t, t)
		sum.Add(sum, t.Mul(t, new(big.Int).SetUint64(o.Weight)))
	}
	return sum
}

// List returns the units of the counted widths, orbitsPerUnit orbits each
// (the bundle's units for width 6, and its stack-count units too when
// stacks is set), then one multiset recount per checked width. The 2x6
// units the bundle lacks must be within maxCPUHours, the value of config
// key maxKey.
func List(p *pipeline.Pass, counted, checked []int, orbitsPerUnit int, stacks bool, maxKey string, maxCPUHours float64) ([]string, error) {
	var ids []string
	for _, c := range counted {
		if c == BundleWidth {
			bundled := BundleIDs()
			if stacks {
				bundled = append(bundled, StacksIDs()...)
			}
			have, err := pipeline.ReadBundle(p.Root(), Bundle, bundled)
			if err != nil {
				return nil, err
			}
			if cost := float64(len(bundled)-len(have)) * projectedUnitCPUHours; cost > maxCPUHours {
				return nil, pipeline.Invalid(maxKey, maxCPUHours, fmt.Sprintf(
					"at least %.1f to count 2x6: %s holds %d of the %d units asked for, and the other %d need about %.1f CPU-hours",
					cost, Bundle.Path(), len(have), len(bundled), len(bundled)-len(have), cost))
			}
			ids = append(ids, bundled...)
			continue
		}
		n, err := pair.NumOrbits(p.Context(), c)
		if err != nil {
			return nil, err
		}
		if !n.IsInt64() {
			return nil, fmt.Errorf("2x%d: %s orbits", c, n)
		}
		for first := 0; first < int(n.Int64()); first += orbitsPerUnit {
			ids = append(ids, fmt.Sprintf("pair-c%d-%07d", c, first))
		}
	}
	for _, c := range checked {
		ids = append(ids, fmt.Sprintf("multisets-c%d", c))
	}
	return ids, nil
}

// Kind is what a unit computes.
type Kind int

const (
	// KindSum is a part of the pair method's sum.
	KindSum Kind = iota
	// KindMultisets is a whole recount by the multiset method.
	KindMultisets
	// KindStacks is a 2x6 stack-count unit.
	KindStacks
)

// badID is the error for a unit id of no kind.
func badID(id string) error {
	return fmt.Errorf("unit %q: want pair-c<c>-<first orbit>, %s<unit>, %s<unit> or multisets-c<c>", id, BundlePrefix, StacksPrefix)
}

// Parse returns the box width of a unit and its kind.
func Parse(id string) (c int, kind Kind, err error) {
	if _, err := fmt.Sscanf(id, "multisets-c%d", &c); err == nil {
		return c, KindMultisets, nil
	}
	if _, ok := bundleUnit(id); ok {
		return BundleWidth, KindSum, nil
	}
	if _, ok := stacksUnit(id); ok {
		return BundleWidth, KindStacks, nil
	}
	var first int
	if _, err := fmt.Sscanf(id, "pair-c%d-%d", &c, &first); err == nil {
		return c, KindSum, nil
	}
	return 0, 0, badID(id)
}

// Compute returns a unit's part of the count as a decimal string; a
// pair-c unit covers orbitsPerUnit orbits.
func Compute(p *pipeline.Pass, id string, orbitsPerUnit int) ([]byte, error) {
	workers := runtime.GOMAXPROCS(0)
	var c, first int
	if _, err := fmt.Sscanf(id, "multisets-c%d", &c); err == nil {
		n, err := pairindep.Count(p.Context(), c, workers)
		if err != nil {
			return nil, err
		}
		return []byte(n.String()), nil
	}
	if u, ok := bundleUnit(id); ok {
		return computeBundleUnit(p, u, false)
	}
	if u, ok := stacksUnit(id); ok {
		return computeBundleUnit(p, u, true)
	}
	if _, err := fmt.Sscanf(id, "pair-c%d-%d", &c, &first); err != nil {
		return nil, badID(id)
	}
	plan, err := PlanOf(p, c)
	if err != nil {
		return nil, err
	}
	if first < 0 || first >= len(plan.Orbits) {
		return nil, fmt.Errorf("unit %q: 2x%d has %d orbits", id, c, len(plan.Orbits))
	}
	sum, err := plan.Sum(p.Context(), first, min(first+orbitsPerUnit, len(plan.Orbits)), workers)
	if err != nil {
		return nil, err
	}
	return []byte(sum.String()), nil
}

// plans memoises the kernel's plan per width within a process: planning
// the 2x6 orbits takes seconds, and every unit of a width needs it (and
// shares its cache of half tables).
var plans sync.Map // c → func() (*pair.Plan, error)

// PlanOf returns pair.NewPlan(c), once per process and width, after checking that it has as many
// orbits as Burnside's lemma counts (the unit ids come from that number)
// and that their weights add up to every tuple of row sets.
func PlanOf(p *pipeline.Pass, c int) (*pair.Plan, error) {
	f, _ := plans.LoadOrStore(c, sync.OnceValues(func() (*pair.Plan, error) {
		// Burnside's count runs beside the plan (a few seconds on one
		// core for c = 6, while the orbit listing keeps the others busy).
		var n *big.Int
		var numErr error
		counted := make(chan struct{})
		go func() {
			defer close(counted)
			n, numErr = pair.NumOrbits(p.Context(), c)
		}()
		plan, err := pair.NewPlan(p.Context(), c, runtime.GOMAXPROCS(0), pair.DefaultCacheBytes)
		<-counted
		if err != nil {
			return nil, err
		}
		if numErr != nil {
			return nil, numErr
		}
		weight := new(big.Int)
		for _, o := range plan.Orbits {
			weight.Add(weight, new(big.Int).SetUint64(o.Weight))
		}
		if int64(len(plan.Orbits)) != n.Int64() || weight.Cmp(pair.NumTuples(c)) != 0 {
			return nil, fmt.Errorf("2x%d: %d orbits listed of weight %v; Burnside's lemma gives %v orbits, and there are %v tuples",
				c, len(plan.Orbits), weight, n, pair.NumTuples(c))
		}
		return plan, nil
	}))
	plan, err := f.(func() (*pair.Plan, error))()
	if err != nil {
		plans.Delete(c) // a cancelled plan is not the plan
	}
	return plan, err
}

// memoryLimit is the Go heap limit a 2x6 computation sets unless the user
// set one (GOMEMLIMIT): the half tables (pair.DefaultCacheBytes) and the
// workers' DP tables are garbage at a high rate, and without a limit the
// collector lets the heap reach twice what is live.
const memoryLimit = 2 * pair.DefaultCacheBytes

// LimitMemory sets the Go heap limit of a 2x6 computation with the pair
// kernel (memoryLimit), unless the user set one (GOMEMLIMIT).
func LimitMemory() {
	if debug.SetMemoryLimit(-1) == math.MaxInt64 {
		debug.SetMemoryLimit(memoryLimit)
	}
}

// computeBundleUnit computes the sum of 2x6 unit u, or its orbits' stack
// counts.
func computeBundleUnit(p *pipeline.Pass, u int, stacks bool) ([]byte, error) {
	LimitMemory()
	plan, err := PlanOf(p, BundleWidth)
	if err != nil {
		return nil, err
	}
	if len(plan.Orbits) != bundleOrbitCount {
		return nil, fmt.Errorf("2x6: %d orbits, want %d", len(plan.Orbits), bundleOrbitCount)
	}
	lo, hi := unitOrbits(u)
	if stacks {
		es, err := plan.StackCounts(p.Context(), lo, hi, runtime.GOMAXPROCS(0))
		if err != nil {
			return nil, err
		}
		return []byte(FormatStacks(es)), nil
	}
	sum, err := plan.Sum(p.Context(), lo, hi, runtime.GOMAXPROCS(0))
	if err != nil {
		return nil, err
	}
	return []byte(sum.String()), nil
}

// secondsPerBoundState is the CPU time to build a half table per unit of
// its pairstacks.StateBound, and unitJoinCPU the rest of a unit (joins,
// the workers' tables): fitted to units 1384, 1143 and 308 recomputed
// each on its own with an empty cache (5.0, 6.2 and 22.2 CPU-seconds for
// bounds of 1.4·10¹¹, 3.7·10¹¹ and 1.15·10¹², on the 2-core machine under
// load, 2026-11-26). The projection behind projectedUnitCPUHours, 3 µs per
// state and StateBound/400,000 states, gives 2.3 times less.
const (
	secondsPerBoundState = 1.7e-11
	unitJoinCPU          = 3 * time.Second
)

// unitCost projects the CPU time of recomputing 2x6 unit id (of either
// kind) on its own: building every half table its orbits join, from an
// empty cache, and the joins. The recheck is not in it: pairindep's
// row-by-row count of one orbit took 16 to 79 CPU-seconds on the units
// above.
func unitCost(p *pipeline.Pass, id string) (time.Duration, error) {
	u, ok := anyBundleUnit(id)
	if !ok {
		return 0, fmt.Errorf("unit %q is not a 2x6 unit", id)
	}
	plan, err := PlanOf(p, BundleWidth)
	if err != nil {
		return 0, err
	}
	bound, err := plan.TableBound(unitOrbits(u))
	if err != nil {
		return 0, err
	}
	return time.Duration(float64(bound)*secondsPerBoundState*float64(time.Second)) + unitJoinCPU, nil
}

// recheckUnit recomputes the stack count of one orbit of the unit, drawn
// by the seed, by pairindep's row-by-row count (no code shared with the
// kernel) and compares it with the kernel's, and for a stack-count unit
// with the count its result holds.
func recheckUnit(p *pipeline.Pass, id string, result []byte, seed uint64) (string, error) {
	u, ok := anyBundleUnit(id)
	if !ok {
		return "", fmt.Errorf("unit %q is not a 2x6 unit", id)
	}
	plan, err := PlanOf(p, BundleWidth)
	if err != nil {
		return "", err
	}
	lo, hi := unitOrbits(u)
	j := lo + rand.New(rand.NewPCG(seed, uint64(u))).IntN(hi-lo)
	es, err := plan.StackCounts(p.Context(), j, j+1, runtime.GOMAXPROCS(0))
	if err != nil {
		return "", err
	}
	o := plan.Orbits[j]
	other, err := pairindep.Stacks(p.Context(), o.C, o.Rep)
	if err != nil {
		return "", err
	}
	if other != es[0] {
		return "", fmt.Errorf("orbit %s: the kernel gives E = %d, pairindep's row-by-row count %d", o, es[0], other)
	}
	if _, stacks := stacksUnit(id); stacks {
		held, err := ParseStacks(id, result, hi-lo)
		if err != nil {
			return "", err
		}
		if held[j-lo] != other {
			return "", fmt.Errorf("orbit %s: the unit holds E = %d, the kernel and pairindep give %d", o, held[j-lo], other)
		}
	}
	return fmt.Sprintf("orbit %s: E = %d by the kernel and by pairindep", o, other), nil
}

// Width returns c for a shape with 2-row or 2-column boxes of width c (2xC
// or Cx2), or 0.
func Width(s grid.Shape) int {
	switch {
	case s.R == 2:
		return s.C
	case s.C == 2:
		return s.R
	}
	return 0
}

// Counts holds what the units found, per box width: the pair method's
// count and the multiset method's.
type Counts struct {
	Pair, Multisets map[int]*big.Int
}

// Merge adds the batches of each width in unit order, given the units' ids
// and results in the stage's order (stack-count units are left to
// BundleStackCounts).
func Merge(ids []string, results [][]byte) (Counts, error) {
	out := Counts{Pair: map[int]*big.Int{}, Multisets: map[int]*big.Int{}}
	for i, id := range ids {
		c, kind, err := Parse(id)
		if err != nil {
			return out, err
		}
		if kind == KindStacks {
			continue
		}
		n, ok := new(big.Int).SetString(string(results[i]), 10)
		if !ok {
			return out, fmt.Errorf("unit %s: result %q is not a decimal integer", id, results[i])
		}
		if kind == KindMultisets {
			out.Multisets[c] = n
			continue
		}
		if out.Pair[c] == nil {
			out.Pair[c] = new(big.Int)
		}
		out.Pair[c].Add(out.Pair[c], n)
	}
	return out, nil
}

// BundleStackCounts returns every 2×6 orbit's stack count E(O), in plan
// order, from the stack-count units' results (byID), each checked against
// its sum unit (UnitStacks).
func BundleStackCounts(plan *pair.Plan, byID map[string][]byte) ([]uint64, error) {
	sums, stacks := BundleIDs(), StacksIDs()
	var es []uint64
	for u := range stacks {
		part, err := UnitStacks(plan, u, byID[stacks[u]], byID[sums[u]])
		if err != nil {
			return nil, err
		}
		es = append(es, part...)
	}
	return es, nil
}
