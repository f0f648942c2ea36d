package paper

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/presentation/figures"
	"github.com/sudoku-census/sudoku-census/stages/presentation/paper/auxcheck"
	"github.com/sudoku-census/sudoku-census/stages/presentation/report"
)

// PDF is paper/main.pdf.
var PDF = pipeline.NewFile("paper", "paper/main.pdf", "the paper, built with latexmk from paper/main.tex and the generated parts")

// Sources are the paper's hand-written files, and CITATION.cff, whose
// date-released dates the PDF. Only the paper's files are copied into the
// build.
var Sources = []string{"paper/main.tex", "paper/references.bib", pipeline.CitationPath}

// Stage builds the PDF.
var Stage = &pipeline.Stage{
	Name:     "paper",
	Doc:      "builds paper/main.pdf with latexmk from the paper's text, the generated TeX and the figures",
	Version:  11,
	Requires: []*pipeline.Stage{report.Stage, figures.Stage},
	Sources:  Sources,
	Tools:    texVersions,
	Outputs:  []pipeline.Output{PDF.Output},
	Run:      run,
}

// texPrograms are the programs whose versions make the PDF's bytes: latexmk
// and the two it runs.
var texPrograms = []string{"latexmk", "pdflatex", "bibtex"}

// texVersions returns the first line of `--version` of each of texPrograms
// ("absent" for one not found), or nil without latexmk, when the stage
// skips itself.
func texVersions() map[string]string {
	if _, err := exec.LookPath("latexmk"); err != nil {
		return nil
	}
	out := map[string]string{}
	for _, prog := range texPrograms {
		b, err := exec.Command(prog, "--version").Output()
		if err != nil {
			out[prog] = "absent"
			continue
		}
		line, _, _ := strings.Cut(strings.TrimSpace(string(b)), "\n")
		out[prog] = strings.TrimSpace(line)
	}
	out["go"] = goVersion()
	return out
}

// undefined matches the log lines of undefined references, citations and
// control sequences: latexmk succeeds with them, the paper may not.
var undefined = regexp.MustCompile(`(?i)undefined`)

func run(p *pipeline.Pass) error {
	latexmk, err := exec.LookPath("latexmk")
	if err != nil {
		why := "latexmk not found (install TeX with make tex, which runs paper/install-tex.sh)"
		if os.Getenv("CI") == "true" {
			return fmt.Errorf("%s; CI must build the paper", why)
		}
		return pipeline.Skip(why)
	}
	dir, err := os.MkdirTemp("", "census-paper-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	// The tree latexmk sees: paper/ with the text and generated/, and
	// figures/ beside it, as in the repository.
	put := func(rel string, data []byte) error {
		path := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		return os.WriteFile(path, data, 0o644)
	}
	rel, err := ReadRelease(p.Root())
	if err != nil {
		return err
	}
	for _, src := range Sources {
		if !strings.HasPrefix(src, "paper/") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(p.Root(), filepath.FromSlash(src)))
		if err != nil {
			return err
		}
		if err := put(src, data); err != nil {
			return err
		}
	}
	for _, st := range p.Stage.Requires {
		for _, o := range st.Outputs {
			if !strings.HasSuffix(o.Path, ".tex") && !strings.HasSuffix(o.Path, ".pdf") {
				continue
			}
			data, err := pipeline.File{Output: o}.Read(p)
			if err != nil {
				return err
			}
			if err := put(o.Path, data); err != nil {
				return err
			}
		}
	}
	if err := writeRelease(rel, dir, p.Stage.Tools()); err != nil {
		return err
	}
	cmd := exec.CommandContext(p.Context(), latexmk, "-pdf", "-interaction=nonstopmode", "-halt-on-error", "-file-line-error", "main.tex")
	cmd.Dir = filepath.Join(dir, "paper")
	cmd.Env = append(os.Environ(), fmt.Sprintf("SOURCE_DATE_EPOCH=%d", rel.Date.Unix()), "FORCE_SOURCE_DATE=1")
	// On Ctrl-C latexmk is killed; do not wait for pdflatex, which may
	// still hold the output pipe.
	cmd.WaitDelay = time.Second
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		if ctxErr := p.Context().Err(); ctxErr != nil {
			return ctxErr
		}
		return fmt.Errorf("latexmk failed: %v: %s", err, firstError(out.String(), filepath.Join(cmd.Dir, "main.log")))
	}
	for _, log := range []string{"main.log", "main.blg"} {
		data, _ := os.ReadFile(filepath.Join(cmd.Dir, log))
		if log == "main.log" {
			if err := layoutError(string(data)); err != nil {
				return err
			}
		}
		for _, line := range strings.Split(string(data), "\n") {
			if undefined.MatchString(line) {
				return fmt.Errorf("paper/%s: %s", log, strings.TrimSpace(line))
			}
		}
	}
	data, err := os.ReadFile(filepath.Join(cmd.Dir, "main.aux"))
	if err != nil {
		return err
	}
	a, err := auxcheck.Parse(string(data))
	if err != nil {
		return err
	}
	if err := auxcheck.Check(a, maxBodyPages, minTableFontPt); err != nil {
		return err
	}
	pdf, err := os.ReadFile(filepath.Join(cmd.Dir, "main.pdf"))
	if err != nil {
		return err
	}
	p.Report("pdf_bytes", len(pdf))
	return PDF.Write(p, pdf)
}

// firstError returns the first LaTeX error of the log, or the end of
// latexmk's output.
func firstError(output, logPath string) string {
	data, _ := os.ReadFile(logPath)
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "!") || strings.Contains(line, ".tex:") {
			return strings.TrimSpace(line)
		}
	}
	output = strings.TrimSpace(output)
	if i := strings.LastIndex(output, "\n"); i >= 0 {
		output = output[i+1:]
	}
	return output
}
