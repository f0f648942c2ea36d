package walks

import (
	"context"
	"math"
	"testing"

	"github.com/sudoku-census/sudoku-census/stages/maths/montecarlo"
	"github.com/sudoku-census/sudoku-census/stages/maths/walkbands"
)

// The last band's count is the exact counter's: on shapes with box height
// 1, 2 and 3, walks fill the upper bands (from a uniform first band where
// R > 1), and the count of the last band from the candidates equals
// grid.Counter's count of the completions of the partial grid, zeros
// (boxes whose columns lack a common symbol) included.
func TestLastBandCountIsExact(t *testing.T) {
	for _, c := range []struct {
		shape string
		walks int
	}{{"1x4", 200}, {"1x5", 200}, {"2x2", 300}, {"2x3", 300}, {"3x2", 300}, {"2x4", 300}, {"4x2", 0}, {"3x3", 300}, {"2x5", 200}, {"3x4", 100}} {
		s := mustShape(t, c.shape)
		if c.walks == 0 {
			if _, err := NewSampler(context.Background(), s, Variant{Order: MRV, LastBand: true}); err == nil {
				t.Errorf("%s: a last band 4 rows high accepted", c.shape)
			}
			continue
		}
		lb, err := walkbands.NewLastBand(s)
		if err != nil {
			t.Fatal(err)
		}
		w, err := NewWalker(s, MRV)
		if err != nil {
			t.Fatal(err)
		}
		w.restrict = lb.RestrictUpper(w.words)
		var first *walkbands.FirstBand
		if s.R > 1 {
			if first, err = walkbands.NewFirstBand(context.Background(), s); err != nil {
				t.Fatal(err)
			}
		}
		src := montecarlo.Spec{Seed: 7, Shape: c.shape}.Source(0)
		checked, zeros, positive := 0, 0, 0
		for range c.walks {
			var x montecarlo.Value
			if first != nil {
				x, _ = w.WalkFromBand(src, first, lb.FirstCell())
			} else {
				x, _ = w.Walk(src, lb.FirstCell())
			}
			if x.IsZero() {
				continue
			}
			for cell := range lb.FirstCell() {
				if w.Board.Value(cell) == 0 {
					t.Fatalf("%s: cell %d of the upper bands empty after the walk", c.shape, cell)
				}
			}
			got, ok := lb.Count(w.cand)
			want, err := w.Board.Count()
			if err != nil {
				t.Fatal(err)
			}
			if !ok || want.Hi != 0 || got != want.Lo {
				t.Fatalf("%s: last band count %d (ok %v), exact counter %v", c.shape, got, ok, want)
			}
			checked++
			if got == 0 {
				zeros++
			} else {
				positive++
			}
		}
		t.Logf("%s: %d upper bands checked, %d with completions, %d without", c.shape, checked, positive, zeros)
		if positive == 0 {
			t.Errorf("%s: no upper bands with completions checked", c.shape)
		}
	}
}

// On 2×2 the last band is counted exactly, so stochastic enumeration with
// a budget wider than the tree gives exactly 288 every time; from a
// uniform first band every sample is 96 bands × that band's 2 or 4
// completions (2^cycles: 1234/3421 leaves one 4-cycle, 1234/3412 two
// 2-cycles), 192 or 384, and their mean is within 4 standard errors of 288.
func TestLastBandExact2x2(t *testing.T) {
	s := mustShape(t, "2x2")
	for _, v := range []Variant{
		{Name: "selast", Order: MRV, HybridK: 16, Budget: 1000, LastBand: true},
		{Name: "mrvlast", Order: MRV, HybridK: 16, LastBand: true},
		{Name: "bandmrvlast", Order: MRV, HybridK: 16, FirstBand: true, LastBand: true},
		{Name: "bandselast", Order: MRV, HybridK: 16, Budget: 1000, FirstBand: true, LastBand: true},
	} {
		sampler, err := NewSampler(context.Background(), s, v)
		if err != nil {
			t.Fatal(err)
		}
		src := montecarlo.Spec{Seed: 3}.Source(0)
		var m montecarlo.Moments
		values := map[float64]int{}
		for range 5000 {
			x, w, err := sampler.Sample(src)
			if err != nil {
				t.Fatal(err)
			}
			m.Add(x, w)
			f, _ := x.Float().Float64()
			values[f]++
		}
		switch v.Name {
		case "selast":
			if len(values) != 1 || values[288] != 5000 {
				t.Errorf("%s with budget 1000: samples %v, want 288 every time", v.Name, values)
			}
		case "bandmrvlast", "bandselast":
			if values[192]+values[384] != 5000 || values[192] == 0 || values[384] == 0 {
				t.Errorf("%s: samples %v, want 192 and 384 only", v.Name, values)
			}
		}
		if z := zscore(t, m, "2x2"); math.Abs(z) > 4 {
			t.Errorf("%s: estimate %s is %.1f standard errors from 288", v.Name, montecarlo.Decimal(m.Stats().Estimate), z)
		}
	}
}

// On 3×3 the last-band variants are unbiased (within 4 standard errors of
// the exact count) and their relative variance per sample is below that of
// the same walk without the exact count.
func TestLastBand3x3(t *testing.T) {
	if testing.Short() {
		t.Skip("3×3 runs")
	}
	s := mustShape(t, "3x3")
	for _, pair := range [][2]Variant{
		{{Name: "bandmrv", Order: MRV, HybridK: 81, FirstBand: true}, {Name: "bandmrvlast", Order: MRV, HybridK: 81, FirstBand: true, LastBand: true}},
		{{Name: "bandse", Order: MRV, HybridK: 81, Budget: 10, FirstBand: true}, {Name: "bandselast", Order: MRV, HybridK: 81, Budget: 10, FirstBand: true, LastBand: true}},
	} {
		before := simulate(t, s, pair[0], 4, 20000).Stats()
		m := simulate(t, s, pair[1], 4, 20000)
		after := m.Stats()
		z := zscore(t, m, "3x3")
		t.Logf("%s: relvar %.3g → %s: %.3g, z = %.2f", pair[0].Name, before.RelVar, pair[1].Name, after.RelVar, z)
		if math.Abs(z) > 4 {
			t.Errorf("%s: estimate %s is %.1f standard errors from the exact count", pair[1].Name, montecarlo.Decimal(after.Estimate), z)
		}
		if !(after.RelVar < before.RelVar) {
			t.Errorf("%s: relvar %.3g, not below %s's %.3g", pair[1].Name, after.RelVar, pair[0].Name, before.RelVar)
		}
	}
}
