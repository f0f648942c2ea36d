package inspect

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestPublicURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://user:token@example.org/o/r.git": "https://example.org/o/r.git",
		"git@example.org:o/r.git":                "ssh://git@example.org/o/r.git",
		"ssh://git:pw@example.org/o/r":           "ssh://git@example.org/o/r",
		"/srv/git/r.git":                         "/srv/git/r.git",
	} {
		if got := publicURL(in); got != want {
			t.Errorf("%s: %s, want %s", in, got, want)
		}
	}
}

// Every TeX special character of a field is escaped, so that pdflatex
// typesets the entry: no special is left bare, and the braces balance.
func TestBibEscape(t *testing.T) {
	for in, want := range map[string]string{
		"data/knuth_long.parquet": `data/knuth\_long.parquet`,
		"50% & #1 costs $2":       `50\% \& \#1 costs \$2`,
		`{a}~b^c\d`:               `\{a\}\textasciitilde{}b\textasciicircum{}c\textbackslash{}d`,
		"plain text, 3×3":         "plain text, 3×3",
	} {
		got := bibEscape(in)
		if got != want {
			t.Errorf("bibEscape(%q) = %q, want %q", in, got, want)
		}
		// Outside the commands it writes, no special is bare.
		rest := strings.NewReplacer(`\textbackslash{}`, "", `\textasciitilde{}`, "", `\textasciicircum{}`, "",
			`\{`, "", `\}`, "", `\&`, "", `\%`, "", `\$`, "", `\#`, "", `\_`, "").Replace(got)
		if strings.ContainsAny(rest, `\{}&%$#_~^`) {
			t.Errorf("bibEscape(%q) = %q leaves a special bare", in, got)
		}
	}
}

// A diff's JSON holds each value as the JSON value it is: a config value
// as its canonical JSON, a number as a number written exactly, an absent
// value as null, other text as a string.
func TestDiffJSONIsTyped(t *testing.T) {
	d := Diff{A: "a", B: "data",
		Config:  []Change{{Key: "knuth.se_order", Old: `"mrv"`, New: `"cover"`}, {Key: "seed", Old: "1", New: "7"}, {Key: "knuth.variants", Old: `["mrv"]`, New: ""}},
		Metrics: []Change{{Stage: "exact", Key: "grids", Old: "6670903752021072936960", New: "6670903752021072936961"}, {Stage: "knuth", Key: "x", Old: "n/a", New: "-1.5e-3"}}}
	out, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"old":"mrv","new":"cover"`, `"key":"seed","old":1,"new":7`, `"old":["mrv"],"new":null`,
		`"old":6670903752021072936960,"new":6670903752021072936961`, `"old":"n/a","new":-1.5e-3`, `"a":"a","b":"data"`} {
		if !strings.Contains(string(out), want) {
			t.Errorf("diff JSON lacks %s:\n%s", want, out)
		}
	}
}
