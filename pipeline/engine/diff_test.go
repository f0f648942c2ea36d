package engine

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sudoku-census/sudoku-census/pipeline"

	"github.com/sudoku-census/sudoku-census/pipeline/inspect"
	"github.com/sudoku-census/sudoku-census/pipeline/store"
)

// diffFixture is the toy pipeline whose total stage reports its sum as a
// headline number.
func diffFixture(t *testing.T) *fixture {
	f := newFixture(t, "numbers:\n  count: 10\n")
	total := f.stages[2]
	total.Headlines = func(root string) ([]pipeline.Headline, error) {
		b, err := os.ReadFile(filepath.Join(root, totalFile.Path))
		return []pipeline.Headline{{Name: "sum", Value: strings.TrimSpace(string(b))}}, err
	}
	return f
}

func (f *fixture) writeLock(name string) string {
	f.t.Helper()
	path := filepath.Join(f.root, name)
	if err := f.engine().WriteLock(path); err != nil {
		f.t.Fatal(err)
	}
	return path
}

func TestDiffOfTwoRuns(t *testing.T) {
	f := diffFixture(t)
	f.run(RunOptions{}, nil)
	ten := f.writeLock("ten.lock.json")
	d, err := f.engine().Project().Diff(ten, inspect.DataSide, inspect.DiffOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Differs() || len(d.Metrics) != 0 || len(d.Notes) != 0 {
		t.Fatalf("a lock against its own run: %+v", d)
	}

	// Another count: its key, every stage, every artifact and the sum
	// differ; the old sum is read from the run cache's copy.
	os.WriteFile(f.config, []byte("numbers:\n  count: 20\n"), 0o644)
	f.run(RunOptions{}, nil)
	twenty := f.writeLock("twenty.lock.json")
	for _, b := range []string{inspect.DataSide, twenty} {
		d, err = f.engine().Project().Diff(ten, b, inspect.DiffOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if !d.Differs() || len(d.Config) != 1 || d.Config[0] != (inspect.Change{Key: "numbers.count", Old: "10", New: "20"}) {
			t.Errorf("%s: config %+v, want numbers.count 10 → 20", b, d.Config)
		}
		if len(d.Stages) != 3 || len(d.Artifacts) != 3 {
			t.Errorf("%s: stages %+v, artifacts %+v: want all three of each", b, d.Stages, d.Artifacts)
		}
		// Σ i² for i < 10 and i < 20, with seed 1: i runs from 1.
		want := inspect.Change{Stage: "total", Key: "sum", Old: "385", New: "2870"}
		if !slices.Contains(d.Metrics, want) {
			t.Errorf("%s: numbers %+v, want %+v among them", b, d.Metrics, want)
		}
	}

	// A lock written before locks held the configuration: the run cache's
	// records still give it.
	var l map[string]any
	data, _ := os.ReadFile(ten)
	json.Unmarshal(data, &l)
	for _, s := range l["stages"].([]any) {
		delete(s.(map[string]any), "config")
	}
	data, _ = json.Marshal(l)
	old := filepath.Join(f.root, "old.lock.json")
	os.WriteFile(old, data, 0o644)
	if d, err = f.engine().Project().Diff(old, inspect.DataSide, inspect.DiffOptions{}); err != nil || len(d.Config) != 1 {
		t.Errorf("a lock without configs: %+v, %v", d, err)
	}

	// Without the run cache, the old run's numbers and configuration are
	// nowhere: said in notes, and the artifacts still compared.
	os.RemoveAll(filepath.Join(f.root, store.CacheDir))
	d, err = f.engine().Project().Diff(old, inspect.DataSide, inspect.DiffOptions{})
	if err != nil || len(d.Artifacts) != 3 || len(d.Config) != 0 || slices.ContainsFunc(d.Metrics, func(c inspect.Change) bool { return c.Key == "sum" }) {
		t.Fatalf("without the cache: %+v, %v", d, err)
	}
	notes := strings.Join(d.Notes, "\n")
	for _, want := range []string{"the configuration of stage numbers", "the numbers of stage total are not compared: no copy here of data/total.txt"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q:\n%s", want, notes)
		}
	}
	// --all lists the numbers that agree too.
	if d, err = f.engine().Project().Diff(twenty, inspect.DataSide, inspect.DiffOptions{All: true}); err != nil || d.Differs() || len(d.Metrics) == 0 {
		t.Errorf("--all of equal runs: %+v, %v", d, err)
	}
}

func TestDiffRejectsBadLocks(t *testing.T) {
	f := diffFixture(t)
	f.run(RunOptions{}, nil)
	bad := filepath.Join(f.root, "bad.json")
	for _, content := range []string{`{"stages": 3}`, `{"artifacts": [{"path": "../x"}]}`, `{"extra": 1}`} {
		os.WriteFile(bad, []byte(content), 0o644)
		if _, err := f.engine().Project().Diff(bad, inspect.DataSide, inspect.DiffOptions{}); err == nil || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: err = %v, want one line", content, err)
		}
	}
	if _, err := f.engine().Project().Diff(filepath.Join(f.root, "none.json"), inspect.DataSide, inspect.DiffOptions{}); err == nil {
		t.Error("a missing lock was accepted")
	}
}
