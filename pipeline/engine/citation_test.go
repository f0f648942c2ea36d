package engine

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sudoku-census/sudoku-census/pipeline/citation"
	"github.com/sudoku-census/sudoku-census/pipeline/store"
)

// TestCiteNamesThePublicRepository checks that census cite prints
// CITATION.cff's repository address and version, and never the git remote
// when it is a path on the machine (as in a clone of a clone).
func TestCiteNamesThePublicRepository(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	f := newFixture(t, "")
	f.run(RunOptions{}, nil)
	gitIn := func(args ...string) {
		t.Helper()
		if out, err := exec.Command("git", append([]string{"-C", f.root}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v: %s", args, err, out)
		}
	}
	gitIn("init", "-q")
	gitIn("remote", "add", "origin", "/srv/clones/sudoku-census")
	cite := func() string {
		var buf bytes.Buffer
		if err := f.engine().Project().Cite(&buf, "total"); err != nil {
			t.Fatal(err)
		}
		return buf.String()
	}
	if out := cite(); strings.Contains(out, "/srv/clones") || strings.Contains(out, "url ") {
		t.Errorf("without CITATION.cff and with a local remote, cite printed a url:\n%s", out)
	}
	good, _ := os.ReadFile("../../" + citation.Path)
	os.WriteFile(filepath.Join(f.root, citation.Path), good, 0o644)
	out := cite()
	for _, want := range []string{"url          = {https://github.com/sudoku-census/sudoku-census}", "version      = {" + store.ToolRelease + "}", "author       = {{The sudoku-census authors}}"} {
		if !strings.Contains(out, want) {
			t.Errorf("cite lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "/srv/clones") {
		t.Errorf("cite names the local remote:\n%s", out)
	}
	gitIn("remote", "set-url", "origin", "https://example.org/census.git")
	os.Remove(filepath.Join(f.root, citation.Path))
	if out := cite(); !strings.Contains(out, "url          = {https://example.org/census.git}") {
		t.Errorf("without CITATION.cff cite should name a remote that is a URL:\n%s", out)
	}
	os.WriteFile(filepath.Join(f.root, citation.Path), []byte("cff-version: 1.2.0\n"), 0o644)
	if err := f.engine().Project().Cite(&bytes.Buffer{}, "total"); err == nil || !strings.Contains(err.Error(), citation.Path) {
		t.Errorf("an invalid CITATION.cff: err = %v", err)
	}
}
