// Package plots draws the paper's figures with gonum/plot from the values
// package present reads: each builder returns a plot (or a painter and its
// height) or ErrNoData when the run made none of its inputs, and Render
// encodes a drawing as a PDF and a PNG that are the same bytes on every
// machine.
package plots

import (
	"cmp"
	"errors"
	"fmt"
	"image/color"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
	"github.com/sudoku-census/sudoku-census/stages/maths/montecarlo"
	"github.com/sudoku-census/sudoku-census/stages/presentation/present"
	"github.com/sudoku-census/sudoku-census/stages/presentation/typeset"
)

// ErrNoData marks a figure whose inputs this configuration did not make
// (a smoke run without 9×9 traces, say).
var ErrNoData = errors.New("no data")

// Notice draws a figure's place as a line of text, for a figure that is
// not drawn: its width, height and painter.
func Notice(text string) (vg.Length, vg.Length, func(draw.Canvas)) {
	p := newPlot(text, "", "")
	p.HideAxes()
	return Width, Height / 3, p.Draw
}

// Figure sizes: the paper's text is about 6.3 in wide, and figures are
// drawn at the size they are printed so that 9-point text stays 9-point.
const (
	Width    = 6.2 * vg.Inch
	Height   = 3.4 * vg.Inch
	fontSize = vg.Length(9) // points
)

// The convergence figure's panels: convergenceCols to a row, each
// panelH high, so that the ten 9×9 estimators of the default run take four
// rows (7.4 in) and the figure fits a page of 9.7 in with its caption.
const (
	convergenceCols = 3
	panelH          = 1.85 * vg.Inch
)

// palette is the Okabe–Ito colour-blind-safe palette (without its
// yellow, too pale on white), then seven darker colours of Paul Tol's
// schemes, so that fourteen lines get fourteen colours.
var palette = []color.Color{
	color.RGBA{0, 114, 178, 255},   // blue
	color.RGBA{213, 94, 0, 255},    // vermillion
	color.RGBA{0, 158, 115, 255},   // bluish green
	color.RGBA{204, 121, 167, 255}, // reddish purple
	color.RGBA{230, 159, 0, 255},   // orange
	color.RGBA{86, 180, 233, 255},  // sky blue
	color.RGBA{0, 0, 0, 255},       // black
	color.RGBA{136, 34, 85, 255},   // wine
	color.RGBA{153, 153, 51, 255},  // olive
	color.RGBA{51, 34, 136, 255},   // indigo
	color.RGBA{17, 119, 51, 255},   // green
	color.RGBA{170, 68, 153, 255},  // purple
	color.RGBA{204, 102, 119, 255}, // rose
	color.RGBA{68, 170, 153, 255},  // teal
}

var grey = color.Gray{Y: 110}

func colour(i int) color.Color { return palette[i%len(palette)] }

// dashPatterns are the line styles that, with the colours, tell the
// lines of one plot apart in grey print too: solid, dashed, dotted,
// dash-dotted.
var dashPatterns = [][]vg.Length{
	nil,
	{vg.Points(5), vg.Points(2.5)},
	{vg.Points(1.2), vg.Points(1.8)},
	{vg.Points(6), vg.Points(2), vg.Points(1.2), vg.Points(2)},
}

// glyphs mark the lines of one plot as well: seven shapes, so that with
// the four dash patterns (7 and 4 coprime) lines i and j < 28 differ in
// dashes or in marker, and always in colour.
var glyphs = []draw.GlyphDrawer{draw.CircleGlyph{}, draw.BoxGlyph{}, draw.TriangleGlyph{}, draw.RingGlyph{}, draw.SquareGlyph{}, draw.PyramidGlyph{}, draw.CrossGlyph{}}

// seriesStyle is how one line of a plot with several is drawn.
type seriesStyle struct {
	Colour color.Color
	Dashes []vg.Length
	Glyph  draw.GlyphDrawer
}

// seriesStyles returns the styles of n lines drawn in one plot: each its
// own colour (an error when there are more lines than colours), a dash
// pattern and a marker.
func seriesStyles(n int) ([]seriesStyle, error) {
	if n > len(palette) {
		return nil, fmt.Errorf("%d lines in one plot, but only %d distinct colours", n, len(palette))
	}
	out := make([]seriesStyle, n)
	for i := range out {
		out[i] = seriesStyle{Colour: palette[i], Dashes: dashPatterns[i%len(dashPatterns)], Glyph: glyphs[i%len(glyphs)]}
	}
	return out, nil
}

// newPlot returns a plot with the paper's font sizes and axis labels.
func newPlot(title, x, y string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font.Size = fontSize + 1
	p.X.Label.Text, p.Y.Label.Text = x, y
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font.Size = fontSize
		a.Tick.Label.Font.Size = fontSize - 1
	}
	p.Legend.TextStyle.Font.Size = fontSize - 1
	return p
}

// logAxis puts a on a log scale with ticks at powers of ten labelled
// 10^k (minor ticks between).
func logAxis(a *plot.Axis) {
	a.Scale = plot.LogScale{}
	a.Tick.Marker = powerTicks{}
}

// narrowLabels is the most labelled ticks on the log axis of a narrow
// panel (a third of the text width): more would run into each other.
const narrowLabels = 4

// powerTicks marks a log axis: labelled major ticks at powers of ten,
// unlabelled minor ticks at their multiples. At most MaxLabels powers are
// labelled (0: 8); when the range spans more, only every second or third
// power is; when it spans two decades or fewer, the multiples 2 and 5 are
// labelled too.
type powerTicks struct{ MaxLabels int }

func (t powerTicks) Ticks(min, max float64) []plot.Tick {
	lo := int(math.Floor(math.Log10(min)))
	hi := int(math.Ceil(math.Log10(max)))
	most := t.MaxLabels
	if most <= 0 {
		most = 8
	}
	step := 1 + (hi-lo)/most
	var ticks []plot.Tick
	for k := lo; k <= hi; k++ {
		label := ""
		if k%step == 0 {
			label = powerLabel(1, k)
		}
		ticks = append(ticks, plot.Tick{Value: math.Pow10(k), Label: label})
		if step > 1 || k == hi {
			continue
		}
		for m := 2; m < 10; m++ {
			label := ""
			if hi-lo <= 2 && (m == 2 || m == 5) {
				label = powerLabel(m, k)
			}
			ticks = append(ticks, plot.Tick{Value: float64(m) * math.Pow10(k), Label: label})
		}
	}
	return ticks
}

// powerLabel writes m·10^k for a log axis: in decimals down to 0.00001
// (0.002, 50, 1000), with an SI prefix for large values (20k, 5M, 1G),
// else as 2e-6. Figures use only characters of Windows-1252, which lacks
// the superscript minus and most superscript digits, so 10⁻⁵ cannot be
// written.
func powerLabel(m, k int) string {
	if k >= -5 && k <= 3 {
		return strconv.FormatFloat(float64(m)*math.Pow10(k), 'f', -1, 64)
	}
	if k > 3 && k < 15 {
		return strconv.Itoa(m*int(math.Pow10(k%3))) + string("kMGT"[k/3-1])
	}
	return fmt.Sprintf("%de%d", m, k)
}

// decimal writes x > 0 rounded to sig significant digits in plain
// decimals (0.000018, not 1.8e-05), as the paper's text does.
func decimal(x float64, sig int) string {
	rounded, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', sig, 64), 64)
	return strconv.FormatFloat(rounded, 'f', -1, 64)
}

// superscript writes k ≥ 0 with the superscript digits ¹²³ of
// Windows-1252, or as ^k when k uses other digits.
func superscript(k int) string {
	sup := map[rune]rune{'1': '¹', '2': '²', '3': '³'}
	var b strings.Builder
	for _, d := range strconv.Itoa(k) {
		r, ok := sup[d]
		if !ok {
			return "^" + strconv.Itoa(k)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// niceTicks mark a linear axis at multiples of 1, 2 or 5 × 10^k, chosen
// so that four to eight are labelled, each with the digits it needs
// (the default ticker labels 1.04 and 1.08 alike).
type niceTicks struct{}

func (niceTicks) Ticks(lo, hi float64) []plot.Tick {
	span := hi - lo
	if span <= 0 {
		return []plot.Tick{{Value: lo, Label: strconv.FormatFloat(lo, 'g', 4, 64)}}
	}
	k := math.Floor(math.Log10(span / 8))
	var step, mult float64
	for _, mult = range []float64{1, 2, 5, 10} {
		if step = mult * math.Pow10(int(k)); span/step <= 8 {
			break
		}
	}
	// tick n is at n·mult·10^k; dividing by 10^-k (exact) rounds it
	// correctly, where multiplying by 10^k (inexact) gives 0.30000000000000004.
	at := func(n float64) float64 {
		if k < 0 {
			return n * mult / math.Pow10(int(-k))
		}
		return n * mult * math.Pow10(int(k))
	}
	places := max(0, -int(math.Floor(math.Log10(step)+1e-9)))
	var ticks []plot.Tick
	// Each tick is computed from its index, not as a running sum (no
	// drift), and +0 replaces the -0 that ceil gives just below zero (no
	// "-0" label).
	for n := math.Ceil(lo / step); at(n) <= hi+step*1e-9; n++ {
		v := at(n) + 0
		ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', places, 64)})
		if minor := v + step/2; minor < hi {
			ticks = append(ticks, plot.Tick{Value: minor})
		}
	}
	return ticks
}

// pad widens a data range by frac of its width on each side (in log
// space for a log axis) so that markers at the ends are not cut.
func pad(a *plot.Axis, min, max, frac float64) {
	if _, isLog := a.Scale.(plot.LogScale); isLog {
		f := math.Pow(max/min, frac)
		a.Min, a.Max = min/f, max*f
		return
	}
	d := (max - min) * frac
	if d == 0 {
		d = math.Abs(max) * frac
	}
	a.Min, a.Max = min-d, max+d
}

// shapeLabel names a box shape by its boxes and its grid, on two lines
// narrow enough for the 16 shapes up to 5×5 side by side.
func shapeLabel(s grid.Shape) string {
	return fmt.Sprintf("%d×%d\n%d×%d", s.R, s.C, s.N(), s.N())
}

// ratFloat and intFloat convert exact values for plotting only: drawn
// positions need no more than float64 precision.
func ratFloat(q *big.Rat) float64 { f, _ := q.Float64(); return f }
func intFloat(n *big.Int) float64 { f, _ := new(big.Float).SetInt(n).Float64(); return f }

// line adds a polyline with a legend entry.
func line(p *plot.Plot, xys plotter.XYs, c color.Color, width vg.Length, dashes []vg.Length, legend string) error {
	l, err := plotter.NewLine(xys)
	if err != nil {
		return err
	}
	l.Color, l.Width, l.Dashes = c, width, dashes
	p.Add(l)
	if legend != "" {
		p.Legend.Add(legend, l)
	}
	return nil
}

// band adds the filled region between lo and hi (same x values).
func band(p *plot.Plot, lo, hi plotter.XYs, c color.Color) error {
	ring := make(plotter.XYs, 0, len(lo)+len(hi))
	ring = append(ring, lo...)
	for i := len(hi) - 1; i >= 0; i-- {
		ring = append(ring, hi[i])
	}
	poly, err := plotter.NewPolygon(ring)
	if err != nil {
		return err
	}
	// An opaque tint (a quarter of c on white) rather than transparency,
	// which PDF viewers render unevenly.
	r, g, b, _ := c.RGBA()
	tint := func(v uint32) uint8 { return uint8(255 - (255-v>>8)/4) }
	poly.Color = color.NRGBA{tint(r), tint(g), tint(b), 255}
	poly.LineStyle.Width = 0
	p.Add(poly)
	return nil
}

// mcRun is one estimator's trace on one shape.
type mcRun struct {
	est   present.Estimator
	trace []present.TracePoint
}

// runsFor returns the default runs on shape s with their traces (a long
// run has none of its own).
func runsFor(r *present.Results, s grid.Shape) []mcRun {
	var runs []mcRun
	for _, e := range r.EstimatorsFor(s) {
		if e.Long != nil {
			continue // a long run has no trace: its variant's trace is the default run's
		}
		if t := r.Trace(e.Method, s, e.Variant); len(t) > 0 {
			runs = append(runs, mcRun{e, t})
		}
	}
	return runs
}

// Convergence draws, for each estimator run on the 9×9 grid, the running
// estimate against the number of samples with its 95% interval as a band
// and the exact count as a dashed line. All panels share the y range so
// their spreads compare at a glance. It returns the figure's height.
func Convergence(r *present.Results) (vg.Length, func(dc draw.Canvas), error) {
	runs := runsFor(r, present.Classic)
	exact, ok := r.ExactGrids(present.Classic)
	if len(runs) == 0 || !ok {
		return 0, nil, fmt.Errorf("convergence: %w: need 9×9 traces and the exact 9×9 count", ErrNoData)
	}
	const unit = 1e21
	ex := intFloat(exact) / unit
	// y range: wide enough for the final interval of the widest run, at
	// least ±10%, at most [0, 2×exact].
	k := 0.1
	for _, rn := range runs {
		last := rn.trace[len(rn.trace)-1]
		if est := present.Float64(last.Estimate); est > 0 {
			k = math.Max(k, 3*(present.Float64(last.CIHigh)-present.Float64(last.CILow))/2/est)
		}
	}
	k = math.Min(k, 1)

	cols := min(len(runs), convergenceCols)
	rows := (len(runs) + cols - 1) / cols
	grid := make([][]*plot.Plot, rows)
	for i := range grid {
		grid[i] = make([]*plot.Plot, cols)
	}
	for i, rn := range runs {
		p := newPlot(rn.est.Label(), "samples", "estimate (10"+superscript(21)+" grids)")
		logAxis(&p.X)
		p.X.Tick.Marker = powerTicks{MaxLabels: narrowLabels}
		// Values far off the axis (an interval of +Inf after one sample)
		// are pulled to just beyond it: the plot clips them, but an
		// infinite coordinate would reach the PDF.
		clamp := func(x *big.Float) float64 {
			return math.Max(-ex*k, math.Min(present.Float64(x)/unit, ex*(2+k)))
		}
		var est, lo, hi plotter.XYs
		for _, t := range rn.trace {
			x := float64(t.Samples)
			est = append(est, plotter.XY{X: x, Y: clamp(t.Estimate)})
			lo = append(lo, plotter.XY{X: x, Y: clamp(t.CILow)})
			hi = append(hi, plotter.XY{X: x, Y: clamp(t.CIHigh)})
		}
		c := colour(i)
		if err := band(p, lo, hi, c); err != nil {
			return 0, nil, err
		}
		if rn.est.Estimate.Sign() == 0 {
			// Say so, or the panel looks merely empty: no interval, only
			// the bound on the chance of a success (see NoSuccess).
			note, err := plotter.NewLabels(plotter.XYLabels{
				XYs: plotter.XYs{{X: math.Sqrt(est[0].X * est[len(est)-1].X), Y: ex * (1 + k/2)}},
				Labels: []string{fmt.Sprintf("no successful walk\nin %s samples\n(success chance < %s)",
					typeset.Group(strconv.FormatInt(rn.est.Samples, 10), ","),
					decimal(montecarlo.NoSuccessUpper95(rn.est.Samples), 2))},
			})
			if err != nil {
				return 0, nil, err
			}
			note.TextStyle[0].Font.Size = fontSize - 1
			note.TextStyle[0].XAlign = draw.XCenter
			p.Add(unpadded{note})
		}
		// No legend in the small panels: the caption says what the
		// line, the band and the dashed line are.
		if err := line(p, est, c, 1.2, nil, ""); err != nil {
			return 0, nil, err
		}
		first, last := est[0].X, est[len(est)-1].X
		if err := line(p, plotter.XYs{{X: first, Y: ex}, {X: last, Y: ex}}, color.Black, 0.8, []vg.Length{3, 2}, ""); err != nil {
			return 0, nil, err
		}
		p.X.Min, p.X.Max = first, last
		p.Y.Min, p.Y.Max = ex*(1-k), ex*(1+k)
		grid[i/cols][i%cols] = p
	}
	height := vg.Length(rows) * panelH
	return height, func(dc draw.Canvas) {
		tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Points(10), PadY: vg.Points(10),
			PadTop: vg.Points(2), PadBottom: vg.Points(2), PadLeft: vg.Points(2), PadRight: vg.Points(4)}
		canvases := plot.Align(grid, tiles, dc)
		for i := range grid {
			for j, p := range grid[i] {
				if p != nil {
					p.Draw(canvases[i][j])
				}
			}
		}
	}, nil
}

// unpadded is labels that do not widen the plot's margins to fit: a note
// wider than a narrow panel's data area would otherwise leave the panel no
// width at all (and infinite coordinates in the PDF).
type unpadded struct{ *plotter.Labels }

func (unpadded) GlyphBoxes(*plot.Plot) []plot.GlyphBox { return nil }

// ErrorWork draws the relative error of each 9×9 run (standard error over
// estimate) against the CPU seconds spent so far, on log-log axes, with a
// line of slope −1/2: the 1/√n decay every unbiased average shares.
// Estimators with a lower line need less CPU time for the same accuracy.
// The default runs carry no CPU time (it is the machine's), so a run's
// trace is drawn at its sample counts times the CPU seconds per sample of
// its variant's 9×9 long run (the time its committed units record);
// variants without a long run there are left out.
func ErrorWork(r *present.Results) (*plot.Plot, error) {
	perSample := map[string]float64{} // method/variant → CPU seconds per sample
	for _, e := range r.LongRuns() {
		if e.Shape == present.Classic && e.Long.CPUSeconds > 0 {
			perSample[e.Method+"/"+e.Variant] = e.Long.CPUSeconds / float64(e.Samples)
		}
	}
	var runs []mcRun
	var cost []float64
	for _, rn := range runsFor(r, present.Classic) {
		if c, ok := perSample[rn.est.Method+"/"+rn.est.Variant]; ok {
			runs, cost = append(runs, rn), append(cost, c)
		}
	}
	if len(runs) == 0 {
		return nil, fmt.Errorf("error/work: %w: no 9×9 trace of a variant with a 9×9 long run", ErrNoData)
	}
	p := newPlot("Relative error against CPU time, 9×9 grid", "CPU seconds (cumulative: samples × the long run's CPU-s per sample)", "relative standard error")
	logAxis(&p.X)
	logAxis(&p.Y)
	styles, err := seriesStyles(len(runs))
	if err != nil {
		return nil, fmt.Errorf("error/work: %w", err)
	}
	var anchor plotter.XY
	minX, maxX := math.Inf(1), math.Inf(-1)
	for i, rn := range runs {
		var xys plotter.XYs
		for _, t := range rn.trace {
			if t.Estimate.Sign() <= 0 || t.StdError.Sign() <= 0 {
				continue // no spread measured yet
			}
			xys = append(xys, plotter.XY{X: cost[i] * float64(t.Samples), Y: t.RelativeError})
		}
		if len(xys) == 0 {
			continue
		}
		if anchor.X == 0 {
			anchor = xys[len(xys)-1]
		}
		minX, maxX = math.Min(minX, xys[0].X), math.Max(maxX, xys[len(xys)-1].X)
		// A colour of its own, a dash pattern and a marker at each
		// decade of CPU time (and in the legend): a dozen lines cross.
		st := styles[i]
		l, err := plotter.NewLine(xys)
		if err != nil {
			return nil, err
		}
		l.Color, l.Width, l.Dashes = st.Colour, 1.2, st.Dashes
		marks, err := plotter.NewScatter(decadePoints(xys))
		if err != nil {
			return nil, err
		}
		marks.GlyphStyle = draw.GlyphStyle{Color: st.Colour, Radius: 2.2, Shape: st.Glyph}
		p.Add(l, marks)
		p.Legend.Add(rn.est.Label(), l, marks)
	}
	if anchor.X == 0 {
		return nil, fmt.Errorf("error/work: no trace point with a positive standard error")
	}
	// Reference slope through the first run's final point.
	ref := func(x float64) plotter.XY { return plotter.XY{X: x, Y: anchor.Y * math.Sqrt(anchor.X/x)} }
	if err := line(p, plotter.XYs{ref(minX), ref(maxX)}, grey, 0.8, []vg.Length{3, 2}, "slope -1/2"); err != nil {
		return nil, err
	}
	// The legend goes beside the plot (LegendBeside): ten lines leave no
	// corner free.
	p.Legend.Top = true
	p.Legend.Left = true
	p.Legend.ThumbnailWidth = vg.Points(24) // long enough to show the dashes
	p.Legend.Padding = vg.Points(2.5)       // eleven entries, each legible
	return p, nil
}

// decadePoints picks, from a line's points in increasing x, the first at or
// past each power of ten, and the last: few enough markers to keep the
// line legible, spread evenly on a log axis.
func decadePoints(xys plotter.XYs) plotter.XYs {
	var out plotter.XYs
	next := math.Inf(-1)
	for _, pt := range xys {
		if pt.X >= next {
			out = append(out, pt)
			next = math.Pow(10, math.Floor(math.Log10(pt.X))+1)
		}
	}
	if last := xys[len(xys)-1]; out[len(out)-1] != last {
		out = append(out, last)
	}
	return out
}

// LegendEntry is one entry of a legend that LegendAbove draws: its text
// and the plotters whose thumbnails mark it.
type LegendEntry struct {
	Label  string
	Thumbs []plot.Thumbnailer
}

// LegendAbove draws p below a row of legend entries, side by side and
// centred, where a title would go: a legend over no data that takes no
// width from the plot.
func LegendAbove(p *plot.Plot, entries []LegendEntry) func(draw.Canvas) {
	const gap = vg.Length(14) // between entries
	thumb := vg.Points(12)
	style := p.Legend.TextStyle
	rowH := 2 * style.Font.Size
	return func(dc draw.Canvas) {
		p.Draw(draw.Crop(dc, 0, 0, 0, -rowH))
		widths := make([]vg.Length, len(entries))
		var total vg.Length
		for i, e := range entries {
			widths[i] = thumb + style.Width(e.Label) + vg.Points(6)
			total += widths[i]
		}
		total += gap * vg.Length(max(len(entries)-1, 0))
		x := (dc.Max.X - dc.Min.X - total) / 2
		for i, e := range entries {
			leg := plot.NewLegend()
			leg.TextStyle = style
			leg.Top, leg.Left = true, true
			leg.ThumbnailWidth = thumb
			leg.Add(e.Label, e.Thumbs...)
			// Crop to the entry's slot in the row along the top edge.
			right := dc.Max.X - dc.Min.X - x - widths[i]
			leg.Draw(draw.Crop(dc, x, -right, dc.Max.Y-dc.Min.Y-rowH, 0))
			x += widths[i] + gap
		}
	}
}

// LegendBeside draws p with its legend to the right of the plot, in a
// column legendW wide, instead of over the data.
func LegendBeside(p *plot.Plot, legendW vg.Length) func(draw.Canvas) {
	leg := p.Legend
	p.Legend = plot.NewLegend()
	return func(dc draw.Canvas) {
		p.Draw(draw.Crop(dc, 0, -legendW, 0, 0))
		// Start the legend level with the top of the data area, below
		// the title.
		title := p.Title.TextStyle.Height(p.Title.Text) + p.Title.Padding
		leg.Draw(draw.Crop(dc, dc.Max.X-dc.Min.X-legendW+vg.Points(6), 0, 0, -title-vg.Points(4)))
	}
}

// Heuristic draws, for every box shape, how far a count lies from
// Kilfoil's heuristic, as count/heuristic − 1 in per cent: the exact count
// where one is known, this pipeline's or the literature's (a filled
// circle), and the most precise Monte Carlo estimate with its 95% interval
// (an open square with error bars, beside the circle; where the heuristic's
// six-row bands are sampled, its own half-width added in quadrature). The excess runs
// from 12.5% (4×4) to about 0.1% on the vertical scale of
// HeuristicLinearWithin, linear near 0 and logarithmic beyond, so that the
// largest does not flatten the differences of a few tenths of a per cent
// and intervals reaching below the heuristic still show. The legend's
// entries are returned for LegendAbove, which draws them in a row above
// the plot, over no data.
func Heuristic(r *present.Results) (*plot.Plot, []LegendEntry, error) {
	type column struct {
		shape grid.Shape
		h     *big.Float
		hRel  float64 // the heuristic's own 95% relative half-width (sampled bands)
	}
	var cols []column
	for _, h := range r.Heuristics {
		_, _, known := r.KnownGrids(h.Shape)
		if _, ok := r.MostPrecise(h.Shape); known || ok {
			cols = append(cols, column{h.Shape, new(big.Float).SetRat(h.Estimate), h.RelHalfWidth})
		}
	}
	if len(cols) == 0 {
		return nil, nil, fmt.Errorf("heuristic: %w: no shape with both a heuristic and a count", ErrNoData)
	}
	// No title: the legend takes its place, and the caption says it.
	p := newPlot("", "boxes, grid", "count / heuristic - 1 (%)")
	var legend []LegendEntry
	names := make([]string, len(cols))
	var exactPts plotter.XYs
	var mcPts, mcErr errPoints
	ymin, ymax := 0.0, 0.0 // the heuristic line is always shown
	for i, c := range cols {
		names[i] = shapeLabel(c.shape)
		if n, _, ok := r.KnownGrids(c.shape); ok {
			q := new(big.Rat).Quo(new(big.Rat).SetInt(n), heuristicRat(r, c.shape))
			y := 100 * (ratFloat(q) - 1)
			exactPts = append(exactPts, plotter.XY{X: float64(i) - 0.15, Y: y})
			ymin, ymax = math.Min(ymin, y), math.Max(ymax, y)
		}
		if e, ok := r.MostPrecise(c.shape); ok {
			// Ratios to the heuristic are near 1 even where the counts
			// pass the float64 range.
			excess := func(x *big.Float) float64 { return 100 * (present.Float64(new(big.Float).Quo(x, c.h)) - 1) }
			y, lo, hi := excess(e.Estimate), excess(e.CILow), excess(e.CIHigh)
			if c.hRel > 0 {
				// A sampled heuristic's half-width adds in quadrature
				// (independent estimates; the ratio's relative error).
				own := (100 + y) * c.hRel
				lo, hi = y-math.Hypot(y-lo, own), y+math.Hypot(hi-y, own)
			}
			x := float64(i) + 0.15
			mcPts = append(mcPts, [4]float64{x, y, 0, 0})
			mcErr = append(mcErr, [4]float64{x, y, y - lo, hi - y})
			ymin, ymax = math.Min(ymin, lo), math.Max(ymax, hi)
		}
	}
	if len(mcPts) > 0 {
		s, err := plotter.NewScatter(mcPts)
		if err != nil {
			return nil, nil, err
		}
		s.GlyphStyle = draw.GlyphStyle{Color: colour(1), Radius: 2.5, Shape: draw.BoxGlyph{}}
		bars, err := plotter.NewYErrorBars(mcErr)
		if err != nil {
			return nil, nil, err
		}
		bars.LineStyle.Color = colour(1)
		p.Add(bars, s)
		legend = append(legend, LegendEntry{"Monte Carlo, most precise, with its 95% interval", []plot.Thumbnailer{s}})
	}
	if len(exactPts) > 0 {
		s, err := plotter.NewScatter(exactPts)
		if err != nil {
			return nil, nil, err
		}
		s.GlyphStyle = draw.GlyphStyle{Color: colour(0), Radius: 3, Shape: draw.CircleGlyph{}}
		p.Add(s)
		legend = append([]LegendEntry{{"exact count (ours or published)", []plot.Thumbnailer{s}}}, legend...)
	}
	h, err := plotter.NewLine(plotter.XYs{{X: -0.5, Y: 0}, {X: float64(len(cols)) - 0.5, Y: 0}})
	if err != nil {
		return nil, nil, err
	}
	h.Color, h.Width, h.Dashes = grey, 0.8, []vg.Length{3, 2}
	p.Add(h)
	legend = append(legend, LegendEntry{"heuristic", []plot.Thumbnailer{h}})
	p.NominalX(names...)
	p.X.Min, p.X.Max = -0.5, float64(len(cols))-0.5
	scale := symlogScale{Linear: HeuristicLinearWithin}
	p.Y.Scale = scale
	p.Y.Tick.Marker = symlogTicks{Linear: HeuristicLinearWithin}
	// Pad by 5% of the drawn height at each end, in the scale's own units.
	lo, hi := scale.f(ymin), scale.f(ymax)
	d := 0.05 * (hi - lo)
	p.Y.Min, p.Y.Max = scale.inverse(lo-d), scale.inverse(hi+d)
	p.Add(plotter.NewGrid())
	return p, legend, nil
}

// HeuristicLinearWithin is the excess over the heuristic, in per cent,
// within which the heuristic figure's vertical scale is linear; beyond it
// the scale is logarithmic (symlogScale).
const HeuristicLinearWithin = 0.1

// symlogScale is a symmetric logarithmic scale: y maps to
// sign(y)·log₁₀(1 + |y|/Linear), nearly linear within ±Linear and
// logarithmic beyond, defined for negative values too.
type symlogScale struct{ Linear float64 }

func (s symlogScale) f(y float64) float64 {
	return math.Copysign(math.Log10(1+math.Abs(y)/s.Linear), y)
}

func (s symlogScale) inverse(v float64) float64 {
	return math.Copysign(s.Linear*(math.Pow(10, math.Abs(v))-1), v)
}

// Normalize implements plot.Normalizer.
func (s symlogScale) Normalize(min, max, y float64) float64 {
	lo, hi := s.f(min), s.f(max)
	return (s.f(y) - lo) / (hi - lo)
}

// symlogTicks marks a symlogScale: 0, and ±1, 2, 5 × 10^k from Linear
// up, labelled while the labels keep apart (at least a decade of the
// scale between them beyond the linear part).
type symlogTicks struct{ Linear float64 }

func (t symlogTicks) Ticks(min, max float64) []plot.Tick {
	var mags []float64
	start := math.Floor(math.Log10(t.Linear))
	for k := start; ; k++ {
		done := false
		for _, m := range []float64{1, 2, 5} {
			v := m * math.Pow(10, k)
			if v < t.Linear*(1-1e-9) {
				continue
			}
			if v > math.Max(-min, max) {
				done = true
				break
			}
			mags = append(mags, v)
		}
		if done {
			break
		}
	}
	label := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	ticks := []plot.Tick{{Value: 0, Label: "0"}}
	for _, v := range mags {
		for _, y := range []float64{-v, v} {
			if y < min || y > max {
				continue
			}
			ticks = append(ticks, plot.Tick{Value: y, Label: label(y)})
		}
	}
	slices.SortFunc(ticks, func(a, b plot.Tick) int { return cmp.Compare(a.Value, b.Value) })
	return ticks
}

func heuristicRat(r *present.Results, s grid.Shape) *big.Rat {
	h, _ := r.HeuristicFor(s)
	return h.Estimate
}

// errPoints are points with asymmetric vertical errors.
type errPoints [][4]float64 // x, y, below, above

func (e errPoints) Len() int                        { return len(e) }
func (e errPoints) XY(i int) (float64, float64)     { return e[i][0], e[i][1] }
func (e errPoints) YError(i int) (float64, float64) { return e[i][2], e[i][3] }

// Classes draws each of the equivalence classes of first bands as a point:
// how many of the 36,288 reduced bands it holds against how many grids
// each of its bands completes to.
func Classes(r *present.Results) (*plot.Plot, error) {
	if len(r.Classes) == 0 {
		return nil, fmt.Errorf("classes: %w: no class table", ErrNoData)
	}
	p := newPlot(fmt.Sprintf("The %d classes of first bands", len(r.Classes)),
		"class size (reduced first bands)", "completions per band (billions of grids)")
	logAxis(&p.X)
	var xys plotter.XYs
	for _, c := range r.Classes {
		xys = append(xys, plotter.XY{X: float64(c.Size), Y: intFloat(c.Completions) / 1e9})
	}
	s, err := plotter.NewScatter(xys)
	if err != nil {
		return nil, err
	}
	s.GlyphStyle = draw.GlyphStyle{Color: colour(0), Radius: 2.5, Shape: draw.CircleGlyph{}}
	p.Add(plotter.NewGrid(), s)
	xmin, xmax, ymin, ymax := plotter.XYRange(xys)
	pad(&p.X, xmin, xmax, 0.04)
	pad(&p.Y, ymin, ymax, 0.06)
	return p, nil
}

// Funnel draws the number of first-band classes left after each
// reduction step as horizontal bars on a log axis, first step at the top,
// with each count printed beside its bar.
func Funnel(r *present.Results) (*plot.Plot, error) {
	n := len(r.Funnel)
	if n == 0 {
		return nil, fmt.Errorf("funnel: %w: no funnel table", ErrNoData)
	}
	p := newPlot("Reduction of the first-band catalogue", "first bands or classes (log scale)", "")
	logAxis(&p.X)
	names := make([]string, n)
	var tips plotter.XYs
	var labels []string
	maxCount := 1.0
	for i, lv := range r.Funnel {
		y := float64(n - 1 - i) // first level on top
		names[n-1-i] = lv.Name
		v := float64(lv.Classes)
		maxCount = math.Max(maxCount, v)
		bar, err := plotter.NewPolygon(plotter.XYs{{X: 1, Y: y - 0.3}, {X: v, Y: y - 0.3}, {X: v, Y: y + 0.3}, {X: 1, Y: y + 0.3}})
		if err != nil {
			return nil, err
		}
		bar.Color = colour(0)
		bar.LineStyle.Width = 0
		p.Add(bar)
		tips = append(tips, plotter.XY{X: v, Y: y})
		labels = append(labels, typeset.Group(strconv.FormatInt(lv.Classes, 10), ","))
	}
	lbl, err := plotter.NewLabels(plotter.XYLabels{XYs: tips, Labels: labels})
	if err != nil {
		return nil, err
	}
	for i := range lbl.TextStyle {
		lbl.TextStyle[i].Font.Size = fontSize - 1
		lbl.TextStyle[i].YAlign = draw.YCenter
	}
	lbl.Offset = vg.Point{X: vg.Points(4)}
	p.Add(lbl)
	p.NominalY(names...)
	p.Y.Min, p.Y.Max = -0.5, float64(n)-0.5
	p.X.Min, p.X.Max = 1, maxCount*30 // room for the printed count
	return p, nil
}

// UnitTimes plots the CPU time of each committed 2×6 unit against its place
// in the kernel's plan (log scale): the plan puts the largest half tables
// first, so the cost falls along it.
func UnitTimes(r *present.Results) (*plot.Plot, error) {
	if len(r.Units2x6) == 0 {
		return nil, fmt.Errorf("unit_times: %w: this run did not count 2×6", ErrNoData)
	}
	p := newPlot("CPU time of each 2×6 work unit (32 orbits)", "unit, in the plan's order", "CPU seconds (log scale)")
	logAxis(&p.Y)
	pts := make(plotter.XYs, len(r.Units2x6))
	lo, hi := math.Inf(1), 0.0
	for i, u := range r.Units2x6 {
		v := math.Max(u.CPUSeconds, 0.01) // a log axis has no 0
		pts[i] = plotter.XY{X: float64(i), Y: v}
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	sc, err := plotter.NewScatter(pts)
	if err != nil {
		return nil, err
	}
	sc.GlyphStyle.Color = colour(0)
	sc.GlyphStyle.Radius = vg.Points(1.2)
	sc.GlyphStyle.Shape = draw.CircleGlyph{}
	p.Add(sc)
	p.X.Min, p.X.Max = 0, float64(len(pts))
	p.Y.Min, p.Y.Max = lo/1.5, hi*1.5
	return p, nil
}
