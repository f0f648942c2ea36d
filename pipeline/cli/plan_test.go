package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/sudoku-census/sudoku-census/pipeline/engine"
)

// On a terminal the dry run's why column is cut to fit the width; off a
// terminal (width 0) and with --json every reason is whole.
func TestPlanFitsTheTerminal(t *testing.T) {
	long := "config knuth.samples changed (" + strings.Repeat("2x2: 20000, ", 300) + ")"
	plan := []engine.Planned{{Stage: "knuth", Action: "run", Reason: long}, {Stage: "bands", Action: "up to date"},
		{Stage: "importance", Action: "run", Reason: "never run", Expected: 1500 * time.Millisecond}}
	var b bytes.Buffer
	writePlan(&b, plan, 80)
	for _, line := range strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n") {
		if n := utf8.RuneCountInString(strings.TrimRight(line, " ")); n > 80 {
			t.Errorf("a line of %d columns on an 80-column terminal: %q", n, line)
		}
	}
	if !strings.Contains(b.String(), "config knuth.samples changed (2x2") || !strings.Contains(b.String(), "…") ||
		!strings.Contains(b.String(), "never run") || !strings.Contains(b.String(), "1.5s") {
		t.Errorf("cut plan:\n%s", b.String())
	}
	b.Reset()
	writePlan(&b, plan, 0)
	if !strings.Contains(b.String(), long) {
		t.Errorf("plan off a terminal lacks the whole reason:\n%.300s", b.String())
	}
	b.Reset()
	if err := writePlanJSON(&b, plan); err != nil {
		t.Fatal(err)
	}
	var got []struct {
		Stage, Action, Reason string
		LastRunSeconds        *float64 `json:"last_run_seconds"`
	}
	if err := json.Unmarshal(b.Bytes(), &got); err != nil || len(got) != 3 || got[0].Reason != long || got[0].LastRunSeconds != nil ||
		got[2].LastRunSeconds == nil || *got[2].LastRunSeconds != 1.5 {
		t.Errorf("plan JSON: %v\n%.300s", err, b.String())
	}
}

// census run -n --json writes the plan as JSON; --json without -n is bad
// usage.
func TestDryRunJSON(t *testing.T) {
	root := project(t)
	code, out, errs := census(t, root, "run", "-n", "--json")
	var got []struct{ Stage, Action, Reason string }
	if err := json.Unmarshal([]byte(out), &got); code != 0 || err != nil || len(got) != 1 || got[0].Stage != "gen" || got[0].Action != "run" {
		t.Fatalf("run -n --json: exit %d, %v\n%s%s", code, err, out, errs)
	}
	if code, _, errs := census(t, root, "run", "--json"); code != 2 || !strings.Contains(errs, "census run -n --json") {
		t.Errorf("run --json: exit %d, %q", code, errs)
	}
}

// --root alone finds the project's configs/default.yaml under the root,
// from any directory; an explicit --config is read as given.
func TestRootFindsTheDefaultConfig(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "configs"), 0o755)
	os.WriteFile(filepath.Join(root, "configs", "default.yaml"), []byte("gen:\n  rows: 3\n"), 0o644)
	var out, errb bytes.Buffer
	code := Main(stages(), []string{"--root", root, "run", "-q"}, IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb})
	if code != 0 {
		t.Fatalf("--root %s run: exit %d, %s", root, code, errb.String())
	}
	out.Reset()
	if code := Main(stages(), []string{"--root", root, "show", "gen"}, IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb}); code != 0 ||
		!strings.Contains(out.String(), "rows         3") {
		t.Errorf("show after --root run: exit %d\n%s", code, out.String())
	}
	errb.Reset()
	if code := Main(stages(), []string{"--root", root, "--config", filepath.Join(root, "none.yaml"), "status"}, IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb}); code != 2 ||
		!strings.Contains(errb.String(), "none.yaml") {
		t.Errorf("--config none.yaml: exit %d, %q", code, errb.String())
	}
}

// census --version prints the release.
func TestVersion(t *testing.T) {
	var out, errb bytes.Buffer
	code := Main(stages(), []string{"--version"}, IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb})
	if code != 0 || !strings.HasPrefix(out.String(), "census 0.") || strings.Count(out.String(), "\n") != 1 {
		t.Errorf("--version: exit %d, %q %q", code, out.String(), errb.String())
	}
}

// A CENSUS_* variable that names no config key is someone else's: census
// runs as without it; one that names a key sets it.
func TestUnrelatedEnvironmentIgnored(t *testing.T) {
	root := project(t)
	t.Setenv("CENSUS_API_KEY", "abc123")
	if code, out, errs := census(t, root, "status"); code != 1 || !strings.Contains(out, "gen") || errs != "" {
		t.Errorf("status with CENSUS_API_KEY set: exit %d, %q %q", code, out, errs)
	}
	t.Setenv("CENSUS_GEN_ROWS", "2.5")
	if code, _, errs := census(t, root, "status"); code != 2 || !strings.Contains(errs, "config key gen.rows: value 2.5 is not allowed") {
		t.Errorf("status with CENSUS_GEN_ROWS=2.5: exit %d, %q", code, errs)
	}
}
