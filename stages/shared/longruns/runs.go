package longruns

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
	"github.com/sudoku-census/sudoku-census/stages/maths/montecarlo"
	"github.com/sudoku-census/sudoku-census/stages/maths/walks"
	"github.com/sudoku-census/sudoku-census/stages/shared/sampling"
)

// Run is one long run of the configuration.
type Run struct {
	Shape   grid.Shape
	Variant walks.Variant
	Samples int64
	// Key is its key in knuth.long (and knuth.long_coverage), RxC/variant.
	Key string
	// BlockSize is its samples per block (knuth.long_block_size), 0 for
	// the stage's (knuth.block_size).
	BlockSize int
}

// Runs returns the long runs of knuth.long: shapes in table order,
// variants in the order of Names, then the stackshybrid@k in the order of
// k, each variant as variant makes it, with k candidates for
// stackshybrid@k, and its block size of blockSizes (knuth.long_block_size).
func Runs(long map[string]int64, blockSizes map[string]int, variant func(name string, s grid.Shape) walks.Variant) []Run {
	var out []Run
	for _, r := range sampling.Runs(long, longNames(long)) {
		key := r.Shape.String() + "/" + r.Variant
		if n := long[key]; n > 0 {
			name, draws, _ := splitDraws(r.Variant)
			v := variant(name, r.Shape)
			if draws > 0 {
				v.StacksDraws = 0
				if draws > 1 {
					v.StacksDraws = draws
				}
			}
			out = append(out, Run{r.Shape, v, n, key, blockSizes[key]})
		}
	}
	return out
}

// longNames are the variants knuth.long's keys may name: Names, then the
// stackshybrid@k of its keys (well formed: splitDraws) in the order of k.
func longNames(long map[string]int64) []string {
	names := slices.Clone(Names)
	var draws []int
	for key := range long {
		_, variant, _ := strings.Cut(key, "/")
		if _, d, ok := splitDraws(variant); ok && d > 0 && !slices.Contains(draws, d) {
			draws = append(draws, d)
		}
	}
	slices.Sort(draws)
	for _, d := range draws {
		names = append(names, "stackshybrid@"+strconv.Itoa(d))
	}
	return names
}

// Units returns the run's units in block order, of blocks of blockSize
// samples unless the run has its own.
func (r Run) Units(seed uint64, blockSize int) []Unit {
	if r.BlockSize > 0 {
		blockSize = r.BlockSize
	}
	per := unitBlocks(r.Shape)
	nblocks := int(r.Samples / int64(blockSize))
	out := make([]Unit, 0, nblocks/per)
	for first := 0; first < nblocks; first += per {
		out = append(out, Unit{Shape: r.Shape, Variant: r.Variant, Seed: seed, BlockSize: blockSize, First: first, Last: first + per - 1})
	}
	return out
}

// maxCPUHours bounds knuth.max_cpu_hours (a year on one core).
const maxCPUHours = 24 * 366

// CheckConfig checks knuth.long, knuth.long_block_size (blockSizes),
// knuth.long_coverage and knuth.max_cpu_hours, for blocks of blockSize
// samples (knuth.block_size) and stackshybrid's candidates draws
// (knuth.stacks_draws), and returns the long runs as sampling.Runs
// (stackshybrid@k as stackshybrid), for the checks of their parameters.
func CheckConfig(long, coverage map[string]int64, blockSizes, draws map[string]int, blockSize int, maxHours float64) ([]sampling.Run, error) {
	for _, key := range slices.Sorted(maps.Keys(blockSizes)) {
		if b := blockSizes[key]; b < 1 || b > montecarlo.MaxBlockSize || long[key] <= 0 {
			return nil, pipeline.Invalid("knuth.long_block_size."+key, b, fmt.Sprintf(
				"keys are long runs RxC/variant of knuth.long with samples, values their samples per block, 1 to %d (unset: knuth.block_size)", montecarlo.MaxBlockSize))
		}
	}
	sizes := func(key string) int {
		if b, ok := blockSizes[key]; ok {
			return b
		}
		return blockSize
	}
	runs, err := checkLong(long, draws, sizes)
	if err != nil {
		return nil, err
	}
	if err := checkCoverage(coverage, long, sizes); err != nil {
		return nil, err
	}
	if !(maxHours >= 0 && maxHours <= maxCPUHours) {
		return nil, pipeline.Invalid("knuth.max_cpu_hours", maxHours, fmt.Sprintf("a number in [0, %d]", maxCPUHours))
	}
	return runs, nil
}

// checkLong checks knuth.long for blocks of blockSize(key) samples and
// candidates draws and returns its runs as sampling.Runs.
func checkLong(long map[string]int64, draws map[string]int, blockSize func(key string) int) ([]sampling.Run, error) {
	if len(long) == 0 {
		return nil, nil
	}
	keys := slices.Sorted(maps.Keys(long))
	// A negative count first: CheckSamples would ask for one ≥ 1, which
	// is not what a long run takes.
	for _, key := range keys {
		if long[key] < 0 {
			return nil, checkLongKey(long, blockSize, key)
		}
	}
	// A stackshybrid@k key: well formed, and not the run RxC/stackshybrid
	// is (one key per run, so that one run has one label).
	for _, key := range keys {
		shapeKey, variant, _ := strings.Cut(key, "/")
		if !strings.Contains(variant, "@") {
			continue
		}
		_, d, ok := splitDraws(variant)
		if !ok {
			return nil, pipeline.Invalid("knuth.long."+key, long[key], fmt.Sprintf("RxC/stackshybrid@k for stackshybrid with k candidates, k an integer from 1 to %d in decimal, no sign or leading zeros", walks.MaxStacksDraws))
		}
		if d == max(1, draws[shapeKey]) {
			return nil, pipeline.Invalid("knuth.long."+key, long[key], fmt.Sprintf("the run %s/stackshybrid is (k = %d by knuth.stacks_draws, unset 1): write it so, one key per run", shapeKey, d))
		}
	}
	if err := sampling.CheckSamples("knuth.long", long, longNames(long)); err != nil {
		return nil, err
	}
	var runs []sampling.Run
	for _, key := range keys {
		if err := checkLongKey(long, blockSize, key); err != nil {
			return nil, err
		}
		shapeKey, variant, _ := strings.Cut(key, "/")
		s, _ := sampling.ParseShapeKey(shapeKey)
		if long[key] > 0 {
			name, _, _ := splitDraws(variant)
			runs = append(runs, sampling.Run{Shape: s, Variant: name})
		}
	}
	return runs, nil
}

// checkLongKey checks one key RxC/variant of knuth.long and its count.
func checkLongKey(long map[string]int64, blockSizes func(key string) int, key string) error {
	n, blockSize := long[key], blockSizes(key)
	shapeKey, variant, per := strings.Cut(key, "/")
	s, err := sampling.ParseShapeKey(shapeKey)
	if !per || err != nil || s.String() != shapeKey {
		return pipeline.Invalid("knuth.long."+key, n, "keys are RxC/variant, as 4x4/se (a long run names its variant)")
	}
	unit := int64(unitBlocks(s)) * int64(blockSize)
	if n < 0 || n%unit != 0 || n/int64(blockSize) > montecarlo.MaxBlocks {
		return pipeline.Invalid("knuth.long."+key, n, fmt.Sprintf(
			"0 or a multiple of %d (units of %d blocks of %d samples, knuth.block_size or long_block_size) up to %d",
			unit, unitBlocks(s), blockSize, montecarlo.MaxBlocks/int64(unitBlocks(s))*unit))
	}
	if name, _, _ := splitDraws(variant); unfit(name, s) != "" {
		return pipeline.Invalid("knuth.long."+key, n, unfit(name, s))
	}
	return nil
}

// checkCoverage checks knuth.long_coverage (coverage) against knuth.long
// (long): each key a long run with samples, each value a multiple of that
// run's unit (of blocks of blockSize(key)), at most its samples.
func checkCoverage(coverage, long map[string]int64, blockSize func(key string) int) error {
	for _, key := range slices.Sorted(maps.Keys(coverage)) {
		n := coverage[key]
		total, ok := long[key]
		if !ok || total <= 0 {
			return pipeline.Invalid("knuth.long_coverage."+key, n, "keys are long runs RxC/variant of knuth.long with samples")
		}
		shapeKey, _, _ := strings.Cut(key, "/")
		s, _ := sampling.ParseShapeKey(shapeKey)
		unit := int64(unitBlocks(s)) * int64(blockSize(key))
		if n < unit || n%unit != 0 || n > total {
			return pipeline.Invalid("knuth.long_coverage."+key, n, fmt.Sprintf(
				"a multiple of %d (a long unit's samples) from %d to the long run's %d", unit, unit, total))
		}
	}
	return nil
}

// List returns the ids of the runs' units, after checking that those the
// bundle (under root) lacks fit maxCPUHours (knuth.max_cpu_hours).
func List(root string, runs []Run, seed uint64, blockSize int, maxCPUHours float64) ([]string, error) {
	var ids []string
	cost := map[string]float64{}
	for _, r := range runs {
		for _, u := range r.Units(seed, blockSize) {
			id := u.ID()
			ids = append(ids, id)
			cost[id] = float64(u.samples()) * sampleCPUSeconds(r.Shape, r.Variant) / 3600
		}
	}
	if len(ids) == 0 {
		return nil, nil
	}
	have, err := pipeline.ReadBundle(root, Bundle, ids)
	if err != nil {
		return nil, err
	}
	var hours float64
	for _, id := range ids {
		if _, ok := have[id]; !ok {
			hours += cost[id]
		}
	}
	if hours > maxCPUHours {
		return nil, pipeline.Invalid("knuth.max_cpu_hours", maxCPUHours, fmt.Sprintf(
			"at least %.2g to run knuth.long: %s holds %d of its %d units, and the other %d need about %.2g CPU-hours (or set knuth.long to {})",
			hours, Bundle.Path(), len(have), len(ids), len(ids)-len(have), hours))
	}
	return ids, nil
}

// Merge merges each of the runs from its units (ids and results, in
// List's order), with its CPU time from the bundle under p.Root(), which by
// now holds every unit the run used; cuts the coverage runs of
// coverage[RxC/variant] samples from it and reports it with the goal of
// goals, one run after the other.
func Merge(p *pipeline.Pass, runs []Run, seed uint64, blockSize int, ids []string, results [][]byte,
	coverage map[string]int64, goals map[string]float64) ([]Collected, error) {
	var have map[string]pipeline.BundleRow
	if len(ids) > 0 {
		var err error
		if have, err = pipeline.ReadBundle(p.Root(), Bundle, ids); err != nil {
			return nil, err
		}
	}
	var out []Collected
	k := 0
	for _, r := range runs {
		c, err := r.collect(seed, blockSize, ids, results, k, have)
		if err != nil {
			return nil, err
		}
		k += len(c.Units)
		if per := coverage[r.Key]; per > 0 {
			if c.Slices, err = c.cutSlices(per); err != nil {
				return nil, err
			}
		}
		c.report(p, sampling.Goal(goals, r.Shape))
		out = append(out, c)
	}
	if k != len(ids) {
		return nil, fmt.Errorf("%d long-run units listed, the configuration has %d", len(ids), k)
	}
	return out, nil
}

// Collected is a long run merged from its units.
type Collected struct {
	Run    Run
	Units  []Unit
	Blocks []montecarlo.Block // the units' blocks, in order
	// CPUSeconds is the sum of the units' CPU times as the bundle records them.
	CPUSeconds float64
	Result     montecarlo.Result
	// Slices are the coverage runs cut from it (knuth.long_coverage).
	Slices []montecarlo.Result
}

// Efficiency returns the 95% bootstrap interval of the run's relative
// variance per sample, over its blocks, seeded from the identity of its
// random streams (montecarlo.BootstrapRelVar), and its efficiency per CPU
// second with the bundle's CPU time (sampling.CPUColumnsOf).
func (c Collected) Efficiency() (sampling.RelVarColumns, sampling.CPUColumns) {
	iv := montecarlo.BootstrapRelVar(montecarlo.Spec{}, nil, 0)
	if len(c.Units) > 0 {
		iv = montecarlo.BootstrapRelVar(c.Units[0].spec(), montecarlo.BlockMoments(c.Blocks), montecarlo.BootstrapResamples)
	}
	return sampling.RelVarColumnsOf(iv), sampling.CPUColumnsOf(c.CPUSeconds, c.Result.Total.N, c.Result.Total.Stats().RelVar, iv)
}

// collect merges the run's units from ids and results (those List
// listed, in its order) from the k-th on, with each unit's CPU time from
// have, the bundle's rows, which by now hold every unit the run used.
func (r Run) collect(seed uint64, blockSize int, ids []string, results [][]byte, k int, have map[string]pipeline.BundleRow) (Collected, error) {
	c := Collected{Run: r, Units: r.Units(seed, blockSize)}
	var cut []montecarlo.Value // the smallest kept value of each unit whose tail was cut
	for _, u := range c.Units {
		if k >= len(ids) || ids[k] != u.ID() {
			return c, fmt.Errorf("long-run unit %d is not %s", k, u.ID())
		}
		row, ok := have[ids[k]]
		if !ok || row.Result != string(results[k]) {
			return c, fmt.Errorf("long-run unit %s: the bundle %s does not hold the result the run used", ids[k], Bundle.Path())
		}
		bs, err := u.decode(results[k])
		if err != nil {
			return c, fmt.Errorf("long-run unit %s: %w", ids[k], err)
		}
		if t := bs[len(bs)-1].Tail; int64(len(t)) < u.samples() {
			cut = append(cut, t[len(t)-1])
		}
		c.Blocks = append(c.Blocks, bs...)
		c.CPUSeconds += row.CPUSeconds
		k++
	}
	res, err := merge(c.Blocks, cut)
	if err != nil {
		return c, fmt.Errorf("long run %s: %w", r.Key, err)
	}
	c.Result = res
	return c, nil
}

// merge merges consecutive blocks of a long run, given cut, the
// smallest kept sample of each of their units whose tail was cut: the
// merged tail is the blocks' largest samples only if no unit left out a
// sample above the tail's smallest value, and an error says so otherwise.
func merge(blocks []montecarlo.Block, cut []montecarlo.Value) (montecarlo.Result, error) {
	res := montecarlo.MergeBlocks(blocks)
	if m := montecarlo.ParetoTailSize(res.Total.N); len(res.Tail) < m && len(cut) > 0 ||
		len(cut) > 0 && slices.ContainsFunc(cut, func(v montecarlo.Value) bool { return montecarlo.CompareValues(v, res.Tail[len(res.Tail)-1]) > 0 }) {
		return montecarlo.Result{}, fmt.Errorf("a unit's largest samples are all in the tail of %d, which may lack some: the diagnostics would be wrong", len(res.Tail))
	}
	return res, nil
}

// cutSlices cuts the run's blocks into consecutive runs of per samples, a
// whole number of units each (checked by checkCoverage), and returns one
// result per whole run; the blocks of a last, shorter slice are left out.
func (c Collected) cutSlices(per int64) ([]montecarlo.Result, error) {
	units, blocks := c.Units, c.Blocks
	unitsPer := int(per / units[0].samples())
	blocksPer := unitsPer * (units[0].Last - units[0].First + 1)
	var out []montecarlo.Result
	for i := 0; (i+1)*unitsPer <= len(units); i++ {
		var cut []montecarlo.Value
		for k, u := range units[i*unitsPer : (i+1)*unitsPer] {
			last := blocks[(i*unitsPer+k+1)*(u.Last-u.First+1)-1]
			if int64(len(last.Tail)) < u.samples() {
				cut = append(cut, last.Tail[len(last.Tail)-1])
			}
		}
		res, err := merge(blocks[i*blocksPer:(i+1)*blocksPer], cut)
		if err != nil {
			return nil, fmt.Errorf("coverage slice %d of the long run %s: %w", i, c.Run.Key, err)
		}
		out = append(out, res)
	}
	return out, nil
}

// report logs the collected run and reports its CPU time, its relative 95%
// half-width, the goal of that and whether it meets it (with the CPU time
// to it when not) in the run report, under "long/<shape>/<variant>.".
func (c Collected) report(p *pipeline.Pass, goal float64) {
	r, cpu := c.Run, c.CPUSeconds
	st := c.Result.Total.Stats()
	halfWidth := montecarlo.Z95 * st.RelativeError
	p.Log.Info("long run", "shape", r.Shape.String(), "variant", Label(r.Variant), "samples", c.Result.Total.N, "units", len(c.Units),
		"estimate", montecarlo.Decimal(st.Estimate), "half_width_95", fmt.Sprintf("±%.3g%%", 100*halfWidth),
		"cpu_hours", fmt.Sprintf("%.3g", cpu/3600))
	key := "long/" + r.Shape.String() + "/" + Label(r.Variant) + "."
	p.Report(key+"cpu_seconds", cpu)
	p.Report(key+"goal_half_width_95", goal)
	if !math.IsInf(halfWidth, 0) && !math.IsNaN(halfWidth) {
		p.Report(key+"half_width_95", halfWidth)
	}
	met, more := meetsGoal(halfWidth, goal, cpu)
	p.Report(key+"meets_goal", met)
	if !met && !math.IsInf(more, 0) && !math.IsNaN(more) {
		p.Report(key+"cpu_seconds_to_goal", more)
	}
	p.Log.Info("long run goal", "shape", r.Shape.String(), "variant", Label(r.Variant), "goal", fmt.Sprintf("±%.3g%%", 100*goal),
		"met", met, "cpu_hours_to_goal", fmt.Sprintf("%.3g", more/3600))
}

// meetsGoal reports whether a long run of relative 95% half-width h meets
// the goal g (h ≤ g), and, when it does not, the CPU seconds the whole
// run would need to meet it, projected from its own CPU time c as
// c·(h/g)² (the half-width falls as 1/√samples): 0 when met, +Inf when h
// is not finite (no sample found a grid).
func meetsGoal(h, g, c float64) (met bool, cpuToGoal float64) {
	switch {
	case math.IsInf(h, 0) || math.IsNaN(h):
		return false, math.Inf(1)
	case h <= g:
		return true, 0
	}
	return false, c * (h / g) * (h / g)
}

// IsUnit reports whether a unit id is a long run's (the default runs' ids
// start with a shape, a digit).
func IsUnit(id string) bool { return strings.HasPrefix(id, "long.") }
