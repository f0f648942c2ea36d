package stages

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sudoku-census/sudoku-census/pipeline/cli"
)

// censusCLI runs the command line of the real pipeline on root with the
// smoke configuration (unless args name another) and returns the exit
// code, standard output and standard error.
func censusCLI(t *testing.T, root string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	all := append([]string{"--root", root, "--config", "../configs/smoke.yaml"}, args...)
	code := cli.Main(All, all, cli.IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb})
	return code, out.String(), errb.String()
}

// wantUsage fails t unless the command exited 2 with one line on stderr
// holding every one of want.
func wantUsage(t *testing.T, what string, code int, stderr string, want ...string) {
	t.Helper()
	ok := code == 2 && strings.Count(stderr, "\n") == 1 && strings.HasPrefix(stderr, "census: ")
	for _, w := range want {
		ok = ok && strings.Contains(stderr, w)
	}
	if !ok {
		t.Errorf("%s: exit %d, stderr %q; want exit 2 and one line with %q", what, code, stderr, want)
	}
}

// Every number a user gives a config key is parsed exactly from the text
// written, whatever the key and whatever the source (--set, a CENSUS_*
// variable, the YAML file): a value that is not an integer of the key's
// type, not finite, or out of the key's range is refused with exit 2 and
// one line naming the key, the value as written and what is allowed.
func TestConfigNumbersAreParsedExactly(t *testing.T) {
	root := t.TempDir()
	intValues := []string{"1.5", "1e30", ".nan", ".inf", "-.inf", "NaN", "true", "", "99999999999999999999", "0x10", "7 apples"}
	floatValues := []string{"NaN", ".nan", "Inf", "-Inf", ".inf", "1e400", "true", "", "many"}
	cases := []struct {
		key     string
		values  []string
		allowed string
	}{
		{"seed", append(intValues, "-1", "18446744073709551616"), "an integer from 0 to 18446744073709551615"},
		{"kilfoil.digits", append(intValues, "40.7", "0", "9223372036854775807"), "an integer from 1 to"},
		{"knuth.block_size", append(intValues, "0", "-3", "9223372036854775807", "1073741825"), "an integer from 1 to 1073741824"},
		{"importance.block_size", append(intValues, "9223372036854775807"), "an integer from 1 to 1073741824"},
		{"knuth.samples.3x3", append(intValues, "9223372036854775807", "-1"), "at most"},
		{"importance.samples.2x2", append(intValues, "9223372036854775807"), "at most"},
		{"knuth.hybrid_k.3x3", append(intValues, "-1", "9223372036854775807"), "an integer in [0, 81]"},
		{"knuth.se_budget.3x3", append(intValues, "9223372036854775807"), "an integer in [1, 10000]"},
		{"shapes.orbits_per_unit", append(intValues, "0"), "an integer ≥ 1"},
		{"executor.slurm.cpus_per_task", append(intValues, "4097"), "an integer from 1 to 4096"},
		{"shapes.max_cpu_hours", floatValues, "a finite number"},
		{"knuth.lookahead_alpha", floatValues, "a finite number"},
		{"knuth.goals.3x3", floatValues, "a finite number"},
		{"knuth.max_cpu_hours", floatValues, "a finite number"},
		{"knuth.max_cpu_hours", []string{"-1", "1e9"}, "a number in [0, 8784]"},
		{"knuth.long.4x4/se", []string{"100", "16001", "9223372036854775807"}, "0 or a multiple of 16000"},
		{"executor.slurm.task_minutes", floatValues, "a finite number"},
		{"reduce.swap_blocks", []string{"1", "0", "yes", "", "1.5"}, "true or false"},
	}
	for _, c := range cases {
		for _, v := range c.values {
			shown := v
			if v == "" {
				shown = `""`
			}
			if strings.TrimSpace(v) != v || v == "7 apples" {
				shown = v
			}
			// --set
			code, _, errs := censusCLI(t, root, "--set", c.key+"="+v, "status")
			if !(c.allowed == "a finite number" && (v == "" || v == "true" || v == "many")) {
				wantUsage(t, "--set "+c.key+"="+v, code, errs, "config key "+c.key+": value "+shown+" is not allowed: ", c.allowed)
			} else {
				wantUsage(t, "--set "+c.key+"="+v, code, errs, "config key "+c.key+": value "+shown+" is not allowed: ")
			}
			// A CENSUS_* variable (not for map entries, which only --set
			// names one by one).
			if strings.Count(c.key, ".") < 2 || strings.HasPrefix(c.key, "executor.") {
				env := "CENSUS_" + strings.ToUpper(strings.ReplaceAll(c.key, ".", "_"))
				t.Setenv(env, v)
				code, _, errs = censusCLI(t, root, "status")
				wantUsage(t, env+"="+v, code, errs, "config key "+c.key+": value "+shown+" is not allowed: ")
				os.Unsetenv(env)
			}
		}
	}
	// The YAML file: the same values, written in the file.
	for _, c := range []struct{ yaml, key, shown string }{
		{"seed: 1.5\n", "seed", "1.5"},
		{"seed: 1e30\n", "seed", "1e30"},
		{"seed: .nan\n", "seed", ".nan"},
		{"seed: true\n", "seed", "true"},
		{"seed:\n", "seed", `""`},
		{"seed: 99999999999999999999\n", "seed", "99999999999999999999"},
		{"kilfoil:\n  digits: 40.7\n", "kilfoil.digits", "40.7"},
		{"knuth:\n  samples: {3x3: 1e30}\n", "knuth.samples.3x3", "1e30"},
		{"knuth:\n  samples: {3x3: 9223372036854775807}\n", "knuth.samples.3x3", "9223372036854775807"},
		{"knuth:\n  block_size: 9223372036854775807\n", "knuth.block_size", "9223372036854775807"},
		{"shapes:\n  max_cpu_hours: .inf\n", "shapes.max_cpu_hours", ".inf"},
		{"knuth:\n  goals: {3x3: .nan}\n", "knuth.goals.3x3", ".nan"},
		{"knuth:\n  long: {4x4/se: 1e30}\n", "knuth.long.4x4/se", "1e30"},
	} {
		path := filepath.Join(root, "c.yaml")
		os.WriteFile(path, []byte(c.yaml), 0o644)
		code, _, errs := censusCLI(t, root, "--config", path, "status")
		wantUsage(t, "file "+strings.TrimSpace(c.yaml), code, errs, "config key "+c.key+": value "+c.shown+" is not allowed: ")
	}
	// Values that fit are taken exactly.
	for _, set := range []string{"seed=18446744073709551615", "seed=0", "knuth.block_size=1073741824", "knuth.samples.3x3=16777216000", "shapes.max_cpu_hours=1e300"} {
		if code, _, errs := censusCLI(t, root, "--set", set, "dag"); code != 0 {
			t.Errorf("--set %s: exit %d, %q", set, code, errs)
		}
	}
}

// A plan that cannot be honoured (blocks or units beyond what the engine
// can hold, sizes whose products overflow) is refused with exit 2 by every
// command that plans, at once, instead of running fewer samples than asked
// for or growing without bound.
func TestSizesArePlannedWithoutOverflow(t *testing.T) {
	root := t.TempDir()
	for _, sets := range [][]string{
		{"knuth.block_size=9223372036854775807"},
		{"importance.block_size=9223372036854775807"},
		{"knuth.samples.3x3=9223372036854775807"},
		{"knuth.samples.3x3=9223372036854775807", "knuth.block_size=1"},
		{"knuth.samples.3x3=16777217", "knuth.block_size=1"},
		{"importance.samples.3x3=9223372036854775807", "importance.block_size=1"},
		{"knuth.block_size=4611686018427387904", "knuth.samples.3x3=9223372036854775807"},
	} {
		for _, cmd := range [][]string{{"status", "knuth"}, {"run", "-n", "knuth"}, {"run", "importance"}} {
			var args []string
			for _, s := range sets {
				args = append(args, "--set", s)
			}
			// Refused before any work: a run that started would not end
			// within the test's timeout, so no clock is needed.
			code, _, errs := censusCLI(t, root, append(args, cmd...)...)
			wantUsage(t, strings.Join(append(sets, cmd...), " "), code, errs, "is not allowed")
		}
	}
}

// The dry run and status refuse what the run would refuse as it lists a
// stage's units: here knuth.max_cpu_hours, which the long run's units
// (absent from this root's bundle) exceed. A new seed alone asks for no
// long unit: it changes the default runs only.
func TestDryRunAndStatusRefuseAsTheRun(t *testing.T) {
	root := t.TempDir()
	long := []string{"--set", "knuth.long={3x3/mrv: 64000}", "--set", "knuth.max_cpu_hours=0"}
	for _, cmd := range [][]string{{"run", "-n"}, {"run", "-n", "knuth"}, {"status"}, {"status", "knuth"}} {
		code, _, errs := censusCLI(t, root, append(append([]string{}, long...), cmd...)...)
		wantUsage(t, strings.Join(cmd, " "), code, errs, "stage knuth would stop", "config key knuth.max_cpu_hours: value 0 is not allowed: at least")
	}
	if code, out, errs := censusCLI(t, root, "--set", "seed=7", "run", "-n"); code != 0 || !strings.Contains(out, "knuth") {
		t.Errorf("run -n --set seed=7: exit %d, %s%s", code, out, errs)
	}
}

// Whatever a user points census at, it is read through a limit, and only
// if it is a regular file: a huge file is refused with exit 2, naming the
// limit, and a device such as /dev/zero (which never ends) with exit 2,
// naming it, before any read (no clock: a timed check failed CI under
// load, 2026-11-27).
func TestInputsAreReadThroughALimit(t *testing.T) {
	root := t.TempDir()
	big := filepath.Join(root, "big")
	if err := os.WriteFile(big, bytes.Repeat([]byte("."), 8<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"count", big},
		{"count", "--box", "3x3", big},
		{"--config", big, "dag"},
	} {
		code, _, errs := censusCLI(t, root, args...)
		wantUsage(t, strings.Join(args, " "), code, errs, "bytes")
	}
	// A device (or a FIFO: TestNoReadBlocksOnAFIFO) is not read at all.
	for _, args := range [][]string{
		{"count", "/dev/zero"},
		{"--config", "/dev/zero", "status"},
		{"verify", "--lock", "/dev/zero"},
	} {
		code, _, errs := censusCLI(t, root, args...)
		wantUsage(t, strings.Join(args, " "), code, errs, "/dev/zero", "not a regular file (a character device)")
	}
	// An empty or null config file is no silent "every default".
	for _, text := range []string{"", "\n  \n", "null\n", "~\n", "[1, 2]\n", "7\n", "seed: 1\nseed: 2\n"} {
		path := filepath.Join(root, "c.yaml")
		os.WriteFile(path, []byte(text), 0o644)
		code, _, errs := censusCLI(t, root, "--config", path, "dag")
		wantUsage(t, "config file "+strings.TrimSpace(text), code, errs, "config file "+path)
	}
	os.WriteFile(filepath.Join(root, "c.yaml"), []byte("# every default\n"), 0o644)
	if code, _, errs := censusCLI(t, root, "--config", filepath.Join(root, "c.yaml"), "dag"); code != 0 {
		t.Errorf("a config of comments only: exit %d, %q", code, errs)
	}
}

// Bad usage exits 2 on every command path: an unknown command or argument,
// an unknown flag, a flag value that does not parse or is out of range.
func TestBadUsageExitsTwo(t *testing.T) {
	root := t.TempDir()
	for _, args := range [][]string{
		{"nosuch"},
		{"dag", "nosuch"},
		{"lock", "extra"},
		{"gc", "extra"},
		{"status", "--nosuch"},
		{"show"},
		{"cite"},
		{"show", "--rows", "-1", "x"},
		{"show", "--rows", "1e30", "x"},
		{"show", "--rows", "99999999999999999999", "x"},
		{"verify", "--recompute", "0"},
		{"verify", "--recompute", "-5"},
		{"verify", "--recompute", "1.5"},
		{"verify", "--recompute", "99999999999999999999"},
		{"verify", "--recompute", "1", "--seed", "-1"},
		{"verify", "--recompute", "1", "--seed", "1e30"},
		{"verify", "--recompute", "1", "--seed", "18446744073709551616"},
		{"verify", "--recompute", "1", "--max-unit-cpu", "-5s"},
		{"verify", "--recompute", "1", "--max-unit-cpu", "9999999999h"},
		{"verify", "--recompute", "1", "--max-unit-cpu", "NaN"},
		{"verify", "--recompute", "al"},
		{"verify", "--recompute", ""},
		{"verify", "--seed", "1"},
		{"verify", "--max-unit-cpu", "30s"},
		{"gc", "--keep-last", "-1"},
		{"gc", "--keep-last", "1e3"},
		{"run", "--slurm-cpus-per-task", "1e30"},
		{"run", "--slurm-cpus-per-task", "0"},
		{"run", "--slurm-task-minutes", "NaN"},
		{"run", "--slurm-task-minutes", "-Inf"},
		{"run", "--slurm-max-tasks", "99999999999999999999"},
		{"run", "--dry-run=maybe"},
		{"count", "--samples", "1e30"},
		{"count", "--samples", "0"},
		{"count", "--estimate", "--samples", "9223372036854775807"},
		{"count", "--estimate", "--samples", "1000000000000"},
		{"count", "--estimate", "--samples", "100000001"},
		{"count", "--seed", "-1"},
		{"count", "--max-time", "-1s"},
		{"count", "--box", "99999999999999999999x1"},
	} {
		code, _, errs := censusCLI(t, root, args...)
		wantUsage(t, strings.Join(args, " "), code, errs)
	}
}
