package auxcheck

import (
	"strings"
	"testing"
)

// goodAux is a .aux as main.tex writes it with hyperref: a body of 14
// pages, its floats before the Conclusion's end, the appendices' floats
// after the bibliography, and tables at 8pt or more.
const goodAux = `\relax
\global\let\oldnewlabel\newlabel
\gdef\newlabel#1#2{\newlabelxx{#1}#2}
\newlabel{RF1}{7}
\censusref{tab:funnel}{3}
\censusref{fig:errorwork}{11}
\censusref{tab:fixing}{6}
\censusref{tab:fixing}{4}
\censusref{sec:mc}{12}
\censustablescale{funnel}{1}{10}
\newlabel{tab:funnel}{{1}{3}{The reduction of {first} bands, F\&J'' and \{}{table.1}{}}
\newlabel{sec:mc}{{7}{10}{Monte Carlo estimation}{section.7}{}}
\censustablescale{shapes}{0.90196}{9}
\newlabel{fig:errorwork}{{4}{13}{Relative error}{figure.4}{}}
\newlabel{census:bodyend}{{9}{14}{Conclusion}{section.9}{}}
\newlabel{census:appendix}{{9}{17}{Conclusion}{section*.17}{}}
\censustablescale{fixing}{1}{8}
\newlabel{tab:fixing}{{5}{19}{Classes}{table.5}{}}
\newlabel{sec:coverage}{{B.1}{22}{Coverage}{subsection.B.1}{}}
`

func mustParse(t *testing.T, data string) Aux {
	t.Helper()
	a, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestParseAux(t *testing.T) {
	a := mustParse(t, goodAux)
	want := []auxLabel{
		{name: "tab:funnel", number: "1", page: 3, float: "Table"},
		{name: "sec:mc", number: "7", page: 10},
		{name: "fig:errorwork", number: "4", page: 13, float: "Figure"},
		{name: "census:bodyend", number: "9", page: 14},
		{name: "census:appendix", number: "9", page: 17},
		{name: "tab:fixing", number: "5", page: 19, float: "Table"},
		{name: "sec:coverage", number: "B.1", page: 22},
	}
	if len(a.labels) != len(want) {
		t.Fatalf("labels %+v, want %+v", a.labels, want)
	}
	for i := range want {
		if a.labels[i] != want[i] {
			t.Errorf("label %d: %+v, want %+v", i, a.labels[i], want[i])
		}
	}
	// The first reference is the least page, whatever the order written.
	if a.firstRef["tab:fixing"] != 4 || a.firstRef["fig:errorwork"] != 11 || len(a.firstRef) != 4 {
		t.Errorf("first references %v, want tab:fixing on 4, fig:errorwork on 11 and 4 labels", a.firstRef)
	}
	wantScales := []tableScale{{"funnel", 1, 10}, {"shapes", 0.90196, 9}, {"fixing", 1, 8}}
	if len(a.scales) != len(wantScales) {
		t.Fatalf("scales %+v, want %+v", a.scales, wantScales)
	}
	for i := range wantScales {
		if a.scales[i] != wantScales[i] {
			t.Errorf("scale %d: %+v, want %+v", i, a.scales[i], wantScales[i])
		}
	}
	// Without hyperref a label has only its number and page: a float is
	// known by its name.
	plain := mustParse(t, "\\newlabel{tab:x}{{2}{5}}\n\\newlabel{eq:y}{{3}{6}}\n")
	if len(plain.labels) != 2 || plain.labels[0] != (auxLabel{name: "tab:x", number: "2", page: 5, float: "Table"}) ||
		plain.labels[1].float != "" || plain.labels[1].page != 6 {
		t.Errorf("labels without hyperref: %+v", plain.labels)
	}
	for _, bad := range []string{
		`\newlabel{tab:x}{{2}{v}{T}{table.2}{}}`,
		`\newlabel{tab:x}{{2}}`,
		`\newlabel{tab:x}`,
		`\censustablescale{x}{0.5}`,
		`\censustablescale{x}{half}{9}`,
		`\censustablescale{x}{0}{9}`,
		`\censusref{tab:x}{0}`,
		`\censusref{tab:x}`,
	} {
		if _, err := Parse(bad + "\n"); err == nil || !strings.Contains(err.Error(), "main.aux:1") {
			t.Errorf("Parse(%q): %v, want an error naming the line", bad, err)
		}
	}
}

func TestGroups(t *testing.T) {
	got := groups(`{a}{b{c}\}}{}rest{d}`)
	want := []string{"a", `b{c}\}`, ""}
	if strings.Join(got, "|") != strings.Join(want, "|") || len(got) != len(want) {
		t.Errorf("groups: %q, want %q", got, want)
	}
	if got := groups(`{open`); len(got) != 0 {
		t.Errorf("groups of an unbalanced group: %q", got)
	}
}

// TestAuxErrorChecksTheLayout: each rule passes goodAux and fails on a
// .aux that breaks it, naming the problem.
func TestAuxErrorChecksTheLayout(t *testing.T) {
	if err := check(mustParse(t, goodAux)); err != nil {
		t.Fatalf("a good layout: %v", err)
	}
	cases := []struct {
		name, from, to, want string
	}{
		{"body over 14 pages", `\newlabel{census:bodyend}{{9}{14}`, `\newlabel{census:bodyend}{{9}{15}`, "the body runs to page 15 (census:bodyend), over the 14 pages"},
		{"no end of the body", `\newlabel{census:bodyend}`, `\newlabel{census:other}`, "no label census:bodyend"},
		{"a body figure after the Conclusion", `\newlabel{fig:errorwork}{{4}{13}`, `\newlabel{fig:errorwork}{{4}{15}`, "Figure 4 (fig:errorwork) is printed on page 15, after the Conclusion ends on page 14"},
		// A body float LaTeX holds back past \appendix is written after
		// the marker, but on an earlier page.
		{"a body table before the appendix's page", "\\newlabel{tab:fixing}{{5}{19}", "\\newlabel{tab:fixing}{{5}{16}", "Table 5 (tab:fixing) is printed on page 16"},
		{"a table below 8pt", `\censustablescale{shapes}{0.90196}{9}`, `\censustablescale{shapes}{0.65}{9}`, "generated/shapes.tex is set at 5.85pt"},
		{"a figure before its first reference", `\censusref{fig:errorwork}{11}`, `\censusref{fig:errorwork}{14}`, "Figure 4 (fig:errorwork) is printed on page 13, before its first reference on page 14"},
		{"a table never referred to", `\censusref{tab:funnel}{3}`, `\censusref{tab:other}{3}`, "Table 1 (tab:funnel) is never referred to"},
		{"an 8pt table shrunk", `\censustablescale{fixing}{1}{8}`, `\censustablescale{fixing}{0.99}{8}`, "generated/fixing.tex is set at 7.92pt"},
	}
	for _, c := range cases {
		if !strings.Contains(goodAux, c.from) {
			t.Fatalf("%s: goodAux lacks %q", c.name, c.from)
		}
		err := check(mustParse(t, strings.Replace(goodAux, c.from, c.to, 1)))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error with %q", c.name, err, c.want)
		} else if strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: the error is not one line: %q", c.name, err)
		}
	}
	// Without an appendix every float is the body's.
	noAppendix := strings.Replace(goodAux, `\newlabel{census:appendix}`, `\newlabel{sec:refs}`, 1)
	if err := check(mustParse(t, noAppendix)); err == nil || !strings.Contains(err.Error(), "tab:fixing") {
		t.Errorf("without census:appendix, an appendix table after the Conclusion: %v, want an error", err)
	}
}

// check runs Check with the limits of the paper stage.
func check(a Aux) error { return Check(a, 14, 8) }
