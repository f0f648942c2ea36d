package knuth

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"maps"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
	"github.com/sudoku-census/sudoku-census/stages/maths/montecarlo"
	"github.com/sudoku-census/sudoku-census/stages/maths/parallel"
	"github.com/sudoku-census/sudoku-census/stages/maths/walks"
	"github.com/sudoku-census/sudoku-census/stages/shared/sampling"
)

// The long runs (knuth.long) are the paper's headline intervals for the
// large shapes: hours of CPU time, so their units are kept in the committed
// bundle data/bundles/knuth-long.parquet (pipeline.Bundle), and a run on a
// fresh clone takes them from it. A bundled unit's result must be a pure
// function of its id and the bundle's Kernel, whatever the configuration:
// the id says everything a block's samples depend on (see LongUnit).

// LongSummary is data/knuth_long.parquet.
var LongSummary = pipeline.NewTable[LongRow]("knuth_long", "one row per long run (knuth.long), from the bundled units: estimate, error, diagnostics and CPU time")

// LongRow is one long run: a SummaryRow with the run's cost.
type LongRow struct {
	Shape   string  `parquet:"shape"`
	Variant string  `parquet:"variant"`
	Order   string  `parquet:"order"`
	HybridK int32   `parquet:"hybrid_k"`
	Budget  int32   `parquet:"budget"`
	Alpha   float64 `parquet:"alpha"`
	sampling.Columns
	// Units is the number of bundled units of the run.
	Units int32 `parquet:"units"`
	// CPUSeconds is the sum of the units' CPU times as the bundle records
	// them (each unit computed alone, on every core of its machine).
	CPUSeconds float64 `parquet:"cpu_seconds"`
	// Kernel is the bundle's kernel (LongBundle.Kernel).
	Kernel string `parquet:"kernel"`
}

// longStage names the long runs' random streams (montecarlo.Spec.Stage):
// independent of the default runs' and of the coverage runs'.
const longStage = "knuth-long"

// longFormat is the first byte of a long unit's binary result; it changes
// with the result's layout.
const longFormat = 1

// LongBundle keeps the long runs' units.
var LongBundle = &pipeline.Bundle{
	Name: "knuth-long",
	Kernel: fmt.Sprintf("knuth long-run blocks: walks v%d, montecarlo blocks v%d, unit format %d",
		walks.KernelVersion, montecarlo.BlockVersion, longFormat),
	Holds: func(id string) bool { _, err := ParseLongUnit(id); return err == nil },
	Work: func(id string) string {
		u, err := ParseLongUnit(id)
		if err != nil {
			return ""
		}
		return fmt.Sprintf("%s %s (order %s, hybrid_k %d, budget %d, alpha %g), seed %d: blocks %d-%d of %d samples",
			u.Shape, u.Variant.Name, u.Variant.Order, u.Variant.HybridK, u.Variant.Budget, u.Variant.Alpha, u.Seed,
			u.First, u.Last, u.BlockSize)
	},
}

// LongUnit is one unit of a long run: blocks First…Last of the random
// streams of (Seed, longStage, shape, variant name, BlockSize), drawn by
// the variant with its parameters. Its id is
//
//	long.<shape>.<variant>.<order>.k<hybrid_k>.b<budget>.a<alpha>.s<seed>.n<block size>.<first>-<last>
//
// e.g. long.4x4.se.mrv.k256.b100.a0.s1.n1000.32-47, with the parameters as
// the knuth stage gives them to the variant (Config.variant: budget 0 for
// the walks, hybrid_k N² but for the hybrid, alpha 0 but for lookahead),
// alpha in Go's shortest decimal form with 'p' for the point, integers in
// decimal without sign or leading zeros. A unit covers LongUnitBlocks
// consecutive blocks, from a multiple of it.
type LongUnit struct {
	Shape       grid.Shape
	Variant     walks.Variant
	Seed        uint64
	BlockSize   int
	First, Last int // blocks, inclusive
}

// LongUnitBlocks is the number of blocks of a long unit on shape s: up to
// a quarter of an hour of CPU time on the project's machine (blocks of
// 1,000 samples, measured: 3×3 bandse 16 s, 4×4 se 2.6 min, 4×5 se 7 min;
// 5×5 se about 13 min).
func LongUnitBlocks(s grid.Shape) int {
	switch n := s.N(); {
	case n <= 9:
		return 64
	case n <= 16:
		return 16
	}
	return 4
}

// longForm is the form of a long unit id, for errors.
const longForm = "long.<shape>.<variant>.<order>.k<hybrid_k>.b<budget>.a<alpha>.s<seed>.n<block size>.<first block>-<last block>"

// ID returns the unit's id.
func (u LongUnit) ID() string {
	v := u.Variant
	alpha := strings.ReplaceAll(strconv.FormatFloat(v.Alpha, 'g', -1, 64), ".", "p")
	return fmt.Sprintf("long.%s.%s.%s.k%d.b%d.a%s.s%d.n%d.%d-%d", u.Shape, v.Name, v.Order, v.HybridK, v.Budget,
		alpha, u.Seed, u.BlockSize, u.First, u.Last)
}

// samples is the number of samples of the unit.
func (u LongUnit) samples() int64 { return int64(u.Last-u.First+1) * int64(u.BlockSize) }

// tailSize is the number of largest samples the unit keeps (for the
// run's k̂): ParetoTailSize of its samples, at least as many as a run of
// any number of such units needs from one of them on average; Run checks
// that no unit's cut could have changed the run's tail.
func (u LongUnit) tailSize() int { return montecarlo.ParetoTailSize(u.samples()) }

// spec is the identity of the unit's random streams.
func (u LongUnit) spec() montecarlo.Spec {
	return montecarlo.Spec{Seed: u.Seed, Stage: longStage, Shape: u.Shape.String(), Variant: u.Variant.Name,
		BlockSize: u.BlockSize, TailSize: u.tailSize()}
}

// ParseLongUnit reads a long unit id: exactly the id LongUnit.ID writes
// for a unit whose variant and blocks are valid, or a one-line error.
func ParseLongUnit(id string) (LongUnit, error) {
	bad := func(why string) (LongUnit, error) {
		shown := id
		if len(shown) > 120 {
			shown = shown[:120] + "…"
		}
		return LongUnit{}, fmt.Errorf("long-run unit %q: %s (want %s)", shown, why, longForm)
	}
	if len(id) > 100 {
		return bad("longer than 100 bytes")
	}
	f := strings.Split(id, ".")
	if len(f) != 10 || f[0] != "long" {
		return bad("not 10 dot-separated fields starting with long")
	}
	shape, err := grid.ParseShape(f[1])
	if err != nil || shape.String() != f[1] {
		return bad("bad shape")
	}
	if !slices.Contains(variantNames, f[2]) {
		return bad("unknown variant")
	}
	order, err := walks.ParseOrder(f[3])
	if err != nil {
		return bad("unknown order")
	}
	num := func(field, prefix string) (uint64, bool) {
		s, ok := strings.CutPrefix(field, prefix)
		if !ok {
			return 0, false
		}
		x, err := strconv.ParseUint(s, 10, 64)
		return x, err == nil && strconv.FormatUint(x, 10) == s
	}
	k, okK := num(f[4], "k")
	budget, okB := num(f[5], "b")
	seed, okS := num(f[7], "s")
	bs, okN := num(f[8], "n")
	if !okK || !okB || !okS || !okN {
		return bad("bad k, b, s or n field")
	}
	a, ok := strings.CutPrefix(f[6], "a")
	alpha, err := strconv.ParseFloat(strings.ReplaceAll(a, "p", "."), 64)
	if !ok || err != nil || math.Signbit(alpha) {
		return bad("bad alpha")
	}
	lo, hi, ok := strings.Cut(f[9], "-")
	b0, ok0 := num(lo, "")
	b1, ok1 := num(hi, "")
	if !ok || !ok0 || !ok1 {
		return bad("bad block range")
	}
	cells := shape.N() * shape.N()
	switch {
	case k > uint64(cells):
		return bad(fmt.Sprintf("hybrid_k above %d", cells))
	case budget > maxBudget:
		return bad(fmt.Sprintf("budget above %d", maxBudget))
	case !(alpha >= 0 && alpha <= walks.MaxAlpha):
		return bad(fmt.Sprintf("alpha outside [0, %g]", walks.MaxAlpha))
	case bs < 1 || bs > montecarlo.MaxBlockSize:
		return bad(fmt.Sprintf("block size outside [1, %d]", montecarlo.MaxBlockSize))
	case b0 >= montecarlo.MaxBlocks || b1 >= montecarlo.MaxBlocks || b0%uint64(LongUnitBlocks(shape)) != 0 || b1 != b0+uint64(LongUnitBlocks(shape))-1:
		return bad(fmt.Sprintf("blocks not a multiple of %d to the next one less 1, below %d", LongUnitBlocks(shape), montecarlo.MaxBlocks))
	}
	// The variant as the stage makes it from these parameters; any
	// parameter the variant does not use must have the value the stage
	// gives it, so that one unit has one id.
	cfg := &Config{HybridOrder: f[3], SEOrder: f[3], LookaheadAlpha: alpha,
		HybridK: map[string]int{f[1]: int(k)}, SEBudget: map[string]int{f[1]: int(budget)}}
	u := LongUnit{Shape: shape, Variant: cfg.variant(f[2], shape), Seed: seed, BlockSize: int(bs), First: int(b0), Last: int(b1)}
	if u.ID() != id {
		return bad(fmt.Sprintf("not the canonical id of its unit, %s", u.ID()))
	}
	if err := checkVariant(shape, u.Variant, order); err != nil {
		return bad(err.Error())
	}
	return u, nil
}

// checkVariant checks what NewSampler would refuse, without building one.
func checkVariant(s grid.Shape, v walks.Variant, order walks.Order) error {
	se := v.Name == "se" || v.Name == "lookahead" || v.Name == "bandse" || v.Name == "bandselast"
	switch {
	case se && v.Budget < 1:
		return errors.New("budget 0 for a stochastic enumeration")
	case v.Name == "se" && order != walks.MRV && order != walks.Cover:
		return errors.New("se's order is mrv or cover")
	case v.FirstBand && s.R > walks.MaxFirstBandHeight:
		return fmt.Errorf("box height above %d for a variant from a uniform first band", walks.MaxFirstBandHeight)
	case v.LastBand && s.R > walks.MaxLastBandHeight:
		return fmt.Errorf("box height above %d for a variant that counts the last band", walks.MaxLastBandHeight)
	case v.Stacks && !stacksFits(s):
		return fmt.Errorf("a shape beyond box height %d, box width %d or side %d for %s", walks.MaxStacksHeight, walks.MaxFirstBandHeight, walks.MaxStacksSide, v.Name)
	}
	return nil
}

// longRun is one long run of the configuration.
type longRun struct {
	shape   grid.Shape
	variant walks.Variant
	samples int64
}

// longRuns returns the configuration's long runs: shapes in table order,
// variants in the order of variantNames.
func (c *Config) longRuns() []longRun {
	var out []longRun
	for _, r := range sampling.Runs(c.Long, variantNames) {
		if n := c.Long[r.Shape.String()+"/"+r.Variant]; n > 0 {
			out = append(out, longRun{r.Shape, c.variant(r.Variant, r.Shape), n})
		}
	}
	return out
}

// units returns the run's units in block order.
func (r longRun) units(seed uint64, blockSize int) []LongUnit {
	per := LongUnitBlocks(r.shape)
	nblocks := int(r.samples / int64(blockSize))
	out := make([]LongUnit, 0, nblocks/per)
	for first := 0; first < nblocks; first += per {
		out = append(out, LongUnit{Shape: r.shape, Variant: r.variant, Seed: seed, BlockSize: blockSize, First: first, Last: first + per - 1})
	}
	return out
}

// checkLong checks knuth.long and returns its runs as sampling.Runs, for
// the checks of their parameters.
func (c *Config) checkLong() ([]sampling.Run, error) {
	if len(c.Long) == 0 {
		return nil, nil
	}
	keys := slices.Sorted(maps.Keys(c.Long))
	// A negative count first: CheckSamples would ask for one ≥ 1, which
	// is not what a long run takes.
	for _, key := range keys {
		if c.Long[key] < 0 {
			return nil, c.checkLongKey(key)
		}
	}
	if err := sampling.CheckSamples("knuth.long", c.Long, variantNames); err != nil {
		return nil, err
	}
	var runs []sampling.Run
	for _, key := range keys {
		if err := c.checkLongKey(key); err != nil {
			return nil, err
		}
		shapeKey, variant, _ := strings.Cut(key, "/")
		s, _ := grid.ParseShape(shapeKey)
		if c.Long[key] > 0 {
			runs = append(runs, sampling.Run{Shape: s, Variant: variant})
		}
	}
	return runs, nil
}

// checkLongKey checks one key RxC/variant of knuth.long and its count.
func (c *Config) checkLongKey(key string) error {
	n := c.Long[key]
	shapeKey, variant, per := strings.Cut(key, "/")
	s, err := grid.ParseShape(shapeKey)
	if !per || err != nil || s.String() != shapeKey {
		return pipeline.Invalid("knuth.long."+key, n, "keys are RxC/variant, as 4x4/se (a long run names its variant)")
	}
	unit := int64(LongUnitBlocks(s)) * int64(c.BlockSize)
	if n < 0 || n%unit != 0 || n/int64(c.BlockSize) > montecarlo.MaxBlocks {
		return pipeline.Invalid("knuth.long."+key, n, fmt.Sprintf(
			"0 or a multiple of %d (units of %d blocks of knuth.block_size = %d) up to %d",
			unit, LongUnitBlocks(s), c.BlockSize, montecarlo.MaxBlocks/int64(LongUnitBlocks(s))*unit))
	}
	if isStacks(variant) && !stacksFits(s) {
		return pipeline.Invalid("knuth.long."+key, n,
			fmt.Sprintf("0 for "+variant+" on a shape beyond box height %d, box width %d or side %d (a transpose C×R within them has the same count)", walks.MaxStacksHeight, walks.MaxFirstBandHeight, walks.MaxStacksSide))
	}
	if h := maxBandHeight(variant); s.R > h {
		return pipeline.Invalid("knuth.long."+key, n,
			fmt.Sprintf("0 for %s on a shape with box height R > %d (its C×R transpose has the same count)", variant, h))
	}
	return nil
}

// sampleCPUSeconds is the projected CPU time of one sample of v on s, for
// the knuth.max_cpu_hours gate only: 1.6·10⁻⁹ s · N⁴ · max(budget, 1), ×2
// for lookahead, ×3 for the last-band variants, fitted to the costs
// measured on the project's 2-core machine (2026-11-26, shared: 3×3 bandse
// B = 30 0.27 ms, 4×4 se B = 100 8.6 ms, 4×5 se B = 300 78 ms, 5×5 se
// B = 300 0.20 s; lookahead on 4×4 21 ms, bandselast on 3×3 0.71 ms), within
// a factor of 2 of each; it does not see the hybrid's exact counts. The
// stack estimator's cost follows its matchings' memo instead: 7·10⁻⁸ s ·
// 2^m per matching level (R − 3 of them, at least 1), with m = N or the
// hybrid's exact columns if fewer, ×2.5 beyond 2^20 states (the memo
// leaves the cache), plus each band's exact count of its degree-3
// colourings, 28 ms · 1.48^(N−30) a band (the count of 30 columns took
// 85% of a 6×5 stackshybrid sample's profile). Measured: stacks on 3×3
// 32 µs, 3×4 0.17 ms, 4×4 2.7 ms, 3×5 5.2 ms, 4×5 73 ms, 5×5 12 s;
// stackshybrid on 4×5 28 ms, 5×5 40 ms, 6×5 0.17 s; within a factor of
// 2.3 of each.
func sampleCPUSeconds(s grid.Shape, v walks.Variant) float64 {
	if v.Stacks {
		m := s.N()
		if v.StacksExact > 0 {
			m = min(m, v.StacksExact)
		}
		c := 7e-8 * math.Exp2(float64(m)) * float64(max(1, s.R-3))
		if m > 20 {
			c *= 2.5
		}
		if s.R >= 3 {
			// Each band's exact colouring count of degree 3 (C of them).
			c += float64(s.C) * 0.028 * math.Pow(1.48, float64(s.N()-30))
		}
		return c
	}
	n := float64(s.N())
	c := 1.6e-9 * n * n * n * n * float64(max(v.Budget, 1))
	if v.Lookahead {
		c *= 2
	}
	if v.LastBand {
		c *= 3
	}
	return c
}

// listLong returns the ids of the long runs' units, after checking that
// those the bundle lacks fit knuth.max_cpu_hours.
func listLong(p *pipeline.Pass) ([]string, error) {
	cfg := pipeline.ConfigOf[Config](p)
	var ids []string
	cost := map[string]float64{}
	for _, r := range cfg.longRuns() {
		for _, u := range r.units(cfg.LongSeed, cfg.BlockSize) {
			id := u.ID()
			ids = append(ids, id)
			cost[id] = float64(u.samples()) * sampleCPUSeconds(r.shape, r.variant) / 3600
		}
	}
	if len(ids) == 0 {
		return nil, nil
	}
	have, err := pipeline.ReadBundle(p.Root(), LongBundle, ids)
	if err != nil {
		return nil, err
	}
	var hours float64
	for _, id := range ids {
		if _, ok := have[id]; !ok {
			hours += cost[id]
		}
	}
	if hours > cfg.MaxCPUHours {
		return nil, pipeline.Invalid("knuth.max_cpu_hours", cfg.MaxCPUHours, fmt.Sprintf(
			"at least %.2g to run knuth.long: %s holds %d of its %d units, and the other %d need about %.2g CPU-hours (or set knuth.long to {})",
			hours, LongBundle.Path(), len(have), len(ids), len(ids)-len(have), hours))
	}
	return ids, nil
}

// computeLong computes a long unit from its id alone: its blocks on every
// core, each with a sampler of its own, merged in block order, so the
// result does not depend on the cores. The result is base64 text (a
// bundle's results are text) of: the format byte, then each block as
// montecarlo.AppendBlock writes it, block 0 with its prefix trace, the
// unit's tail (its tailSize largest samples) on its last block only.
func computeLong(ctx context.Context, id string) ([]byte, error) {
	u, err := ParseLongUnit(id)
	if err != nil {
		return nil, err
	}
	spec := u.spec()
	blocks := make([]montecarlo.Block, u.Last-u.First+1)
	var next atomic.Int64
	err = parallel.Run(min(runtime.GOMAXPROCS(0), len(blocks)), func(int) (err error) {
		defer parallel.Recover(&err)
		s, err := walks.NewSampler(ctx, u.Shape, u.Variant)
		if err != nil {
			return err
		}
		for {
			k := int(next.Add(1) - 1)
			if k >= len(blocks) {
				return nil
			}
			if blocks[k], err = montecarlo.RunBlock(ctx, spec, u.First+k, u.BlockSize, s); err != nil {
				return err
			}
		}
	})
	if err != nil {
		return nil, err
	}
	var tail []montecarlo.Value
	for k := range blocks {
		tail = montecarlo.MergeTails(tail, blocks[k].Tail, spec.TailSize)
		blocks[k].Tail = nil
	}
	blocks[len(blocks)-1].Tail = tail
	out := []byte{longFormat}
	for _, b := range blocks {
		out = montecarlo.AppendBlock(out, b)
	}
	return []byte(base64.StdEncoding.EncodeToString(out)), nil
}

// decode returns the blocks of a result of u, checking that they are u's.
func (u LongUnit) decode(result []byte) ([]montecarlo.Block, error) {
	raw, err := base64.StdEncoding.DecodeString(string(result))
	if err != nil || len(raw) == 0 || raw[0] != longFormat {
		return nil, errors.New("not a long-run result of this build's format")
	}
	src := raw[1:]
	tail := min(int64(u.tailSize()), u.samples())
	var blocks []montecarlo.Block
	for b := u.First; b <= u.Last; b++ {
		blk, rest, err := montecarlo.ReadBlock(src)
		if err != nil {
			return nil, fmt.Errorf("block %d: %w", b, err)
		}
		marks, tails := 0, 0
		if b == 0 {
			marks = len(montecarlo.TraceCounts(int64(u.BlockSize - 1)))
		}
		if b == u.Last {
			tails = int(tail)
		}
		if blk.Moments.N != int64(u.BlockSize) || len(blk.Prefix) != marks || len(blk.Tail) != tails {
			return nil, fmt.Errorf("block %d has %d samples, %d trace points and %d tail values, want %d, %d and %d",
				b, blk.Moments.N, len(blk.Prefix), len(blk.Tail), u.BlockSize, marks, tails)
		}
		blocks, src = append(blocks, blk), rest
	}
	if len(src) != 0 {
		return nil, fmt.Errorf("%d bytes after the last block", len(src))
	}
	return blocks, nil
}

// runLong merges the long runs' units (ids and results, in listLong's
// order) into data/knuth_long.parquet, with each run's CPU time from the
// bundle, which by now holds every unit the run used, and returns the
// coverage runs of knuth.long_coverage cut from them.
func runLong(p *pipeline.Pass, ids []string, results [][]byte) ([]CoverageRow, error) {
	cfg := pipeline.ConfigOf[Config](p)
	var have map[string]pipeline.BundleRow
	if len(ids) > 0 {
		var err error
		if have, err = pipeline.ReadBundle(p.Root(), LongBundle, ids); err != nil {
			return nil, err
		}
	}
	var rows []LongRow
	var coverage []CoverageRow
	k := 0
	for _, r := range cfg.longRuns() {
		units := r.units(cfg.LongSeed, cfg.BlockSize)
		var blocks []montecarlo.Block
		var cpu float64
		var cut []montecarlo.Value // the smallest kept value of each unit whose tail was cut
		for _, u := range units {
			if k >= len(ids) || ids[k] != u.ID() {
				return nil, fmt.Errorf("long-run unit %d is not %s", k, u.ID())
			}
			row, ok := have[ids[k]]
			if !ok || row.Result != string(results[k]) {
				return nil, fmt.Errorf("long-run unit %s: the bundle %s does not hold the result the run used", ids[k], LongBundle.Path())
			}
			bs, err := u.decode(results[k])
			if err != nil {
				return nil, fmt.Errorf("long-run unit %s: %w", ids[k], err)
			}
			if t := bs[len(bs)-1].Tail; int64(len(t)) < u.samples() {
				cut = append(cut, t[len(t)-1])
			}
			blocks = append(blocks, bs...)
			cpu += row.CPUSeconds
			k++
		}
		res, err := mergeLong(blocks, cut)
		if err != nil {
			return nil, fmt.Errorf("long run %s %s: %w", r.shape, r.variant.Name, err)
		}
		if per := cfg.LongCoverage[r.shape.String()+"/"+r.variant.Name]; per > 0 {
			runs, err := longSlices(r, units, blocks, per)
			if err != nil {
				return nil, err
			}
			coverage = append(coverage, runs...)
		}
		st := res.Total.Stats()
		halfWidth := montecarlo.Z95 * st.RelativeError
		p.Log.Info("long run", "shape", r.shape.String(), "variant", r.variant.Name, "samples", res.Total.N, "units", len(units),
			"estimate", montecarlo.Decimal(st.Estimate), "half_width_95", fmt.Sprintf("±%.3g%%", 100*halfWidth),
			"cpu_hours", fmt.Sprintf("%.3g", cpu/3600))
		key := "long/" + r.shape.String() + "/" + r.variant.Name + "."
		p.Report(key+"cpu_seconds", cpu)
		goal := sampling.Goal(cfg.Goals, r.shape)
		p.Report(key+"goal_half_width_95", goal)
		if !math.IsInf(halfWidth, 0) && !math.IsNaN(halfWidth) {
			p.Report(key+"half_width_95", halfWidth)
		}
		met, more := longGoal(halfWidth, goal, cpu)
		p.Report(key+"meets_goal", met)
		if !met && !math.IsInf(more, 0) && !math.IsNaN(more) {
			p.Report(key+"cpu_seconds_to_goal", more)
		}
		p.Log.Info("long run goal", "shape", r.shape.String(), "variant", r.variant.Name, "goal", fmt.Sprintf("±%.3g%%", 100*goal),
			"met", met, "cpu_hours_to_goal", fmt.Sprintf("%.3g", more/3600))
		v := r.variant
		rows = append(rows, LongRow{Shape: r.shape.String(), Variant: v.Name, Order: v.Order.String(), HybridK: int32(v.HybridK),
			Budget: int32(max(1, v.Budget)), Alpha: v.Alpha, Columns: sampling.ColumnsOf(res),
			Units: int32(len(units)), CPUSeconds: cpu, Kernel: LongBundle.Kernel})
	}
	if k != len(ids) {
		return nil, fmt.Errorf("%d long-run units listed, the configuration has %d", len(ids), k)
	}
	return coverage, LongSummary.Write(p, rows)
}

// mergeLong merges consecutive blocks of a long run, given cut, the
// smallest kept sample of each of their units whose tail was cut: the
// merged tail is the blocks' largest samples only if no unit left out a
// sample above the tail's smallest value, and an error says so otherwise.
func mergeLong(blocks []montecarlo.Block, cut []montecarlo.Value) (montecarlo.Result, error) {
	res := montecarlo.MergeBlocks(blocks)
	if m := montecarlo.ParetoTailSize(res.Total.N); len(res.Tail) < m && len(cut) > 0 ||
		len(cut) > 0 && slices.ContainsFunc(cut, func(v montecarlo.Value) bool { return montecarlo.CompareValues(v, res.Tail[len(res.Tail)-1]) > 0 }) {
		return montecarlo.Result{}, fmt.Errorf("a unit's largest samples are all in the tail of %d, which may lack some: the diagnostics would be wrong", len(res.Tail))
	}
	return res, nil
}

// longSlices cuts a long run's blocks (those of units, in order) into
// consecutive runs of per samples, a whole number of units each (checked by
// Validate), and returns one coverage row per whole run; the blocks of a
// last, shorter slice are left out.
func longSlices(r longRun, units []LongUnit, blocks []montecarlo.Block, per int64) ([]CoverageRow, error) {
	unitsPer := int(per / units[0].samples())
	blocksPer := unitsPer * (units[0].Last - units[0].First + 1)
	var rows []CoverageRow
	for i := 0; (i+1)*unitsPer <= len(units); i++ {
		var cut []montecarlo.Value
		for k, u := range units[i*unitsPer : (i+1)*unitsPer] {
			last := blocks[(i*unitsPer+k+1)*(u.Last-u.First+1)-1]
			if int64(len(last.Tail)) < u.samples() {
				cut = append(cut, last.Tail[len(last.Tail)-1])
			}
		}
		res, err := mergeLong(blocks[i*blocksPer:(i+1)*blocksPer], cut)
		if err != nil {
			return nil, fmt.Errorf("coverage slice %d of the long run %s %s: %w", i, r.shape, r.variant.Name, err)
		}
		rows = append(rows, CoverageRow{Shape: r.shape.String(), Variant: r.variant.Name, Run: int32(i), Long: true,
			Columns: sampling.ColumnsOf(res)})
	}
	return rows, nil
}

// checkLongCoverage checks knuth.long_coverage: each key a long run of
// knuth.long with samples, each value a multiple of that run's unit, at
// most its samples.
func (c *Config) checkLongCoverage() error {
	for _, key := range slices.Sorted(maps.Keys(c.LongCoverage)) {
		n := c.LongCoverage[key]
		total, ok := c.Long[key]
		if !ok || total <= 0 {
			return pipeline.Invalid("knuth.long_coverage."+key, n, "keys are long runs RxC/variant of knuth.long with samples")
		}
		shapeKey, _, _ := strings.Cut(key, "/")
		s, _ := grid.ParseShape(shapeKey)
		unit := int64(LongUnitBlocks(s)) * int64(c.BlockSize)
		if n < unit || n%unit != 0 || n > total {
			return pipeline.Invalid("knuth.long_coverage."+key, n, fmt.Sprintf(
				"a multiple of %d (a long unit's samples) from %d to the long run's %d", unit, unit, total))
		}
	}
	return nil
}

// longGoal reports whether a long run of relative 95% half-width h meets
// the goal g (h ≤ g), and, when it does not, the CPU seconds the whole
// run would need to meet it, projected from its own CPU time c as
// c·(h/g)² (the half-width falls as 1/√samples): 0 when met, +Inf when h
// is not finite (no sample found a grid).
func longGoal(h, g, c float64) (met bool, cpuToGoal float64) {
	switch {
	case math.IsInf(h, 0) || math.IsNaN(h):
		return false, math.Inf(1)
	case h <= g:
		return true, 0
	}
	return false, c * (h / g) * (h / g)
}

// isLong reports whether a unit id is a long run's (the default runs' ids
// start with a shape, a digit).
func isLong(id string) bool { return strings.HasPrefix(id, "long.") }
