package figures

import (
	"bytes"
	"compress/zlib"
	"errors"
	"fmt"
	"image/png"
	"io"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"

	"github.com/sudoku-census/sudoku-census/stages/importance"
	"github.com/sudoku-census/sudoku-census/stages/knuth"
	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
	"github.com/sudoku-census/sudoku-census/stages/presentation/plots"
	"github.com/sudoku-census/sudoku-census/stages/presentation/present"
)

// fixture is input shaped like the computing stages' artifacts, for
// drawing tests only: the funnel counts are the published ones, the
// classes and traces are drawn from a fixed random stream.
func fixture(t testing.TB) *present.Results {
	t.Helper()
	r := &present.Results{}
	for i, c := range []int64{2612736, 36288, 2051, 416, 174, 71, 44} {
		names := []string{"first bands", "lexicographic", "block and column permutations",
			"row permutations", "2×2 rectangles", "larger rectangles", "equal completions"}
		r.Funnel = append(r.Funnel, present.FunnelLevel{Level: i, Name: names[i], Classes: c, PaperClasses: c})
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 44 {
		r.Classes = append(r.Classes, present.Class{Class: i + 1, Size: int64(1 + rng.IntN(3000)),
			Completions: big.NewInt(int64(96e6 + rng.IntN(12e6)))})
	}
	exact, _ := new(big.Int).SetString("6670903752021072936960", 10)
	r.Total = &present.Total{Grids: exact}
	four, _ := new(big.Int).SetString("288", 10)
	r.Shapes = []present.ShapeCount{{Shape: grid.Shape{R: 2, C: 2}, Grids: four}, {Shape: present.Classic, Grids: exact},
		{Shape: grid.Shape{R: 2, C: 3}, Grids: big.NewInt(28200960)}, {Shape: grid.Shape{R: 3, C: 2}, Grids: big.NewInt(28200960)},
		{Shape: grid.Shape{R: 2, C: 4}, Grids: big.NewInt(29136487207403520)}, {Shape: grid.Shape{R: 4, C: 2}, Grids: big.NewInt(29136487207403520)}}
	kil := func(s string) *big.Rat { q, _ := new(big.Rat).SetString(s); return q }
	r.Heuristics = []present.Heuristic{
		{Shape: grid.Shape{R: 2, C: 2}, Estimate: kil("3981312/15625")},
		{Shape: grid.Shape{R: 2, C: 3}, Estimate: kil("26542080")},
		{Shape: grid.Shape{R: 3, C: 2}, Estimate: kil("26542080")},
		{Shape: grid.Shape{R: 2, C: 4}, Estimate: kil("2.9e16")},
		{Shape: grid.Shape{R: 4, C: 2}, Estimate: kil("2.9e16")},
		{Shape: present.Classic, Estimate: kil("6657084616885512582463.488")},
		{Shape: grid.Shape{R: 4, C: 4}, Estimate: kil("5.96e98")},
		// Box 6×6 (N = 36): a sampled heuristic and a long run, far beyond float64.
		{Shape: grid.Shape{R: 6, C: 6}, Estimate: kil("2.8e767"), Low: kil("2.79e767"), High: kil("2.81e767"), Sampled: true, RelHalfWidth: 0.0036},
	}
	big767 := func(s string) *big.Float { f, _, _ := big.ParseFloat(s, 10, 64, big.ToNearestEven); return f }
	r.Estimators = append(r.Estimators, present.Estimator{Method: knuth.Stage.Name, Shape: grid.Shape{R: 6, C: 6}, Variant: "stackshybrid",
		Samples: 12000, Estimate: big767("2.83e767"), StdError: big767("7e765"), CILow: big767("2.816e767"), CIHigh: big767("2.844e767"),
		RelativeError: 0.0025, ParetoK: 0.3, Long: &present.LongRun{Units: 3, CPUSeconds: 36000}})
	ex, _ := new(big.Float).SetInt(exact).Float64()
	for v, variant := range []string{"sequential", "random-order", "hybrid"} {
		sd := ex * float64(3+5*v)
		e := present.Estimator{Method: knuth.Stage.Name, Shape: present.Classic, Variant: variant, Samples: 1 << 16, Work: 81 << 16}
		var sum, sumsq float64
		n := 0
		for k := 0; k <= 16; k++ {
			for ; n < 1<<k; n++ {
				x := ex + sd*rng.NormFloat64()
				sum, sumsq = sum+x, sumsq+x*x
			}
			mean := sum / float64(n)
			se := 0.0
			if n > 1 {
				se = math.Sqrt((sumsq/float64(n) - mean*mean) / float64(n-1))
			}
			r.Traces = append(r.Traces, present.TracePoint{Method: knuth.Stage.Name, Shape: present.Classic, Variant: variant,
				Samples: int64(n), Estimate: bf(mean), StdError: bf(se), CILow: bf(mean - 1.96*se), CIHigh: bf(mean + 1.96*se),
				RelativeError: se / mean})
			e.Estimate, e.StdError, e.CILow, e.CIHigh = bf(mean), bf(se), bf(mean-1.96*se), bf(mean+1.96*se)
		}
		r.Estimators = append(r.Estimators, e)
		// A long run of the first two variants: the CPU time per sample
		// the error_work figure charges their traces at.
		if v < 2 {
			long := e
			long.Samples, long.Long = 1<<20, &present.LongRun{Units: 16, CPUSeconds: float64(1<<20) * 1e-5 * float64(1+v)}
			r.Estimators = append(r.Estimators, long)
		}
	}
	r.Estimators = append(r.Estimators, present.Estimator{Method: importance.Stage.Name, Shape: grid.Shape{R: 4, C: 4},
		Variant: "row", Samples: 1000, Estimate: bf(6.1e98), StdError: bf(0.3e98), CILow: bf(5.5e98), CIHigh: bf(6.7e98)})
	for u := range 200 {
		r.Units2x6 = append(r.Units2x6, present.UnitCost{Unit: fmt.Sprintf("pair6-k1-%05d", u), CPUSeconds: 600 * math.Exp(-float64(u)/30) * (0.5 + rng.Float64())})
	}
	return r
}

func bf(x float64) *big.Float { return big.NewFloat(x) }

func TestFiguresRenderReproducibly(t *testing.T) {
	r := fixture(t)
	for _, f := range figures {
		first, row, err := render(f, r)
		if err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		if want := (Row{Figure: f.name, PDF: "figures/" + f.name + ".pdf", PNG: "figures/" + f.name + ".png", Drawn: true}); row != want {
			t.Errorf("%s: row %+v, want %+v", f.name, row, want)
		}
		second, _, err := render(f, r)
		if err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		if !bytes.Equal(first.PDF, second.PDF) {
			t.Errorf("%s: two PDF renderings differ", f.name)
		}
		if !bytes.Equal(first.PNG, second.PNG) {
			t.Errorf("%s: two PNG renderings differ", f.name)
		}
		if !bytes.HasPrefix(first.PDF, []byte("%PDF-")) || !bytes.Contains(first.PDF, []byte("/CreationDate (D:19700101000000")) {
			t.Errorf("%s: PDF lacks the fixed creation date", f.name)
		}
		img, err := png.Decode(bytes.NewReader(first.PNG))
		if err != nil {
			t.Fatalf("%s: PNG: %v", f.name, err)
		}
		if w, want := img.Bounds().Dx(), math.Round(float64(plots.Width/vg.Inch)*plots.PNGDPI); float64(w) != want {
			t.Errorf("%s: PNG is %d px wide, want %.0f", f.name, w, float64(plots.Width/vg.Inch)*plots.PNGDPI)
		}
		if dir := os.Getenv("FIGURES_OUT"); dir != "" { // for looking at them
			os.WriteFile(filepath.Join(dir, f.name+".png"), first.PNG, 0o644)
			os.WriteFile(filepath.Join(dir, f.name+".pdf"), first.PDF, 0o644)
		}
	}
}

func TestMissingDataIsANoticeNotAFigure(t *testing.T) {
	empty := &present.Results{}
	for _, f := range figures {
		if _, _, _, err := f.draw(empty); !errors.Is(err, plots.ErrNoData) {
			t.Errorf("%s with no inputs: err = %v, want plots.ErrNoData", f.name, err)
		}
		enc, row, err := render(f, empty)
		if err != nil {
			t.Errorf("%s notice: %v", f.name, err)
			continue
		}
		if row.Drawn || !strings.Contains(row.Notice, "no data") || len(enc.PDF) == 0 || len(enc.PNG) == 0 {
			t.Errorf("%s notice: row %+v, %d PDF bytes, %d PNG bytes", f.name, row, len(enc.PDF), len(enc.PNG))
		}
	}
}

// TestOutputs checks that the stage declares each figure's two files and
// the index, once each, and that the index's rows name those files.
func TestOutputs(t *testing.T) {
	declared := map[string]bool{}
	for _, o := range Stage.Outputs {
		if declared[o.Path] {
			t.Errorf("%s declared twice", o.Path)
		}
		declared[o.Path] = true
	}
	if len(Stage.Outputs) != 2*len(figures)+1 || !declared[Index.Path] {
		t.Errorf("outputs %v: want a PDF and a PNG per figure and %s", Stage.Outputs, Index.Path)
	}
	for _, f := range figures {
		_, row, err := render(f, &present.Results{})
		if err != nil {
			t.Fatal(err)
		}
		if !declared[row.PDF] || !declared[row.PNG] || row.Figure != f.name {
			t.Errorf("row %+v names files the stage does not declare", row)
		}
	}
}

// BenchmarkDraw renders each figure (PDF and PNG) from the fixture.
func BenchmarkDraw(b *testing.B) {
	r := fixture(b)
	for _, f := range figures {
		b.Run(f.name, func(b *testing.B) {
			for b.Loop() {
				if _, _, err := render(f, r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// A trace point with an infinite interval (one sample) must not put an
// infinite coordinate into the PDF, which viewers reject ("Unknown
// operator 'Inf'").
func TestNoInfiniteCoordinates(t *testing.T) {
	r := fixture(t)
	// A fourth 9×9 run that never succeeded: its panel carries a note,
	// and it leaves two empty tiles in the second row.
	for _, e := range r.EstimatorsFor(present.Classic)[:1] {
		zero := new(big.Float)
		e.Variant, e.Estimate, e.StdError, e.CILow, e.CIHigh = "failed", zero, zero, zero, zero
		r.Estimators = append(r.Estimators, e)
		for _, tp := range r.Trace(e.Method, e.Shape, "sequential") {
			tp.Variant, tp.Estimate, tp.StdError, tp.CILow, tp.CIHigh = "failed", zero, zero, zero, zero
			r.Traces = append(r.Traces, tp)
		}
	}
	for i := range r.Traces {
		if r.Traces[i].Samples == 1 {
			r.Traces[i].CIHigh = new(big.Float).SetInf(false)
			r.Traces[i].CILow = new(big.Float).SetInf(true)
		}
	}
	for _, f := range figures {
		enc, _, err := render(f, r)
		if err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		for _, stream := range pdfStreams(t, enc.PDF) {
			if bytes.Contains(stream, []byte("Inf")) || bytes.Contains(stream, []byte("NaN")) {
				t.Errorf("%s: a content stream holds a non-finite number", f.name)
			}
		}
	}
}

// pdfStreams returns the decompressed streams of a PDF (those that
// inflate; fonts and images may not).
func pdfStreams(t *testing.T, pdf []byte) [][]byte {
	t.Helper()
	var out [][]byte
	for rest := pdf; ; {
		i := bytes.Index(rest, []byte("stream\n"))
		if i < 0 {
			return out
		}
		rest = rest[i+len("stream\n"):]
		j := bytes.Index(rest, []byte("endstream"))
		if j < 0 {
			return out
		}
		if zr, err := zlib.NewReader(bytes.NewReader(rest[:j])); err == nil {
			if data, err := io.ReadAll(zr); err == nil || len(data) > 0 {
				out = append(out, data)
			}
		}
		rest = rest[j:]
	}
}
