package auxcheck

import (
	"fmt"
	"strconv"
	"strings"
)

// Labels main.tex puts in main.aux for these checks.
const (
	// BodyEndLabel ends the Conclusion, the body's last text.
	BodyEndLabel = "census:bodyend"
	// AppendixLabel follows \appendix, after the bibliography.
	AppendixLabel = "census:appendix"
)

// auxLabel is one \newlabel of main.aux, in the order LaTeX wrote them
// (a float's label is written when its page is shipped out).
type auxLabel struct {
	name   string
	number string // what \ref prints: "3", "B.1"
	page   int
	float  string // "Table" or "Figure" for a table's or figure's label, else ""
}

// tableScale is one \censustablescale{name}{scale}{size} that \fittable
// writes: the generated table name set at size pt, scaled by scale.
type tableScale struct {
	name        string
	scale, size float64
}

// Aux is what the checks read from main.aux.
type Aux struct {
	labels []auxLabel
	scales []tableScale
	// firstRef is the first page on which the text (not a float) refers
	// to each label: main.tex's \ref writes \censusref{label}{page}.
	firstRef map[string]int
}

// Parse reads the labels and table scales of the .aux text data.
// Other lines, and labels not of LaTeX's {{number}{page}...} form, are
// ignored.
func Parse(data string) (Aux, error) {
	a := Aux{firstRef: map[string]int{}}
	for n, line := range strings.Split(data, "\n") {
		line = strings.TrimSpace(line)
		bad := func(why string) error {
			return fmt.Errorf("paper/main.aux:%d: %s: %q", n+1, why, line)
		}
		switch {
		case strings.HasPrefix(line, `\newlabel{`):
			args := groups(strings.TrimPrefix(line, `\newlabel`))
			if len(args) != 2 {
				return Aux{}, bad("want \\newlabel{name}{{number}{page}...}")
			}
			if !strings.HasPrefix(args[1], "{") {
				continue // another package's, such as rotating's \newlabel{RF1}{7}
			}
			// {number}{page} and, with hyperref, {title}{anchor}{}.
			fields := groups(args[1])
			if len(fields) < 2 {
				return Aux{}, bad("want \\newlabel{name}{{number}{page}...}")
			}
			page, err := strconv.Atoi(fields[1])
			if err != nil || page < 1 {
				return Aux{}, bad(fmt.Sprintf("page %q is not a page number", fields[1]))
			}
			l := auxLabel{name: args[0], number: fields[0], page: page}
			anchor := ""
			if len(fields) >= 4 {
				anchor = fields[3]
			}
			switch {
			case strings.HasPrefix(anchor, "table.") || strings.HasPrefix(l.name, "tab:"):
				l.float = "Table"
			case strings.HasPrefix(anchor, "figure.") || strings.HasPrefix(l.name, "fig:"):
				l.float = "Figure"
			}
			a.labels = append(a.labels, l)
		case strings.HasPrefix(line, `\censusref{`):
			args := groups(strings.TrimPrefix(line, `\censusref`))
			if len(args) != 2 {
				return Aux{}, bad("want \\censusref{label}{page}")
			}
			page, err := strconv.Atoi(args[1])
			if err != nil || page < 1 {
				return Aux{}, bad(fmt.Sprintf("page %q is not a page number", args[1]))
			}
			if first, ok := a.firstRef[args[0]]; !ok || page < first {
				a.firstRef[args[0]] = page
			}
		case strings.HasPrefix(line, `\censustablescale{`):
			args := groups(strings.TrimPrefix(line, `\censustablescale`))
			if len(args) != 3 {
				return Aux{}, bad("want \\censustablescale{name}{scale}{size}")
			}
			scale, err1 := strconv.ParseFloat(args[1], 64)
			size, err2 := strconv.ParseFloat(args[2], 64)
			if err1 != nil || err2 != nil || !(scale > 0) || !(size > 0) {
				return Aux{}, bad("scale and size must be positive numbers")
			}
			a.scales = append(a.scales, tableScale{name: args[0], scale: scale, size: size})
		}
	}
	return a, nil
}

// groups returns the contents of the brace groups that follow one another
// at the start of s ({a}{b{c}} gives a and b{c}), stopping at the first
// character outside a group or at an unbalanced end.
func groups(s string) []string {
	var out []string
	for len(s) > 0 && s[0] == '{' {
		depth := 0
		end := -1
		for i := 0; i < len(s) && end < 0; i++ {
			switch s[i] {
			case '\\':
				i++ // \{ and \} do not nest
			case '{':
				depth++
			case '}':
				depth--
				if depth == 0 {
					end = i
				}
			}
		}
		if end < 0 {
			break
		}
		out = append(out, s[1:end])
		s = s[end+1:]
	}
	return out
}

// Check returns the first of the layout rules of issue 51 that main.aux a
// breaks, or nil:
//   - the body, the pages up to and including the one where census:bodyend
//     ends the Conclusion, is at most maxBodyPages;
//   - no table or figure of the body is printed on a later page than that
//     (the floats whose labels come after census:appendix, on its page or
//     later, are the appendices');
//   - every table and figure is referred to in the text, and printed on
//     or after the page of its first reference (a reader meets the
//     reference, then the float);
//   - no table that \fittable set is smaller than minTableFontPt once
//     scaled.
func Check(a Aux, maxBodyPages int, minTableFontPt float64) error {
	var bodyEnd, appendix *auxLabel
	appendixAt := len(a.labels)
	for i := range a.labels {
		switch a.labels[i].name {
		case BodyEndLabel:
			bodyEnd = &a.labels[i]
		case AppendixLabel:
			appendix, appendixAt = &a.labels[i], i
		}
	}
	if bodyEnd == nil {
		return fmt.Errorf("paper/main.aux: no label %s: main.tex must put \\label{%s} at the end of the Conclusion", BodyEndLabel, BodyEndLabel)
	}
	if bodyEnd.page > maxBodyPages {
		return fmt.Errorf("paper: the body runs to page %d (%s), over the %d pages allowed (issue 51): move detail to the appendices", bodyEnd.page, BodyEndLabel, maxBodyPages)
	}
	for i, l := range a.labels {
		if l.float == "" || (i > appendixAt && l.page >= appendix.page) {
			continue
		}
		if l.page > bodyEnd.page {
			return fmt.Errorf("paper: %s %s (%s) is printed on page %d, after the Conclusion ends on page %d: the body's floats go before it (issue 51)", l.float, l.number, l.name, l.page, bodyEnd.page)
		}
	}
	for _, l := range a.labels {
		if l.float == "" {
			continue
		}
		first, ok := a.firstRef[l.name]
		switch {
		case !ok:
			return fmt.Errorf("paper: %s %s (%s) is never referred to in the text: every float is cited before it is printed (issue 51)", l.float, l.number, l.name)
		case l.page < first:
			return fmt.Errorf("paper: %s %s (%s) is printed on page %d, before its first reference on page %d: place it after (issue 51)", l.float, l.number, l.name, l.page, first)
		}
	}
	for _, t := range a.scales {
		if pt := t.scale * t.size; pt < minTableFontPt {
			return fmt.Errorf("paper: table generated/%s.tex is set at %.2fpt (%gpt scaled by %g), below the %gpt allowed (issue 51): split it, turn it sideways or move it to an appendix", t.name, pt, t.size, t.scale, minTableFontPt)
		}
	}
	return nil
}
