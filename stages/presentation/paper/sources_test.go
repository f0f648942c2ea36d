package paper

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
	"github.com/sudoku-census/sudoku-census/stages/shared/literature"
)

// bibEntry is one entry of references.bib: its key and its fields, by
// lower-case name, as written (braces and all).
type bibEntry struct {
	key    string
	fields map[string]string
}

// parseBib reads the entries of a BibTeX file: @type{key, name = value,
// ...}, a value being {braced}, "quoted" or bare words joined by #.
// @preamble, @string and @comment blocks are not entries and are skipped.
func parseBib(t *testing.T, text string) []bibEntry {
	t.Helper()
	var entries []bibEntry
	for {
		at := strings.IndexByte(text, '@')
		if at < 0 {
			return entries
		}
		text = text[at+1:]
		open := strings.IndexByte(text, '{')
		if open >= 0 {
			switch strings.ToLower(strings.TrimSpace(text[:open])) {
			case "preamble", "string", "comment":
				end := closingBrace(text[open:])
				if end < 0 {
					t.Fatalf("references.bib: unbalanced braces in @%s", strings.TrimSpace(text[:open]))
				}
				text = text[open+end+1:]
				continue
			}
		}
		comma := strings.IndexByte(text, ',')
		if open < 0 || comma < open {
			t.Fatalf("references.bib: malformed entry near %.40q", text)
		}
		e := bibEntry{key: strings.TrimSpace(text[open+1 : comma]), fields: map[string]string{}}
		text = text[comma+1:]
		for {
			text = strings.TrimLeft(text, " \t\n,")
			if strings.HasPrefix(text, "}") {
				text = text[1:]
				break
			}
			eq := strings.IndexByte(text, '=')
			if eq < 0 {
				t.Fatalf("references.bib: %s: field without '='", e.key)
			}
			name := strings.ToLower(strings.TrimSpace(text[:eq]))
			text = strings.TrimLeft(text[eq+1:], " \t\n")
			var value strings.Builder
			for {
				switch {
				case strings.HasPrefix(text, "{"):
					i := closingBrace(text)
					if i < 0 {
						t.Fatalf("references.bib: %s.%s: unbalanced braces", e.key, name)
					}
					value.WriteString(text[1:i])
					text = text[i+1:]
				case strings.HasPrefix(text, `"`):
					end := strings.IndexByte(text[1:], '"')
					value.WriteString(text[1 : end+1])
					text = text[end+2:]
				default:
					end := strings.IndexAny(text, " \t\n,#}")
					value.WriteString(text[:end])
					text = text[end:]
				}
				text = strings.TrimLeft(text, " \t\n")
				if !strings.HasPrefix(text, "#") {
					break
				}
				text = strings.TrimLeft(text[1:], " \t\n")
			}
			e.fields[name] = value.String()
		}
		entries = append(entries, e)
	}
}

// closingBrace returns the index of the brace that closes the one text
// starts with, or -1 if none does.
func closingBrace(text string) int {
	depth := 0
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '{':
			depth++
		case '}':
			if depth--; depth == 0 {
				return i
			}
		}
	}
	return -1
}

func readSource(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "..", filepath.FromSlash(path)))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

var (
	citeCommand = regexp.MustCompile(`\\cite(?:\[[^]]*\])?\{([^}]*)\}`)
	urlCommand  = regexp.MustCompile(`\\url\{([^}]*)\}`)
)

// citedKeys returns the keys main.tex cites, in order of first citation.
func citedKeys(tex string) []string {
	var keys []string
	for _, m := range citeCommand.FindAllStringSubmatch(tex, -1) {
		for _, k := range strings.Split(m[1], ",") {
			if k = strings.TrimSpace(k); !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
	}
	return keys
}

// localPath matches what a path on the machine that wrote an entry looks
// like: a file: URL, an absolute Unix path or one below a home directory
// (not the path part of an http(s) URL), or a Windows drive.
var localPath = regexp.MustCompile(`(?i)file:|(^|[\s{(,;=])(/|~/)[a-z0-9._-]|(^|[^a-z])[a-z]:\\`)

// Every entry of the bibliography is cited by the text (an entry no one
// cites does not appear in the paper), every citation has an entry, and
// the sources of the literature's counts (which the report stage cites in
// its tables) are among them. No entry names a path on a machine, every
// \url is a web address, capitals that must stay capitals are braced
// ({S}udoku: BibTeX's styles lowercase titles), and no entry repeats its
// year in howpublished or note (which printed it twice).
func TestBibliography(t *testing.T) {
	tex := readSource(t, "paper/main.tex")
	entries := parseBib(t, readSource(t, "paper/references.bib"))
	cited := citedKeys(tex)
	var keys []string
	for _, e := range entries {
		if slices.Contains(keys, e.key) {
			t.Errorf("references.bib: %s twice", e.key)
		}
		keys = append(keys, e.key)
		if !slices.Contains(cited, e.key) {
			t.Errorf("references.bib: %s is cited nowhere in main.tex: cite it or remove it", e.key)
		}
		for name, value := range e.fields {
			if localPath.MatchString(value) {
				t.Errorf("references.bib: %s.%s names a local path: %q", e.key, name, value)
			}
			for _, u := range urlCommand.FindAllStringSubmatch(value, -1) {
				if !strings.HasPrefix(u[1], "https://") && !strings.HasPrefix(u[1], "http://") {
					t.Errorf("references.bib: %s.%s: \\url{%s} is not a web address", e.key, name, u[1])
				}
			}
		}
		for _, word := range []string{"Sudoku", "Monte Carlo", "OEIS"} {
			// {S}udoku and {Sudoku} keep the capital; Sudoku does not.
			if regexp.MustCompile(`(^|[^{])` + word).MatchString(e.fields["title"]) {
				t.Errorf("references.bib: %s: title has %q unbraced, which the style lowercases", e.key, word)
			}
		}
		if year := e.fields["year"]; year != "" {
			for _, name := range []string{"howpublished", "note"} {
				// A web address may hold the year: only the text counts.
				if strings.Contains(urlCommand.ReplaceAllString(e.fields[name], ""), year) {
					t.Errorf("references.bib: %s.%s repeats the year %s", e.key, name, year)
				}
			}
		}
	}
	for _, k := range cited {
		if !slices.Contains(keys, k) {
			t.Errorf("main.tex cites %s, which references.bib lacks", k)
		}
	}
	for _, s := range []grid.Shape{{R: 2, C: 2}, {R: 2, C: 3}, {R: 2, C: 4}, {R: 3, C: 3}, {R: 2, C: 5}, {R: 2, C: 6}, {R: 3, C: 4}} {
		p, ok := literature.Grids(s)
		if !ok || !slices.Contains(keys, p.Cite) {
			t.Errorf("the published count of %s cites %q, which references.bib lacks", s, p.Cite)
		}
	}
}

// The test above holds: a stray entry, a local path and an unbraced title
// are found, and a @preamble is not taken for an entry.
func TestBibliographyChecksCatch(t *testing.T) {
	e := parseBib(t, "@preamble{\"\\providecommand{\\x}[1]{#1}\"}\n@misc{A,\n  title = {Sudoku grids},\n  howpublished = {see /home/me/x.pdf},\n  month = {20~} # oct,\n  note = \"q\"}\n")
	if len(e) != 1 || e[0].key != "A" || e[0].fields["month"] != "20~oct" || e[0].fields["note"] != "q" {
		t.Fatalf("parsed %+v", e)
	}
	if !localPath.MatchString(e[0].fields["howpublished"]) {
		t.Error("a home-directory path is not recognised")
	}
	for _, ok := range []string{`\url{https://oeis.org/A107739}`, `TU Dresden and University of Sheffield`, `$2\times4$ boxes`} {
		if localPath.MatchString(ok) {
			t.Errorf("%q is taken for a local path", ok)
		}
	}
	for _, bad := range []string{`file:///tmp/x`, `{/work/main/data/total.parquet}`, `C:\Users\x`, `~/census`} {
		if !localPath.MatchString(bad) {
			t.Errorf("%q is not taken for a local path", bad)
		}
	}
	if got := citedKeys(`a~\cite{X, Y} b \cite{Y}`); !slices.Equal(got, []string{"X", "Y"}) {
		t.Errorf("citedKeys = %v", got)
	}
}

// A LaTeX log with content beyond the text area fails the stage; small
// overfull lines and underfull boxes do not.
func TestLayoutError(t *testing.T) {
	for _, c := range []struct {
		log string
		bad bool
	}{
		{"Overfull \\vbox (123.4pt too high) has occurred while \\output is active", true},
		{"LaTeX Warning: Float too large for page by 56.7pt on input line 731.", true},
		{"Overfull \\hbox (42.15825pt too wide) in paragraph at lines 2--472", true},
		{"Overfull \\hbox (0.5pt too wide) in paragraph at lines 10--12", false},
		{"Underfull \\hbox (badness 1048) in paragraph at lines 55--59", false},
		{"Output written on main.pdf (14 pages, 1462854 bytes).", false},
	} {
		if err := layoutError("(./main.aux)\n" + c.log + "\n[1]"); (err != nil) != c.bad {
			t.Errorf("%q: %v, want failure %v", c.log, err, c.bad)
		}
	}
}

// ReadRelease takes the version and the release date of CITATION.cff, and
// refuses a malformed one naming the key and the value.
func TestReadRelease(t *testing.T) {
	rel, err := ReadRelease(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if rel.Version == "" || rel.Date.IsZero() {
		t.Errorf("CITATION.cff: %+v", rel)
	}
	dir := t.TempDir()
	const head = "cff-version: 1.2.0\nmessage: m\ntitle: t\nauthors:\n  - name: a\nlicense: MIT\nrepository-code: \"https://example.org/r\"\n"
	write := func(text string) string {
		if err := os.WriteFile(filepath.Join(dir, "CITATION.cff"), []byte(head+text), 0o644); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	rel, err = ReadRelease(write("version: \"1.2.3\"\ndate-released: 2026-01-31\n"))
	if err != nil || rel.Version != "1.2.3" || !rel.Date.Equal(time.Date(2026, 1, 31, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("unquoted date: %+v, %v", rel, err)
	}
	tex := string(releaseMacros(rel, map[string]string{"go": "go1.26.8", "pdflatex": "pdfTeX 3.14", "bibtex": "BibTeX 0.99d",
		"latexmk": "Latexmk, John Collins, 7 Jan. 2023. Version 4.79"}))
	for _, want := range []string{`\newcommand{\ReleaseVersion}{1.2.3}`, `\newcommand{\ReleaseDate}{31 January 2026}`,
		`\newcommand{\GoVersion}{1.26.8}`, `\newcommand{\PdfTeXVersion}{pdfTeX 3.14}`, `\newcommand{\LatexmkVersion}{Latexmk 4.79}`,
		`\newcommand{\ReleaseTag}{v1.2.3}`, `\newcommand{\ReleaseRepository}{\url{https://example.org/r}}`} {
		if !strings.Contains(tex, want) {
			t.Errorf("release.tex lacks %s:\n%s", want, tex)
		}
	}
	for _, c := range []struct{ text, want string }{
		{"version: \"1.2\"\ndate-released: \"2026-01-31\"\n", `version "1.2"`},
		{"version: \"1.2.3\"\ndate-released: \"2026-02-30\"\n", `2026-02-30`},
		{"version: [\n", "CITATION.cff"},
		{"version: \"1.2.3\"\ndate-released: \"2026-01-31\"\n# " + strings.Repeat("x", 1<<20), "larger than"},
	} {
		if _, err := ReadRelease(write(c.text)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%.40q: %v, want an error naming %s", c.text, err, c.want)
		}
	}
	// An address the paper cannot set verbatim is refused, naming the key.
	unsafe := strings.Replace(head, "https://example.org/r", "https://example.org/r%7E", 1) + "version: \"1.2.3\"\ndate-released: \"2026-01-31\"\n"
	if err := os.WriteFile(filepath.Join(dir, "CITATION.cff"), []byte(unsafe), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadRelease(dir); err == nil || !strings.Contains(err.Error(), "repository-code") {
		t.Errorf("repository-code with %%: %v, want an error naming repository-code", err)
	}
}
