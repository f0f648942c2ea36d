package sampling

import (
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
	"github.com/sudoku-census/sudoku-census/stages/maths/montecarlo"
)

// A unit (the engine's pipeline.Units) is a contiguous run of blocks of
// one shape and variant: blocks First…Last, with the id
//
//	<shape>.<variant>.<First>-<Last>     e.g. 3x3.mrv.625-1249
//
// The blocks of a shape and variant are cut into at most UnitsPerRun units
// of ⌈blocks/UnitsPerRun⌉ blocks each (the last one shorter), so the cut
// follows from the configuration alone and costs nothing to list. With the
// default configuration the units of the runs that take the time are 0.5
// to 16 seconds of one core (9×9 mrv: 625 blocks, about 3 s; 16×16 se: 2
// blocks, about 16 s); the runs that take well under a second in all
// (2×2, 4×4 rowmajor) are cut as finely, into units of milliseconds, which
// costs little since a unit's bookkeeping is about a millisecond. An
// interrupted run thus loses at most one unit per core, a small part of
// any shape and variant, and a cluster can spread each run over up to
// UnitsPerRun tasks.
//
// A unit's result is its blocks' montecarlo.Block values in block order,
// each as montecarlo.AppendBlock writes it (exact float64 bits, 20 to 30
// bytes a block; block 0 also carries its prefix trace), after one format
// byte, unitFormat. The largest samples of the unit's blocks (the tails of
// montecarlo.Block, for the diagnostics) travel merged in its last block,
// the others' tails empty: at most ParetoTailSize values a unit, about 10
// bytes each. Run merges every block of a shape and variant in block
// order, as montecarlo.Run does, so the tables are the same bytes as
// without units. (Merging each unit's blocks first and then the units
// would round differently: the merge is exact only in one order.)
//
// Changing the cut (UnitsPerRun) changes the ids, so units of another cut
// are never read; changing the format must change unitFormat.

// UnitsPerRun is the most units one shape and variant is cut into.
const UnitsPerRun = 32

// unitFormat is the first byte of every unit result.
const unitFormat = 2

// unit is one unit of a plan.
type unit struct {
	shape       grid.Shape
	variant     string
	first, last int   // blocks, inclusive
	blockSize   int   // samples per block
	samples     int64 // samples of the whole shape and variant
}

func (u unit) id() string {
	return u.shape.String() + "." + u.variant + "." + strconv.Itoa(u.first) + "-" + strconv.Itoa(u.last)
}

// blockLen is the number of samples of block b: the block size but for the
// last block of the run.
func (u unit) blockLen(b int) int {
	return int(min(int64(u.blockSize), u.samples-int64(b)*int64(u.blockSize)))
}

// samplesOf is the number of samples of the unit's blocks.
func (u unit) samplesOf() int64 {
	return min(u.samples, int64(u.last+1)*int64(u.blockSize)) - int64(u.first)*int64(u.blockSize)
}

// runUnits returns the units of one shape and variant, in block order.
func (plan Plan) runUnits(shape grid.Shape, variant string) []unit {
	samples := Count(plan.Samples, shape, variant)
	// CheckBlocks has refused a plan whose blocks do not fit: none here.
	nblocks, err := montecarlo.Blocks(samples, plan.BlockSize)
	if err != nil {
		panic(fmt.Sprintf("sampling: %s %s: %v (the config's Validate must call CheckBlocks)", shape, variant, err))
	}
	per := (nblocks + UnitsPerRun - 1) / UnitsPerRun
	var out []unit
	for first := 0; first < nblocks; first += per {
		out = append(out, unit{shape: shape, variant: variant, first: first, last: min(first+per, nblocks) - 1,
			blockSize: plan.BlockSize, samples: samples})
	}
	return out
}

// units returns every unit of the plan: its Runs in order, blocks in
// order.
func (plan Plan) units() []unit {
	var out []unit
	for _, r := range Runs(plan.Samples, plan.Variants) {
		out = append(out, plan.runUnits(r.Shape, r.Variant)...)
	}
	return out
}

// unitOf returns the plan's unit with the given id.
func (plan Plan) unitOf(id string) (unit, error) {
	parts := strings.Split(id, ".")
	if len(parts) == 3 {
		if slices.Contains(plan.Variants, parts[1]) {
			shape, err := ParseShapeKey(parts[0])
			if err == nil && shape.String() == parts[0] && Count(plan.Samples, shape, parts[1]) > 0 {
				for _, u := range plan.runUnits(shape, parts[1]) {
					if u.id() == id {
						return u, nil
					}
				}
			}
		}
	}
	return unit{}, fmt.Errorf("%s is not a unit of this configuration (<shape>.<variant>.<first block>-<last block>)", id)
}

// List is Units.List: the ids of the plan's units. The engine lists the
// units before it computes them: list also forgets the timings of units
// computed for an earlier pass of the same stage and configuration that
// never reached Run (an interrupted run, in a process that runs again).
func (e *Estimator[R]) List(p *pipeline.Pass) ([]string, error) {
	forgetTimings(p)
	units := e.Plan(p).units()
	ids := make([]string, len(units))
	for i, u := range units {
		ids[i] = u.id()
	}
	return ids, nil
}

// Compute is Units.Compute: it draws the unit's blocks one after the
// other on this goroutine, with one sampler, and times them (see Timing).
func (e *Estimator[R]) Compute(p *pipeline.Pass, id string) ([]byte, error) {
	plan := e.Plan(p)
	u, err := plan.unitOf(id)
	if err != nil {
		return nil, err
	}
	spec := plan.spec(p, u.shape, u.variant)
	// The thread's CPU time is the unit's only while the goroutine keeps
	// the thread.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	start, cpu0 := time.Now(), threadCPU()
	s, err := e.NewSampler(p, u.shape, u.variant)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 1, 1+28*(u.last-u.first+1)+10*spec.TailSize)
	out[0] = unitFormat
	var tail []montecarlo.Value
	for b := u.first; b <= u.last; b++ {
		blk, err := montecarlo.RunBlock(p.Context(), spec, b, u.blockLen(b), s)
		if err != nil {
			return nil, err
		}
		tail = montecarlo.MergeTails(tail, blk.Tail, spec.TailSize)
		blk.Tail = nil
		if b == u.last {
			blk.Tail = tail
		}
		out = montecarlo.AppendBlock(out, blk)
	}
	addTiming(p, runKey(spec), start, time.Now(), threadCPU()-cpu0, u.samplesOf())
	return out, nil
}

// decode returns the blocks of a result of u, checking that they are u's:
// the format, one block per block of u with its number of samples, a
// prefix trace on block 0 only, nothing after.
func (u unit) decode(result []byte) ([]montecarlo.Block, error) {
	if len(result) == 0 || result[0] != unitFormat {
		return nil, errors.New("not a result of this build's format (run with --force to recompute it)")
	}
	src := result[1:]
	blocks := make([]montecarlo.Block, 0, u.last-u.first+1)
	for b := u.first; b <= u.last; b++ {
		blk, rest, err := montecarlo.ReadBlock(src)
		if err != nil {
			return nil, fmt.Errorf("block %d: %w", b, err)
		}
		n := u.blockLen(b)
		marks := 0
		if b == 0 {
			marks = len(montecarlo.TraceCounts(int64(n - 1)))
		}
		if blk.Moments.N != int64(n) || len(blk.Prefix) != marks {
			return nil, fmt.Errorf("block %d has %d samples and %d trace points, want %d and %d", b, blk.Moments.N, len(blk.Prefix), n, marks)
		}
		blocks, src = append(blocks, blk), rest
	}
	if len(src) != 0 {
		return nil, fmt.Errorf("%d bytes after the last block", len(src))
	}
	return blocks, nil
}
