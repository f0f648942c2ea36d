package typeset

// A table of results, kept independent of its print: the report stage
// writes it as TeX for the paper, the htmlreport stage as HTML, from the
// same cells, so both show the same number strings.

import (
	"fmt"
	"html"
	"path"
	"slices"
	"strings"
)

// PieceKind says how a piece of a cell prints.
type PieceKind int

const (
	Text  PieceKind = iota // running text
	Math                   // a number or formula as the format functions write it (TeX math)
	Code                   // text in a fixed-width font (estimator and artifact names)
	Cite                   // a bibliography key, cited after the preceding piece
	Key                    // an identifier printed verbatim (a cite key as a macro's value)
	Dash                   // an empty value: an en dash
	Check                  // a check mark
	Emph                   // emphasized text (a group's heading within a table)
)

// Piece is a run of one kind within a cell.
type Piece struct {
	Kind PieceKind
	S    string
}

// Cell is one table cell: its pieces in order, the columns it spans (0
// and 1: one) with their alignment ("r", "l", "c"), and where its numbers
// come from (From: the HTML prints it, TeX does not).
type Cell struct {
	Pieces []Piece
	Span   int
	Align  string
	From   []Source
}

// Source is where a number comes from: the artifact, by its path in the
// repository ("data/knuth.parquet"), and the rows it is read from, as the
// column=value pairs that select them ("shape=3x3 variant=random"; "" for
// every row). A number derived from several (a z-score: an estimate and a
// count) has a Source for each, the first the one it is mostly of.
type Source struct {
	Artifact string
	Where    string
}

// Row returns the source of the rows of artifact whose columns have the
// values given, in pairs: Row("data/knuth.parquet", "shape", "3x3",
// "variant", "random"). Values are printed with %v.
func Row(artifact string, columnValues ...any) Source {
	var where []string
	for i := 0; i+1 < len(columnValues); i += 2 {
		where = append(where, fmt.Sprintf("%v=%v", columnValues[i], columnValues[i+1]))
	}
	return Source{Artifact: artifact, Where: strings.Join(where, " ")}
}

// String names the source for a reader: "data/knuth.parquet where
// shape=3x3 variant=random", "data/total.parquet, every row".
func (s Source) String() string {
	if s.Where == "" {
		return s.Artifact + ", every row"
	}
	return s.Artifact + " where " + s.Where
}

// SourcedHTML returns inner (HTML) as a link to the artifact of from[0],
// every source named in its title (what a browser shows on hover, and what
// a test reads: Source.String, "; "-separated); base is the path from the
// page to the repository's root ("..": the page is in paper/). With no
// source (a Source without an artifact is none: values made by hand), or
// nothing to link, it returns inner.
func SourcedHTML(inner string, from []Source, base string) string {
	var known []Source
	for _, s := range from {
		if s.Artifact != "" && !slices.Contains(known, s) {
			known = append(known, s)
		}
	}
	if len(known) == 0 || inner == "" {
		return inner
	}
	names := make([]string, len(known))
	for i, s := range known {
		names[i] = s.String()
	}
	return fmt.Sprintf(`<a class="from" href="%s" title="%s">%s</a>`,
		html.EscapeString(path.Join(base, known[0].Artifact)), html.EscapeString(strings.Join(names, "; ")), inner)
}

// Table is a table of results: the head cells and the body rows, a nil
// row drawing a rule between groups. Spec is the TeX column specification.
type Table struct {
	Spec string
	Head []Cell
	Rows [][]Cell
}

// Cells makes a cell of pieces.
func Cells(pieces ...Piece) Cell { return Cell{Pieces: pieces} }

// TextCell, MathCell, CodeCell and DashCell make one-piece cells.
func TextCell(s string) Cell { return Cells(Piece{Text, s}) }
func MathCell(s string) Cell { return Cells(Piece{Math, s}) }
func CodeCell(s string) Cell { return Cells(Piece{Code, s}) }
func DashCell() Cell         { return Cells(Piece{Kind: Dash}) }

// TeXPieces prints pieces as TeX text.
func TeXPieces(pieces []Piece) string {
	var b strings.Builder
	for _, p := range pieces {
		switch p.Kind {
		case Text:
			b.WriteString(TeXEscape(p.S))
		case Math:
			b.WriteString("$" + p.S + "$")
		case Code:
			b.WriteString(`\texttt{` + TeXEscape(p.S) + `}`)
		case Cite:
			b.WriteString(`~\cite{` + p.S + `}`)
		case Key:
			b.WriteString(p.S)
		case Dash:
			b.WriteString("--")
		case Check:
			b.WriteString(`\checkmark`)
		case Emph:
			b.WriteString(`\emph{` + TeXEscape(p.S) + `}`)
		}
	}
	return b.String()
}

// HTMLPieces prints pieces as HTML; a citation becomes its key in
// brackets. It fails on math the format functions do not write (MathHTML).
func HTMLPieces(pieces []Piece) (string, error) {
	var b strings.Builder
	for _, p := range pieces {
		switch p.Kind {
		case Text:
			b.WriteString(html.EscapeString(p.S))
		case Math:
			m, err := MathHTML(p.S)
			if err != nil {
				return "", err
			}
			b.WriteString(`<span class="num">` + m + `</span>`)
		case Code:
			b.WriteString("<code>" + html.EscapeString(p.S) + "</code>")
		case Cite:
			b.WriteString(` <cite>[` + html.EscapeString(p.S) + `]</cite>`)
		case Key:
			b.WriteString(html.EscapeString(p.S))
		case Dash:
			b.WriteString("–")
		case Check:
			b.WriteString("✓")
		case Emph:
			b.WriteString("<em>" + html.EscapeString(p.S) + "</em>")
		}
	}
	return b.String(), nil
}

// TeX writes the table as a booktabs tabular.
func (t Table) TeX() []byte {
	var b strings.Builder
	b.WriteString("% Generated by the report stage from the pipeline's artifacts. Do not edit.\n")
	fmt.Fprintf(&b, "\\begin{tabular}{%s}\n\\toprule\n%s \\\\\n\\midrule\n", t.Spec, texRow(t.Head))
	t.texBody(&b)
	b.WriteString("\\bottomrule\n\\end{tabular}\n")
	return []byte(b.String())
}

// LongTeX writes the table as a booktabs longtable, for a table longer than
// a page: its first row is \censuslongcaption, which the paper defines
// before the \input as the caption and label; every later page repeats the
// head under a "Table n (continued)" line, and every page but the last ends
// with a "continued on the next page" line.
func (t Table) LongTeX() []byte {
	var b strings.Builder
	head := texRow(t.Head)
	cols := 0
	for _, c := range t.Head {
		cols += max(c.Span, 1)
	}
	b.WriteString("% Generated by the report stage from the pipeline's artifacts. Do not edit.\n")
	b.WriteString("% A longtable: the paper defines \\censuslongcaption (caption and label) before it inputs this file.\n")
	fmt.Fprintf(&b, "\\begin{longtable}{%s}\n\\censuslongcaption \\\\\n", t.Spec)
	fmt.Fprintf(&b, "\\toprule\n%s \\\\\n\\midrule\n\\endfirsthead\n", head)
	fmt.Fprintf(&b, "\\multicolumn{%d}{l}{\\tablename~\\thetable{} (continued)} \\\\\n", cols)
	fmt.Fprintf(&b, "\\toprule\n%s \\\\\n\\midrule\n\\endhead\n", head)
	fmt.Fprintf(&b, "\\midrule\n\\multicolumn{%d}{r}{continued on the next page} \\\\\n\\endfoot\n", cols)
	b.WriteString("\\bottomrule\n\\endlastfoot\n")
	t.texBody(&b)
	b.WriteString("\\end{longtable}\n")
	return []byte(b.String())
}

// texBody writes the body rows, a nil row as a rule.
func (t Table) texBody(b *strings.Builder) {
	for _, row := range t.Rows {
		if row == nil {
			b.WriteString("\\midrule\n")
			continue
		}
		fmt.Fprintf(b, "%s \\\\\n", texRow(row))
	}
}

func texRow(cells []Cell) string {
	out := make([]string, len(cells))
	for i, c := range cells {
		out[i] = TeXPieces(c.Pieces)
		if c.Span > 1 {
			out[i] = fmt.Sprintf(`\multicolumn{%d}{%s}{%s}`, c.Span, c.Align, out[i])
		}
	}
	return strings.Join(out, " & ")
}

// MathHTML prints, as HTML, the TeX math that the format functions of this
// package and the tables write: grouped digits ({,}), powers of ten
// (\times 10^{21}), exponents, \pm, \infty and the few symbols the tables
// use, spaced as TeX spaces them (the source's spaces do not count: binary
// operators and relations get a space on each side, a comma one after).
// Anything else is an error, so that a new construct in the paper's
// numbers cannot print wrongly in the HTML report unnoticed.
func MathHTML(tex string) (string, error) {
	var b strings.Builder
	// binary writes an operator, spaced unless it is unary (first, or after
	// an opening bracket or a relation).
	binary := func(op string) {
		out := b.String()
		if out == "" || strings.HasSuffix(out, "(") || strings.HasSuffix(out, "[") || strings.HasSuffix(out, " ") {
			b.WriteString(op)
			return
		}
		b.WriteString(" " + op + " ")
	}
	s := tex
	for len(s) > 0 {
		switch {
		case strings.HasPrefix(s, "{,}"):
			b.WriteString(",")
			s = s[3:]
		case strings.HasPrefix(s, "^{") || strings.HasPrefix(s, "_{"):
			end := strings.IndexByte(s, '}')
			if end < 0 {
				return "", fmt.Errorf("math %q: unclosed %s", tex, s[:2])
			}
			script, err := MathHTML(s[2:end])
			if err != nil {
				return "", err
			}
			tag := "sup"
			if s[0] == '_' {
				tag = "sub"
			}
			b.WriteString("<" + tag + ">" + script + "</" + tag + ">")
			s = s[end+1:]
		case strings.HasPrefix(s, `\`):
			name := s[1:]
			n := 0
			for n < len(name) && (name[n] >= 'a' && name[n] <= 'z' || name[n] >= 'A' && name[n] <= 'Z') {
				n++
			}
			if n == 0 { // a control symbol: \% or "\ "
				if len(name) == 0 {
					return "", fmt.Errorf("math %q: ends in a backslash", tex)
				}
				switch name[0] {
				case '%':
					b.WriteString("%")
				case ' ':
					b.WriteString(" ")
				case ',': // a thin space, as before a unit
					b.WriteString("\u2009")
				default:
					return "", fmt.Errorf("math %q: \\%c has no HTML form", tex, name[0])
				}
				s = name[1:]
				continue
			}
			switch word := name[:n]; word {
			case "times":
				binary("×")
			case "pm":
				binary("±")
			case "approx": // relations, spaced as = is
				b.WriteString(" ≈ ")
			case "ge":
				b.WriteString(" ≥ ")
			case "mathrm": // \mathrm{s}: upright letters, a unit's
				rest := name[n:]
				end := strings.IndexByte(rest, '}')
				if !strings.HasPrefix(rest, "{") || end < 0 {
					return "", fmt.Errorf("math %q: \\mathrm needs {letters}", tex)
				}
				b.WriteString(html.EscapeString(rest[1:end]))
				s = rest[end+1:]
				continue
			case "hat": // \hat k: the letter with a combining circumflex
				rest := strings.TrimLeft(name[n:], " ")
				if rest == "" || !(rest[0] >= 'a' && rest[0] <= 'z' || rest[0] >= 'A' && rest[0] <= 'Z') {
					return "", fmt.Errorf("math %q: \\hat needs a letter after it", tex)
				}
				b.WriteString(rest[:1] + "\u0302")
				s = rest[1:]
				continue
			default:
				sym, ok := mathSymbols[word]
				if !ok {
					return "", fmt.Errorf("math %q: \\%s has no HTML form", tex, word)
				}
				b.WriteString(sym)
			}
			s = name[n:]
		case s[0] == ' ': // TeX spaces math itself
			s = s[1:]
		case s[0] == '=' || s[0] == '<' || s[0] == '>':
			b.WriteString(" " + html.EscapeString(s[:1]) + " ")
			s = s[1:]
		case s[0] == ',':
			b.WriteString(", ")
			s = s[1:]
		case s[0] == '-':
			b.WriteString("−") // a minus sign, as TeX sets it
			s = s[1:]
		case s[0] == '{' || s[0] == '}' || s[0] == '$' || s[0] == '&' || s[0] == '_' || s[0] == '#' || s[0] == '~':
			return "", fmt.Errorf("math %q: %q has no HTML form", tex, s[0])
		default:
			r := s[:1]
			if s[0] >= 0x80 { // a whole UTF-8 sequence
				n := 1
				for n < len(s) && s[n]&0xC0 == 0x80 {
					n++
				}
				r = s[:n]
			}
			b.WriteString(html.EscapeString(r))
			s = s[len(r):]
		}
	}
	return b.String(), nil
}

// mathSymbols are the control words MathHTML knows, besides the binary
// operators \times and \pm.
var mathSymbols = map[string]string{
	"infty":     "∞",
	"sum":       "Σ",
	"alpha":     "α",
	"dagger":    "†",
	"ddagger":   "‡",
	"S":         "§",
	"P":         "¶",
	"circ":      "°",
	"textstyle": "",
	"min":       "min",
	"log":       "log",
}

// Aligns returns each column's alignment from Spec: "left", "center" or
// "right" for l, c and r, and "left" for a paragraph column p{…}.
func (t Table) Aligns() []string {
	var out []string
	spec := t.Spec
	skipGroup := func() { // drops a {…} group at the start of spec
		if !strings.HasPrefix(spec, "{") {
			return
		}
		depth := 0
		for i, r := range spec {
			switch r {
			case '{':
				depth++
			case '}':
				depth--
				if depth == 0 {
					spec = spec[i+1:]
					return
				}
			}
		}
		spec = ""
	}
	for spec != "" {
		c := spec[0]
		spec = spec[1:]
		switch c {
		case 'l':
			out = append(out, "left")
		case 'c':
			out = append(out, "center")
		case 'r':
			out = append(out, "right")
		case 'p', 'm', 'b':
			out = append(out, "left")
			skipGroup()
		case '>', '<', '@':
			skipGroup()
		}
	}
	return out
}

// HTML returns t as an HTML table with the given element id, each column
// aligned as its TeX specification says: the TeX method's sibling, from
// the same cells. A cell's sources make its content a link (SourcedHTML;
// base is the path from the page to the repository's root).
func (t Table) HTML(id, base string) (string, error) {
	var w strings.Builder
	aligns := t.Aligns()
	// cell writes one cell of tag th or td starting at column col.
	cell := func(tag string, col int, c Cell) (int, error) {
		h, err := HTMLPieces(c.Pieces)
		if err != nil {
			return 0, fmt.Errorf("table %s: %w", id, err)
		}
		h = SourcedHTML(h, c.From, base)
		align := "left"
		if col < len(aligns) {
			align = aligns[col]
		}
		span := max(c.Span, 1)
		if span > 1 {
			align = map[string]string{"l": "left", "c": "center", "r": "right"}[c.Align]
			fmt.Fprintf(&w, `<%s colspan="%d" style="text-align:%s">%s</%s>`, tag, span, align, h, tag)
		} else {
			fmt.Fprintf(&w, `<%s style="text-align:%s">%s</%s>`, tag, align, h, tag)
		}
		return col + span, nil
	}
	fmt.Fprintf(&w, `<table id="%s">`+"\n<thead><tr>", id)
	col := 0
	for _, c := range t.Head {
		var err error
		if col, err = cell("th", col, c); err != nil {
			return "", err
		}
	}
	fmt.Fprintf(&w, "</tr></thead>\n<tbody>\n")
	for _, row := range t.Rows {
		if row == nil {
			fmt.Fprintf(&w, `<tr class="rule"><td colspan="%d"></td></tr>`+"\n", len(t.Head))
			continue
		}
		fmt.Fprintf(&w, "<tr>")
		col := 0
		for _, c := range row {
			var err error
			if col, err = cell("td", col, c); err != nil {
				return "", err
			}
		}
		fmt.Fprintf(&w, "</tr>\n")
	}
	fmt.Fprintf(&w, "</tbody>\n</table>\n")
	return w.String(), nil
}
