// Package longruns is the machinery of the knuth stage's long runs
// (knuth.long): the headline intervals of the large shapes, hours of CPU
// time each, cut into units whose results the committed bundle
// data/bundles/knuth-long.parquet keeps (Bundle), so that a run on a fresh
// clone takes them from it.
//
// A unit (Unit) is a range of consecutive blocks of one run's random
// streams; its id says everything its samples depend on, so its result is
// a pure function of its id and the bundle's Kernel, whatever the
// configuration (Bundle.Holds takes exactly the ids Unit.ID writes). Compute
// draws a unit's blocks on every core and encodes them; Merge decodes each
// run's units, merges them in block order, cuts the coverage runs of
// knuth.long_coverage from them and reports each run against its goal;
// List refuses a run whose missing units exceed knuth.max_cpu_hours by the
// projection of their cost; CheckConfig checks the long-run keys.
//
// The package also holds the knuth stage's variants (Names, Params), which
// a unit id names, and the checks of their parameters (Params.Check).
package longruns

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
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

// streamStage names the long runs' random streams (montecarlo.Spec.Stage):
// independent of the default runs' and of the coverage runs'.
const streamStage = "knuth-long"

// format is the first byte of a long unit's binary result; it changes
// with the result's layout.
const format = 1

// Bundle keeps the long runs' units: data/bundles/knuth-long.parquet.
var Bundle = &pipeline.Bundle{
	Name: "knuth-long",
	Kernel: fmt.Sprintf("knuth long-run blocks: walks v%d, montecarlo blocks v%d, unit format %d",
		walks.KernelVersion, montecarlo.BlockVersion, format),
	Holds: func(id string) bool { _, err := parse(id); return err == nil },
	Work: func(id string) string {
		u, err := parse(id)
		if err != nil {
			return ""
		}
		return fmt.Sprintf("%s %s (order %s, hybrid_k %d, budget %d, alpha %g), seed %d: blocks %d-%d of %d samples",
			u.Shape, u.Variant.Name, u.Variant.Order, u.Variant.HybridK, u.Variant.Budget, u.Variant.Alpha, u.Seed,
			u.First, u.Last, u.BlockSize)
	},
}

// Unit is one unit of a long run: blocks First…Last of the random
// streams of (Seed, streamStage, shape, variant name, BlockSize), drawn by
// the variant with its parameters. Its id is
//
//	long.<shape>.<variant>.<order>.k<hybrid_k>.b<budget>.a<alpha>.s<seed>.n<block size>.<first>-<last>
//
// e.g. long.4x4.se.mrv.k256.b100.a0.s1.n1000.32-47, with the parameters as
// the knuth stage gives them to the variant (Params.Variant: budget 0 for
// the walks, hybrid_k N² but for the hybrid, alpha 0 but for lookahead),
// alpha in Go's shortest decimal form with 'p' for the point, integers in
// decimal without sign or leading zeros. A unit covers unitBlocks
// consecutive blocks, from a multiple of it.
type Unit struct {
	Shape       grid.Shape
	Variant     walks.Variant
	Seed        uint64
	BlockSize   int
	First, Last int // blocks, inclusive
}

// unitBlocks is the number of blocks of a long unit on shape s: up to
// a quarter of an hour of CPU time on the project's machine (blocks of
// 1,000 samples, measured: 3×3 bandse 16 s, 4×4 se 2.6 min, 4×5 se 7 min;
// 5×5 se about 13 min).
func unitBlocks(s grid.Shape) int {
	switch n := s.N(); {
	case n <= 9:
		return 64
	case n <= 16:
		return 16
	}
	return 4
}

// idForm is the form of a long unit id, for errors.
const idForm = "long.<shape>.<variant>.<order>.k<hybrid_k>.b<budget>.a<alpha>.s<seed>.n<block size>.<first block>-<last block>"

// ID returns the unit's id. The stack estimator keeps no budget and no
// alpha, so stackshybrid's b field holds its exact matching columns when
// they are not walks.StacksHybridColumns (knuth.stacks_exact), else 0, and
// its a field its candidate draws when more than 1 (knuth.stacks_draws, or
// k of a knuth.long key RxC/stackshybrid@k), else 0.
func (u Unit) ID() string {
	v := u.Variant
	alpha := strings.ReplaceAll(strconv.FormatFloat(v.Alpha, 'g', -1, 64), ".", "p")
	budget := v.Budget
	if v.Stacks && v.StacksExact > 0 && v.StacksExact != walks.StacksHybridColumns {
		budget = v.StacksExact
	}
	if v.Stacks && v.StacksDraws > 1 {
		alpha = strconv.Itoa(v.StacksDraws)
	}
	return fmt.Sprintf("long.%s.%s.%s.k%d.b%d.a%s.s%d.n%d.%d-%d", u.Shape, v.Name, v.Order, v.HybridK, budget,
		alpha, u.Seed, u.BlockSize, u.First, u.Last)
}

// samples is the number of samples of the unit.
func (u Unit) samples() int64 { return int64(u.Last-u.First+1) * int64(u.BlockSize) }

// tailSize is the number of largest samples the unit keeps (for the
// run's k̂): ParetoTailSize of its samples, at least as many as a run of
// any number of such units needs from one of them on average; Run checks
// that no unit's cut could have changed the run's tail.
func (u Unit) tailSize() int { return montecarlo.ParetoTailSize(u.samples()) }

// spec is the identity of the unit's random streams.
func (u Unit) spec() montecarlo.Spec {
	return montecarlo.Spec{Seed: u.Seed, Stage: streamStage, Shape: u.Shape.String(), Variant: u.Variant.Name,
		BlockSize: u.BlockSize, TailSize: u.tailSize()}
}

// parse reads a long unit id: exactly the id Unit.ID writes
// for a unit whose variant and blocks are valid, or a one-line error.
func parse(id string) (Unit, error) {
	bad := func(why string) (Unit, error) {
		shown := id
		if len(shown) > 120 {
			shown = shown[:120] + "…"
		}
		return Unit{}, fmt.Errorf("long-run unit %q: %s (want %s)", shown, why, idForm)
	}
	if len(id) > 100 {
		return bad("longer than 100 bytes")
	}
	f := strings.Split(id, ".")
	if len(f) != 10 || f[0] != "long" {
		return bad("not 10 dot-separated fields starting with long")
	}
	shape, err := sampling.ParseShapeKey(f[1])
	if err != nil || shape.String() != f[1] {
		return bad("bad shape")
	}
	if !slices.Contains(Names, f[2]) {
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
	case f[2] == "stackshybrid" && !(alpha <= walks.MaxStacksDraws):
		return bad(fmt.Sprintf("candidate draws (the a field) above %d", walks.MaxStacksDraws))
	case f[2] != "stackshybrid" && !(alpha >= 0 && alpha <= walks.MaxAlpha):
		return bad(fmt.Sprintf("alpha outside [0, %g]", walks.MaxAlpha))
	case bs < 1 || bs > montecarlo.MaxBlockSize:
		return bad(fmt.Sprintf("block size outside [1, %d]", montecarlo.MaxBlockSize))
	case b0 >= montecarlo.MaxBlocks || b1 >= montecarlo.MaxBlocks || b0%uint64(unitBlocks(shape)) != 0 || b1 != b0+uint64(unitBlocks(shape))-1:
		return bad(fmt.Sprintf("blocks not a multiple of %d to the next one less 1, below %d", unitBlocks(shape), montecarlo.MaxBlocks))
	}
	// The variant as the stage makes it from these parameters; any
	// parameter the variant does not use must have the value the stage
	// gives it, so that one unit has one id.
	set := Params{HybridOrder: f[3], SEOrder: f[3], Alpha: alpha,
		HybridK: map[string]int{f[1]: int(k)}, SEBudget: map[string]int{f[1]: int(budget)}}
	if f[2] == "stackshybrid" && budget > 0 {
		set.StacksExact = map[string]int{f[1]: int(budget)}
	}
	if f[2] == "stackshybrid" {
		// A whole number of draws, or the canonical id below differs.
		set.StacksDraws = map[string]int{f[1]: int(alpha)}
		set.Alpha = 0
	}
	u := Unit{Shape: shape, Variant: set.Variant(f[2], shape), Seed: seed, BlockSize: int(bs), First: int(b0), Last: int(b1)}
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
	case beyondText(v.Name, s) != "":
		return errors.New(beyondText(v.Name, s))
	case se && v.Budget < 1:
		return errors.New("budget 0 for a stochastic enumeration")
	case v.Name == "se" && order != walks.MRV && order != walks.Cover:
		return errors.New("se's order is mrv or cover")
	case v.FirstBand && s.R > walks.MaxFirstBandHeight:
		return fmt.Errorf("box height above %d for a variant from a uniform first band", walks.MaxFirstBandHeight)
	case v.LastBand && s.R > walks.MaxLastBandHeight:
		return fmt.Errorf("box height above %d for a variant that counts the last band", walks.MaxLastBandHeight)
	case v.Stacks && !stacksFits(s):
		return fmt.Errorf("a shape beyond box height %d, box width %d or side %d for %s", walks.MaxStacksHeight, walks.MaxStacksWidth, walks.MaxStacksSide, v.Name)
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
// stackshybrid on 4×5 28 ms, 5×5 40 ms, 6×5 0.17 s, 6×6 1.3 s (18 exact
// columns), 1.5 s (20), 2.2 s (22), 6.5 s (24); within a factor of 2.3 of
// each. Beyond 2^24 states it falls short: 6×6 with 26 exact columns
// (a 1.5 GB memo) took more than 300 s a sample, not the projected 37 s.
func sampleCPUSeconds(s grid.Shape, v walks.Variant) float64 {
	if v.Stacks {
		m := s.N()
		if v.StacksExact > 0 {
			m = min(m, v.StacksExact)
		}
		c := 7e-8 * math.Exp2(float64(m)) * float64(max(1, s.R-3)) * float64(max(1, v.StacksDraws))
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

// Compute computes a long unit from its id alone: its blocks on every
// core, each with a sampler of its own, merged in block order, so the
// result does not depend on the cores. The result is base64 text (a
// bundle's results are text) of: the format byte, then each block as
// montecarlo.AppendBlock writes it, block 0 with its prefix trace, the
// unit's tail (its tailSize largest samples) on its last block only.
func Compute(ctx context.Context, id string) ([]byte, error) {
	u, err := parse(id)
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
	out := []byte{format}
	for _, b := range blocks {
		out = montecarlo.AppendBlock(out, b)
	}
	return []byte(base64.StdEncoding.EncodeToString(out)), nil
}

// decode returns the blocks of a result of u, checking that they are u's.
func (u Unit) decode(result []byte) ([]montecarlo.Block, error) {
	raw, err := base64.StdEncoding.DecodeString(string(result))
	if err != nil || len(raw) == 0 || raw[0] != format {
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
