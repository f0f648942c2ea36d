package cli

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The tests that need a real process (signals, Slurm tasks) run the toy
// pipeline as the command testdata/toycensus, built once per test binary.

var (
	buildOnce sync.Once
	toyBinary string
	buildErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if toyBinary != "" {
		os.RemoveAll(filepath.Dir(toyBinary))
	}
	os.Exit(code)
}

// toycensus returns the path of the built toy command.
func toycensus(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "toycensus-")
		if err != nil {
			buildErr = err
			return
		}
		toyBinary = filepath.Join(dir, "toycensus")
		goTool, err := exec.LookPath("go")
		if err != nil {
			goTool = filepath.Join(runtime.GOROOT(), "bin", "go")
		}
		out, err := exec.Command(goTool, "build", "-o", toyBinary, "./testdata/toycensus").CombinedOutput()
		if err != nil {
			buildErr = errors.New(string(out))
		}
	})
	if buildErr != nil {
		t.Fatalf("building testdata/toycensus: %v", buildErr)
	}
	return toyBinary
}

// proc is a toycensus process running in a project root.
type proc struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdout bytes.Buffer
	stderr syncBuffer
	done   chan struct{}
	code   int
}

// syncBuffer is a bytes.Buffer that a test can read while a process
// writes.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// start runs toycensus --root root --config root/c.yaml args... with the
// test's environment (less CENSUS_* variables) plus env.
func start(t *testing.T, root string, env []string, args ...string) *proc {
	t.Helper()
	p := &proc{t: t, done: make(chan struct{})}
	p.cmd = exec.Command(toycensus(t), append([]string{"--root", root, "--config", filepath.Join(root, "c.yaml")}, args...)...)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "CENSUS_") && !strings.HasPrefix(kv, "TOYCENSUS_") {
			p.cmd.Env = append(p.cmd.Env, kv)
		}
	}
	p.cmd.Env = append(p.cmd.Env, env...)
	p.cmd.Stdout, p.cmd.Stderr = &p.stdout, &p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		p.cmd.Wait()
		p.code = p.cmd.ProcessState.ExitCode()
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

// wait waits for the process to exit (at most limit) and returns its exit
// code.
func (p *proc) wait(limit time.Duration) int {
	p.t.Helper()
	select {
	case <-p.done:
		return p.code
	case <-time.After(limit):
		p.t.Fatalf("%v still running after %v; stderr:\n%s", p.cmd.Args, limit, p.stderr.String())
		return -1
	}
}

// run runs toycensus to the end.
func runToy(t *testing.T, root string, env []string, args ...string) (int, string, string) {
	t.Helper()
	p := start(t, root, env, args...)
	code := p.wait(2 * time.Minute)
	return code, p.stdout.String(), p.stderr.String()
}

// waitFor polls cond every 10 ms for up to limit.
func waitFor(t *testing.T, limit time.Duration, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(limit); !cond(); {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// censusLines returns the lines of stderr that the command line wrote as
// messages (not logs).
func censusLines(stderr string) []string {
	var out []string
	sc := bufio.NewScanner(strings.NewReader(stderr))
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "census:") {
			out = append(out, sc.Text())
		}
	}
	return out
}

func TestSignalStopsRunAndKeepsUnits(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			root := toyProject(t, "blocks:\n  count: 150\n  sleep_ms: 20\n")
			started := filepath.Join(root, "started")
			p := start(t, root, []string{"TOYCENSUS_STARTED=" + started}, "run")
			waitFor(t, time.Minute, "the first unit", func() bool { _, err := os.Stat(started); return err == nil })
			time.Sleep(300 * time.Millisecond)
			t0 := time.Now()
			p.cmd.Process.Signal(sig)
			code := p.wait(5 * time.Second)
			took := time.Since(t0)
			want := map[syscall.Signal]int{syscall.SIGINT: 130, syscall.SIGTERM: 143}[sig]
			if code != want || took > time.Second {
				t.Fatalf("exit %d after %v, want %d within a second; stderr:\n%s", code, took, want, p.stderr.String())
			}
			lines := censusLines(p.stderr.String())
			name := map[syscall.Signal]string{syscall.SIGINT: "SIGINT (Ctrl-C)", syscall.SIGTERM: "SIGTERM"}[sig]
			if len(lines) != 1 || lines[0] != "census: interrupted by "+name+": stopped; nothing partial was published" {
				t.Fatalf("messages %q", lines)
			}
			if _, err := os.Stat(filepath.Join(root, "data/blocks.parquet")); !os.IsNotExist(err) {
				t.Fatal("an interrupted stage published its artifact")
			}
			dirs, _ := os.ReadDir(filepath.Join(root, "data/units/blocks"))
			if len(dirs) != 1 {
				t.Fatalf("unit dirs %v", dirs)
			}
			kept, _ := os.ReadDir(filepath.Join(root, "data/units/blocks", dirs[0].Name()))
			if len(kept) < 5 || len(kept) > 100 {
				t.Fatalf("%d units kept", len(kept))
			}
			code, out, errs := runToy(t, root, nil, "run", "blocks")
			reused := "blocks: units.reused = " + strconv.Itoa(len(kept)) + "\n"
			if code != 0 || !strings.Contains(out, reused) {
				t.Fatalf("rerun: %d, want %q in\n%s\n%s", code, reused, out, errs)
			}
		})
	}
}

func TestSignalStopsStageThatIgnoresItsContext(t *testing.T) {
	for _, twice := range []bool{false, true} {
		name := map[bool]string{false: "one Ctrl-C", true: "two Ctrl-C"}[twice]
		t.Run(name, func(t *testing.T) {
			root := toyProject(t, "")
			started := filepath.Join(root, "started")
			p := start(t, root, []string{"TOYCENSUS_STARTED=" + started, "TOYCENSUS_HANG=ignore"}, "run")
			waitFor(t, time.Minute, "the first unit", func() bool { _, err := os.Stat(started); return err == nil })
			t0 := time.Now()
			p.cmd.Process.Signal(os.Interrupt)
			limit := time.Second
			if twice {
				time.Sleep(100 * time.Millisecond)
				p.cmd.Process.Signal(os.Interrupt)
				limit = 400 * time.Millisecond
			}
			code := p.wait(5 * time.Second)
			if took := time.Since(t0); code != 130 || took > limit {
				t.Fatalf("exit %d after %v, want 130 within %v; stderr:\n%s", code, took, limit, p.stderr.String())
			}
			if lines := censusLines(p.stderr.String()); len(lines) != 1 {
				t.Fatalf("messages %q", lines)
			}
			m, err := os.ReadFile(filepath.Join(root, "data/manifest.json"))
			if err != nil || strings.Contains(string(m), `"blocks"`) {
				t.Fatalf("manifest after the interrupt: %v\n%s", err, m)
			}
		})
	}
}

func TestSignalStopsCount(t *testing.T) {
	root := toyProject(t, "")
	grid := filepath.Join(root, "empty16.txt")
	os.WriteFile(grid, []byte(strings.Repeat(".", 256)+"\n"), 0o644)
	p := start(t, root, nil, "count", grid)
	time.Sleep(300 * time.Millisecond)
	select {
	case <-p.done:
		t.Fatalf("count of an empty 16x16 grid ended: %d %s %s", p.code, p.stdout.String(), p.stderr.String())
	default:
	}
	t0 := time.Now()
	p.cmd.Process.Signal(os.Interrupt)
	code := p.wait(5 * time.Second)
	if took := time.Since(t0); code != 130 || took > time.Second || p.stdout.String() != "" {
		t.Fatalf("exit %d after %v, stdout %q, stderr %q", code, took, p.stdout.String(), p.stderr.String())
	}
	if lines := censusLines(p.stderr.String()); len(lines) != 1 || !strings.HasPrefix(lines[0], "census: interrupted by SIGINT") {
		t.Fatalf("messages %q", lines)
	}
}
