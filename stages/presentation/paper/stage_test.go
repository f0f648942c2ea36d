package paper_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/pipeline/engine"
	"github.com/sudoku-census/sudoku-census/pipeline/pipelinetest"
	"github.com/sudoku-census/sudoku-census/pipeline/store"
	"github.com/sudoku-census/sudoku-census/stages/presentation/figures"
	"github.com/sudoku-census/sudoku-census/stages/presentation/paper"
)

var smoke = pipelinetest.Options{Stages: pipelinetest.Closure(paper.Stage), Config: "../../../configs/smoke.yaml",
	Targets: []string{"report", "figures"}}

// run runs the paper stage (forced) in root and returns its result.
func run(t *testing.T, root string) (engine.StageResult, error) {
	t.Helper()
	e, err := engine.New(engine.Options{Root: root, Stages: smoke.Stages, ConfigFile: smoke.Config})
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Run(context.Background(), []string{"paper"}, engine.RunOptions{Force: []string{"paper"}})
	if len(res) == 0 {
		return engine.StageResult{}, err
	}
	return res[len(res)-1], err
}

func TestPaperIsReproducibleWithMetadata(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the smoke pipeline and LaTeX")
	}
	if _, err := exec.LookPath("latexmk"); err != nil {
		t.Skip("needs TeX (make tex)")
	}
	root := pipelinetest.Run(t, smoke)
	if res, err := run(t, root); err != nil || !res.Ran {
		t.Fatalf("paper: %+v, %v", res, err)
	}
	first, err := os.ReadFile(filepath.Join(root, "paper/main.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(first, []byte("%PDF")) {
		t.Fatal("paper/main.pdf is not a PDF")
	}
	// The TeX programs' versions are in the fingerprint and the manifest.
	m, err := store.ReadManifest(root)
	if err != nil {
		t.Fatal(err)
	}
	tools := m.Stages["paper"].Tools
	for prog, want := range map[string]string{"latexmk": "Latexmk", "pdflatex": "pdfTeX", "bibtex": "BibTeX", "go": "go1."} {
		if !strings.Contains(tools[prog], want) {
			t.Errorf("manifest: paper's tool %s is %q, want a version line naming %s", prog, tools[prog], want)
		}
	}
	// The metadata sits in a compressed object stream: ask pdfinfo. The
	// dates are CITATION.cff's date-released, midnight UTC.
	cff, err := pipeline.ReadCitation(root)
	if err != nil {
		t.Fatal(err)
	}
	pdfinfo := func() string {
		t.Helper()
		if _, err := exec.LookPath("pdfinfo"); err != nil {
			t.Skip("needs pdfinfo (Debian: poppler-utils)")
		}
		info, err := exec.Command("pdfinfo", "-isodates", filepath.Join(root, "paper/main.pdf")).Output()
		if err != nil {
			t.Fatal(err)
		}
		return string(info)
	}
	info := pdfinfo()
	for _, want := range []string{"Title: +A reproducible census of Sudoku grids", "Author: +The sudoku-census project",
		"CreationDate: +" + cff.DateReleased + "T00:00:00Z", "ModDate: +" + cff.DateReleased + "T00:00:00Z"} {
		if !regexp.MustCompile(want).MatchString(info) {
			t.Fatalf("pdfinfo lacks %q:\n%s", want, info)
		}
	}
	checkText(t, root)
	if res, err := run(t, root); err != nil || !res.Ran {
		t.Fatalf("paper again: %+v, %v", res, err)
	}
	again, _ := os.ReadFile(filepath.Join(root, "paper/main.pdf"))
	if !bytes.Equal(first, again) {
		t.Fatal("two builds of the paper differ")
	}
}

// TestReleaseDateDatesThePaper checks that CITATION.cff is a source of the
// paper: a new date-released makes the stage stale, and the rebuilt PDF
// carries that date.
func TestReleaseDateDatesThePaper(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the smoke pipeline and LaTeX")
	}
	if _, err := exec.LookPath("latexmk"); err != nil {
		t.Skip("needs TeX (make tex)")
	}
	if _, err := exec.LookPath("pdfinfo"); err != nil {
		t.Skip("needs pdfinfo (Debian: poppler-utils)")
	}
	root := pipelinetest.Run(t, smoke)
	e, err := engine.New(engine.Options{Root: root, Stages: smoke.Stages, ConfigFile: smoke.Config})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Run(context.Background(), []string{"paper"}, engine.RunOptions{}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(root, pipeline.CitationPath)
	cff, _ := os.ReadFile(path)
	cff = regexp.MustCompile(`date-released: "[0-9-]+"`).ReplaceAll(cff, []byte(`date-released: "2031-02-03"`))
	if err := os.WriteFile(path, cff, 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := e.Status()
	if err != nil {
		t.Fatal(err)
	}
	if last := st[len(st)-1]; last.Stage != "paper" || last.Fresh || !strings.Contains(last.Reason, "source CITATION.cff changed") {
		t.Fatalf("after a new release date: %+v, want paper stale because CITATION.cff changed", last)
	}
	if res, err := e.Run(context.Background(), []string{"paper"}, engine.RunOptions{}); err != nil || !res[len(res)-1].Ran {
		t.Fatalf("paper: %+v, %v", res, err)
	}
	info, err := exec.Command("pdfinfo", "-isodates", filepath.Join(root, "paper/main.pdf")).Output()
	if err != nil || !regexp.MustCompile(`CreationDate: +2031-02-03T00:00:00Z`).Match(info) {
		t.Fatalf("pdfinfo: %v\n%s", err, info)
	}
}

func TestPaperWithoutTeX(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the smoke pipeline")
	}
	root := pipelinetest.Run(t, smoke)
	t.Setenv("PATH", t.TempDir())
	t.Setenv("CI", "")
	res, err := run(t, root)
	if err != nil || !res.Skipped || res.Ran {
		t.Fatalf("without latexmk: %+v, %v; want the stage skipped and the run to succeed", res, err)
	}
	if _, err := os.Stat(filepath.Join(root, "paper/main.pdf")); err == nil {
		t.Fatal("a skipped paper stage published a PDF")
	}
	t.Setenv("CI", "true")
	if _, err := run(t, root); err == nil {
		t.Fatal("under CI=true a missing latexmk did not fail the run")
	}
}

// includegraphics finds the figure files main.tex includes.
var includegraphics = regexp.MustCompile(`\\includegraphics(?:\[[^]]*\])?\{([^}]+)\}`)

// checkText reads the built paper's text with pdftotext: every figure the
// figures stage drew from data that main.tex includes has its caption ("Figure N:"; a figure too
// tall for its page lost its caption once, and the stage now also fails
// on content beyond the text area), the title page carries the release
// from CITATION.cff, and no estimate is shown with the interval [0, 0].
func checkText(t *testing.T, root string) {
	t.Helper()
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Log("pdftotext not found (poppler-utils): the paper's text is not checked")
		return
	}
	out, err := exec.Command("pdftotext", filepath.Join(root, "paper/main.pdf"), "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	text := string(out)
	index, err := figures.Index.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	// The paper shows some of the figures (issue 51 left the others to
	// the repository): those main.tex includes.
	tex, err := os.ReadFile(filepath.Join(root, "paper/main.tex"))
	if err != nil {
		t.Fatal(err)
	}
	included := map[string]bool{}
	for _, m := range includegraphics.FindAllStringSubmatch(string(tex), -1) {
		included[m[1]] = true
	}
	drawn := 0
	for _, f := range index {
		if f.Drawn && included[filepath.Base(f.PDF)] {
			drawn++
		}
	}
	if drawn == 0 {
		t.Fatal("the smoke run drew no figure the paper includes")
	}
	for n := 1; n <= drawn; n++ {
		if !strings.Contains(text, fmt.Sprintf("Figure %d:", n)) {
			t.Errorf("the paper's text lacks the caption \"Figure %d:\" (%d figures drawn)", n, drawn)
		}
	}
	if strings.Contains(text, fmt.Sprintf("Figure %d:", drawn+1)) {
		t.Errorf("the paper has more than the %d figures drawn that it includes", drawn)
	}
	rel, err := paper.ReadRelease(root)
	if err != nil {
		t.Fatal(err)
	}
	if want := "Version " + rel.Version + ", " + rel.Date.Format("2 January 2006"); !strings.Contains(text, want) {
		t.Errorf("the title page lacks %q", want)
	}
	if strings.Contains(text, "[0, 0]") {
		t.Error("the paper shows an interval [0, 0]")
	}
}
