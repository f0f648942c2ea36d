package stages

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/sudoku-census/sudoku-census/pipeline/engine"
	"github.com/sudoku-census/sudoku-census/pipeline/inspect"

	"github.com/sudoku-census/sudoku-census/pipeline/pipelinetest"
	"github.com/sudoku-census/sudoku-census/pipeline/store"
)

var update = flag.Bool("update", false, "rewrite testdata/golden.json and configs/smoke.lock.json from this run (go test ./stages -run 'Golden|SmokeLock' -update)")

// smokeRoots holds the project roots of the smoke pipeline run once with one
// core and once with two, shared by the tests of this package.
var smokeRoots = struct {
	sync.Mutex
	byProcs map[int]string
}{byProcs: map[int]string{}}

// runSmoke runs the whole pipeline with the smoke configuration in a fresh
// root under the given GOMAXPROCS, once per test binary, and returns the
// root.
func runSmoke(t *testing.T, procs int) string {
	t.Helper()
	smokeRoots.Lock()
	defer smokeRoots.Unlock()
	if root, ok := smokeRoots.byProcs[procs]; ok {
		return root
	}
	root, err := os.MkdirTemp("", "census-smoke-")
	if err != nil {
		t.Fatal(err)
	}
	pipelinetest.Run(t, pipelinetest.Options{Stages: All, Config: "../configs/smoke.yaml", Procs: procs, Root: root})
	smokeRoots.byProcs[procs] = root
	return root
}

// requireTeX skips a test that needs every artifact of the smoke run, the
// paper's PDF included, when TeX is not installed (the paper stage then
// skips itself); CI installs it.
func requireTeX(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("latexmk"); err != nil {
		t.Skip("needs TeX for the paper stage (make tex installs it)")
	}
}

func TestMain(m *testing.M) {
	code := m.Run()
	for _, root := range smokeRoots.byProcs {
		os.RemoveAll(root)
	}
	os.Exit(code)
}

// TestByteIdenticalWhateverTheCores runs the whole smoke pipeline with one
// core and with two and compares every artifact and the manifest byte for
// byte.
func TestByteIdenticalWhateverTheCores(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole smoke pipeline twice")
	}
	requireTeX(t)
	one, two := runSmoke(t, 1), runSmoke(t, 2)
	m, err := store.ReadManifest(one)
	if err != nil {
		t.Fatal(err)
	}
	var outputs int
	for _, s := range All {
		outputs += len(s.Outputs)
	}
	if len(m.Artifacts) != outputs {
		t.Fatalf("manifest lists %d artifacts, the stages declare %d", len(m.Artifacts), outputs)
	}
	var paths []string
	for _, a := range m.Artifacts {
		paths = append(paths, a.Path)
	}
	pipelinetest.SameFiles(t, one, two, append([]string{store.ManifestPath}, paths...)...)
}

// goldenPath is the committed record of the smoke pipeline's outputs.
const goldenPath = "testdata/golden.json"

// goldenStage is one stage's entry in testdata/golden.json: its Version,
// its fingerprint (which covers the Version, the configuration and the
// input artifacts' hashes) and the SHA-256 of each output, by path.
type goldenStage struct {
	Stage       string            `json:"stage"`
	Version     int               `json:"version"`
	Fingerprint string            `json:"fingerprint"`
	Outputs     map[string]string `json:"outputs"`
}

// TestGoldenVersions enforces the code-version rule: every output of the
// smoke pipeline hashes to what testdata/golden.json records for the
// stage's fingerprint. An output that changed while the fingerprint did not
// (same Version, same configuration, same inputs: only the code can have
// changed it) fails the test, naming both: bump the Version (so that old
// artifacts are stale) and rewrite the file with
//
//	go test ./stages -run 'Golden|SmokeLock' -update
//
// A changed fingerprint with an old record (a bumped Version, or inputs
// that changed upstream) fails too, until the file is rewritten, so the
// record always describes the code; it does not blame the stage.
func TestGoldenVersions(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole smoke pipeline")
	}
	requireTeX(t)
	root := runSmoke(t, 2)
	m, err := store.ReadManifest(root)
	if err != nil {
		t.Fatal(err)
	}
	var now []goldenStage
	for _, s := range All {
		g := goldenStage{Stage: s.Name, Version: s.Version, Fingerprint: m.Stages[s.Name].Fingerprint, Outputs: map[string]string{}}
		for _, o := range s.Outputs {
			data, err := os.ReadFile(filepath.Join(root, o.Path))
			if err != nil {
				t.Fatal(err)
			}
			sum := sha256.Sum256(data)
			g.Outputs[o.Path] = hex.EncodeToString(sum[:])
		}
		now = append(now, g)
	}
	if *update {
		data, err := json.MarshalIndent(now, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(goldenPath, append(data, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s", goldenPath)
		return
	}
	data, err := os.ReadFile(goldenPath)
	if err != nil {
		t.Fatalf("%v: create it with go test ./stages -run 'Golden|SmokeLock' -update", err)
	}
	var was []goldenStage
	if err := json.Unmarshal(data, &was); err != nil {
		t.Fatalf("%s: %v", goldenPath, err)
	}
	if problems := compareGolden(was, now); len(problems) > 0 {
		for _, p := range problems {
			t.Error(p)
		}
	}
}

// compareGolden returns one line per disagreement between the recorded and
// the current outputs.
func compareGolden(was, now []goldenStage) []string {
	const rewrite = "go test ./stages -run 'Golden|SmokeLock' -update"
	recorded := map[string]goldenStage{}
	for _, g := range was {
		recorded[g.Stage] = g
	}
	var problems []string
	for _, g := range now {
		old, ok := recorded[g.Stage]
		switch {
		case !ok:
			problems = append(problems, fmt.Sprintf("stage %s is not in %s: rewrite it with %s", g.Stage, goldenPath, rewrite))
			continue
		case old.Version != g.Version:
			problems = append(problems, fmt.Sprintf("stage %s: Version is %d, %s records %d: rewrite it with %s",
				g.Stage, g.Version, goldenPath, old.Version, rewrite))
			continue
		case old.Fingerprint != g.Fingerprint:
			if !maps.Equal(old.Outputs, g.Outputs) {
				problems = append(problems, fmt.Sprintf("stage %s: its configuration or inputs changed (fingerprint %.12s, %s records %.12s) and so did its outputs: rewrite it with %s",
					g.Stage, g.Fingerprint, goldenPath, old.Fingerprint, rewrite))
			}
			continue
		}
		for _, path := range slices.Sorted(maps.Keys(g.Outputs)) {
			if old.Outputs[path] != g.Outputs[path] {
				problems = append(problems, fmt.Sprintf("stage %s (Version %d, same configuration and inputs): %s changed but the Version did not: bump %s's Version, then %s",
					g.Stage, g.Version, path, g.Stage, rewrite))
			}
		}
		for _, path := range slices.Sorted(maps.Keys(old.Outputs)) {
			if _, ok := g.Outputs[path]; !ok {
				problems = append(problems, fmt.Sprintf("stage %s (Version %d, same configuration and inputs): %s is no longer an output but the Version did not change: bump %s's Version, then %s",
					g.Stage, g.Version, path, g.Stage, rewrite))
			}
		}
	}
	return problems
}

// TestCompareGolden checks the rule itself on made-up records.
func TestCompareGolden(t *testing.T) {
	was := []goldenStage{{Stage: "a", Version: 1, Fingerprint: "f1", Outputs: map[string]string{"data/a.parquet": "x"}}}
	if p := compareGolden(was, was); len(p) != 0 {
		t.Errorf("same records: %v", p)
	}
	changed := []goldenStage{{Stage: "a", Version: 1, Fingerprint: "f1", Outputs: map[string]string{"data/a.parquet": "y"}}}
	if p := compareGolden(was, changed); len(p) != 1 || !strings.Contains(p[0], "data/a.parquet changed but the Version did not") {
		t.Errorf("changed output, same fingerprint: %v", p)
	}
	bumped := []goldenStage{{Stage: "a", Version: 2, Fingerprint: "f2", Outputs: map[string]string{"data/a.parquet": "y"}}}
	if p := compareGolden(was, bumped); len(p) != 1 || !strings.Contains(p[0], "-update") || strings.Contains(p[0], "bump") {
		t.Errorf("bumped Version, old record: %v", p)
	}
	upstream := []goldenStage{{Stage: "a", Version: 1, Fingerprint: "f2", Outputs: map[string]string{"data/a.parquet": "y"}}}
	if p := compareGolden(was, upstream); len(p) != 1 || !strings.Contains(p[0], "inputs changed") || strings.Contains(p[0], "bump") {
		t.Errorf("changed inputs, same Version: %v", p)
	}
	sameBytes := []goldenStage{{Stage: "a", Version: 1, Fingerprint: "f2", Outputs: map[string]string{"data/a.parquet": "x"}}}
	if p := compareGolden(was, sameBytes); len(p) != 0 {
		t.Errorf("changed inputs, same outputs: %v", p)
	}
	renamed := []goldenStage{{Stage: "a", Version: 1, Fingerprint: "f1", Outputs: map[string]string{"data/b.parquet": "x"}}}
	if p := compareGolden(was, renamed); len(p) != 2 {
		t.Errorf("an output replaced by another, same fingerprint: %v", p)
	}
}

// TestRerunRules checks the engine's rules on the real first stages: a
// second run runs nothing, a reduce key reruns reduce only, an interrupted
// bands run publishes nothing.
func TestRerunRules(t *testing.T) {
	root := t.TempDir()
	run := func(ro engine.RunOptions, set ...string) ([]string, error) {
		e, err := engine.New(engine.Options{Root: root, Stages: All, ConfigFile: "../configs/smoke.yaml", Set: set})
		if err != nil {
			t.Fatal(err)
		}
		res, err := e.Run(context.Background(), []string{"reduce"}, ro)
		var ran []string
		for _, r := range res {
			if r.Ran {
				ran = append(ran, r.Stage)
			}
		}
		return ran, err
	}
	// Half the bands, then a failure: nothing is published.
	if _, err := run(engine.RunOptions{FailAfterRows: map[string]int64{"bands": 2612736 / 2}}); err == nil {
		t.Fatal("injected failure did not fail")
	}
	if _, err := os.Stat(filepath.Join(root, "data/bands.parquet")); !os.IsNotExist(err) {
		t.Fatalf("interrupted bands stage left data/bands.parquet (%v)", err)
	}
	if ran, err := run(engine.RunOptions{}); err != nil || len(ran) != 2 {
		t.Fatalf("first run ran %v, %v", ran, err)
	}
	if ran, err := run(engine.RunOptions{}); err != nil || len(ran) != 0 {
		t.Fatalf("second run ran %v, %v", ran, err)
	}
	if ran, err := run(engine.RunOptions{}, "reduce.swap_blocks=false"); err != nil || len(ran) != 1 || ran[0] != "reduce" {
		t.Fatalf("--set reduce.swap_blocks=false ran %v, %v", ran, err)
	}
}

// smokeLockPath is the committed lock of the smoke run.
const smokeLockPath = "../configs/smoke.lock.json"

// smokeEngine is the smoke run (TeX required: the lock has the paper) and
// an engine over it.
func smokeEngine(t *testing.T) (string, *engine.Engine) {
	t.Helper()
	requireTeX(t)
	root := runSmoke(t, 2)
	e, err := engine.New(engine.Options{Root: root, Stages: All, ConfigFile: "../configs/smoke.yaml"})
	if err != nil {
		t.Fatal(err)
	}
	return root, e
}

// TestSmokeLock checks that a fresh smoke run reproduces the committed lock
// byte for byte, and that a flipped byte in any artifact makes the
// comparison name it. With -update it rewrites the lock (with the golden
// record: both describe the smoke run).
func TestSmokeLock(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole smoke pipeline")
	}
	root, e := smokeEngine(t)
	l, err := e.Lock()
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(smokeLockPath, l.Encode(), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s", smokeLockPath)
		return
	}
	committed, err := os.ReadFile(smokeLockPath)
	if err != nil {
		t.Fatalf("%v: create it with go test ./stages -run 'Golden|SmokeLock' -update", err)
	}
	if !bytes.Equal(committed, l.Encode()) {
		locked, err := inspect.ReadLock(smokeLockPath)
		if err != nil {
			t.Fatal(err)
		}
		diffs, _ := e.Project().CompareLock(locked)
		t.Fatalf("the smoke run differs from %s (rewrite it with go test ./stages -run 'Golden|SmokeLock' -update after bumping the Versions):\n%s",
			smokeLockPath, strings.Join(diffs, "\n"))
	}
	// A flipped byte in each artifact, in a copy, is reported by name.
	locked, err := inspect.ReadLock(smokeLockPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range locked.Artifacts {
		copyRoot := pipelinetest.Copy(t, root)
		path := filepath.Join(copyRoot, a.Path)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		data[len(data)/2] ^= 0x01
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		ce, err := engine.New(engine.Options{Root: copyRoot, Stages: All, ConfigFile: "../configs/smoke.yaml"})
		if err != nil {
			t.Fatal(err)
		}
		diffs, err := ce.Project().CompareLock(locked)
		if err != nil || len(diffs) != 1 || !strings.HasPrefix(diffs[0], a.Path+": SHA-256") {
			t.Errorf("flipped a byte of %s: differences %q, %v", a.Path, diffs, err)
		}
		os.RemoveAll(copyRoot)
	}
}
