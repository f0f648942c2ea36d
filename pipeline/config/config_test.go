package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sudoku-census/sudoku-census/pipeline"
)

type testConfig struct {
	Samples map[string]int64 `mapstructure:"samples" json:"samples"`
	Depth   int              `mapstructure:"depth" json:"depth"`
	Name    string           `mapstructure:"name" json:"name"`
}

func (c *testConfig) Validate() error {
	if c.Depth < 0 {
		return pipeline.Invalid("toy.depth", c.Depth, "an integer ≥ 0")
	}
	return nil
}

func loadToy(t *testing.T, yaml string, sets ...string) (*testConfig, map[string]any, error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "c.yaml")
	if err := os.WriteFile(path, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	stage := &pipeline.Stage{Name: "toy", Globals: []string{"seed"}, NewConfig: func() pipeline.Config {
		return &testConfig{Samples: map[string]int64{"A": 1, "b": 2}, Depth: 3, Name: "x"}
	}}
	st, err := Load([]*pipeline.Stage{stage}, nil, path, sets)
	if err != nil {
		return nil, nil, err
	}
	return st.Stage["toy"].(*testConfig), st.Globals, nil
}

// The file, then CENSUS_* variables, then --set: each later source wins,
// key by key, and a key no source sets keeps its default.
func TestSourcesPrecedence(t *testing.T) {
	cfg, g, err := loadToy(t, "seed: 5\ntoy:\n  depth: 4\n  name: file\n")
	if err != nil || g["seed"] != uint64(5) || cfg.Depth != 4 || cfg.Name != "file" {
		t.Fatalf("file only: %+v %v %v", cfg, g, err)
	}
	t.Setenv("CENSUS_TOY_DEPTH", "6")
	t.Setenv("CENSUS_SEED", "9")
	cfg, g, err = loadToy(t, "seed: 5\ntoy:\n  depth: 4\n  name: file\n")
	if err != nil || g["seed"] != uint64(9) || cfg.Depth != 6 || cfg.Name != "file" {
		t.Fatalf("environment over file: %+v %v %v", cfg, g, err)
	}
	cfg, g, err = loadToy(t, "seed: 5\ntoy:\n  depth: 4\n", "toy.depth=8", "toy.depth=7")
	if err != nil || g["seed"] != uint64(9) || cfg.Depth != 7 || cfg.Name != "x" {
		t.Fatalf("--set over environment, the last --set winning: %+v %v %v", cfg, g, err)
	}
	// An empty variable is a value, refused for an integer key, not an
	// unset one.
	t.Setenv("CENSUS_TOY_DEPTH", "")
	if _, _, err := loadToy(t, "seed: 5\n"); err == nil || !strings.Contains(err.Error(), `config key toy.depth: value "" is not allowed`) {
		t.Fatalf("empty variable: %v", err)
	}
}

// A map key keeps the entries the file gives (names in lower case, as
// --set names them); --set of one entry changes that entry only, on top of whichever
// source gave the map.
func TestMapEntries(t *testing.T) {
	cfg, _, err := loadToy(t, "toy:\n  samples: {A: 10, Cc: 30}\n", "toy.samples.d=4")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{"a": 10, "cc": 30, "d": 4}
	if len(cfg.Samples) != len(want) {
		t.Fatalf("samples %v, want %v", cfg.Samples, want)
	}
	for k, v := range want {
		if cfg.Samples[k] != v {
			t.Fatalf("samples %v, want %v", cfg.Samples, want)
		}
	}
	t.Setenv("CENSUS_TOY_SAMPLES", "{e: 5}")
	cfg, _, err = loadToy(t, "toy:\n  samples: {A: 10}\n", "toy.samples.f=6")
	if err != nil || len(cfg.Samples) != 2 || cfg.Samples["e"] != 5 || cfg.Samples["f"] != 6 {
		t.Fatalf("variable's map plus an entry: %v %v", cfg.Samples, err)
	}
}

// A CENSUS_* variable that names no key is someone else's, ignored, unless
// it is under a stage's prefix. An unknown key in the file or in --set is
// still refused.
func TestUnrelatedVariablesAreIgnored(t *testing.T) {
	t.Setenv("CENSUS_API_KEY", "abc123")
	t.Setenv("CENSUS_SEEDS", "1")
	if _, _, err := loadToy(t, "seed: 1\n"); err != nil {
		t.Fatalf("unrelated variables: %v", err)
	}
	// Under a stage's prefix, a variable that names no key is a misspelt
	// key.
	t.Setenv("CENSUS_TOY_DEPHT", "1")
	if _, _, err := loadToy(t, "seed: 1\n"); err == nil || !strings.Contains(err.Error(), "environment variable CENSUS_TOY_DEPHT: no such config key") {
		t.Fatalf("misspelt stage key: %v", err)
	}
	os.Unsetenv("CENSUS_TOY_DEPHT")
	if _, _, err := loadToy(t, "seed: 1\n", "toy.nosuch=1"); err == nil || !strings.Contains(err.Error(), "unknown config key toy.nosuch") {
		t.Fatalf("--set of an unknown key: %v", err)
	}
	if _, _, err := loadToy(t, "api_key: 1\n"); err == nil || !strings.Contains(err.Error(), "unknown config key api_key") {
		t.Fatalf("file with an unknown key: %v", err)
	}
}

// Values are parsed exactly whichever source gives them; a duplicate key
// in the file is refused.
func TestExactValues(t *testing.T) {
	for _, bad := range []string{"1.5", "1e30", ".nan", "true", "18446744073709551616"} {
		_, _, err := loadToy(t, "seed: "+bad+"\n")
		var ce *pipeline.ConfigError
		if !errors.As(err, &ce) || ce.Key != "seed" {
			t.Errorf("file seed: %s: %v", bad, err)
		}
		_, _, err = loadToy(t, "seed: 1\n", "seed="+bad)
		if !errors.As(err, &ce) || ce.Key != "seed" {
			t.Errorf("--set seed=%s: %v", bad, err)
		}
	}
	if _, g, err := loadToy(t, "seed: 18446744073709551615\n"); err != nil || g["seed"] != uint64(18446744073709551615) {
		t.Errorf("largest seed: %v %v", g, err)
	}
	if _, _, err := loadToy(t, "seed: 1\nSeed: 2\n"); err == nil || !strings.Contains(err.Error(), "given twice") {
		t.Errorf("duplicate key: %v", err)
	}
}
