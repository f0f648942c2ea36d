package knuth

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/pipeline/config"
	"github.com/sudoku-census/sudoku-census/stages/shared/sampling"
)

// defaultConfig loads the seed and knuth keys of configs/default.yaml
// with the --set overrides.
func defaultConfig(t *testing.T, sets ...string) (*Config, error) {
	t.Helper()
	data, err := os.ReadFile("../../configs/default.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	root := doc.Content[0]
	var kept []*yaml.Node
	for i := 0; i+1 < len(root.Content); i += 2 {
		if k := root.Content[i].Value; k == "seed" || k == "knuth" {
			kept = append(kept, root.Content[i], root.Content[i+1])
		}
	}
	root.Content = kept
	out, err := yaml.Marshal(&doc)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "knuth.yaml")
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := config.Load([]*pipeline.Stage{Stage}, nil, path, sets)
	if err != nil {
		return nil, err
	}
	return st.Stage["knuth"].(*Config), nil
}

// Narrowing knuth.variants needs no other key: the RxC/variant entries of
// samples and coverage_samples that name a variant no longer listed are
// left unused, and a name that is no variant at all is still refused.
func TestNarrowedVariants(t *testing.T) {
	for _, list := range []string{"[mrv]", "[se]", "[stacks]", "[rowmajor, bandse]"} {
		cfg, err := defaultConfig(t, "knuth.variants="+list)
		if err != nil {
			t.Errorf("--set knuth.variants=%s: %v", list, err)
			continue
		}
		for _, r := range append(sampling.Runs(cfg.Samples, cfg.Variants), sampling.Runs(cfg.CoverageSamples, cfg.Variants)...) {
			if !slices.Contains(cfg.Variants, r.Variant) {
				t.Errorf("--set knuth.variants=%s runs %s", list, r.Variant)
			}
		}
	}
	if _, err := defaultConfig(t, "knuth.variants=[mrv]", "knuth.coverage_samples.3x3/mvr=10"); err == nil || !strings.Contains(err.Error(), "knuth.coverage_samples.3x3/mvr") {
		t.Errorf("a misspelt variant in coverage_samples: %v", err)
	}
}

// A new global seed leaves the long runs' units as they are: every unit
// the default configuration lists is in the committed bundle, under the
// ids it had before knuth.long_seed existed (s1), so the real run needs
// no CPU-hours for them. A new long_seed lists other units.
func TestSeedKeepsLongUnits(t *testing.T) {
	cfg, err := defaultConfig(t, "seed=7")
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range cfg.longRuns() {
		for _, u := range r.Units(cfg.LongSeed, cfg.BlockSize) {
			if !strings.Contains(u.ID(), ".s1.") {
				t.Fatalf("unit %s: the default long seed is 1", u.ID())
			}
			ids = append(ids, u.ID())
		}
	}
	if len(ids) == 0 {
		t.Fatal("configs/default.yaml lists no long run")
	}
	have, err := pipeline.ReadBundle("../..", LongBundle, ids)
	if err != nil {
		t.Fatal(err)
	}
	if len(have) != len(ids) {
		t.Errorf("the bundle holds %d of the %d long units of configs/default.yaml with seed 7", len(have), len(ids))
	}
	cfg, err = defaultConfig(t, "knuth.long_seed=2")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range cfg.longRuns() {
		for _, u := range r.Units(cfg.LongSeed, cfg.BlockSize) {
			if !strings.Contains(u.ID(), ".s2.") {
				t.Fatalf("knuth.long_seed=2 lists %s", u.ID())
			}
		}
	}
}
