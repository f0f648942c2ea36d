package stages

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sudoku-census/sudoku-census/pipeline/inspect"
)

// TestDiffOfTheSmokeLock diffs a fresh smoke run against the committed
// smoke lock (no difference; every headline number read) and against a
// modified copy of the lock: another knuth.samples.3x3 and other knuth
// bytes.
func TestDiffOfTheSmokeLock(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole smoke pipeline")
	}
	_, e := smokeEngine(t)
	d, err := e.Project().Diff(smokeLockPath, inspect.DataSide, inspect.DiffOptions{All: true})
	if err != nil {
		t.Fatal(err)
	}
	if d.Differs() || len(d.Notes) != 0 {
		t.Fatalf("the smoke run against its lock: config %v, stages %v, artifacts %v, notes %v", d.Config, d.Stages, d.Artifacts, d.Notes)
	}
	for _, want := range []inspect.Change{
		{Stage: "exact", Key: "grids", Old: "6670903752021072936960", New: "6670903752021072936960"},
		{Stage: "shapes", Key: "2x3 grids", Old: "28200960", New: "28200960"},
		{Stage: "symmetry", Key: "2x2 essentially_different", Old: "2", New: "2"},
	} {
		if !slices.Contains(d.Metrics, want) {
			t.Errorf("numbers lack %+v", want)
		}
	}
	for _, key := range []string{"3x3/mrv estimate", "3x3/mrv half_width_95", "3x3/ridder samples", "3x3 estimate"} {
		if !slices.ContainsFunc(d.Metrics, func(c inspect.Change) bool { return c.Key == key && c.Old != "" && c.Old == c.New }) {
			t.Errorf("numbers lack %q", key)
		}
	}

	// A modified copy: the lock of a run with 4000 samples of 3x3.
	var l map[string]any
	data, _ := os.ReadFile(smokeLockPath)
	if err := json.Unmarshal(data, &l); err != nil {
		t.Fatal(err)
	}
	for _, s := range l["stages"].([]any) {
		if st := s.(map[string]any); st["stage"] == "knuth" {
			st["config"].(map[string]any)["knuth"].(map[string]any)["samples"].(map[string]any)["3x3"] = 4000
			st["fingerprint"] = strings.Repeat("ab", 32)
		}
	}
	for _, a := range l["artifacts"].([]any) {
		if art := a.(map[string]any); art["path"] == "data/knuth.parquet" {
			art["sha256"] = strings.Repeat("cd", 32)
		}
	}
	modified := filepath.Join(t.TempDir(), "modified.lock.json")
	data, _ = json.Marshal(l)
	os.WriteFile(modified, data, 0o644)
	d, err = e.Project().Diff(smokeLockPath, modified, inspect.DiffOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Config) != 1 || d.Config[0] != (inspect.Change{Key: "knuth.samples.3x3", Old: "2000", New: "4000"}) {
		t.Errorf("config %+v, want knuth.samples.3x3 2000 → 4000", d.Config)
	}
	if len(d.Stages) != 1 || d.Stages[0].Stage != "knuth" || len(d.Artifacts) != 1 || d.Artifacts[0].Path != "data/knuth.parquet" {
		t.Errorf("stages %+v, artifacts %+v: want knuth and data/knuth.parquet", d.Stages, d.Artifacts)
	}
	if len(d.Notes) != 1 || !strings.Contains(d.Notes[0], "the numbers of stage knuth are not compared: no copy here of data/knuth.parquet") {
		t.Errorf("notes %q", d.Notes)
	}
}
