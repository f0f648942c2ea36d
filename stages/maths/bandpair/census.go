package bandpair

import (
	"context"
	"fmt"
	"math/big"
	"strings"

	"github.com/sudoku-census/sudoku-census/stages/maths/parallel"
	"github.com/sudoku-census/sudoku-census/stages/maths/sudoku"
)

// Class is one class of reduced bands and its count.
type Class struct {
	ID             int32
	Size           int   // reduced bands in the class
	FirstBands     int64 // Σ multiplicity: bands with canonical B1 in the class
	Representative sudoku.Band
	Completions    uint64 // band-pair count for the representative
	SecondBands    uint64
	Crosschecked   bool
}

// Count is the band-pair result for one band.
type Count struct {
	Completions, SecondBands uint64
}

// CountAll counts every band by the band-pair method, computing each
// distinct [Key] once. The keys are computed by workers goroutines over
// contiguous chunks; the counts, in order of first occurrence, by this one,
// so the result does not depend on workers.
func CountAll(ctx context.Context, c *Counter, bands []sudoku.Band, workers int) ([]Count, error) {
	keys := make([]int, len(bands))
	err := parallel.Chunks(len(bands), min(workers, len(bands)/1024), func(lo, hi int) error {
		for i := lo; i < hi; i++ {
			keys[i] = c.Key(bands[i])
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	memo := map[int]Count{}
	out := make([]Count, len(bands))
	for i, k := range keys {
		n, ok := memo[k]
		if !ok {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			var err error
			if n.Completions, n.SecondBands, err = c.Completions(bands[i]); err != nil {
				return nil, err
			}
			memo[k] = n
		}
		out[i] = n
	}
	return out, nil
}

// Census is the total of a list of classes.
type Census struct {
	Grids          *big.Int // 9!·Σ first_bands·completions
	CanonicalGrids *big.Int // grids with B1 = 123/456/789: Σ first_bands·completions
	ReducedCount   *big.Int // Grids/(9!·72²)
}

// Tally totals the classes. It fails when Grids is not a multiple of
// 9!·72², which every correct census is (the 72 row and band permutations
// below the first band act freely on completions).
func Tally(classes []Class) (Census, error) {
	canonical := new(big.Int)
	for _, c := range classes {
		term := new(big.Int).SetUint64(c.Completions)
		canonical.Add(canonical, term.Mul(term, big.NewInt(c.FirstBands)))
	}
	grids := new(big.Int).Mul(canonical, big.NewInt(362880))
	reduced, rem := new(big.Int).QuoRem(canonical, big.NewInt(72*72), new(big.Int))
	if rem.Sign() != 0 {
		return Census{}, fmt.Errorf("%s grids with canonical B1 is not a multiple of 72²", canonical)
	}
	return Census{Grids: grids, CanonicalGrids: canonical, ReducedCount: reduced}, nil
}

// Factorise writes n > 1 as its prime factorisation, "2^7 × 27704267971",
// by trial division (n < 2^63, so at most about 3·10⁹ trials).
func Factorise(n *big.Int) (string, error) {
	if !n.IsInt64() || n.Int64() < 2 {
		return "", fmt.Errorf("factorise %s: want 2 ≤ n < 2^63", n)
	}
	m := uint64(n.Int64())
	var parts []string
	add := func(p uint64, e int) {
		if e == 1 {
			parts = append(parts, fmt.Sprint(p))
		} else {
			parts = append(parts, fmt.Sprintf("%d^%d", p, e))
		}
	}
	for p := uint64(2); p*p <= m; p++ {
		e := 0
		for m%p == 0 {
			m /= p
			e++
		}
		if e > 0 {
			add(p, e)
		}
	}
	if m > 1 {
		add(m, 1)
	}
	return strings.Join(parts, " × "), nil
}
