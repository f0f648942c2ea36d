package kilfoil_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/kilfoil"
)

// runStage runs the kilfoil stage alone over a fresh root with the given
// overrides and returns the root.
func runStage(t *testing.T, set ...string) (string, error) {
	t.Helper()
	root := t.TempDir()
	config := filepath.Join(root, "config.yaml")
	if err := os.WriteFile(config, []byte("seed: 1\nkilfoil:\n  shapes: [3x3, 2x2, 2x3, 4x4]\n  digits: 12\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	eng, err := pipeline.New(pipeline.Options{Root: root, Stages: []*pipeline.Stage{kilfoil.Stage}, ConfigFile: config, Set: set})
	if err != nil {
		return root, err
	}
	_, err = eng.Run(context.Background(), []string{"kilfoil"}, pipeline.RunOptions{})
	return root, err
}

func TestStageArtifact(t *testing.T) {
	root, err := runStage(t)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := kilfoil.Estimates.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 4 {
		t.Fatalf("%d rows, want 4", len(rows))
	}
	nine := rows[0]
	if nine.Rows != 3 || nine.Cols != 3 || nine.BandCount != "948109639680" || nine.StackCount != "948109639680" ||
		nine.BandCompletions != "56" || nine.Estimate != "6657084616885512582463.488" || !nine.EstimateExact ||
		nine.EstimateDen != "125" {
		t.Errorf("3×3 row %+v", nine)
	}
	if four := rows[1]; four.Rows != 2 || four.Cols != 2 || four.Estimate != "256" || four.BandCount != "96" {
		t.Errorf("2×2 row %+v", four)
	}
	if six := rows[2]; six.Estimate != "26542080" || six.BandCount != "25920" || six.StackCount != "460800" {
		t.Errorf("2×3 row %+v", six)
	}
	sixteen := rows[3]
	if sixteen.EstimateExact || !strings.HasPrefix(sixteen.Estimate, "5.9583") || !strings.HasSuffix(sixteen.Estimate, "e+98") ||
		len(sixteen.Estimate) != len("5.95838301762e+98") {
		t.Errorf("4×4 row estimate %q (exact %v), want 12 significant digits of 5.9584e+98", sixteen.Estimate, sixteen.EstimateExact)
	}
}

// TestStageReproducible: the artifact is byte-identical whatever the number
// of processors the band counter uses.
func TestStageReproducible(t *testing.T) {
	rootA, err := runStage(t)
	if err != nil {
		t.Fatal(err)
	}
	a, err := os.ReadFile(filepath.Join(rootA, kilfoil.Estimates.Path))
	if err != nil {
		t.Fatal(err)
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	rootB, err := runStage(t)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(rootB, kilfoil.Estimates.Path))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Error("artifacts differ between GOMAXPROCS settings")
	}
}

func TestBadConfig(t *testing.T) {
	for _, tc := range []struct{ set, key, value string }{
		{"kilfoil.shapes=3x3,6x2", "kilfoil.shapes", "6x2"},
		{"kilfoil.shapes=3x3,3by3", "kilfoil.shapes", "3by3"},
		{"kilfoil.shapes=2x3,2x3", "kilfoil.shapes", "2x3"},
		{"kilfoil.digits=0", "kilfoil.digits", "0"},
	} {
		_, err := runStage(t, tc.set)
		var ce *pipeline.ConfigError
		if !errors.As(err, &ce) || ce.Key != tc.key || !strings.Contains(err.Error(), tc.value) {
			t.Errorf("--set %s: error %v, want a config error on %s naming %s", tc.set, err, tc.key, tc.value)
		}
	}
}
