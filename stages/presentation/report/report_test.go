package report

import (
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/exact"
	"github.com/sudoku-census/sudoku-census/stages/knuth"
	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
	"github.com/sudoku-census/sudoku-census/stages/presentation/figures"
	"github.com/sudoku-census/sudoku-census/stages/presentation/numbers"
	"github.com/sudoku-census/sudoku-census/stages/presentation/present"
	"github.com/sudoku-census/sudoku-census/stages/presentation/typeset"
)

func bigInt(t testing.TB, s string) *big.Int {
	t.Helper()
	n, ok := new(big.Int).SetString(s, 10)
	if !ok {
		t.Fatalf("bad integer %q", s)
	}
	return n
}

// published is input carrying the published 9×9 values (Felgenhauer and
// Jarvis; Kilfoil's estimate as the thesis works it out) and one Monte
// Carlo summary.
func published(t testing.TB) *present.Results {
	n := bigInt(t, "6670903752021072936960")
	kilfoil := new(big.Rat).SetFrac(
		new(big.Int).Exp(big.NewInt(948109639680), big.NewInt(6), nil),
		new(big.Int).Exp(big.NewInt(362880), big.NewInt(9), nil))
	est, _ := new(big.Float).SetString("6.675149464993393541120e21")
	se, _ := new(big.Float).SetString("6.8e19")
	lo, _ := new(big.Float).SetString("6.5419e21")
	hi, _ := new(big.Float).SetString("6.8084e21")
	return &present.Results{
		Total: &present.Total{Grids: n, CanonicalGrids: new(big.Int).Quo(n, big.NewInt(362880)),
			ReducedCount: bigInt(t, "3546146300288"), ReducedCountFactors: "2^7 × 27704267971"},
		Funnel: []present.FunnelLevel{{Level: 0, Name: "first bands", Classes: 2612736, PaperClasses: 2612736},
			{Level: 1, Name: "lexicographic", Classes: 36288, PaperClasses: 36288}},
		Heuristics: []present.Heuristic{{Shape: present.Classic, BandCount: big.NewInt(948109639680),
			StackCount: big.NewInt(948109639680), Estimate: kilfoil},
			{Shape: grid.Shape{R: 4, C: 4}, Estimate: new(big.Rat).SetFrac(bigInt(t, "5958"+strings.Repeat("0", 95)), big.NewInt(1))}},
		Estimators: []present.Estimator{{Method: knuth.Stage.Name, Shape: present.Classic, Variant: "hybrid", Samples: 1000000,
			Estimate: est, StdError: se, CILow: lo, CIHigh: hi, RelativeError: 0.0102, RelVarWork: 1234},
			{Method: knuth.Stage.Name, Shape: grid.Shape{R: 4, C: 4}, Variant: "cover", Samples: 1000, Estimate: big.NewFloat(6.1e98),
				StdError: big.NewFloat(0.3e98), CILow: big.NewFloat(5.5e98), CIHigh: big.NewFloat(6.7e98), RelativeError: 0.05}},
	}
}

func TestNumbers(t *testing.T) {
	tex, err := numbers.TeX(published(t), []string{"funnel", "error_work"}, []string{"shapes"})
	if err != nil {
		t.Fatal(err)
	}
	s := string(tex)
	for _, want := range []string{
		`\newcommand{\GridsExact}{\ensuremath{6{,}670{,}903{,}752{,}021{,}072{,}936{,}960}}`,
		`\newcommand{\GridsExactSci}{\ensuremath{6.671\times 10^{21}}}`,
		`\newcommand{\ReducedCountFactors}{\ensuremath{2^{7}\times 27{,}704{,}267{,}971}}`,
		`\newcommand{\OmegaSizeSci}{\ensuremath{1.091\times 10^{50}}}`,
		`\newcommand{\OmegaFraction}{\ensuremath{6.11\times 10^{-29}}}`,
		`\newcommand{\CanonicalGrids}{\ensuremath{18{,}383{,}222{,}420{,}692{,}992}}`,
		`\newcommand{\KilfoilEstimate}{\ensuremath{6{,}657{,}084{,}616{,}885{,}512{,}582{,}463.488}}`,
		`\newcommand{\KilfoilGapPercent}{\ensuremath{0.21}}`, // (N − K)/N = 0.00207…
		`\newcommand{\KilfoilRatio}{\ensuremath{1.00208}}`,
		`\newcommand{\FunnelZero}{\ensuremath{2{,}612{,}736}}`,
		`\newcommand{\FunnelLast}{\ensuremath{36{,}288}}`,
		`\newcommand{\KnuthThreeXThreeHybridEstimate}{\ensuremath{6.675\times 10^{21}}}`,
		`\newcommand{\KnuthBestVariant}{\texttt{hybrid}}`,
		`\newcommand{\KnuthBestRelErrPercent}{\ensuremath{1.02}}`,
		`\newcommand{\KnuthBestDeviationPercent}{\ensuremath{0.06}}`,
		`\newcommand{\KnuthBestCovers}{contains}`,
		`\newcommand{\McFourXFourEstimate}{\ensuremath{6.100\times 10^{98}}}`,
		`\newcommand{\McFourXFourHeuristicCovers}{contains}`,
		`\newif\ifHaveMcFourXFour\HaveMcFourXFourtrue`,
		`\newif\ifHaveMcFourXFourHeuristic\HaveMcFourXFourHeuristictrue`,
		`\newcommand{\McFourXFourHeuristicRatio}{\ensuremath{1.024}}`, // 6.1e98/5.958e98
		`\HaveFigErrorWorktrue`, `\HaveTableShapestrue`, `\HaveExacttrue`, `\HaveKnuthtrue`, `\HaveKnuthBesttrue`,
	} {
		if !strings.Contains(s, want) {
			t.Errorf("numbers.tex lacks %s", want)
		}
	}
	// The 16×16 interval holds the heuristic, so the text does not point to a § mark.
	if strings.Contains(s, `HaveMcFourXFourHeuristicMissedtrue`) {
		t.Errorf("numbers.tex flags a missed heuristic for an interval that holds it")
	}
	r := published(t)
	r.Estimators[1].CILow, r.Estimators[1].CIHigh = big.NewFloat(6.05e98), big.NewFloat(6.15e98)
	if tex, err = numbers.TeX(r, nil, nil); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(tex), `\HaveMcFourXFourHeuristicMissedtrue`) {
		t.Errorf("numbers.tex does not flag an interval that excludes the heuristic")
	}
	for _, line := range strings.Split(s, "\n") {
		if strings.HasPrefix(line, `\newcommand{\`) {
			name := line[len(`\newcommand{\`):strings.Index(line, "}")]
			for _, r := range name {
				if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
					t.Errorf("macro name %q is not a TeX control word", name)
				}
			}
		}
	}
}

// Where only the literature has the count (2×6 here), the shapes table
// cites it and says whether the estimate's interval holds it, and the
// macros say so too; a shape nobody has counted (4×4) is named among the
// first estimates with an error bar.
func TestPublishedComparison(t *testing.T) {
	r := published(t)
	six := grid.Shape{R: 2, C: 6}
	f := func(x float64) *big.Float { return big.NewFloat(x) }
	r.Estimators = append(r.Estimators,
		present.Estimator{Method: knuth.Stage.Name, Shape: six, Variant: "se", Settings: "B=30", Samples: 1000,
			Estimate: f(3.85e49), StdError: f(0.02e49), CILow: f(3.81e49), CIHigh: f(3.89e49), RelativeError: 0.0052},
		present.Estimator{Method: knuth.Stage.Name, Shape: six, Variant: "mrv", Samples: 1000,
			Estimate: f(3.5e49), StdError: f(0.1e49), CILow: f(3.3e49), CIHigh: f(3.7e49), RelativeError: 0.029})
	tex, err := numbers.TeX(r, nil, []string{"shapes"})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`\newif\ifHaveMcTwoXSixKnown\HaveMcTwoXSixKnowntrue`,
		`\newcommand{\McTwoXSixCovers}{contains}`, // the se estimate, the most precise
		`\newcommand{\McTwoXSixKnownCite}{Pettersen2006}`,
		`\newcommand{\McTwoXSixEstimator}{\texttt{knuth/se}}`,
		`\newcommand{\UnknownShapes}{$4\times4$}`,
		`\HaveUnknownShapestrue`,
	} {
		if !strings.Contains(string(tex), want) {
			t.Errorf("numbers.tex lacks %s", want)
		}
	}
	shapes := string(ShapesTable(r))
	// The count is quoted (the pipeline did not compute it) with its
	// source; 9×9 is computed here and agrees with its source.
	if !strings.Contains(shapes, `$3.82963\times 10^{49}$ & quoted~\cite{Pettersen2006}`) || !strings.Contains(shapes, `(\pm 1.02\%)$ & $1.02$ & yes`) ||
		!strings.Contains(shapes, `936{,}960$ & here~\cite{FelgenhauerJarvis2005}`) {
		t.Errorf("shapes table:\n%s", shapes)
	}
	// The 16×16 interval holds the heuristic: no § mark, no note.
	if strings.Contains(shapes, `\S`) {
		t.Errorf("shapes table marks an interval that holds the heuristic:\n%s", shapes)
	}
	// An interval that excludes the heuristic is marked, with its tail
	// diagnostics in a note.
	for i, e := range r.Estimators {
		if e.Shape == (grid.Shape{R: 4, C: 4}) {
			r.Estimators[i].CILow, r.Estimators[i].CIHigh = f(6.05e98), f(6.15e98)
			r.Estimators[i].ESS, r.Estimators[i].MaxShare, r.Estimators[i].ParetoK = 12.5, 0.25, 0.91
		}
	}
	if shapes := string(ShapesTable(r)); !strings.Contains(shapes, `^{\S}$`) || !strings.Contains(shapes, `4×4: ESS $12.5$`) && !strings.Contains(shapes, `4$\times$4: ESS $12.5$`) || !strings.Contains(shapes, `\hat k = 0.91`) {
		t.Errorf("an interval excluding the heuristic is not marked with its diagnostics:\n%s", shapes)
	}
	// An interval that misses is reported as missing.
	r.Estimators[len(r.Estimators)-2].CIHigh = f(3.82e49)
	if shapes := string(ShapesTable(r)); !strings.Contains(shapes, `\%)$ & $1.02$ & no`) {
		t.Errorf("a missed count is not reported:\n%s", shapes)
	}
	est := string(EstimatorsTable(r))
	for _, want := range []string{`\texttt{knuth/se} (B=30)`,
		// Rows by box shape, with the count and its source.
		`\multicolumn{9}{l}{\emph{2$\times$6 boxes, 12$\times$12 grid}: $3.82963\times 10^{49}$ grids~\cite{Pettersen2006}}`,
		`\multicolumn{9}{l}{\emph{4$\times$4 boxes, 16$\times$16 grid}: no count known}`,
		// z = (3.5e49 − 3.8296e49)/0.1e49.
		`$[3.30\times 10^{49}, 3.70\times 10^{49}]$ & $2.90$ & $-3.30$ &`} {
		if !strings.Contains(est, want) {
			t.Errorf("estimators table lacks %s:\n%s", want, est)
		}
	}
}

// A run with no successful sample is reported as such, with the bound on
// its chance of success, never as the interval [0, 0]; a run whose samples
// were all equal is marked and explained.
func TestNoSuccessAndZeroVariance(t *testing.T) {
	r := published(t)
	four := grid.Shape{R: 2, C: 2}
	r.Estimators = append(r.Estimators,
		present.Estimator{Method: knuth.Stage.Name, Shape: present.Classic, Variant: "random", Samples: 2000,
			Estimate: new(big.Float), StdError: new(big.Float), CILow: new(big.Float), CIHigh: new(big.Float)},
		present.Estimator{Method: knuth.Stage.Name, Shape: four, Variant: "hybrid", Samples: 2000, Estimate: big.NewFloat(288),
			StdError: new(big.Float), CILow: big.NewFloat(288), CIHigh: big.NewFloat(288)})
	est := string(EstimatorsTable(r))
	// 1 − 0.025^(1/2000) = 1.843…e-3.
	if !strings.Contains(est, `\texttt{knuth/random} & $2{,}000$ & \multicolumn{4}{l}{no success; $p<1.8\times 10^{-3}$} & --`) {
		t.Errorf("the failed run is not reported as such:\n%s", est)
	}
	if strings.Contains(est, `[0, 0]`) {
		t.Errorf("an interval [0, 0] is reported:\n%s", est)
	}
	if !strings.Contains(est, `\texttt{knuth/hybrid}$^{\circ}$ & $2{,}000$ & $2.880\times 10^{2}$`) || !strings.Contains(est, `$^{\circ}$Every sample was the same number`) {
		t.Errorf("the zero-variance run is not marked and explained:\n%s", est)
	}
	// The HTML report prints the same cells: the bound, the mark and the
	// shape headings too.
	var html []string
	for _, row := range present.EstimatorsTable(r).Rows {
		for _, c := range row {
			h, err := typeset.HTMLPieces(c.Pieces)
			if err != nil {
				t.Fatal(err)
			}
			html = append(html, h)
		}
	}
	page := strings.Join(html, "|")
	for _, want := range []string{`no success; <span class="num">p &lt; 1.8 × 10<sup>−3</sup></span>`,
		`<code>knuth/hybrid</code><span class="num"><sup>°</sup></span>`, `<em>2×2 boxes, 4×4 grid</em>: <span class="num">288</span> grids`} {
		if !strings.Contains(page, want) {
			t.Errorf("the HTML estimators table lacks %s:\n%s", want, page)
		}
	}
	tex, err := numbers.TeX(r, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`\newif\ifHaveNoSuccessKnuthThreeXThreeRandom\HaveNoSuccessKnuthThreeXThreeRandomtrue`,
		`\newcommand{\KnuthThreeXThreeRandomNoSuccessBound}{\ensuremath{1.8\times 10^{-3}}}`,
		`\newcommand{\NoSuccessRuns}{\texttt{knuth/random} ($3\times3$ boxes)}`,
		`\newif\ifHaveZeroVarianceKnuthTwoXTwoHybrid\HaveZeroVarianceKnuthTwoXTwoHybridtrue`,
		`\newcommand{\ZeroVarianceRuns}{\texttt{knuth/hybrid} ($2\times2$ boxes)}`,
	} {
		if !strings.Contains(string(tex), want) {
			t.Errorf("numbers.tex lacks %s", want)
		}
	}
}

func TestTables(t *testing.T) {
	r := published(t)
	r.Shapes = []present.ShapeCount{{Shape: grid.Shape{R: 2, C: 2}, Grids: big.NewInt(288)}}
	r.Heuristics = append(r.Heuristics, present.Heuristic{Shape: grid.Shape{R: 2, C: 2}, Estimate: big.NewRat(3981312, 15625)})
	r.Classes = []present.Class{{Class: 1, Size: 2, FirstBands: 144, SecondBands: 10, Completions: big.NewInt(97891328)}}
	shapes := string(ShapesTable(r))
	if !strings.Contains(shapes, `$6{,}670{,}903{,}752{,}021{,}072{,}936{,}960$`) || !strings.Contains(shapes, `$1.1303$`) {
		t.Errorf("shapes table:\n%s", shapes) // 288/(3981312/15625) = 1.13028…
	}
	// A sampled heuristic shows its half-width: (2.4 − 2.3)/(2 × 2.35) = 2.13%.
	r.Heuristics = append(r.Heuristics, present.Heuristic{Shape: grid.Shape{R: 6, C: 5}, Sampled: true,
		Estimate: big.NewRat(235, 100), Low: big.NewRat(23, 10), High: big.NewRat(24, 10), RelHalfWidth: 0.1 / 4.7})
	if shapes := string(ShapesTable(r)); !strings.Contains(shapes, `^{*}$`) || !strings.Contains(shapes, `$\pm 2.13\%$ (6×5)`) && !strings.Contains(shapes, `$\pm 2.13\%$ (6$\times$5)`) {
		t.Errorf("shapes table, sampled heuristic without its half-width:\n%s", shapes)
	}
	classes := string(ClassesTable(r))
	if !strings.Contains(classes, `\sum = 14{,}096{,}351{,}232`) { // 144 × 97891328
		t.Errorf("classes table:\n%s", classes)
	}
	for name, tex := range map[string][]byte{"funnel": FunnelTable(r), "shapes": ShapesTable(r), "classes": ClassesTable(r)} {
		s := string(tex)
		if strings.Count(s, `\begin{tabular}`) != 1 || !strings.HasSuffix(s, "\\end{tabular}\n") {
			t.Errorf("%s: not one tabular:\n%s", name, s)
		}
	}
	// The tables longer than a page repeat their head on every page.
	for name, tex := range map[string][]byte{"estimators": EstimatorsTable(r), "correction": CorrectionTable(r)} {
		checkLongTable(t, name, string(tex))
	}
	arts := string(ArtifactsTable([]pipeline.ArtifactEntry{
		{Name: "total", Path: "data/total.parquet", SHA256: strings.Repeat("ab", 32), Size: 1234, Rows: 1, Stage: exact.Stage.Name, Fingerprint: strings.Repeat("cd", 32)},
		{Name: "fig", Path: "figures/funnel.pdf", SHA256: strings.Repeat("ef", 32), Size: 99, Rows: -1, Stage: figures.Stage.Name, Fingerprint: strings.Repeat("01", 32)},
	}))
	for _, want := range []string{`\texttt{data/total.parquet} & exact & $1{,}234$ & $1$ & \texttt{abab`, `figures & \texttt{0101`} {
		if !strings.Contains(arts, want) {
			t.Errorf("artifacts table lacks %q:\n%s", want, arts)
		}
	}
}

// checkLongTable checks that tex is one longtable whose head row stands on
// the first page and again, under a "continued" line, on every later one.
func checkLongTable(t *testing.T, name, tex string) {
	t.Helper()
	begin := strings.Index(tex, `\begin{longtable}`)
	first := strings.Index(tex, `\endfirsthead`)
	head := strings.Index(tex, `\endhead`)
	foot := strings.Index(tex, `\endfoot`)
	last := strings.Index(tex, `\endlastfoot`)
	if strings.Count(tex, `\begin{longtable}`) != 1 || !strings.HasSuffix(tex, "\\end{longtable}\n") ||
		!(begin >= 0 && begin < first && first < head && head < foot && foot < last) {
		t.Errorf("%s: not one longtable with \\endfirsthead, \\endhead, \\endfoot and \\endlastfoot in order:\n%s", name, tex)
		return
	}
	firstHead := tex[strings.Index(tex, `\toprule`):first]
	if !strings.Contains(tex[first:head], "(continued)") || !strings.Contains(tex[first:head], firstHead) ||
		!strings.Contains(tex[head:foot], "continued on the next page") || !strings.Contains(tex[begin:first], `\censuslongcaption`) {
		t.Errorf("%s: the head %q is not repeated under a continued line:\n%s", name, firstHead, tex)
	}
}

// TestGenerate checks the stage's outputs from results, a figure index and
// inputs, without running the pipeline: every output once, in the order
// of Stage.Outputs; a \HaveFig flag for each figure drawn from data and
// none for a notice; every table flagged; the new index listed among the
// artifacts.
func TestGenerate(t *testing.T) {
	r := published(t)
	figs := []figures.Row{
		{Figure: "convergence", PDF: "figures/convergence.pdf", PNG: "figures/convergence.png", Notice: "convergence: no data"},
		{Figure: "error_work", PDF: "figures/error_work.pdf", PNG: "figures/error_work.png", Drawn: true},
		{Figure: "funnel", PDF: "figures/funnel.pdf", PNG: "figures/funnel.png", Drawn: true},
	}
	inputs := []pipeline.ArtifactEntry{
		{Name: figures.Index.Name, Path: figures.Index.Path, SHA256: strings.Repeat("12", 32), Size: 900, Rows: 3,
			Stage: figures.Stage.Name, Fingerprint: strings.Repeat("34", 32)},
	}
	files, err := generate(r, figs, inputs)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != len(Stage.Outputs) {
		t.Fatalf("%d files, the stage declares %d outputs", len(files), len(Stage.Outputs))
	}
	for i, f := range files {
		if f.file.Output.Path != Stage.Outputs[i].Path || f.file.Output.Name != Stage.Outputs[i].Name || len(f.data) == 0 {
			t.Errorf("file %d: %s (%d bytes), want %s", i, f.file.Path, len(f.data), Stage.Outputs[i].Path)
		}
	}
	numbers := string(files[0].data)
	for _, want := range []string{`\HaveFigErrorWorktrue`, `\HaveFigFunneltrue`, `\HaveTableFunneltrue`, `\HaveTableClassestrue`,
		`\HaveTableEstimatorstrue`, `\HaveTableShapestrue`} {
		if !strings.Contains(numbers, want) {
			t.Errorf("numbers.tex lacks %s", want)
		}
	}
	if strings.Contains(numbers, `HaveFigConvergence`) {
		t.Error("numbers.tex flags a figure drawn as a notice")
	}
	if arts := string(files[1].data); !strings.Contains(arts, `\texttt{data/figures.parquet} & figures & $900$ & $3$`) {
		t.Errorf("artifacts.tex lacks the figure index:\n%s", arts)
	}
}

// TestWriteForPaperBuild writes the generated files from the published
// fixture into $REPORT_OUT, to try a paper build without running the
// pipeline. It does nothing otherwise.
func TestWriteForPaperBuild(t *testing.T) {
	dir := os.Getenv("REPORT_OUT")
	if dir == "" {
		t.Skip("REPORT_OUT not set")
	}
	r := published(t)
	r.Shapes = []present.ShapeCount{{Shape: grid.Shape{R: 2, C: 2}, Grids: big.NewInt(288)}}
	r.Heuristics = append(r.Heuristics, present.Heuristic{Shape: grid.Shape{R: 2, C: 2}, Estimate: big.NewRat(3981312, 15625)})
	r.Classes = []present.Class{{Class: 1, Size: 2, FirstBands: 144, SecondBands: 10, Completions: big.NewInt(97891328)}}
	numbers, err := numbers.TeX(r, []string{"convergence", "error_work", "heuristic", "classes", "funnel"}, []string{"funnel", "classes", "estimators", "shapes"})
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{"numbers.tex": numbers, "funnel.tex": FunnelTable(r), "classes.tex": ClassesTable(r),
		"estimators.tex": EstimatorsTable(r), "shapes.tex": ShapesTable(r),
		"artifacts.tex": ArtifactsTable([]pipeline.ArtifactEntry{{Name: "total", Path: "data/total.parquet",
			SHA256: strings.Repeat("ab", 32), Size: 1234, Rows: 1, Stage: exact.Stage.Name, Fingerprint: strings.Repeat("cd", 32)}})}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// BenchmarkNumbers builds numbers.tex from the published values.
func BenchmarkNumbers(b *testing.B) {
	r := published(b)
	for b.Loop() {
		if _, err := numbers.TeX(r, nil, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// TestTablesAsPresent checks that the stage writes the tables of
// present.Tables, in order, each as present prints it: the HTML report
// shows those, and must show what the paper shows.
func TestTablesAsPresent(t *testing.T) {
	if len(tables) != len(present.Tables) {
		t.Fatalf("report writes %d tables, present.Tables has %d", len(tables), len(present.Tables))
	}
	r := &present.Results{}
	for i, tab := range tables {
		name := strings.TrimSuffix(filepath.Base(tab.file.Path), ".tex")
		if name != present.Tables[i].Name {
			t.Errorf("table %d: report writes %s, present.Tables has %s", i, name, present.Tables[i].Name)
		}
		if got, want := string(tab.write(r)), string(present.Tables[i].TeX(r)); got != want {
			t.Errorf("table %s: report writes\n%s\npresent prints\n%s", name, got, want)
		}
	}
}

// TestSymmetryDifference checks that a count of essentially different
// grids that differs from the literature is flagged, described with the
// signed difference in numbers.tex, and marked in the symmetry table, while
// an agreeing count is not.
func TestSymmetryDifference(t *testing.T) {
	r := published(t)
	one := big.NewInt(1)
	r.Symmetry = []present.EssentiallyDifferent{
		{Shape: grid.Shape{R: 2, C: 3}, GroupOrder: one, IdentityFixed: one, BurnsideSum: one, Count: big.NewInt(49), Literature: big.NewInt(49), LiteratureSource: "OEIS A291188"},
		{Shape: grid.Shape{R: 2, C: 5}, GroupOrder: one, IdentityFixed: one, BurnsideSum: one, Count: big.NewInt(1000), Literature: big.NewInt(1250), LiteratureSource: "OEIS A291188"},
		{Shape: grid.Shape{R: 5, C: 2}, GroupOrder: one, IdentityFixed: one, BurnsideSum: one, Count: big.NewInt(1000), Literature: big.NewInt(1250), LiteratureSource: "OEIS A291188"},
	}
	tex, err := numbers.TeX(r, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`\HaveSymmetryDifferencetrue`,
		`\newcommand{\SymmetryDifferences}{$2\times5$ and $5\times2$ boxes: $1{,}000$ here against $1{,}250$ in OEIS A291188 ($250$ fewer)}`} {
		if !strings.Contains(string(tex), want) {
			t.Errorf("numbers.tex lacks %s:\n%s", want, tex)
		}
	}
	table := string(present.SymmetryTable(r).TeX())
	if strings.Count(table, `^{*}`) != 3 || !strings.Contains(table, "differs from the published count (OEIS A291188)") {
		t.Errorf("symmetry table: want the two differing counts and the note marked:\n%s", table)
	}
	r.Symmetry = r.Symmetry[:1]
	if tex, _ := numbers.TeX(r, nil, nil); strings.Contains(string(tex), "SymmetryDifference") {
		t.Errorf("numbers.tex flags a difference where every count agrees")
	}
}

// TestSymmetryNew checks that a count nobody has published (2×6 and 4×3
// here) is flagged as new in numbers.tex, with its shape and count and the
// CPU time of its method's family (4×3 under 3×4, whose classes it takes),
// and marked † in the symmetry table with its note, while published counts
// are not.
func TestSymmetryNew(t *testing.T) {
	r := published(t)
	one := big.NewInt(1)
	r.Symmetry = []present.EssentiallyDifferent{
		{Shape: grid.Shape{R: 2, C: 3}, GroupOrder: one, IdentityFixed: one, BurnsideSum: one, Count: big.NewInt(49), Literature: big.NewInt(49), LiteratureSource: "OEIS A291188"},
		{Shape: grid.Shape{R: 2, C: 6}, GroupOrder: one, IdentityFixed: one, BurnsideSum: one, Count: big.NewInt(123456), BundleCPUSeconds: 9000},
		{Shape: grid.Shape{R: 4, C: 3}, GroupOrder: one, IdentityFixed: one, BurnsideSum: one, Count: big.NewInt(7), BundleCPUSeconds: 3600},
	}
	tex, err := numbers.TeX(r, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`\HaveSymmetryNewtrue`, `\newcommand{\SymmetryNewCounts}{$2\times6$ boxes ($123{,}456$) and $4\times3$ boxes ($7$)}`,
		`\HaveSymmetryNewTwoXSixtrue`, `\newcommand{\SymmetryNewTwoXSixCPUHours}{\ensuremath{2.5}}`,
		`\HaveSymmetryNewThreeXFourtrue`, `\newcommand{\SymmetryNewThreeXFourCPUHours}{\ensuremath{1.0}}`} {
		if !strings.Contains(string(tex), want) {
			t.Errorf("numbers.tex lacks %s:\n%s", want, tex)
		}
	}
	table := string(present.SymmetryTable(r).TeX())
	if strings.Count(table, `^{\dagger}`) != 3 || !strings.Contains(table, "new: no count has been published") || strings.Contains(table, `^{*}`) {
		t.Errorf("symmetry table: want the new count and the note marked †:\n%s", table)
	}

	// A shape and its transpose are named together, with their one count,
	// and a transpose whose count differs is refused.
	r.Symmetry = append(r.Symmetry, present.EssentiallyDifferent{Shape: grid.Shape{R: 6, C: 2}, GroupOrder: one, IdentityFixed: one, BurnsideSum: one, Count: big.NewInt(123456), BundleCPUSeconds: 9000})
	tex, err = numbers.TeX(r, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := `\newcommand{\SymmetryNewCounts}{$2\times6$ and $6\times2$ boxes ($123{,}456$) and $4\times3$ boxes ($7$)}`; !strings.Contains(string(tex), want) {
		t.Errorf("numbers.tex lacks %s:\n%s", want, tex)
	}
	r.Symmetry[3].Count = big.NewInt(123457)
	if _, err := numbers.TeX(r, nil, nil); err == nil || !strings.Contains(err.Error(), "6x2") {
		t.Errorf("a transpose with another count: got %v, want an error naming 6x2", err)
	}
	r.Symmetry = r.Symmetry[:1]
	if tex, _ := numbers.TeX(r, nil, nil); strings.Contains(string(tex), "SymmetryNew") {
		t.Errorf("numbers.tex flags a new count where every count is published")
	}
	if table := string(present.SymmetryTable(r).TeX()); strings.Contains(table, "dagger") {
		t.Errorf("symmetry table marks a published count:\n%s", table)
	}
}

// The tails table shows the estimates of grids of side 15 and more, and
// only those, with their diagnostics.
func TestTailsTable(t *testing.T) {
	r := published(t)
	tails := string(TailsTable(r))
	if !strings.Contains(tails, `4$\times$4 & 16$\times$16`) || strings.Contains(tails, `9$\times$9`) || !strings.Contains(tails, `$\hat k$`) {
		t.Errorf("tails table:\n%s", tails)
	}
	// k̂ from 1/2 on, though not unreliable: marked ¶, with its note.
	for i, e := range r.Estimators {
		if e.Shape == (grid.Shape{R: 4, C: 4}) {
			r.Estimators[i].ParetoK, r.Estimators[i].Unreliable = 0.6, false
		}
	}
	if tails := string(TailsTable(r)); !strings.Contains(tails, `0.60^{\P}`) || !strings.Contains(tails, "no headline figure") {
		t.Errorf("tails table without the k-hat ≥ 1/2 mark:\n%s", tails)
	}
}

// A long run (data/knuth_long.parquet) carries the headline interval of
// its shape, though a default run of the same variant is there too: the
// Mc macros, the shapes and tails tables take it, with its samples and
// CPU time; the 9×9 variant comparison takes long runs with an
// efficiency interval only.
// Without one, the default run's interval and no long-run macro.
func TestLongRunHeadline(t *testing.T) {
	f := func(x float64) *big.Float { return big.NewFloat(x) }
	sixteen := grid.Shape{R: 4, C: 4}
	without := published(t)
	withLong := published(t)
	// A long run of the 4×4 cover walk, less precise than the default run
	// (so that only the rule, not the relative error, picks it), and one
	// of the 9×9 hybrid.
	withLong.Estimators = append(withLong.Estimators,
		present.Estimator{Method: knuth.Stage.Name, Shape: sixteen, Variant: "cover", Samples: 48000, Estimate: f(5.96e98),
			StdError: f(0.31e98), CILow: f(5.9e98), CIHigh: f(6.02e98), RelativeError: 0.052, RelVarWork: 5, ESS: 321.5,
			Long: &present.LongRun{Units: 3, CPUSeconds: 9000, Bundle: "data/bundles/knuth-long.parquet"}},
		present.Estimator{Method: knuth.Stage.Name, Shape: present.Classic, Variant: "hybrid", Samples: 64000, Estimate: f(6.6709e21),
			StdError: f(0.0005e21), CILow: f(6.6699e21), CIHigh: f(6.6719e21), RelativeError: 0.000075, RelVarWork: 1,
			Long: &present.LongRun{Units: 1, CPUSeconds: 42, Bundle: "data/bundles/knuth-long.parquet"}})
	tex, err := numbers.TeX(withLong, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := string(tex)
	for _, want := range []string{
		`\newif\ifHaveLongRuns\HaveLongRunstrue`,
		`\newif\ifHaveMcFourXFourLong\HaveMcFourXFourLongtrue`,
		`\newcommand{\McFourXFourEstimator}{\texttt{knuth/cover long}}`,
		`\newcommand{\McFourXFourSamples}{\ensuremath{48{,}000}}`,
		`\newcommand{\McFourXFourEstimate}{\ensuremath{5.960\times 10^{98}}}`,
		`\newcommand{\McFourXFourCILow}{\ensuremath{5.90\times 10^{98}}}`,
		`\newcommand{\McFourXFourHalfWidthPercent}{\ensuremath{10.19}}`, // 1.96 × 5.2%
		`\newcommand{\McFourXFourESS}{\ensuremath{322}}`,
		`\newcommand{\McFourXFourLongUnits}{\ensuremath{3}}`,
		`\newcommand{\McFourXFourLongCPUHours}{\ensuremath{2.50}}`,
		`\newcommand{\McThreeXThreeLongCPUHours}{\ensuremath{0.012}}`,
		`\newcommand{\McThreeXThreeSamples}{\ensuremath{64{,}000}}`,
		`\newcommand{\McThreeXThreeCovers}{contains}`,
		`\newcommand{\KnuthFourXFourCoverLongCPUHours}{\ensuremath{2.50}}`,
		`\newcommand{\KnuthFourXFourCoverEstimate}{\ensuremath{6.100\times 10^{98}}}`, // the default run keeps its macros
		`\newcommand{\LongRunCount}{\ensuremath{2}}`,
		`\newcommand{\LongUnits}{\ensuremath{4}}`,
		`\newcommand{\LongCPUHours}{\ensuremath{2.51}}`,
		`\newcommand{\LongBundle}{\texttt{data/bundles/knuth-long.parquet}}`,
		// No 9×9 run has an efficiency interval (the long hybrid's CPU
		// time gives none here), so none is compared, and the 9×9 run
		// named is the most precise: the long one.
		`\newcommand{\KnuthBestSamples}{\ensuremath{64{,}000}}`,
	} {
		if !strings.Contains(s, want) {
			t.Errorf("with a long run, numbers.tex lacks %s", want)
		}
	}
	if strings.Contains(s, "HaveKnuthBestMeasuredtrue") || strings.Contains(s, "HaveKnuthBestRankedtrue") {
		t.Error("a 9×9 comparison without an efficiency interval")
	}
	if !strings.Contains(s, `\newcommand{\LongRunList}{\texttt{cover} on $4\times4$ boxes ($48{,}000$ samples, $3$ units, $2.50$ CPU-hours) and \texttt{hybrid} on $3\times3$ boxes ($64{,}000$ samples, $1$ unit, $0.012$ CPU-hours)}`) {
		t.Errorf("long-run list:\n%s", s)
	}
	shapes := string(ShapesTable(withLong))
	if !strings.Contains(shapes, `5.96\times 10^{98}`) || strings.Contains(shapes, `6.10\times 10^{98}`) {
		t.Errorf("shapes table does not show the long 4×4 run:\n%s", shapes)
	}
	if tails := string(TailsTable(withLong)); !strings.Contains(tails, "knuth/cover long") || !strings.Contains(tails, "& $322$ &") {
		t.Errorf("tails table lacks the long run:\n%s", tails)
	}
	// The long-run table has both long runs, and no default run.
	if long := string(LongRunsTable(withLong)); !strings.Contains(long, `$48{,}000$ & $3$ & $2.50$`) || !strings.Contains(long, `$64{,}000$ & $1$ & $0.012$`) ||
		strings.Count(long, `\\`) != 3 {
		t.Errorf("long-run table:\n%s", long)
	}

	tex, err = numbers.TeX(without, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	s = string(tex)
	if strings.Contains(s, "Long") || !strings.Contains(s, `\newcommand{\McFourXFourEstimate}{\ensuremath{6.100\times 10^{98}}}`) ||
		!strings.Contains(s, `\newcommand{\McFourXFourEstimator}{\texttt{knuth/cover}}`) {
		t.Errorf("without a long run, numbers.tex should carry the default run and no long-run macro:\n%s", s)
	}
}
