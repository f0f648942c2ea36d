// Package htmlpage writes the HTML report: one self-contained page (no
// script, font or stylesheet from elsewhere) with the key results, the
// paper's tables (package present, printed by typeset as HTML), every
// figure's PNG as a data: URI, every number of numbers.tex by name, and the
// provenance of each: every number a link to the artifact rows it is read
// from (typeset.SourcedHTML), the input artifacts' SHA-256, sizes and
// rows, and each stage's version, configuration and fingerprint. Write is
// a pure function of its inputs: no clock, host name or commit.
package htmlpage

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html"
	"path/filepath"
	"sort"
	"strings"

	"github.com/parquet-go/parquet-go"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/presentation/figures"
	"github.com/sudoku-census/sudoku-census/stages/presentation/numbers"
	"github.com/sudoku-census/sudoku-census/stages/presentation/present"
	"github.com/sudoku-census/sudoku-census/stages/presentation/typeset"
)

// Inputs are the input artifacts' manifest entries, sorted by path, and the
// means to read one.
type Inputs struct {
	Entries []pipeline.ArtifactEntry
	Read    func(pipeline.ArtifactEntry) ([]byte, error)
}

// byPath returns the entry of the artifact at path.
func (in Inputs) byPath(path string) (pipeline.ArtifactEntry, bool) {
	for _, e := range in.Entries {
		if e.Path == path {
			return e, true
		}
	}
	return pipeline.ArtifactEntry{}, false
}

// ofStages returns the Parquet artifacts (the data, not figures or TeX) of
// the named stages, sorted by path.
func (in Inputs) ofStages(names []string) []pipeline.ArtifactEntry {
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	var out []pipeline.ArtifactEntry
	for _, e := range in.Entries {
		if want[e.Stage] && e.Rows >= 0 {
			out = append(out, e)
		}
	}
	return out
}

// stageInfo is what the page says of a stage that made an input.
type stageInfo struct {
	name, fingerprint, config, tool string
	version                         int
}

// stageInfos returns the stages of the Inputs, sorted by name: version,
// fingerprint and configuration, the last two from the footer of one of
// the stage's Parquet artifacts (whose hash, in the fingerprint of this
// stage, covers them); a stage with no Parquet artifact (report) has its
// version from the code and its fingerprint from the manifest.
func stageInfos(in Inputs, stages map[string]*pipeline.Stage) ([]stageInfo, error) {
	byName := map[string]*stageInfo{}
	var names []string
	for _, e := range in.Entries {
		if _, ok := byName[e.Stage]; !ok {
			st := stages[e.Stage]
			if st == nil {
				return nil, fmt.Errorf("artifact %s: stage %s is not required", e.Path, e.Stage)
			}
			byName[e.Stage] = &stageInfo{name: e.Stage, fingerprint: e.Fingerprint, version: st.Version, config: "none"}
			names = append(names, e.Stage)
		}
		info := byName[e.Stage]
		if e.Rows < 0 || info.tool != "" {
			continue
		}
		data, err := in.Read(e)
		if err != nil {
			return nil, err
		}
		pf, err := parquet.OpenFile(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return nil, fmt.Errorf("read artifact %s: %w", e.Path, err)
		}
		for _, kv := range pf.Metadata().KeyValueMetadata {
			switch kv.Key {
			case "census.config":
				info.config = kv.Value
			case "census.tool":
				info.tool = kv.Value
			case "census.version":
				if kv.Value != fmt.Sprint(info.version) {
					return nil, fmt.Errorf("artifact %s was made by version %s of stage %s, the code is version %d", e.Path, kv.Value, e.Stage, info.version)
				}
			}
		}
	}
	sort.Strings(names)
	out := make([]stageInfo, len(names))
	for i, n := range names {
		out[i] = *byName[n]
	}
	return out, nil
}

// anchor is the id of an artifact's row in the provenance table.
func anchor(path string) string {
	return "artifact-" + strings.NewReplacer("/", "-", ".", "-").Replace(path)
}

// page is the HTML being written.
type page struct {
	bytes.Buffer
	in   Inputs
	self *pipeline.Stage
	// base is the path from the page to the repository's root, which
	// the artifacts' paths are relative to: the links to them start
	// with it.
	base string
}

// sourced returns the HTML of a number with the link to the artifact
// rows it is read from (typeset.SourcedHTML).
func (w *page) sourced(inner string, from []typeset.Source) string {
	return typeset.SourcedHTML(inner, from, w.base)
}

func (w *page) f(format string, args ...any) { fmt.Fprintf(w, format, args...) }

// sources writes the paragraph naming the artifacts a part comes from.
func (w *page) sources(stages []string) {
	arts := w.in.ofStages(stages)
	if len(arts) == 0 {
		return
	}
	w.f(`<p class="source">From `)
	for i, e := range arts {
		if i > 0 {
			w.f(", ")
		}
		w.f(`<a href="#%s"><code>%s</code></a>`, anchor(e.Path), html.EscapeString(e.Path))
	}
	w.f(" (stages %s; hashes, versions and configuration under <a href=\"#provenance\">Provenance</a>).</p>\n", html.EscapeString(strings.Join(unique(stages), ", ")))
}

func unique(s []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range s {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// sha writes an artifact's SHA-256 in the element the browser test
// compares with the manifest.
func sha(e pipeline.ArtifactEntry) string {
	return fmt.Sprintf(`<code class="sha256" data-path="%s">%s</code>`, html.EscapeString(e.Path), e.SHA256)
}

// Write returns the page that stage self (whose first output is the page)
// writes for the results r, the figure index figs, the inputs in and the
// stages required (by name).
func Write(self *pipeline.Stage, r *present.Results, figs []figures.Row, in Inputs, stages map[string]*pipeline.Stage) ([]byte, error) {
	var drawn []string
	for _, f := range figs {
		if f.Drawn {
			drawn = append(drawn, f.Figure)
		}
	}
	var tableNames []string
	for _, t := range present.Tables {
		tableNames = append(tableNames, t.Name)
	}
	macros, err := numbers.Macros(r, drawn, tableNames)
	if err != nil {
		return nil, err
	}
	infos, err := stageInfos(in, stages)
	if err != nil {
		return nil, err
	}
	base, err := filepath.Rel(filepath.Dir(self.Outputs[0].Path), ".")
	if err != nil {
		return nil, fmt.Errorf("page %s: %w", self.Outputs[0].Path, err)
	}
	w := &page{in: in, self: self, base: filepath.ToSlash(base)}
	w.f(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>sudoku-census: results</title>
<style>
body { font-family: Georgia, serif; max-width: 70em; margin: 2em auto; padding: 0 1em; line-height: 1.4; color: #222; }
table { border-collapse: collapse; margin: 1em 0; font-size: 0.9em; display: block; max-width: 100%%; overflow-x: auto; }
th, td { padding: 0.2em 0.6em; text-align: left; vertical-align: top; }
table.numbers td:last-child, #artifacts td:nth-child(3), #artifacts td:nth-child(4) { text-align: right; }
th { border-bottom: 1px solid #444; }
thead tr { border-top: 2px solid #444; }
tbody tr:last-child { border-bottom: 2px solid #444; }
tr.rule td { border-top: 1px solid #999; padding: 0; }
.num { white-space: nowrap; }
code { font-size: 0.85em; word-break: break-all; }
code.config { white-space: pre-wrap; word-break: normal; overflow-wrap: anywhere; display: block; text-align: left; }
.source { font-size: 0.85em; color: #555; }
a.from { color: inherit; text-decoration: underline dotted #999; }
.headline { font-size: 1.3em; }
.headline .num, p .num { white-space: normal; overflow-wrap: anywhere; }
figure { margin: 1.5em 0; }
figure img { max-width: 100%%; height: auto; border: 1px solid #ddd; }
figcaption { font-size: 0.9em; }
h3 { margin-top: 2em; }
</style>
</head>
<body>
<h1>sudoku-census: results</h1>
<p>The results of one run of the sudoku-census pipeline (%s), written by its stage <code>%s</code>
(version %d) beside the paper, <code>paper/main.pdf</code>. Every number is printed by the code that prints it
in the paper. Every number read from an artifact links (dotted underline) to it, relative to this page in the
repository; its title (hover, or a long press) names the artifact and the rows as column=value pairs, for a derived
number (a z-score, a ratio) each source. Each table, figure and block of numbers also names its artifacts; their SHA-256,
and the version, configuration and fingerprint of the stage that made each, are under <a href="#provenance">Provenance</a>.
The page is self-contained: it loads nothing from anywhere.</p>
<nav><a href="#key">Key results</a> · <a href="#tables">Tables</a> · <a href="#figures">Figures</a> ·
<a href="#numbers">Every number the paper quotes</a> · <a href="#provenance">Provenance</a></nav>
`, html.EscapeString(pipeline.ToolVersion), self.Name, self.Version)

	if err := w.key(macros); err != nil {
		return nil, err
	}

	w.f("<h2 id=\"tables\">Tables</h2>\n")
	for _, t := range present.Tables {
		w.f("<h3>%s</h3>\n", html.EscapeString(strings.ToUpper(t.Name[:1])+t.Name[1:]))
		table, err := t.Make(r).HTML("table-"+t.Name, w.base)
		if err != nil {
			return nil, err
		}
		w.WriteString(table)
		w.f("<p>%s</p>\n", html.EscapeString(t.Caption))
		w.sources(t.Sources)
	}

	w.f("<h2 id=\"figures\">Figures</h2>\n")
	docs := map[string]string{}
	for _, o := range figures.Stage.Outputs {
		docs[o.Path] = strings.TrimSuffix(o.Doc, " (PNG)")
	}
	for _, f := range figs {
		e, ok := in.byPath(f.PNG)
		if !ok {
			return nil, fmt.Errorf("figure %s: %s is not an input", f.Figure, f.PNG)
		}
		png, err := in.Read(e)
		if err != nil {
			return nil, err
		}
		w.f(`<figure id="figure-%s">`+"\n", html.EscapeString(f.Figure))
		w.f(`<img alt="%s" src="data:image/png;base64,%s">`+"\n", html.EscapeString(docs[f.PNG]), base64.StdEncoding.EncodeToString(png))
		w.f("<figcaption><b>%s</b>: %s.", html.EscapeString(f.Figure), html.EscapeString(docs[f.PNG]))
		if !f.Drawn {
			w.f(" Not drawn from data in this run: %s.", html.EscapeString(f.Notice))
		}
		w.f(` <span class="source">The file <code>%s</code>, SHA-256 %s, drawn by stage <code>%s</code>.</span></figcaption>`+"\n</figure>\n",
			html.EscapeString(f.PNG), sha(e), html.EscapeString(e.Stage))
	}
	var drawnFrom []string
	for _, st := range present.Requires() {
		drawnFrom = append(drawnFrom, st.Name)
	}
	w.sources(drawnFrom)

	if err := w.numbers(macros); err != nil {
		return nil, err
	}
	w.provenance(infos)
	w.f("</body>\n</html>\n")
	return w.Bytes(), nil
}

// value prints a macro's value as HTML.
func value(m numbers.Macro) (string, error) { return typeset.HTMLPieces(m.Value) }

// key writes the key results: first what this census has that no one had
// published (the 2×6 count, the essentially different 12×12 grids, the
// disputed 2×5 count, the first error bars beyond 16×16), then
// the 9×9 results; each line when this run has its macros, with the
// stages its numbers come from.
func (w *page) key(macros []numbers.Macro) error {
	byName := map[string]numbers.Macro{}
	for _, m := range macros {
		if m.Kind == numbers.Number || m.Kind == numbers.Words {
			byName[m.Name] = m
		}
	}
	w.f("<h2 id=\"key\">Key results</h2>\n<ul class=\"headline\">\n")
	for _, k := range keyResults {
		// The first form whose macros this run has.
		for _, form := range k.forms {
			var vals []any
			var sources []string
			for _, name := range form.macros {
				m, ok := byName[name]
				if !ok {
					vals = nil
					break
				}
				v, err := value(m)
				if err != nil {
					return fmt.Errorf("macro %s: %w", name, err)
				}
				vals = append(vals, w.sourced(v, m.From))
				sources = append(sources, m.Sources...)
			}
			if vals == nil {
				continue
			}
			w.f(`<li id="key-%s">`+form.format+` <span class="source">(%s)</span></li>`+"\n", append(append([]any{k.id}, vals...), html.EscapeString(strings.Join(unique(sources), ", ")))...)
			break
		}
	}
	w.f("</ul>\n")
	return nil
}

// keyForm is one way to write a key result: its format and the macros it
// shows, in order.
type keyForm struct {
	format string
	macros []string
}

// tailForms are the forms of the key result of a Monte Carlo estimate
// beyond 16×16 (prefix p, e.g. McFourXFive): with its Pareto k̂ when the
// run has one.
func tailForms(side string, p string) []keyForm {
	head := "first error bar for " + side + " grids, new: %s, 95%% interval [%s, %s] (%s, %s samples"
	return []keyForm{
		{head + ", Pareto k̂ %s)", []string{p + "Estimate", p + "CILow", p + "CIHigh", p + "Estimator", p + "Samples", p + "ParetoK"}},
		{head + ")", []string{p + "Estimate", p + "CILow", p + "CIHigh", p + "Estimator", p + "Samples"}},
	}
}

// keyResults are the lines of the key results, in order: the forms each
// may take.
var keyResults = []struct {
	id    string
	forms []keyForm
}{
	{"twoxsix", []keyForm{
		{"12×12 Sudoku grids with 2×6 boxes, counted here: %s (%s units, %s CPU-hours, committed in data/bundles/shapes-2x6.parquet)",
			[]string{"GridsTwoXSix", "TwoXSixUnits", "TwoXSixCPUHours"}},
		{"12×12 Sudoku grids with 2×6 boxes, counted here: %s", []string{"GridsTwoXSix"}},
	}},
	{"essentially-2x6", []keyForm{
		{"essentially different 12×12 grids with 2×6 boxes, new: %s (%s%% of the non-identity Burnside sum recounted by a second method)",
			[]string{"EssentiallyTwoXSix", "VerifiedShareTwoXSix"}},
		{"essentially different 12×12 grids with 2×6 boxes, new: %s", []string{"EssentiallyTwoXSix"}}}},
	{"essentially-3x4", []keyForm{
		{"essentially different 12×12 grids with 3×4 boxes, new: %s (conditional on Pettersen and Silver's count of 3×4 grids; %s%% of the non-identity Burnside sum recounted by a second method)",
			[]string{"EssentiallyThreeXFour", "VerifiedShareThreeXFour"}},
		{"essentially different 12×12 grids with 3×4 boxes, new: %s (conditional on Pettersen and Silver's count of 3×4 grids)", []string{"EssentiallyThreeXFour"}}}},
	{"literature", []keyForm{
		{"a published count disputed: %s (%s%% of the non-identity Burnside sum recounted by a second method)", []string{"SymmetryDifferences", "VerifiedShareTwoXFive"}},
		{"a published count disputed: %s", []string{"SymmetryDifferences"}}}},
	{"tail-4x5", tailForms("20×20", "McFourXFive")},
	{"tail-5x5", tailForms("25×25", "McFiveXFive")},
	{"grids", []keyForm{{"9×9 Sudoku grids, counted exactly: %s", []string{"GridsExact"}}}},
	{"essentially", []keyForm{{"essentially different 9×9 grids: %s", []string{"SymmetryNineCount"}}}},
	{"montecarlo", []keyForm{{"most precise Monte Carlo estimate for 9×9 (%s, %s samples): %s, 95%% interval [%s, %s]",
		[]string{"McThreeXThreeEstimator", "McThreeXThreeSamples", "McThreeXThreeEstimate", "McThreeXThreeCILow", "McThreeXThreeCIHigh"}}}},
	{"kilfoil", []keyForm{{"Kilfoil's heuristic for 9×9: %s, %s%% below the count", []string{"KilfoilEstimateSci", "KilfoilGapPercent"}}}},
}

// numbers writes every number and phrase of numbers.tex with its macro's
// name, block by block, each block with its sources (a block of flags
// only is left out).
func (w *page) numbers(macros []numbers.Macro) error {
	w.f("<h2 id=\"numbers\">Every number the paper quotes</h2>\n<p>The macros of <code>paper/generated/numbers.tex</code>, which the paper's text uses for every number it states.</p>\n")
	var section numbers.Macro
	open := false
	closeSection := func() {
		if open {
			w.f("</tbody>\n</table>\n")
			w.sources(section.Sources)
			open = false
		}
	}
	for _, m := range macros {
		switch m.Kind {
		case numbers.Section:
			closeSection()
			section = m
		case numbers.Number, numbers.Words:
			if !open {
				w.f("<h3>%s</h3>\n<table class=\"numbers\">\n<thead><tr><th>macro</th><th>value</th></tr></thead>\n<tbody>\n", html.EscapeString(section.Title))
				open = true
			}
			v, err := value(m)
			if err != nil {
				return fmt.Errorf("macro %s: %w", m.Name, err)
			}
			w.f("<tr><td><code>\\%s</code></td><td>%s</td></tr>\n", m.Name, w.sourced(v, m.From))
		}
	}
	closeSection()
	return nil
}

// provenance writes every input artifact and every stage that made one.
func (w *page) provenance(infos []stageInfo) {
	w.f("<h2 id=\"provenance\">Provenance</h2>\n<h3>Artifacts</h3>\n<p>Every artifact this page was made from, as <code>data/manifest.json</code> records it; <code>census verify</code> rehashes them.</p>\n")
	w.f("<table id=\"artifacts\">\n<thead><tr><th>artifact</th><th>stage</th><th>bytes</th><th>rows</th><th>SHA-256</th></tr></thead>\n<tbody>\n")
	for _, e := range w.in.Entries {
		rows := "–"
		if e.Rows >= 0 {
			rows = html.EscapeString(typeset.Group(fmt.Sprint(e.Rows), ","))
		}
		w.f(`<tr id="%s"><td><code>%s</code></td><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>`+"\n",
			anchor(e.Path), html.EscapeString(e.Path), html.EscapeString(e.Stage), typeset.Group(fmt.Sprint(e.Size), ","), rows, sha(e))
	}
	w.f("</tbody>\n</table>\n<h3>Stages</h3>\n<p>The stage that made each artifact: its code version, its configuration (as its artifacts record it) and its fingerprint, the SHA-256 of its name, version, configuration and Inputs.</p>\n")
	w.f("<table id=\"stages\">\n<thead><tr><th>stage</th><th>version</th><th>configuration</th><th>fingerprint</th><th>tool</th></tr></thead>\n<tbody>\n")
	for _, s := range infos {
		config := s.config
		var pretty bytes.Buffer
		if json.Indent(&pretty, []byte(config), "", " ") == nil {
			config = pretty.String()
		}
		w.f("<tr><td>%s</td><td>%d</td><td><code class=\"config\">%s</code></td><td><code>%s</code></td><td>%s</td></tr>\n",
			html.EscapeString(s.name), s.version, html.EscapeString(config), s.fingerprint, html.EscapeString(s.tool))
	}
	w.f("</tbody>\n</table>\n")
	w.f("<p>The page itself: <code>%s</code>, by stage <code>%s</code> version %d.</p>\n", html.EscapeString(w.self.Outputs[0].Path), w.self.Name, w.self.Version)
}
