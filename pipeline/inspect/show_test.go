package inspect

import (
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
