package shapes

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/maths/pair"
	"github.com/sudoku-census/sudoku-census/stages/maths/pairindep"
)

// The 2x6 count runs as units of bundleOrbits consecutive orbits of the
// kernel's plan, whose results are kept in the committed bundle
// data/bundles/shapes-2x6.parquet: a run takes the bundle's units and
// computes only the missing ones. The unit size is fixed (not
// shapes.orbits_per_unit), so a unit's result depends on its id alone.
const (
	bundleWidth  = 6
	bundleOrbits = 32
)

// bundlePrefix starts every bundled unit id; it names the kernel version,
// so units of another version are other units.
var bundlePrefix = fmt.Sprintf("pair6-k%d-", pair.KernelVersion)

var bundle6 = &pipeline.Bundle{
	Name:   "shapes-2x6",
	Kernel: fmt.Sprintf("pair split-and-join kernel v%d", pair.KernelVersion),
	Holds:  func(id string) bool { _, ok := bundleUnit(id); return ok },
	Work: func(id string) string {
		u, _ := bundleUnit(id)
		return fmt.Sprintf("2x6 orbits %d-%d of the kernel's plan", u*bundleOrbits, (u+1)*bundleOrbits-1)
	},
	Recheck: recheckUnit,
}

// bundleUnits is the number of 2x6 units: the 63,199 orbits in units of 32.
const bundleUnits = (63199 + bundleOrbits - 1) / bundleOrbits

// projectedUnitCPUHours is the mean CPU time of a 2x6 unit, from a
// projection of the whole run (about 3.7 CPU-hours on this project's
// 2-core machine: each half table's build time taken as 3 µs per state,
// its states as Π C(6, d(r))/400,000, each join 100 ns per state of the
// smaller table, the cache simulated along the plan; the first measured
// units came within 25% of it). The cost falls steeply along the plan: the
// first hundred units take most of it.
const projectedUnitCPUHours = 3.7 / bundleUnits

func bundleID(u int) string { return fmt.Sprintf("%s%05d", bundlePrefix, u) }

// bundleUnit returns the unit number of a bundled unit id.
func bundleUnit(id string) (int, bool) {
	rest, ok := strings.CutPrefix(id, bundlePrefix)
	if !ok || len(rest) != 5 {
		return 0, false
	}
	u, err := strconv.Atoi(rest)
	return u, err == nil && u >= 0 && u < bundleUnits
}

// bundleUnitIDs lists the 2x6 units, after checking that the units the
// bundle lacks are within shapes.max_cpu_hours.
func bundleUnitIDs(p *pipeline.Pass) ([]string, error) {
	ids := make([]string, bundleUnits)
	for u := range ids {
		ids[u] = bundleID(u)
	}
	have, err := pipeline.ReadBundle(p.Root(), bundle6, ids)
	if err != nil {
		return nil, err
	}
	cfg := pipeline.ConfigOf[Config](p)
	if cost := float64(bundleUnits-len(have)) * projectedUnitCPUHours; cost > cfg.MaxCPUHours {
		return nil, pipeline.Invalid("shapes.max_cpu_hours", cfg.MaxCPUHours, fmt.Sprintf(
			"at least %.1f to count 2x6: %s holds %d of its %d units, and the other %d need about %.1f CPU-hours",
			cost, bundle6.Path(), len(have), bundleUnits, bundleUnits-len(have), cost))
	}
	return ids, nil
}

// memoryLimit is the Go heap limit a 2x6 computation sets unless the user
// set one (GOMEMLIMIT): the half tables (pair.DefaultCacheBytes) and the
// workers' DP tables are garbage at a high rate, and without a limit the
// collector lets the heap reach twice what is live.
const memoryLimit = 2 * pair.DefaultCacheBytes

// computeBundleUnit computes the sum of 2x6 unit u.
func computeBundleUnit(p *pipeline.Pass, u int) ([]byte, error) {
	if debug.SetMemoryLimit(-1) == math.MaxInt64 {
		debug.SetMemoryLimit(memoryLimit)
	}
	plan, err := planOf(p, bundleWidth)
	if err != nil {
		return nil, err
	}
	if len(plan.Orbits) != 63199 {
		return nil, fmt.Errorf("2x6: %d orbits, want 63199", len(plan.Orbits))
	}
	lo, hi := u*bundleOrbits, min((u+1)*bundleOrbits, len(plan.Orbits))
	sum, err := plan.Sum(p.Context(), lo, hi, runtime.GOMAXPROCS(0))
	if err != nil {
		return nil, err
	}
	return []byte(sum.String()), nil
}

// UnitsTable is data/shapes_units.parquet: the committed record of how the
// 2x6 count was computed, one row per unit (none when the configuration
// leaves 2x6 out), in unit order.
var UnitsTable = pipeline.NewTable[UnitRow]("shapes_units", "one row per 2x6 unit of the bundle: what it covers, its CPU time and the peak memory of its process")

// UnitRow is one 2x6 unit as the bundle records it.
type UnitRow struct {
	Unit         string  `parquet:"unit"`
	Work         string  `parquet:"work"`
	Sum          string  `parquet:"sum"`
	Kernel       string  `parquet:"kernel"`
	CPUSeconds   float64 `parquet:"cpu_seconds"`
	PeakRSSBytes int64   `parquet:"peak_rss_bytes"`
	SHA256       string  `parquet:"sha256"`
}

// writeBundledUnits writes UnitsTable from the bundle, which by now holds
// every 2x6 unit the run used (each unit computed goes in as it finishes).
func writeBundledUnits(p *pipeline.Pass) error {
	var rows []UnitRow
	cfg := pipeline.ConfigOf[Config](p)
	if counted, _ := cfg.widths(); slices.Contains(counted, bundleWidth) {
		ids := make([]string, bundleUnits)
		for u := range ids {
			ids[u] = bundleID(u)
		}
		have, err := pipeline.ReadBundle(p.Root(), bundle6, ids)
		if err != nil {
			return err
		}
		results, err := p.UnitResults()
		if err != nil {
			return err
		}
		byID := map[string][]byte{}
		for i, id := range p.UnitIDs() {
			byID[id] = results[i]
		}
		for _, id := range ids {
			r, ok := have[id]
			if !ok || r.Result != string(byID[id]) {
				return fmt.Errorf("2x6 unit %s: the bundle %s does not hold the result the run used", id, bundle6.Path())
			}
			rows = append(rows, UnitRow{Unit: r.Unit, Work: r.Work, Sum: r.Result, Kernel: r.Kernel,
				CPUSeconds: r.CPUSeconds, PeakRSSBytes: r.PeakRSSBytes, SHA256: r.SHA256})
		}
	}
	return UnitsTable.Write(p, rows)
}

// recheckUnit recomputes the stack count of one orbit of the unit, drawn
// by the seed, by pairindep's row-by-row count (no code shared with the
// kernel) and compares it with the kernel's.
func recheckUnit(p *pipeline.Pass, id string, _ []byte, seed uint64) (string, error) {
	u, ok := bundleUnit(id)
	if !ok {
		return "", fmt.Errorf("unit %q is not a 2x6 unit", id)
	}
	plan, err := planOf(p, bundleWidth)
	if err != nil {
		return "", err
	}
	lo, hi := u*bundleOrbits, min((u+1)*bundleOrbits, len(plan.Orbits))
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
	return fmt.Sprintf("orbit %s: E = %d by the kernel and by pairindep", o, other), nil
}
