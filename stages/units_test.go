package stages

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/sudoku-census/sudoku-census/pipeline/pipelinetest"
	"github.com/sudoku-census/sudoku-census/pipeline/store"
	"github.com/sudoku-census/sudoku-census/stages/exact"
	"github.com/sudoku-census/sudoku-census/stages/knuth"
)

// The tests of this file run the real command, bin/census, as a process:
// kill -9 and resume, signals, Slurm. Each builds it into its own
// temporary directory (the build cache makes that a link, a few seconds).

// buildCensus builds pipeline/cmd/census and returns the binary's path.
func buildCensus(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "census")
	goTool, err := exec.LookPath("go")
	if err != nil {
		goTool = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	if out, err := exec.Command(goTool, "build", "-o", bin, "../pipeline/cmd/census").CombinedOutput(); err != nil {
		t.Fatalf("building pipeline/cmd/census: %v\n%s", err, out)
	}
	return bin
}

// smokeConfig is the absolute path of configs/smoke.yaml.
func smokeConfig(t *testing.T) string {
	t.Helper()
	path, err := filepath.Abs("../configs/smoke.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// censusProc is a census process.
type censusProc struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdout bytes.Buffer
	stderr lockedBuffer
	done   chan struct{}
}

// lockedBuffer is a bytes.Buffer that a test reads while a process writes
// it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// startCensus starts bin --root root args... with the test's environment
// less the CENSUS_* variables (config keys).
func startCensus(t *testing.T, bin, root string, args ...string) *censusProc {
	t.Helper()
	p := &censusProc{t: t, done: make(chan struct{})}
	p.cmd = exec.Command(bin, append([]string{"--root", root}, args...)...)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "CENSUS_") {
			p.cmd.Env = append(p.cmd.Env, kv)
		}
	}
	p.cmd.Stdout, p.cmd.Stderr = &p.stdout, &p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		p.cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() {
		select {
		case <-p.done:
		default:
			p.cmd.Process.Kill()
			<-p.done
		}
	})
	return p
}

// wait waits up to limit for the process to exit and returns its exit code
// (-1 when a signal killed it).
func (p *censusProc) wait(limit time.Duration) int {
	p.t.Helper()
	select {
	case <-p.done:
		return p.cmd.ProcessState.ExitCode()
	case <-time.After(limit):
		p.t.Fatalf("%v still running after %v; stderr:\n%s", p.cmd.Args, limit, p.stderr.String())
		return 0
	}
}

func (p *censusProc) running() bool {
	select {
	case <-p.done:
		return false
	default:
		return true
	}
}

// runCensus runs bin --root root args... to the end and fails t unless it
// exits 0.
func runCensus(t *testing.T, bin, root string, args ...string) (stdout, stderr string) {
	t.Helper()
	p := startCensus(t, bin, root, args...)
	if code := p.wait(10 * time.Minute); code != 0 {
		t.Fatalf("census %s: exit %d\n%s\n%s", strings.Join(args, " "), code, p.stdout.String(), p.stderr.String())
	}
	return p.stdout.String(), p.stderr.String()
}

// lastRunMetrics returns the metrics of the last line of root's run log
// for stage.
func lastRunMetrics(t *testing.T, root, stage string) map[string]any {
	t.Helper()
	f, err := os.Open(filepath.Join(root, store.RunLogPath))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var last map[string]any
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var line struct {
			Stage   string         `json:"stage"`
			Metrics map[string]any `json:"metrics"`
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatalf("%s: %v", store.RunLogPath, err)
		}
		if line.Stage == stage {
			last = line.Metrics
		}
	}
	if last == nil {
		t.Fatalf("%s has no line for stage %s", store.RunLogPath, stage)
	}
	return last
}

// unitFiles counts the finished units of stage under root (every
// fingerprint; temporary files excluded).
func unitFiles(root, stage string) int {
	files, _ := filepath.Glob(filepath.Join(root, store.UnitsDir, stage, "*", "*"))
	n := 0
	for _, f := range files {
		if name := filepath.Base(f); !strings.HasPrefix(name, ".") && !strings.HasPrefix(name, "slurm") {
			n++
		}
	}
	return n
}

// published reports whether root's manifest records stage.
func published(t *testing.T, root, stage string) bool {
	t.Helper()
	m, err := store.ReadManifest(root)
	if err != nil {
		t.Fatal(err)
	}
	_, ok := m.Stages[stage]
	return ok
}

// sameArtifacts fails t for every artifact of a's manifest, and the
// manifest itself, whose bytes differ under b.
func sameArtifacts(t *testing.T, a, b string) {
	t.Helper()
	m, err := store.ReadManifest(a)
	if err != nil {
		t.Fatal(err)
	}
	paths := []string{store.ManifestPath}
	for _, en := range m.Artifacts {
		paths = append(paths, en.Path)
	}
	var differ []string
	for _, path := range paths {
		x, errA := os.ReadFile(filepath.Join(a, path))
		y, errB := os.ReadFile(filepath.Join(b, path))
		if errA != nil || errB != nil || !bytes.Equal(x, y) {
			differ = append(differ, fmt.Sprintf("%s (%v, %v)", path, errA, errB))
		}
	}
	if len(differ) > 0 {
		t.Errorf("%d of %d files differ: %s", len(differ), len(paths), strings.Join(differ, "; "))
	}
}

// TestKillNineThenResume kills (SIGKILL) a knuth run with the smoke
// configuration once some of its units are done, reruns it, and checks
// that the rerun computed only the missing units and that every artifact
// is byte-identical to an uninterrupted run's.
func TestKillNineThenResume(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs bin/census")
	}
	bin, config := buildCensus(t), smokeConfig(t)
	whole := t.TempDir()
	runCensus(t, bin, whole, "run", "--config", config, "knuth")
	total, ok := lastRunMetrics(t, whole, "knuth")["units.total"].(float64)
	if !ok || total < 20 {
		t.Fatalf("the uninterrupted run reports %v units", lastRunMetrics(t, whole, "knuth")["units.total"])
	}
	// Kill once a quarter of the units are done; a run that finished
	// first (a fast machine) is tried again in a fresh root.
	var root string
	var kept int
	for attempt := 1; ; attempt++ {
		root = t.TempDir()
		p := startCensus(t, bin, root, "run", "--config", config, "knuth")
		for deadline := time.Now().Add(time.Minute); unitFiles(root, "knuth") < int(total)/4 && p.running(); {
			if time.Now().After(deadline) {
				t.Fatalf("no units after a minute; stderr:\n%s", p.stderr.String())
			}
			time.Sleep(time.Millisecond)
		}
		p.cmd.Process.Kill()
		p.wait(10 * time.Second)
		kept = unitFiles(root, "knuth")
		if kept < int(total) && !published(t, root, "knuth") {
			break
		}
		if attempt == 5 {
			t.Fatalf("five runs finished before the kill (%d of %v units kept)", kept, total)
		}
	}
	t.Logf("killed with %d of %v units done", kept, total)
	if _, err := os.Stat(filepath.Join(root, knuth.Summary.Path)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the killed run left %s (%v)", knuth.Summary.Path, err)
	}
	stdout, _ := runCensus(t, bin, root, "run", "--config", config, "knuth")
	m := lastRunMetrics(t, root, "knuth")
	if m["units.total"] != total || m["units.reused"] != float64(kept) || m["units.computed"] != total-float64(kept) {
		t.Errorf("rerun: units total %v, reused %v, computed %v; want %v, %d, %v",
			m["units.total"], m["units.reused"], m["units.computed"], total, kept, total-float64(kept))
	}
	if !strings.Contains(stdout, fmt.Sprintf("knuth: units.reused = %d\n", kept)) {
		t.Errorf("the run report does not say %d units were reused:\n%s", kept, stdout)
	}
	sameArtifacts(t, whole, root)
}

// stopWithinASecond sends sig to the running process and fails t unless
// it exits with the signal's code within a second.
func (p *censusProc) stopWithinASecond(t *testing.T, sig syscall.Signal) {
	t.Helper()
	if !p.running() {
		t.Fatalf("%v ended before the signal: %s\n%s", p.cmd.Args, p.stdout.String(), p.stderr.String())
	}
	t0 := time.Now()
	p.cmd.Process.Signal(sig)
	code := p.wait(10 * time.Second)
	took := time.Since(t0)
	t.Logf("exit %d %v after %v", code, sig, took.Round(time.Millisecond))
	if code != 128+int(sig) || took > time.Second {
		t.Fatalf("exit %d after %v, want %d within a second; stderr:\n%s", code, took, 128+int(sig), p.stderr.String())
	}
}

// TestSignalsStopCountAndExact sends SIGINT and SIGTERM to `census count`
// on an empty 9×9 grid and to `census run --force exact` while it
// recounts classes by backtracking: each exits within a second, with the
// exit code of the signal, publishing nothing.
func TestSignalsStopCountAndExact(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs bin/census")
	}
	bin, config := buildCensus(t), smokeConfig(t)
	root := t.TempDir()
	runCensus(t, bin, root, "run", "--config", config, "classes")
	empty := filepath.Join(root, "empty9.txt")
	if err := os.WriteFile(empty, []byte(strings.Repeat(".", 81)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		name := map[syscall.Signal]string{syscall.SIGINT: "SIGINT", syscall.SIGTERM: "SIGTERM"}[sig]
		t.Run("count/"+name, func(t *testing.T) {
			p := startCensus(t, bin, root, "count", empty)
			time.Sleep(500 * time.Millisecond)
			p.stopWithinASecond(t, sig)
			if p.stdout.Len() != 0 {
				t.Errorf("an interrupted count printed %q", p.stdout.String())
			}
		})
		t.Run("run-force-exact/"+name, func(t *testing.T) {
			// All 44 classes: minutes of backtracking, so the signal
			// comes in the middle of it.
			p := startCensus(t, bin, root, "run", "--config", config, "--set", "exact.crosscheck=all", "--force", "exact")
			for deadline := time.Now().Add(time.Minute); !strings.Contains(p.stderr.String(), `msg="computing units" stage=exact`); {
				if time.Now().After(deadline) || !p.running() {
					t.Fatalf("exact did not start its units; stderr:\n%s", p.stderr.String())
				}
				time.Sleep(5 * time.Millisecond)
			}
			time.Sleep(300 * time.Millisecond)
			p.stopWithinASecond(t, sig)
			if published(t, root, "exact") {
				t.Error("an interrupted exact run was published")
			}
			if _, err := os.Stat(filepath.Join(root, exact.Completions.Path)); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("an interrupted exact run left %s (%v)", exact.Completions.Path, err)
			}
		})
	}
}

// TestShapes2x6RunsAsUnits checks that 2x6, in a root without its bundle,
// is refused unless shapes.max_cpu_hours accepts the cost of the units the
// bundle lacks, and with it runs as the 1,975 bundled units: a run stopped
// by SIGINT exits within a second and publishes nothing, and status counts
// the units done. (pipeline's TestBundle checks the bundle itself.)
func TestShapes2x6RunsAsUnits(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs bin/census")
	}
	bin, config := buildCensus(t), smokeConfig(t)
	root := t.TempDir()
	runCensus(t, bin, root, "run", "--config", config, "exact")
	sets := []string{"--set", "shapes.shapes=[2x6]"}
	command := func(verb string, extra ...string) []string {
		return slices.Concat([]string{verb, "--config", config}, sets, extra, []string{"shapes"})
	}
	refused := startCensus(t, bin, root, command("run")...)
	if code := refused.wait(time.Minute); code == 0 || !strings.Contains(refused.stderr.String(), "shapes.max_cpu_hours") ||
		!strings.Contains(refused.stderr.String(), "holds 0 of the 1975 units asked for") {
		t.Errorf("2x6 without shapes.max_cpu_hours: exit %d, stderr:\n%s", code, refused.stderr.String())
	}
	sets = append(sets, "--set", "shapes.max_cpu_hours=100")
	p := startCensus(t, bin, root, command("run")...)
	time.Sleep(3 * time.Second)
	if !p.running() {
		t.Fatalf("the 2x6 run stopped early; stderr:\n%s", p.stderr.String())
	}
	p.stopWithinASecond(t, syscall.SIGINT)
	if published(t, root, "shapes") {
		t.Error("an interrupted 2x6 run was published")
	}
	kept := unitFiles(root, "shapes")
	status := startCensus(t, bin, root, command("status")...)
	status.wait(time.Minute)
	if want := fmt.Sprintf("%d/1975 units done", kept); !strings.Contains(status.stdout.String(), want) {
		t.Errorf("status does not say %q:\n%s%s", want, status.stdout.String(), status.stderr.String())
	}
}

// slurmProblem says why Slurm cannot be used, or "". (pipeline/cli's tests
// check the same way; their helper is not exported.)
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

// needSlurm skips t when Slurm is not running, or fails it when
// SUDOKU_CENSUS_REQUIRE_SLURM=1 (as .ci/run sets it).
func needSlurm(t *testing.T) {
	t.Helper()
	problem := slurmProblem()
	switch {
	case problem == "":
	case os.Getenv("SUDOKU_CENSUS_REQUIRE_SLURM") == "1":
		t.Fatal(problem + " (SUDOKU_CENSUS_REQUIRE_SLURM=1)")
	default:
		t.Skip(problem)
	}
}

// TestSlurmSmokeMatchesLocal runs the whole smoke pipeline with
// `--executor slurm` (the units of exact, knuth and importance as Slurm
// array jobs) and compares every artifact, and the manifest, with a local
// run's bytes.
func TestSlurmSmokeMatchesLocal(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole smoke pipeline on Slurm")
	}
	needSlurm(t)
	bin, config := buildCensus(t), smokeConfig(t)
	local := runSmoke(t, 2)
	root := t.TempDir()
	pipelinetest.CopySources(t, root, All)
	_, stderr := runCensus(t, bin, root, "run", "--config", config, "--executor", "slurm")
	for _, stage := range []string{"exact", "knuth", "importance"} {
		if !strings.Contains(stderr, `msg="submitted slurm array job" stage=`+stage+" ") {
			t.Errorf("no Slurm array job for %s:\n%s", stage, stderr)
		}
		if m := lastRunMetrics(t, root, stage); m["units.computed"] != m["units.total"] || m["units.total"] == float64(0) {
			t.Errorf("%s: %v of %v units computed", stage, m["units.computed"], m["units.total"])
		}
	}
	sameArtifacts(t, local, root)
}
