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
	"github.com/sudoku-census/sudoku-census/stages/maths/grid"
	"github.com/sudoku-census/sudoku-census/stages/shared/longruns"
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

// Box 6×6 (N = 36, one beyond the grids' text form) takes stackshybrid
// only, in knuth.samples and knuth.long, with its
// exact columns in knuth.stacks_exact and in the long unit's id, which the
// bundle takes; every other variant is refused in one line naming the key,
// its value and the rule, and so is its long unit id.
func TestSixBySixOnlyStacks(t *testing.T) {
	cfg, err := defaultConfig(t, "knuth.samples.6x6/stackshybrid=2",
		"knuth.long.6x6/stackshybrid=4000", "knuth.stacks_exact.6x6=22", "knuth.goals.6x6=0.05")
	if err != nil {
		t.Fatal(err)
	}
	runs := sampling.Runs(cfg.Samples, cfg.Variants)
	if !slices.Contains(runs, sampling.Run{Shape: grid.Shape{R: 6, C: 6}, Variant: "stackshybrid"}) {
		t.Errorf("knuth.samples with 6x6/stackshybrid runs %v", runs)
	}
	// The default config's own 6x6 run (stackshybrid@16, a16 in its ids)
	// is another run: only the one candidate's (a0) are this key's.
	var ids []string
	for _, r := range cfg.longRuns() {
		if r.Shape.String() == "6x6" {
			for _, u := range r.Units(cfg.LongSeed, cfg.BlockSize) {
				if strings.Contains(u.ID(), ".a0.") {
					ids = append(ids, u.ID())
				}
			}
		}
	}
	if want := "long.6x6.stackshybrid.rowmajor.k1296.b22.a0.s1.n1000.0-3"; len(ids) != 1 || ids[0] != want || !LongBundle.Holds(want) {
		t.Errorf("the 6x6 long run's units %v, want [%s], which the bundle holds", ids, want)
	}
	// knuth.stacks_draws goes to the a field of the units' ids.
	cfg, err = defaultConfig(t, "knuth.long.6x6/stackshybrid=4000", "knuth.stacks_draws.6x6=8")
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, r := range cfg.longRuns() {
		if r.Shape.String() == "6x6" && r.Units(cfg.LongSeed, cfg.BlockSize)[0].ID() == "long.6x6.stackshybrid.rowmajor.k1296.b0.a8.s1.n1000.0-3" {
			found = true
		}
	}
	if !found {
		t.Errorf("6x6 with 8 candidate draws: no run's first unit is long.6x6.stackshybrid.rowmajor.k1296.b0.a8.s1.n1000.0-3")
	}
	const rule = ": box 6×6 (N = 36) runs only with stackshybrid ("
	for _, v := range longruns.Names {
		if v == "stackshybrid" {
			continue
		}
		for _, set := range []string{"knuth.samples.6x6/" + v + "=2", "knuth.long.6x6/" + v + "=4000"} {
			key, value, _ := strings.Cut(set, "=")
			_, err := defaultConfig(t, set, "knuth.se_budget.6x6=10", "knuth.hybrid_k.6x6=100")
			if err == nil || !strings.Contains(err.Error(), "config key "+key+": value "+value+" ") ||
				!strings.Contains(err.Error(), "0 for "+v+rule) || strings.Contains(err.Error(), "\n") {
				t.Errorf("--set %s: %v, want one line naming the key, the value and the rule", set, err)
			}
		}
		id := "long.6x6." + v + ".mrv.k1296.b10.a0.s1.n1000.0-3"
		if LongBundle.Holds(id) {
			t.Errorf("the bundle takes the unit %s", id)
		}
	}
	// A key 6x6 for every variant: refused for the first one listed.
	if _, err := defaultConfig(t, "knuth.samples.6x6=2"); err == nil || !strings.Contains(err.Error(), "knuth.samples.6x6/rowmajor") {
		t.Errorf("--set knuth.samples.6x6=2: %v", err)
	}
	// Beyond side 36: no shape key at all.
	if _, err := defaultConfig(t, "knuth.samples.6x7/stackshybrid=2"); err == nil || !strings.Contains(err.Error(), "R·C ≤ 36") {
		t.Errorf("--set knuth.samples.6x7/stackshybrid=2: %v", err)
	}
}

// A coverage study of k candidates leaves the bundle's runs of one as they
// are. Beside the default 6x2/stackshybrid, 6x2/stackshybrid@8 lists units
// of its own (a8, their block size from knuth.long_block_size); with
// knuth.stacks_draws.6x2 = 16 (for the short coverage runs of 16
// candidates), the run of one is 6x2/stackshybrid@1, under the same ids.
func TestDrawsKeepOneCandidateUnits(t *testing.T) {
	ids := func(cfg *Config, key string) (label string, out []string) {
		for _, r := range cfg.longRuns() {
			if r.Key == key {
				for _, u := range r.Units(cfg.LongSeed, cfg.BlockSize) {
					out = append(out, u.ID())
				}
				label = longruns.Label(r.Variant)
			}
		}
		return label, out
	}
	cfg, err := defaultConfig(t, "knuth.long.6x2/stackshybrid@8=32000", "knuth.long_block_size.6x2/stackshybrid@8=500")
	if err != nil {
		t.Fatal(err)
	}
	label, one := ids(cfg, "6x2/stackshybrid")
	if have, err := pipeline.ReadBundle("../..", LongBundle, one); label != "stackshybrid" || len(one) == 0 || len(have) != len(one) || err != nil {
		t.Fatalf("6x2/stackshybrid: %s, %d units, %d in the bundle, %v", label, len(one), len(have), err)
	}
	label, eight := ids(cfg, "6x2/stackshybrid@8")
	if want := []string{"long.6x2.stackshybrid.rowmajor.k144.b6.a8.s1.n500.0-15", "long.6x2.stackshybrid.rowmajor.k144.b6.a8.s1.n500.16-31",
		"long.6x2.stackshybrid.rowmajor.k144.b6.a8.s1.n500.32-47", "long.6x2.stackshybrid.rowmajor.k144.b6.a8.s1.n500.48-63"}; label != "stackshybrid@8" || !slices.Equal(eight, want) {
		t.Errorf("6x2/stackshybrid@8: %s, units %q, want %q", label, eight, want)
	}
	cfg.StacksDraws = map[string]int{"6x2": 16}
	// The default config's 6x2/stackshybrid@16 would now be the short
	// runs' variant too: one key per run, so it goes.
	delete(cfg.Long, "6x2/stackshybrid@16")
	delete(cfg.LongCoverage, "6x2/stackshybrid@16")
	delete(cfg.LongBlockSize, "6x2/stackshybrid@16")
	cfg.Long["6x2/stackshybrid@1"], cfg.LongCoverage["6x2/stackshybrid@1"] = cfg.Long["6x2/stackshybrid"], cfg.LongCoverage["6x2/stackshybrid"]
	delete(cfg.Long, "6x2/stackshybrid")
	delete(cfg.LongCoverage, "6x2/stackshybrid")
	cfg.CoverageSamples["6x2/stackshybrid"] = 1200
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	if label, renamed := ids(cfg, "6x2/stackshybrid@1"); label != "stackshybrid" || !slices.Equal(renamed, one) {
		t.Errorf("6x2/stackshybrid@1 with stacks_draws 16: %s, %d units, not the %d of 6x2/stackshybrid", label, len(renamed), len(one))
	}
	if v := cfg.variant("stackshybrid", grid.Shape{R: 6, C: 2}); longruns.Label(v) != "stackshybrid@16" {
		t.Errorf("the short runs of 6x2 with stacks_draws 16: %s", longruns.Label(v))
	}
}
