package stages

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestMakeCleanSparesBundles runs the Makefile's clean target in a scratch
// root (issue 50, probe 5): the committed bundles stay, byte for byte, and
// everything else it names goes.
func TestMakeCleanSparesBundles(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("needs make")
	}
	makefile, err := filepath.Abs("../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	files := map[string]string{
		"data/bundles/shapes-2x6.parquet": "bundle bytes",
		"data/bundles/.shapes-2x6.lock":   "",
		"data/manifest.json":              "{}",
		"data/units/x/y":                  "unit",
		"bin/census":                      "binary",
		"paper/generated/x.tex":           "tex",
	}
	for path, content := range files {
		full := filepath.Join(root, path)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, err := exec.Command("make", "-s", "-C", root, "-f", makefile, "clean").CombinedOutput()
	if err != nil {
		t.Fatalf("make clean: %v\n%s", err, out)
	}
	for path, content := range files {
		data, err := os.ReadFile(filepath.Join(root, path))
		inBundles := filepath.Dir(path) == "data/bundles"
		switch {
		case inBundles && (err != nil || string(data) != content):
			t.Errorf("make clean changed the bundle file %s: %v", path, err)
		case !inBundles && err == nil:
			t.Errorf("make clean left %s", path)
		}
	}
	// With no data/ at all it succeeds too.
	os.RemoveAll(filepath.Join(root, "data"))
	if out, err := exec.Command("make", "-s", "-C", root, "-f", makefile, "clean").CombinedOutput(); err != nil {
		t.Fatalf("make clean without data/: %v\n%s", err, out)
	}
}
