package plots

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strings"
	"testing"

	"gonum.org/v1/plot/plotter"

	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
	"github.com/sudoku-census/sudoku-census/stages/presentation/present"
)

func TestPowerLabel(t *testing.T) {
	for _, c := range []struct {
		m, k int
		want string
	}{{1, 0, "1"}, {5, -3, "0.005"}, {2, 3, "2000"}, {1, 4, "10k"}, {5, 5, "500k"}, {1, 6, "1M"}, {2, 9, "2G"}, {1, 21, "1e21"}, {1, -5, "0.00001"}, {2, -6, "2e-6"}} {
		if got := powerLabel(c.m, c.k); got != c.want {
			t.Errorf("powerLabel(%d, %d) = %q, want %q", c.m, c.k, got, c.want)
		}
	}
}

func TestPowerTicks(t *testing.T) {
	ticks := powerTicks{}.Ticks(3, 2000)
	var labels []string
	for _, tk := range ticks {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	want := []string{"1", "10", "100", "1000", "10k"}
	if len(labels) != len(want) {
		t.Fatalf("labels %q, want %q", labels, want)
	}
	for i := range want {
		if labels[i] != want[i] {
			t.Errorf("label %d = %q, want %q", i, labels[i], want[i])
		}
	}
}

func TestToCP1252(t *testing.T) {
	if got, want := toCP1252("4×4 10²¹ √"), "4\xd74 10\xb2\xb9 ?"; got != want {
		t.Errorf("toCP1252 = %q, want %q", got, want)
	}
}

func TestNiceTicks(t *testing.T) {
	var labels []string
	for _, tk := range (niceTicks{}).Ticks(0.93, 1.16) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	want := []string{"0.95", "1.00", "1.05", "1.10", "1.15"}
	if len(labels) != len(want) {
		t.Fatalf("labels %q, want %q", labels, want)
	}
	for i := range want {
		if labels[i] != want[i] {
			t.Errorf("label %d = %q, want %q", i, labels[i], want[i])
		}
	}
	// An axis starting just below zero (an error bar reaching -0.0…) is
	// labelled 0, not -0, and a long run of steps does not drift.
	labels = nil
	for _, tk := range (niceTicks{}).Ticks(-0.43, 5.3) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	if got, want := strings.Join(labels, " "), "0 1 2 3 4 5"; got != want {
		t.Errorf("labels of [-0.43, 5.3] = %q, want %q", got, want)
	}
	labels = nil
	for _, tk := range (niceTicks{}).Ticks(-0.07, 0.71) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
			if tk.Value != 0 && math.Abs(tk.Value-math.Round(tk.Value*10)/10) > 0 {
				t.Errorf("tick %q at %v, not a multiple of the step", tk.Label, tk.Value)
			}
		}
	}
	if got, want := strings.Join(labels, " "), "0.0 0.1 0.2 0.3 0.4 0.5 0.6 0.7"; got != want {
		t.Errorf("labels of [-0.07, 0.71] = %q, want %q", got, want)
	}
}

// No two lines of a plot share a colour, and any two differ in their dash
// pattern or their marker as well (for grey print); more lines than
// colours is an error, not a repeated colour.
func TestSeriesStylesDistinct(t *testing.T) {
	styles, err := seriesStyles(len(palette))
	if err != nil {
		t.Fatal(err)
	}
	for i := range styles {
		for j := range i {
			a, b := styles[i], styles[j]
			if a.Colour == b.Colour {
				t.Errorf("lines %d and %d share the colour %v", j, i, a.Colour)
			}
			if fmt.Sprint(a.Dashes) == fmt.Sprint(b.Dashes) && a.Glyph == b.Glyph {
				t.Errorf("lines %d and %d share the dash pattern %v and the marker %T", j, i, a.Dashes, a.Glyph)
			}
		}
	}
	if _, err := seriesStyles(len(palette) + 1); err == nil {
		t.Errorf("seriesStyles(%d) gave no error", len(palette)+1)
	}
}

// The narrow panels of the convergence figure label at most narrowLabels
// powers of ten, so that their labels do not run into each other.
func TestPowerTicksNarrow(t *testing.T) {
	for _, hi := range []float64{1e3, 1e4, 2e5, 1e6, 2e7} {
		var labels []string
		for _, tk := range (powerTicks{MaxLabels: narrowLabels}).Ticks(1, hi) {
			if tk.Label != "" {
				labels = append(labels, tk.Label)
			}
		}
		if len(labels) > narrowLabels || len(labels) < 2 {
			t.Errorf("range 1…%g: labels %q, want 2 to %d", hi, labels, narrowLabels)
		}
	}
}

func TestDecadePoints(t *testing.T) {
	xys := plotter.XYs{{X: 3}, {X: 8}, {X: 12}, {X: 50}, {X: 99}, {X: 100}, {X: 700}, {X: 900}}
	got := decadePoints(xys)
	want := []float64{3, 12, 100, 900}
	if len(got) != len(want) {
		t.Fatalf("decadePoints: %v, want x %v", got, want)
	}
	for i := range want {
		if got[i].X != want[i] {
			t.Errorf("point %d: x %g, want %g", i, got[i].X, want[i])
		}
	}
}

// The heuristic figure's scale keeps 12.5% and the tenths of a per cent
// apart: the symmetric log scale is monotone, odd, inverted by inverse,
// and gives 0.1% a sizeable share of a range up to 12.5%; its ticks are
// 0 and ±1, 2, 5·10^k from the linear threshold up, within the range.
func TestSymlog(t *testing.T) {
	s := symlogScale{Linear: 0.1}
	prev := math.Inf(-1)
	for _, y := range []float64{-1, -0.2, -0.1, 0, 0.1, 0.2, 0.4, 2, 12.5} {
		v := s.f(y)
		if v <= prev {
			t.Errorf("f(%g) = %g, not above the value before it", y, v)
		}
		prev = v
		if got := s.inverse(v); math.Abs(got-y) > 1e-12 {
			t.Errorf("inverse(f(%g)) = %g", y, got)
		}
		if s.f(-y) != -v {
			t.Errorf("f(-%g) = %g, want %g", y, s.f(-y), -v)
		}
	}
	// On a linear axis from -1 to 12.5, 0.1 to 0.4 would take 2% of the
	// height; here it takes more than 10%.
	if share := s.Normalize(-1, 12.5, 0.4) - s.Normalize(-1, 12.5, 0.1); share < 0.1 {
		t.Errorf("0.1 to 0.4 takes %.3f of the height", share)
	}
	var labels []string
	for _, tk := range (symlogTicks{Linear: 0.1}).Ticks(-0.6, 13) {
		labels = append(labels, tk.Label)
	}
	if got, want := strings.Join(labels, " "), "-0.5 -0.2 -0.1 0 0.1 0.2 0.5 1 2 5 10"; got != want {
		t.Errorf("ticks %q, want %q", got, want)
	}
}

// TestErrorWorkInCPUSeconds: the error_work figure charges a 9×9 default
// run's trace at the CPU seconds per sample of its variant's 9×9 long run;
// a variant without one (here cover, whose long run is on 4×4) is left
// out, and without any the figure is a notice.
func TestErrorWorkInCPUSeconds(t *testing.T) {
	f := func(x float64) *big.Float { return big.NewFloat(x) }
	r := &present.Results{}
	for _, v := range []string{"mrv", "cover"} {
		r.Estimators = append(r.Estimators, present.Estimator{Method: "knuth", Shape: present.Classic, Variant: v, Samples: 1000,
			Estimate: f(6.7e21), Work: 81000})
		for _, n := range []int64{10, 100, 1000} {
			r.Traces = append(r.Traces, present.TracePoint{Method: "knuth", Shape: present.Classic, Variant: v, Samples: n,
				Estimate: f(6.7e21), StdError: f(6.7e21 / math.Sqrt(float64(n))), RelativeError: 1 / math.Sqrt(float64(n))})
		}
	}
	if _, err := ErrorWork(r); !errors.Is(err, ErrNoData) {
		t.Fatalf("without long runs: %v, want ErrNoData", err)
	}
	r.Estimators = append(r.Estimators,
		present.Estimator{Method: "knuth", Shape: present.Classic, Variant: "mrv", Samples: 64000, Estimate: f(6.7e21),
			Long: &present.LongRun{Units: 1, CPUSeconds: 128}}, // 2 ms a sample
		present.Estimator{Method: "knuth", Shape: grid.Shape{R: 4, C: 4}, Variant: "cover", Samples: 16000, Estimate: f(6e98),
			Long: &present.LongRun{Units: 1, CPUSeconds: 1.6e6}})
	p, err := ErrorWork(r)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(p.X.Min-0.02) > 1e-9 || math.Abs(p.X.Max-2) > 1e-9 {
		t.Errorf("x range [%g, %g], want [0.02, 2]: 10 to 1000 samples of mrv at 2 ms", p.X.Min, p.X.Max)
	}
	if !strings.Contains(p.X.Label.Text, "CPU seconds") || strings.Contains(p.X.Label.Text+p.Title.Text, "cells") {
		t.Errorf("axis %q, title %q: want CPU seconds, no cells", p.X.Label.Text, p.Title.Text)
	}
}

func TestDecimal(t *testing.T) {
	for _, c := range []struct {
		x    float64
		want string
	}{{1.8432e-5, "0.000018"}, {0.1234, "0.12"}, {3.96, "4"}} {
		if got := decimal(c.x, 2); got != c.want {
			t.Errorf("decimal(%g, 2) = %q, want %q", c.x, got, c.want)
		}
	}
}
