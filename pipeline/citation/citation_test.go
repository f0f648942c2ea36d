package citation

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sudoku-census/sudoku-census/pipeline/store"
)

// TestCitationFileIsTheRelease checks the repository's CITATION.cff: valid
// as far as CFF 1.2.0 asks of the fields it has, its version the tool's
// release (the one place both come from), its license the LICENSE file's.
func TestCitationFileIsTheRelease(t *testing.T) {
	c, err := Read("../..")
	if err != nil {
		t.Fatal(err)
	}
	if c.Version != store.ToolRelease {
		t.Errorf("CITATION.cff version %q, the tool's release (pipeline/store/manifest.go ToolRelease) %q: change both together", c.Version, store.ToolRelease)
	}
	license, err := os.ReadFile("../../LICENSE")
	if err != nil {
		t.Fatal(err)
	}
	if first, _, _ := strings.Cut(string(license), "\n"); first != c.License+" License" {
		t.Errorf("CITATION.cff license %q, LICENSE starts %q", c.License, first)
	}
	if c.Preferred == nil || c.Preferred.URL == "" || c.Title == "" {
		t.Errorf("CITATION.cff lacks a preferred-citation with a url: %+v", c.Preferred)
	}
	if released, _ := c.Released(); c.Preferred != nil && released.Year() != c.Preferred.Year {
		t.Errorf("preferred-citation year %d, date-released %s", c.Preferred.Year, c.DateReleased)
	}
}

// TestCitationChecks checks that Read rejects, in one line naming
// the key, a file that CFF 1.2.0 or census cite would not accept.
func TestCitationChecks(t *testing.T) {
	good, err := os.ReadFile("../../" + Path)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ old, new, want string }{
		{"cff-version: 1.2.0", "cff-version: 1.1.0", "cff-version"},
		{`message: "If`, `nomessage: "If`, "message is missing"},
		{`date-released: "2026-11-26"`, `date-released: "26/11/2026"`, "date-released"},
		{`repository-code: "https://github.com/sudoku-census/sudoku-census"`, `repository-code: "/home/me/sudoku-census"`, "repository-code"},
		{`  - name: "The sudoku-census authors"` + "\nversion", `  - alias: "x"` + "\nversion", "authors[0] has neither"},
		{`version: "0.1.0"`, `versio: "0.1.0"`, "version is missing"},
		{"title:", "title: [", "malformed YAML"},
	}
	for _, tc := range cases {
		bad := strings.Replace(string(good), tc.old, tc.new, 1)
		if bad == string(good) {
			t.Fatalf("case %q does not apply to CITATION.cff", tc.old)
		}
		root := t.TempDir()
		os.WriteFile(filepath.Join(root, Path), []byte(bad), 0o644)
		_, err := Read(root)
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s -> %s: err = %v, want one line with %q", tc.old, tc.new, err, tc.want)
		}
	}
}

// TestReadmeCitesTheRelease checks that README's "How to cite" BibTeX
// gives CITATION.cff's title, version, date and address.
func TestReadmeCitesTheRelease(t *testing.T) {
	c, err := Read("../..")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, entry, ok := strings.Cut(string(readme), "@software{sudokucensus,")
	entry, _, _ = strings.Cut(entry, "\n    }")
	if !ok {
		t.Fatal("README.md has no @software{sudokucensus, entry")
	}
	for field, want := range map[string]string{"title": c.Title, "version": c.Version, "date": c.DateReleased,
		"license": c.License, "url": c.RepositoryCode} {
		if !regexp.MustCompile(`(?m)^\s+` + field + `\s+= \{` + regexp.QuoteMeta(want) + `\},$`).MatchString(entry) {
			t.Errorf("README's BibTeX %s is not CITATION.cff's %q:\n%s", field, want, entry)
		}
	}
	// The plain BibTeX entry says the same.
	_, misc, ok := strings.Cut(string(readme), "@misc{sudokucensus,")
	misc, _, _ = strings.Cut(misc, "\n    }")
	if !ok {
		t.Fatal("README.md has no @misc{sudokucensus, entry for plain BibTeX")
	}
	for _, want := range []string{"year         = {" + c.DateReleased[:4] + "}", "\\url{" + c.RepositoryCode + "}",
		"Version " + c.Version + ", released " + c.DateReleased + "; " + c.License + " license"} {
		if !strings.Contains(misc, want) {
			t.Errorf("README's plain BibTeX entry lacks %q:\n%s", want, misc)
		}
	}
}
