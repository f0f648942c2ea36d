package cli

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/sudoku-census/sudoku-census/pipeline"
)

// The tests of `census run --executor slurm` need a real Slurm: on this
// project's machines, the single-node one that `.ci/slurm-start` installs
// and starts (as root). Without it they skip, unless
// SUDOKU_CENSUS_REQUIRE_SLURM=1 (set by .ci/run), which makes them fail.
// (The variable does not start with CENSUS_: those are config keys.)

var (
	slurmOnce   sync.Once
	slurmAbsent string // why Slurm cannot be used; "" when it can
)

func needSlurm(t *testing.T) {
	t.Helper()
	slurmOnce.Do(func() { slurmAbsent = slurmProblem() })
	if slurmAbsent == "" {
		return
	}
	if os.Getenv("SUDOKU_CENSUS_REQUIRE_SLURM") == "1" {
		t.Fatal(slurmAbsent + " (SUDOKU_CENSUS_REQUIRE_SLURM=1)")
	}
	t.Skip(slurmAbsent)
}

// slurmProblem says why the tests cannot use Slurm, or "".
func slurmProblem() string {
	if _, err := exec.LookPath("sinfo"); err != nil {
		return "Slurm is not installed (no sinfo in PATH): run `.ci/slurm-start` as root for a single-node Slurm"
	}
	out, err := exec.Command("sinfo", "-h", "-o", "%T").CombinedOutput()
	state := strings.TrimRight(strings.TrimSpace(string(out)), "*~#!%$@^-")
	switch {
	case err != nil:
		return fmt.Sprintf("Slurm does not answer (sinfo: %v: %s): run `.ci/slurm-start` as root", err, bytes.TrimSpace(out))
	case state != "idle" && state != "mixed" && state != "allocated" && state != "completing":
		return fmt.Sprintf("Slurm's node is %q, not idle: run `.ci/slurm-start` as root", state)
	}
	return ""
}

const slurmConfig = "blocks:\n  count: 12\n  sleep_ms: 50\n"

var toyArtifacts = []string{"data/seeds.parquet", "data/blocks.parquet", "data/sum.txt", "data/manifest.json"}

func sameArtifacts(t *testing.T, a, b string) {
	t.Helper()
	for _, path := range toyArtifacts {
		x, errA := os.ReadFile(filepath.Join(a, path))
		y, errB := os.ReadFile(filepath.Join(b, path))
		if errA != nil || errB != nil || !bytes.Equal(x, y) {
			t.Errorf("%s differs between the local and the Slurm run (%v, %v)", path, errA, errB)
		}
	}
}

var submitted = regexp.MustCompile(`msg="submitted slurm array job" stage=blocks job=(\d+) units=(\d+) tasks=(\d+)`)

func TestSlurmRunMatchesLocalRun(t *testing.T) {
	needSlurm(t)
	local := toyProject(t, slurmConfig)
	if code, out, errs := runToy(t, local, nil, "run"); code != 0 {
		t.Fatalf("local run: %d\n%s\n%s", code, out, errs)
	}
	root := toyProject(t, slurmConfig)
	code, out, errs := runToy(t, root, nil, "run", "--executor", "slurm", "--slurm-units-per-task", "4")
	if code != 0 {
		t.Fatalf("slurm run: %d\n%s\n%s", code, out, errs)
	}
	m := submitted.FindStringSubmatch(errs)
	if m == nil || m[2] != "12" || m[3] != "3" || !strings.Contains(out, "blocks: units.computed = 12") {
		t.Fatalf("no array job of 12 units in 3 tasks:\n%s\n%s", out, errs)
	}
	sameArtifacts(t, local, root)
	// The tasks computed the units, four each.
	logs, _ := filepath.Glob(filepath.Join(root, "data/units/blocks/*/slurm-"+m[1]+"_*.out"))
	if len(logs) != 3 {
		t.Fatalf("task logs %v", logs)
	}
	for _, path := range logs {
		b, _ := os.ReadFile(path)
		if strings.Count(string(b), " computed in ") != 4 || !strings.Contains(string(b), "array task") {
			t.Errorf("%s:\n%s", path, b)
		}
	}
	if code, out, _ := runToy(t, root, nil, "status"); code != 0 {
		t.Fatalf("status after the slurm run: %d\n%s", code, out)
	}
}

func TestSlurmTaskFailureThenResume(t *testing.T) {
	needSlurm(t)
	root := toyProject(t, slurmConfig)
	args := []string{"run", "--executor", "slurm", "--slurm-units-per-task", "3"}
	code, _, errs := runToy(t, root, []string{"TOYCENSUS_FAIL_UNIT=block-007"}, append(args, "-q")...)
	lines := censusLines(errs)
	want := regexp.MustCompile(`^census: stage blocks failed: slurm job (\d+): array task 2 failed \(FAILED, exit code 1:0\), 2 of its 3 units missing; ` +
		`stderr: toycensus: about to fail unit block-007 \| census: array task 2: unit block-007: injected failure of unit block-007 ` +
		`\[data/units/blocks/[0-9a-f]{64}/slurm-(\d+)_2\.err\]; 10 of 12 units are done and kept: run again to submit the 2 missing$`)
	if code != 1 || len(lines) != 1 || !want.MatchString(lines[0]) {
		t.Fatalf("exit %d, messages:\n%s", code, strings.Join(lines, "\n"))
	}
	if m := want.FindStringSubmatch(lines[0]); m[1] != m[2] {
		t.Fatalf("job %s, log of job %s", m[1], m[2])
	}
	if code, out, _ := runToy(t, root, nil, "status"); code != 1 || !strings.Contains(out, "blocks  stale: never run; 10/12 units done\n") {
		t.Fatalf("status after the failure: %d\n%s", code, out)
	}
	// Fixed: the rerun submits the two missing units only.
	code, out, errs := runToy(t, root, nil, args...)
	m := submitted.FindStringSubmatch(errs)
	if code != 0 || m == nil || m[2] != "2" || m[3] != "1" || !strings.Contains(out, "blocks: units.reused = 10\n") {
		t.Fatalf("rerun: %d\n%s\n%s", code, out, errs)
	}
	local := toyProject(t, slurmConfig)
	if code, _, errs := runToy(t, local, nil, "run"); code != 0 {
		t.Fatal(errs)
	}
	sameArtifacts(t, local, root)
}

func TestSlurmInterruptCancelsTheJob(t *testing.T) {
	needSlurm(t)
	root := toyProject(t, slurmConfig)
	p := start(t, root, []string{"TOYCENSUS_HANG=ctx"}, "run", "--executor", "slurm", "--slurm-units-per-task", "6")
	var job string
	waitFor(t, time.Minute, "the submission", func() bool {
		if m := submitted.FindStringSubmatch(p.stderr.String()); m != nil {
			job = m[1]
		}
		return job != ""
	})
	waitFor(t, time.Minute, "a running task", func() bool {
		logs, _ := filepath.Glob(filepath.Join(root, "data/units/blocks/*/slurm-"+job+"_*.out"))
		for _, path := range logs {
			if b, _ := os.ReadFile(path); bytes.Contains(b, []byte("census units:")) {
				return true
			}
		}
		return false
	})
	t0 := time.Now()
	p.cmd.Process.Signal(os.Interrupt)
	code := p.wait(5 * time.Second)
	if took := time.Since(t0); code != 130 || took > time.Second {
		t.Fatalf("exit %d after %v; stderr:\n%s", code, took, p.stderr.String())
	}
	if !strings.Contains(p.stderr.String(), `msg="cancelled slurm job" stage=blocks job=`+job) {
		t.Fatalf("no scancel:\n%s", p.stderr.String())
	}
	waitFor(t, 30*time.Second, "the job to leave the queue", func() bool {
		out, err := exec.Command("squeue", "-h", "-j", job).Output()
		return err != nil || len(bytes.TrimSpace(out)) == 0
	})
	if _, err := os.Stat(filepath.Join(root, "data/blocks.parquet")); !os.IsNotExist(err) {
		t.Fatal("an interrupted slurm run published its artifact")
	}
}

// TestSlurmRecomputeAll checks verify --recompute all --executor slurm:
// every unit of the bundle computed afresh by an array job, compared byte
// for byte, the scratch directory gone afterwards; and a forged row (its
// hash redone, as a forger would) fails naming the unit.
func TestSlurmRecomputeAll(t *testing.T) {
	needSlurm(t)
	env := []string{"TOYCENSUS_BUNDLE=1"}
	root := toyProject(t, slurmConfig)
	if code, out, errs := runToy(t, root, env, "run"); code != 0 {
		t.Fatalf("run: %d\n%s\n%s", code, out, errs)
	}
	recompute := []string{"verify", "--recompute", "all", "--executor", "slurm", "--slurm-units-per-task", "5"}
	code, out, errs := runToy(t, root, env, recompute...)
	m := submitted.FindStringSubmatch(errs)
	if code != 0 || m == nil || m[2] != "12" || m[3] != "3" || !strings.Contains(out, "data/bundles/blocks.parquet: 12 units recomputed, each equal byte for byte") {
		t.Fatalf("verify --recompute all on slurm: %d, job %v\n%s\n%s", code, m, out, errs)
	}
	if left, _ := filepath.Glob(filepath.Join(root, "data/units/blocks/*/recompute-*")); len(left) != 0 {
		t.Errorf("scratch directories left: %v", left)
	}

	// A forged row: unit block-003 given block-004's result, rehashed.
	b := &pipeline.Bundle{Name: "blocks", Kernel: "toy blocks v1", Holds: func(string) bool { return true }}
	rows, err := pipeline.ReadBundle(root, b, nil)
	if err != nil || len(rows) != 12 {
		t.Fatalf("bundle: %d rows, %v", len(rows), err)
	}
	var list []pipeline.BundleRow
	for id, r := range rows {
		if id == "block-003" {
			r = pipeline.NewBundleRow(b, id, []byte(rows["block-004"].Result), time.Second)
		}
		list = append(list, r)
	}
	if err := parquet.WriteFile(filepath.Join(root, b.Path()), list); err != nil {
		t.Fatal(err)
	}
	code, out, errs = runToy(t, root, env, recompute...)
	if lines := censusLines(errs); code != 1 || len(lines) != 1 || !strings.Contains(lines[0], "bundle data/bundles/blocks.parquet: unit block-003: recomputed ") {
		t.Fatalf("a forged row: exit %d\n%s\n%s", code, out, errs)
	}
	if code, _, errs := runToy(t, root, env, "verify", "--executor", "slurm"); code != 2 || !strings.Contains(errs, "--executor applies to --recompute only") {
		t.Errorf("--executor without --recompute: exit %d\n%s", code, errs)
	}
}
