package ridder

import (
	"context"
	"math"
	"math/big"
	"math/bits"
	"testing"

	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
	"github.com/sudoku-census/sudoku-census/stages/maths/montecarlo"
	"github.com/sudoku-census/sudoku-census/stages/maths/walks"
)

var exact = map[string]int64{"2x2": 288, "2x3": 28200960}

func shapeOf(t testing.TB, s string) grid.Shape {
	sh, err := grid.ParseShape(s)
	if err != nil {
		t.Fatal(err)
	}
	return sh
}

func TestPopulation(t *testing.T) {
	if got := Population(shapeOf(t, "2x2")); got.Cmp(big.NewInt(331776)) != 0 { // 24^4
		t.Errorf("|Ω| 2x2 = %s", got)
	}
	// Ridder: (9!)^9 ≈ 1.091·10^50.
	got := new(big.Float).SetInt(Population(shapeOf(t, "3x3")))
	if f, _ := got.Float64(); math.Abs(f/1.091e50-1) > 5e-4 {
		t.Errorf("|Ω| 3x3 = %g", f)
	}
}

// The importance estimate equals Knuth's row-major sample draw for draw:
// with the same random stream, |Ω|·1{X∈A}·L(X), computed exactly from the
// trail of |R_ij| as a rational, is Knuth's product of choice counts.
func TestIdentityWithKnuthRowMajor(t *testing.T) {
	for _, name := range []string{"2x3", "3x3"} {
		shape := shapeOf(t, name)
		omega := new(big.Rat).SetInt(Population(shape))
		for _, fill := range []bool{false, true} {
			imp, _ := NewSampler(shape, fill)
			walk, _ := walks.NewWalker(shape, walks.RowMajor)
			spec := montecarlo.Spec{Seed: 5, Stage: "identity", Shape: name}
			completed := 0
			for i := range 3000 {
				kx, _ := walk.Walk(spec.Source(i), shape.N()*shape.N())
				ix, _, err := imp.Sample(spec.Source(i))
				if err != nil {
					t.Fatal(err)
				}
				knuthExact := big.NewInt(1)
				for _, k := range walk.Trail[:walk.Steps] {
					knuthExact.Mul(knuthExact, big.NewInt(int64(k)))
				}
				// L = u/q = (1/|Ω|) / Π(1/|R_ij|); the estimate is |Ω|·1{X∈A}·L.
				q := big.NewRat(1, 1)
				for _, k := range imp.Trail[:imp.Steps] {
					if k > 0 {
						q.Mul(q, big.NewRat(1, int64(k)))
					}
				}
				est := new(big.Rat)
				if imp.Trail[imp.Steps-1] != 0 {
					completed++
					L := new(big.Rat).Quo(new(big.Rat).Inv(omega), q)
					est.Mul(omega, L)
				}
				if est.Cmp(new(big.Rat).SetInt(knuthExact)) != 0 {
					t.Fatalf("%s sample %d: importance %s, knuth %s", name, i, est.RatString(), knuthExact)
				}
				// The float samples differ only by the rounding of L's division.
				if kx.IsZero() != ix.IsZero() || !kx.IsZero() && math.Abs(ix.Log10()-kx.Log10()) > 1e-13 {
					t.Fatalf("%s sample %d: sampler values %v and %v differ", name, i, ix, kx)
				}
			}
			if completed == 0 {
				t.Errorf("%s: no complete sample to compare", name)
			}
		}
	}
}

// X is always an n-permutation grid, and a Sudoku grid exactly when the
// estimate is nonzero.
func TestMembership(t *testing.T) {
	for _, name := range []string{"2x2", "2x3"} {
		shape := shapeOf(t, name)
		n := shape.N()
		s, _ := NewSampler(shape, true)
		check, _ := grid.NewCounter(shape)
		src := montecarlo.Spec{Seed: 6}.Source(0)
		seen := [2]int{}
		var samples, nonzero, work, filled int64
		for range 5000 {
			x, w, _ := s.Sample(src)
			// The work is the cells decided, as Knuth's row-major walk
			// counts it; the completion's cells are apart.
			if w != int64(s.Steps) || !x.IsZero() && s.Filled != 0 || x.IsZero() && int(w)+s.Filled != n*n+1 {
				t.Fatalf("work %d, %d filled, for %d steps (estimate %v)", w, s.Filled, s.Steps, x)
			}
			samples, work, filled = samples+1, work+w, filled+int64(s.Filled)
			if !x.IsZero() {
				nonzero++
			}
			for r := range n {
				var used uint64
				for _, v := range s.X[r*n : (r+1)*n] {
					used |= 1 << (v - 1)
				}
				if used != 1<<n-1 {
					t.Fatalf("%s: row %d of X %v is not a permutation", name, r, s.X)
				}
			}
			sudoku := check.Load(s.X) == nil
			if sudoku != !x.IsZero() {
				t.Fatalf("%s: X ∈ A is %v but the estimate is %v", name, sudoku, x)
			}
			if sudoku {
				seen[1]++
			} else {
				seen[0]++
			}
		}
		if seen[0] == 0 || seen[1] == 0 {
			t.Errorf("%s: saw %d non-Sudoku and %d Sudoku grids; want both", name, seen[0], seen[1])
		}
		if got, want := WorkWithCompletion(shape, samples, nonzero, work, true), work+filled; got != want {
			t.Errorf("%s: WorkWithCompletion %d, cells decided and filled %d", name, got, want)
		}
		if got := WorkWithCompletion(shape, samples, nonzero, work, false); got != work {
			t.Errorf("%s: WorkWithCompletion without completion %d, want the work %d", name, got, work)
		}
	}
}

func simulate(t testing.TB, shape grid.Shape, seed uint64, samples int64) montecarlo.Moments {
	spec := montecarlo.Spec{Seed: seed, Stage: "importance", Shape: shape.String(), Variant: "ridder", BlockSize: 500}
	res, err := montecarlo.Run(context.Background(), spec, samples, 2, func() (montecarlo.Sampler, error) {
		return NewSampler(shape, true)
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res.Total
}

func zscore(m montecarlo.Moments, want int64) float64 {
	return m.Stats().ZScore(new(big.Float).SetInt64(want))
}

func TestUnbiased2x2(t *testing.T) {
	m := simulate(t, shapeOf(t, "2x2"), 1, 200000)
	if z := zscore(m, 288); math.Abs(z) > 4 {
		t.Errorf("estimate %s is %.1f standard errors from 288", montecarlo.Decimal(m.Stats().Estimate), z)
	}
}

func TestCoverage(t *testing.T) {
	for _, name := range []string{"2x2", "2x3"} {
		covered := 0
		for seed := uint64(1); seed <= 100; seed++ {
			if math.Abs(zscore(simulate(t, shapeOf(t, name), seed, 2000), exact[name])) <= montecarlo.Z95 {
				covered++
			}
		}
		t.Logf("%s: %d/100 intervals cover", name, covered)
		if covered < 85 {
			t.Errorf("%s: only %d of 100 95%% intervals cover %d", name, covered, exact[name])
		}
	}
}

// secondMoment returns E_q[Y²] = Σ_{x∈A} q(x)·(Π|R_ij|)² = Σ_{x∈A} Π|R_ij|
// by enumerating every grid of the shape.
func secondMoment(b *grid.Counter, cell, cells int, prod *big.Int, sum *big.Int) {
	if cell == cells {
		sum.Add(sum, prod)
		return
	}
	cand := b.Candidates(cell)
	k := int64(bits.OnesCount64(cand))
	next := new(big.Int).Mul(prod, big.NewInt(k))
	for ; cand != 0; cand &= cand - 1 {
		v := uint8(montecarlo.NthBit(cand, 0) + 1)
		b.Place(cell, v)
		secondMoment(b, cell+1, cells, next, sum)
		b.Unplace(cell)
	}
}

// RAT and EFF agree with their exact values on 2×2, where E[γ] = 288/|Ω|
// and E[γ²] = E[Y²]/|Ω|² are known by enumeration.
func TestMeasures2x2(t *testing.T) {
	shape := shapeOf(t, "2x2")
	b, _ := grid.NewCounter(shape)
	ey2 := new(big.Int)
	secondMoment(b, 0, 16, big.NewInt(1), ey2)
	ey2f, _ := new(big.Float).SetInt(ey2).Float64()
	lp := math.Log10(331776)
	wantRAT := (math.Log10(ey2f) - 2*lp) / (math.Log10(288) - lp)
	m := simulate(t, shape, 2, 400000)
	ms := MeasuresOf(m, shape)
	t.Logf("2x2: E[Y²] = %s, RAT %.5f (exact %.5f), log10 EFF %.3f", ey2, ms.RAT, wantRAT, ms.Log10EFF)
	if math.Abs(ms.RAT-wantRAT) > 2e-3 || ms.RAT <= 1 || ms.RAT > 2 {
		t.Errorf("RAT %.5f, exact %.5f", ms.RAT, wantRAT)
	}
	// EFF = 1/(Var γ · work): Var γ = (E[Y²] − 288²)/|Ω|².
	st := m.Stats()
	varY := ey2f - 288*288
	wantEFF := -(math.Log10(varY) - 2*lp + math.Log10(st.WorkPerSample))
	if math.Abs(ms.Log10EFF-wantEFF) > 0.01 {
		t.Errorf("log10 EFF %.4f, exact variance gives %.4f", ms.Log10EFF, wantEFF)
	}
	if got := ms.Log10EFFWith(st.WorkPerSample); math.Abs(got-ms.Log10EFF) > 1e-12 {
		t.Errorf("Log10EFFWith(work per sample) %v, Log10EFF %v", got, ms.Log10EFF)
	}
	if math.Abs(ms.Log10Population-lp) > 1e-12 {
		t.Errorf("log10 |Ω| %v", ms.Log10Population)
	}
}
