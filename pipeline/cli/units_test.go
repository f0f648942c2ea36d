package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sudoku-census/sudoku-census/pipeline/cli/internal/toy"
	"github.com/sudoku-census/sudoku-census/pipeline/store"
)

// toyCensus runs the command line over the toy pipeline in root.
func toyCensus(t *testing.T, root string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	all := append([]string{"--root", root, "--config", filepath.Join(root, "c.yaml")}, args...)
	code := Main(toy.Stages(), all, IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb})
	return code, out.String(), errb.String()
}

func toyProject(t *testing.T, yaml string) string {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "c.yaml"), []byte("# test config (empty ones are refused)\n"+yaml), 0o644)
	return root
}

func TestStatusShowsUnitsAndGC(t *testing.T) {
	root := toyProject(t, "blocks:\n  count: 12\n")
	if code, out, _ := toyCensus(t, root, "status"); code != 1 || !strings.Contains(out, "blocks  stale: upstream stage seeds is stale\n") {
		t.Fatalf("status before any run: %d\n%s", code, out)
	}
	t.Setenv("TOYCENSUS_FAIL_UNIT", "block-005")
	code, _, errs := toyCensus(t, root, "run", "-q")
	if code != 1 || !strings.Contains(errs, "census: stage blocks failed: unit block-005: injected failure of unit block-005") {
		t.Fatalf("run with a failing unit: %d\n%s", code, errs)
	}
	code, out, _ := toyCensus(t, root, "status")
	if code != 1 || !regexp.MustCompile(`\nblocks  stale: never run; \d+/12 units done\n`).MatchString(out) {
		t.Fatalf("status after a failed run: %d\n%s", code, out)
	}
	os.Unsetenv("TOYCENSUS_FAIL_UNIT")
	code, out, errs = toyCensus(t, root, "run")
	if code != 0 || !strings.Contains(out, "blocks: units.total = 12") || strings.Contains(out, "blocks: units.reused = 0\n") {
		t.Fatalf("resumed run: %d\n%s\n%s", code, out, errs)
	}
	if code, out, _ := toyCensus(t, root, "status"); code != 0 || strings.Contains(out, "units done") {
		t.Fatalf("status after the run: %d\n%s", code, out)
	}
	// Another configuration's partial units, then gc.
	t.Setenv("TOYCENSUS_FAIL_UNIT", "block-002")
	toyCensus(t, root, "run", "-q", "--set", "blocks.rounds=7", "--set", "blocks.count=3")
	os.Unsetenv("TOYCENSUS_FAIL_UNIT")
	dirs, _ := os.ReadDir(filepath.Join(root, "data/units/blocks"))
	if len(dirs) != 2 {
		t.Fatalf("unit dirs %v", dirs)
	}
	code, out, _ = toyCensus(t, root, "gc")
	if code != 0 || !strings.Contains(out, "removed  data/units/blocks/") || !strings.Contains(out, "gc: removed") {
		t.Fatalf("gc: %d\n%s", code, out)
	}
	if dirs, _ := os.ReadDir(filepath.Join(root, "data/units/blocks")); len(dirs) != 1 {
		t.Fatalf("unit dirs after gc %v", dirs)
	}
}

func TestExecutorFlagsAreConfigKeys(t *testing.T) {
	root := toyProject(t, "")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"run", "--executor", "pbs"}, `census: config key executor.name: value pbs is not allowed: "local" or "slurm"`},
		{[]string{"run", "--slurm-cpus-per-task", "0"}, "census: config key executor.slurm.cpus_per_task: value 0 is not allowed: an integer from 1 to 4096"},
		{[]string{"run", "--slurm-time", "tomorrow"}, "census: config key executor.slurm.time: value tomorrow is not allowed"},
		{[]string{"run", "--slurm-arg", "--array=0-9"}, `census: config key executor.slurm.extra_args: value "--array=0-9" is not allowed`},
		{[]string{"run", "--slurm-task-minutes", "-1"}, "census: config key executor.slurm.task_minutes: value -1 is not allowed"},
		{[]string{"run", "--set", "executor.slurm.max_tasks=x"}, "census: config key executor.slurm.max_tasks: value x is not allowed: an integer"},
		{[]string{"units", "--stage", "blocks", "--fingerprint", "ab", "--plan", "p.json"}, "census: units needs --task N or SLURM_ARRAY_TASK_ID"},
	}
	for _, c := range cases {
		code, _, errs := toyCensus(t, root, c.args...)
		if code != 2 || !strings.HasPrefix(errs, c.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line starting %q", c.args, code, errs, c.want)
		}
	}
	// Flags reach the executor: sbatch is not installed in this PATH.
	t.Setenv("PATH", t.TempDir())
	code, _, errs := toyCensus(t, root, "run", "-q", "--executor", "slurm", "--slurm-partition", "short", "--slurm-arg=--mem=1G")
	if code != 1 || errs != "census: stage blocks failed: executor slurm: sbatch is not installed (not found in PATH): install the Slurm client tools (Debian: slurm-client), or run with --executor local\n" {
		t.Fatalf("slurm without sbatch: %d %q", code, errs)
	}
}

func TestUnitWorkerRefusesAnotherFingerprint(t *testing.T) {
	root := toyProject(t, "")
	if code, _, errs := toyCensus(t, root, "run", "seeds"); code != 0 {
		t.Fatal(errs)
	}
	// The submitting run's configuration has blocks.rounds=5; a failed
	// local run with it leaves its fingerprint's unit directory.
	t.Setenv("TOYCENSUS_FAIL_UNIT", "block-003")
	toyCensus(t, root, "run", "-q", "--set", "blocks.rounds=5")
	os.Unsetenv("TOYCENSUS_FAIL_UNIT")
	dirs, _ := os.ReadDir(filepath.Join(root, "data/units/blocks"))
	if len(dirs) != 1 {
		t.Fatalf("unit dirs %v", dirs)
	}
	fp := dirs[0].Name()
	// The failed run computes units in parallel and may have finished the
	// two the worker is given; remove them so that the worker computes them.
	unitFiles, _ := filepath.Glob(filepath.Join(root, "data/units/blocks", fp, "block-01[01]*"))
	for _, f := range unitFiles {
		os.Remove(f)
	}
	plan := filepath.Join(root, "plan.json")
	b, _ := json.Marshal(map[string]any{"stage": "blocks", "fingerprint": fp, "tasks": [][]string{{"block-010", "block-011"}}})
	os.WriteFile(plan, b, 0o644)

	// The same configuration works...
	code, out, errs := toyCensus(t, root, "--set", "blocks.rounds=5", "units", "--stage", "blocks", "--fingerprint", fp, "--plan", plan, "--task", "0")
	if code != 0 || !strings.Contains(out, "unit block-011 computed") || errs != "" {
		t.Fatalf("worker: %d\n%s\n%s", code, out, errs)
	}
	// ...another is refused.
	code, _, errs = toyCensus(t, root, "units", "--stage", "blocks", "--fingerprint", fp, "--plan", plan, "--task", "0")
	want := "census: array task 0: stage blocks: the fingerprint here is "
	if code != 1 || !strings.HasPrefix(errs, want) || !strings.Contains(errs, "but the submitting run's is "+fp[:12]) || strings.Count(errs, "\n") != 1 {
		t.Fatalf("worker with another config: %d %q", code, errs)
	}
	code, _, errs = toyCensus(t, root, "--set", "blocks.rounds=5", "units", "--stage", "blocks", "--fingerprint", fp, "--plan", plan, "--task", "1")
	if code != 1 || !strings.Contains(errs, "array task 1: the plan has tasks 0 to 0") {
		t.Fatalf("worker with a task out of range: %d %q", code, errs)
	}
}

func TestDamagedManifestVerifyCite(t *testing.T) {
	root := project(t)
	if code, _, errs := census(t, root, "run"); code != 0 {
		t.Fatal(errs)
	}
	path := filepath.Join(root, "data/manifest.json")
	b, _ := os.ReadFile(path)
	var m store.Manifest
	json.Unmarshal(b, &m)
	m.Artifacts[0].SHA256 = m.Artifacts[0].SHA256[:12]
	b, _ = json.Marshal(m)
	os.WriteFile(path, b, 0o644)
	for _, args := range [][]string{{"verify"}, {"cite", "gen"}, {"show", "gen"}, {"status"}, {"run"}, {"gc"}} {
		code, _, errs := census(t, root, args...)
		if code == 0 || !strings.HasPrefix(errs, `census: data/manifest.json is damaged (artifact 1 ("gen"): sha256 "`) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q", args, code, errs)
		}
	}
}
