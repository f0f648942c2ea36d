package walks

import (
	"context"
	"encoding/hex"
	"testing"

	"github.com/sudoku-census/sudoku-census/stages/maths/montecarlo"
)

// TestSampleMomentsGolden pins the encoded moments (count, nonzero count,
// work, mean and second moment, as units store them) of short seeded runs
// of the stack estimator and the last-band walks: the committed long-run
// units are recomputed byte for byte, so a speed-up must leave every
// sample and every unit of work counted as it was. The values were
// computed before and after the last band's incremental search (package
// walkbands), equal.
func TestSampleMomentsGolden(t *testing.T) {
	for _, c := range []struct {
		shape string
		n     int
		v     Variant
		want  string
	}{
		{"4x4", 100, Variant{Stacks: true, StacksExact: 12, StacksDraws: 8}, "6464d1c994089005904fb8fabad2f03f78543c0783ec5540"},
		{"4x4", 40, Variant{Stacks: true}, "282881f9ee0490058f5ac6b16e61ed3f47508ab10c1f2440"},
		{"3x4", 500, Variant{Stacks: true}, "f403f403d4fac805ba022a239a27c8e4db3f1c5801f28dbe4440"},
		{"6x2", 500, Variant{Stacks: true, StacksExact: 6}, "f403f10388e7e702c402ddb3f5db3bcc19402d5d7521918bcc40"},
		{"3x3", 3000, Variant{Order: MRV, FirstBand: true, LastBand: true, HybridK: 81}, "b817f814abb686039401f4964865423bd63f9286b1a5493e7840"},
		{"3x4", 300, Variant{Order: MRV, FirstBand: true, LastBand: true, HybridK: 144}, "ac02a901c4df5eb4020de070a8e91a09403ec8778b47f7d440"},
		{"3x3", 300, Variant{Order: MRV, Budget: 30, FirstBand: true, LastBand: true, HybridK: 81}, "ac02ac02cdf6fe089201924158a794bce63f6e11cbe13ce61040"},
	} {
		s, err := NewSampler(context.Background(), mustShape(t, c.shape), c.v)
		if err != nil {
			t.Fatal(err)
		}
		src := montecarlo.Spec{Seed: 11}.Source(0)
		var m montecarlo.Moments
		for range c.n {
			x, w, _ := s.Sample(src)
			m.Add(x, w)
		}
		if got := hex.EncodeToString(montecarlo.AppendMoments(nil, m)); got != c.want {
			t.Errorf("%s %+v, %d samples: moments %s, want %s", c.shape, c.v, c.n, got, c.want)
		}
	}
}
