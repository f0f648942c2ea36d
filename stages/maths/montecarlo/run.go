package montecarlo

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sync/atomic"

	"github.com/sudoku-census/sudoku-census/stages/maths/parallel"
)

// Sampler draws one sample of an estimator from src and returns its value
// and its deterministic work. A Sampler may keep scratch space, so each
// goroutine has its own; its samples must depend on src only.
type Sampler interface {
	Sample(src *rand.ChaCha8) (x Value, work int64, err error)
}

// BlockStarter is a Sampler that wants to know when a block starts, to drop
// caches that would otherwise grow over the whole run (RunBlock calls it
// first; a cache may change a sample's cost but never its value).
type BlockStarter interface {
	StartBlock() error
}

// Block is the result of one block: the moments of its samples, for
// block 0 only the moments of its first TraceCounts(len) samples (for the
// start of convergence traces), and its Spec.TailSize largest samples in
// decreasing order (for Diagnose; nil when TailSize is 0).
type Block struct {
	Moments Moments
	Prefix  []Moments
	Tail    []Value
}

// BlockVersion names what RunBlock returns for given samples and what
// AppendBlock writes of it (the seeds, the moments' arithmetic, the tail,
// the prefix trace and the binary form): it changes with any change that
// changes those bytes. Results kept across builds name it.
const BlockVersion = 1

// RunBlock draws samples n of block b of spec from s. It is a pure function
// of (spec, b, n, the kind of s): the unit of work a distributed runner
// hands out. It checks ctx before every sample and returns its cause once
// it is done, so a cancelled run stops after at most one more sample;
// otherwise ctx has no effect on the result.
func RunBlock(ctx context.Context, spec Spec, b, n int, s Sampler) (Block, error) {
	src := spec.Source(b)
	var out Block
	if bs, ok := s.(BlockStarter); ok {
		if err := bs.StartBlock(); err != nil {
			return Block{}, err
		}
	}
	var marks []int64
	if b == 0 {
		marks = TraceCounts(int64(n - 1))
	}
	var top topHeap
	done := ctx.Done()
	for i := 0; i < n; i++ {
		select {
		case <-done:
			return Block{}, context.Cause(ctx)
		default:
		}
		x, w, err := s.Sample(src)
		if err != nil {
			return Block{}, fmt.Errorf("%s %s %s block %d: %w", spec.Stage, spec.Shape, spec.Variant, b, err)
		}
		out.Moments.Add(x, w)
		top.offer(normal(x), spec.TailSize)
		if len(marks) > 0 && out.Moments.N == marks[0] {
			out.Prefix = append(out.Prefix, out.Moments)
			marks = marks[1:]
		}
	}
	if len(top) > 0 {
		out.Tail = top.sortedDesc()
	}
	return out, nil
}

// TraceCounts returns the log-spaced sample counts ≤ max at which traces
// record running statistics: round(10^(i/10)) for i = 0, 1, …, deduplicated.
func TraceCounts(max int64) []int64 {
	var out []int64
	for i := 0; ; i++ {
		c := int64(math.Round(math.Pow(10, float64(i)/10)))
		if c > max {
			return out
		}
		if len(out) == 0 || out[len(out)-1] != c {
			out = append(out, c)
		}
	}
}

// TracePoint is the running summary after Moments.N samples.
type TracePoint = Moments

// Result is a whole run: the merged moments, the trace, and the largest
// samples of the run in decreasing order (as many as the blocks kept: see
// Spec.TailSize).
type Result struct {
	Total Moments
	Trace []TracePoint
	Tail  []Value
}

// Diagnostics returns the diagnostics of the run's samples (Diagnose).
func (r Result) Diagnostics() Diagnostics { return Diagnose(r.Total, r.Tail) }

// Run draws samples samples for spec on workers goroutines, each with a
// sampler from newSampler, and merges the blocks in block order, so the
// result does not depend on workers. progress (may be nil) is called with
// the number of samples of each finished block, from any goroutine.
//
// The first error stops the run and is returned: one of newSampler, of a
// sample, ctx's cause when ctx is cancelled (within one sample of any
// worker), or a panic of a worker, recovered and returned as a
// *parallel.PanicError, which holds the worker's stack.
//
// The blocks are merged by MergeBlocks.
func Run(ctx context.Context, spec Spec, samples int64, workers int, newSampler func() (Sampler, error), progress func(int)) (Result, error) {
	blocks, err := RunBlocks(ctx, spec, samples, workers, newSampler, progress)
	if err != nil {
		return Result{}, err
	}
	return MergeBlocks(blocks), nil
}

// RunBlocks is Run without the merge: the blocks of the run, in block
// order. With Spec.BlockSize the samples of one short run, its blocks are
// independent runs (the coverage study of the knuth stage).
func RunBlocks(ctx context.Context, spec Spec, samples int64, workers int, newSampler func() (Sampler, error), progress func(int)) ([]Block, error) {
	bs := int64(spec.BlockSize)
	nblocks, err := Blocks(samples, spec.BlockSize)
	if err != nil {
		return nil, err
	}
	blocks := make([]Block, nblocks)
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var next atomic.Int64
	err = parallel.Run(max(1, min(workers, nblocks)), func(int) (err error) {
		defer func() {
			if err != nil {
				cancel(err)
			}
		}()
		defer parallel.Recover(&err)
		s, err := newSampler()
		if err != nil {
			return err
		}
		for ctx.Err() == nil {
			b := int(next.Add(1) - 1)
			if b >= nblocks {
				return nil
			}
			n := int(min(bs, samples-int64(b)*bs))
			if blocks[b], err = RunBlock(ctx, spec, b, n, s); err != nil {
				return err
			}
			if progress != nil {
				progress(n)
			}
		}
		return nil
	})
	if ctx.Err() != nil {
		err = context.Cause(ctx)
	}
	if err != nil {
		if pe := (*parallel.PanicError)(nil); errors.As(err, &pe) {
			err = fmt.Errorf("%s %s %s: %w", spec.Stage, spec.Shape, spec.Variant, err)
		}
		return nil, err
	}
	return blocks, nil
}

// MergeBlocks merges the blocks of a run, given in block order (block 0
// first, every block but the last full), into its total and trace: what
// Run returns for those blocks, bit for bit, whoever computed them. The
// merge is sequential, block by block, because floating-point merges are
// exact only in a fixed order: merging runs of blocks first and then the
// runs would round differently.
//
// The tail is the ParetoTailSize(samples) largest values of all blocks'
// tails (a set, so it does not depend on the order of the merges).
//
// The trace holds block 0's Prefix (the running moments at every
// TraceCounts value below the block size), then the running moments at the
// first block boundary at or after each further TraceCounts value, and at
// the end.
func MergeBlocks(blocks []Block) Result {
	var samples int64
	for _, b := range blocks {
		samples += b.Moments.N
	}
	var res Result
	size := ParetoTailSize(samples)
	marks := TraceCounts(samples)
	for b := range blocks {
		res.Tail = MergeTails(res.Tail, blocks[b].Tail, size)
		if b == 0 {
			res.Trace = append(res.Trace, blocks[0].Prefix...)
		}
		res.Total.Merge(blocks[b].Moments)
		for len(marks) > 0 && marks[0] <= res.Total.N {
			marks = marks[1:]
			if last := len(res.Trace) - 1; last < 0 || res.Trace[last].N != res.Total.N {
				res.Trace = append(res.Trace, res.Total)
			}
		}
	}
	if last := len(res.Trace) - 1; last < 0 || res.Trace[last].N != res.Total.N {
		res.Trace = append(res.Trace, res.Total)
	}
	return res
}
