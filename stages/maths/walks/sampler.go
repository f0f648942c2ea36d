package walks

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
	"github.com/sudoku-census/sudoku-census/stages/maths/montecarlo"
	"github.com/sudoku-census/sudoku-census/stages/maths/walkbands"
)

// Variant is one estimator: a cell order and how many cells the walk fills
// before the rest is counted exactly.
type Variant struct {
	Name  string // rowmajor, random, mrv, cover, hybrid or se
	Order Order
	// HybridK is the number of cells the walk fills; the hybrid then counts
	// the completions of that partial grid exactly. For the plain walks it is
	// N², every cell, and the exact count of a full grid is 1.
	HybridK int
	Hybrid  bool
	// Budget, when > 0, makes the variant stochastic enumeration with that
	// many nodes per level (see Enumerator); Order is then MRV or Cover.
	Budget int
	// Lookahead makes the stochastic enumeration keep nodes by look-ahead
	// scores with exponent Alpha (see Lookahead); Order is then MRV.
	Lookahead bool
	Alpha     float64
	// FirstBand starts every walk or enumeration from a uniformly random
	// first band (see walkbands.FirstBand); Order is then MRV and the box
	// height at most MaxFirstBandHeight.
	FirstBand bool
	// LastBand fills only the upper bands (rows 0…N−R−1, in MRV order)
	// and counts the last band's completions exactly (conditional Monte
	// Carlo: see walkbands.LastBand); Order is then MRV and the box height
	// at most MaxLastBandHeight.
	LastBand bool
	// Stacks makes the variant the stack estimator (see Stacks): no walk,
	// no order, no budget.
	Stacks bool
	// StacksExact, with Stacks, is the columns of each band matching the
	// memo counts exactly, the others drawn (see NewStacksHybrid); 0
	// counts them all.
	StacksExact int
	// StacksDraws, with Stacks, is the candidates each matching drawn in
	// part and each sampled structure draws before keeping one (see
	// Stacks.SetDraws); 0 or 1: one.
	StacksDraws int
}

// KernelVersion names what the samplers draw: a sample is a function of
// the variant, the shape and the random source alone, and this number
// changes with any change of the code that changes a sample (its value or
// its work) for some source. Results kept across builds (the knuth stage's
// bundle of long-run units) name it, so those of another version are
// recomputed, never mixed.
const KernelVersion = 1

// MaxFirstBandHeight and MaxLastBandHeight are the largest box heights R
// of the variants with FirstBand and with LastBand: package walkbands's
// limits.
const (
	MaxFirstBandHeight = walkbands.MaxFirstBandHeight
	MaxLastBandHeight  = walkbands.MaxLastBandHeight
)

// Sampler draws samples of a variant on one shape. Not safe for concurrent
// use: make one per goroutine.
//
// The hybrid sample is P·C, with P the product of the candidate counts of
// the first HybridK cells (0 at a dead end) and C the exact number of
// completions of the partial grid reached. It is Knuth's estimator on the
// tree cut at depth HybridK with leaf scores C, hence unbiased; the exact
// count removes all variance from below the cut.
type Sampler struct {
	walker  *Walker
	enum    *Enumerator          // stochastic enumeration, else nil
	look    *Lookahead           // stochastic enumeration with look-ahead, else nil
	first   *walkbands.FirstBand // walks from a uniform first band, else nil
	last    *walkbands.LastBand  // counts the last band exactly, else nil
	stacks  *Stacks              // the stack estimator, else nil
	variant Variant
}

// NewSampler returns a sampler of variant v on shape s; ctx stops the
// tables a uniform first band may build.
func NewSampler(ctx context.Context, s grid.Shape, v Variant) (*Sampler, error) {
	if v.Stacks {
		if v.Lookahead || v.FirstBand || v.LastBand || v.Hybrid || v.Budget > 0 {
			return nil, fmt.Errorf("walks: the stack estimator walks no cell: no look-ahead, band, hybrid or budget")
		}
		if v.StacksExact < 0 {
			return nil, fmt.Errorf("walks: the stack estimator's exact columns must be 0 (all) or positive, not %d", v.StacksExact)
		}
		var e *Stacks
		var err error
		if v.StacksExact > 0 {
			e, err = NewStacksHybrid(ctx, s, v.StacksExact)
		} else {
			e, err = NewStacks(ctx, s)
		}
		if err == nil && v.StacksDraws != 0 {
			err = e.SetDraws(v.StacksDraws)
		}
		return &Sampler{stacks: e, variant: v}, err
	}
	if v.StacksExact != 0 || v.StacksDraws != 0 {
		return nil, fmt.Errorf("walks: exact matching columns (%d) or candidate draws (%d) without the stack estimator", v.StacksExact, v.StacksDraws)
	}
	if v.Lookahead {
		if v.FirstBand || v.Hybrid {
			return nil, fmt.Errorf("walks: look-ahead enumeration starts from the empty grid and counts nothing exactly")
		}
		if v.Order != MRV {
			return nil, fmt.Errorf("walks: look-ahead enumeration needs order mrv, not %v", v.Order)
		}
		e, err := NewLookahead(s, v.Budget, v.Alpha)
		return &Sampler{look: e, variant: v}, err
	}
	var first *walkbands.FirstBand
	if v.FirstBand {
		if v.Order != MRV || v.Hybrid {
			return nil, fmt.Errorf("walks: a walk from a uniform first band needs order mrv and no hybrid count, not %v", v.Order)
		}
		var err error
		if first, err = walkbands.NewFirstBand(ctx, s); err != nil {
			return nil, err
		}
	}
	var last *walkbands.LastBand
	if v.LastBand {
		if v.Order != MRV || v.Hybrid {
			return nil, fmt.Errorf("walks: counting the last band exactly needs order mrv and no hybrid count, not %v", v.Order)
		}
		var err error
		if last, err = walkbands.NewLastBand(s); err != nil {
			return nil, err
		}
		if !walkbands.LastBandFits(s, v.Budget) {
			return nil, fmt.Errorf("walks: the last band's completions of %s with budget %d may exceed 64 bits", s, v.Budget)
		}
	}
	if v.Budget > 0 {
		e, err := NewEnumerator(s, v.Order, v.Budget)
		if err != nil {
			return nil, err
		}
		e.First = first
		if last != nil {
			e.countLastBand(last)
		}
		return &Sampler{enum: e, variant: v}, nil
	}
	w, err := NewWalker(s, v.Order)
	if err != nil {
		return nil, err
	}
	if last != nil {
		w.restrict = last.RestrictUpper(w.words)
	}
	return &Sampler{walker: w, first: first, last: last, variant: v}, nil
}

// StartBlock gives the hybrid a fresh exact counter, whose completion memo
// would otherwise grow over the whole run.
func (s *Sampler) StartBlock() error {
	if !s.variant.Hybrid {
		return nil
	}
	b, err := grid.NewCounter(s.walker.Board.Shape())
	s.walker.Board = b
	return err
}

// Sample draws one sample and returns it with its work (for stochastic
// enumeration see Enumerator.Sample): the walk's cells visited plus, for the hybrid, the cells left to the exact counter (the
// counter's own search is not counted; its cost shows in the CPU time of
// the run report).
func (s *Sampler) Sample(src *rand.ChaCha8) (montecarlo.Value, int64, error) {
	if s.enum != nil {
		x, work := s.enum.Sample(src)
		return x, work, s.enum.err
	}
	if s.look != nil {
		x, work := s.look.Sample(src)
		return x, work, nil
	}
	if s.stacks != nil {
		x, work := s.stacks.Sample(src)
		return x, work, s.stacks.err
	}
	if s.last != nil {
		var x montecarlo.Value
		var work int64
		if s.first != nil {
			x, work = s.walker.WalkFromBand(src, s.first, s.last.FirstCell())
		} else {
			x, work = s.walker.Walk(src, s.last.FirstCell())
		}
		if x.IsZero() {
			return x, work, nil
		}
		s.last.Work = 0
		k, ok := s.last.Count(s.walker.cand)
		if !ok {
			return montecarlo.Value{}, 0, fmt.Errorf("walks: the last band's completions overflow 64 bits")
		}
		return x.MulInt(k), work + s.last.Work, nil
	}
	if s.first != nil {
		x, work := s.walker.WalkFromBand(src, s.first, s.variant.HybridK)
		return x, work, nil
	}
	x, work := s.walker.Walk(src, s.variant.HybridK)
	if !s.variant.Hybrid || x.IsZero() {
		return x, work, nil
	}
	n, err := s.walker.Board.Count()
	if err != nil {
		return montecarlo.Value{}, 0, err
	}
	cells := s.walker.cells - s.variant.HybridK
	return x.Mul(montecarlo.ValueOf128(n.Hi, n.Lo)), work + int64(cells), nil
}
