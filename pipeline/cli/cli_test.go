package cli

import (
	"bytes"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/stages/maths/bandpair"
	"github.com/sudoku-census/sudoku-census/stages/maths/sudoku"
)

type row struct {
	K int64 `parquet:"k"`
}

type cfg struct {
	Rows int `mapstructure:"rows" json:"rows"`
}

func (c *cfg) Validate() error {
	if c.Rows < 1 {
		return pipeline.Invalid("gen.rows", c.Rows, "an integer ≥ 1")
	}
	return nil
}

var genTable = pipeline.NewTable[row]("gen", "one row per k")

func stages() []*pipeline.Stage {
	gen := &pipeline.Stage{
		Name: "gen", Doc: "0..rows-1", Version: 1,
		NewConfig: func() pipeline.Config { return &cfg{Rows: 5} },
		Outputs:   []pipeline.Output{genTable.Output},
		Run: func(p *pipeline.Pass) error {
			rows := make([]row, pipeline.ConfigOf[cfg](p).Rows)
			for i := range rows {
				rows[i].K = int64(i * i)
			}
			return genTable.Write(p, rows)
		},
	}
	return []*pipeline.Stage{gen}
}

// census runs the command line in root and returns exit code, stdout, stderr.
func census(t *testing.T, root string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	all := append([]string{"--root", root, "--config", filepath.Join(root, "c.yaml")}, args...)
	code := Main(stages(), all, IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb})
	return code, out.String(), errb.String()
}

func project(t *testing.T) string {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "c.yaml"), []byte("gen:\n  rows: 7\n"), 0o644)
	return root
}

func TestRunStatusShowVerifyCite(t *testing.T) {
	root := project(t)
	if code, _, _ := census(t, root, "status"); code != 1 {
		t.Fatalf("status before any run: exit %d, want 1", code)
	}
	code, out, errs := census(t, root, "run")
	if code != 0 || !strings.Contains(out, "gen") || !strings.Contains(out, "ran") {
		t.Fatalf("run: %d\n%s\n%s", code, out, errs)
	}
	code, _, errs = census(t, root, "run")
	if code != 0 || !strings.Contains(errs, "up to date") {
		t.Fatalf("second run: %d %s", code, errs)
	}
	if code, out, _ := census(t, root, "status"); code != 0 || !strings.Contains(out, "gen  fresh") {
		t.Fatalf("status: %d %q", code, out)
	}
	if code, out, _ := census(t, root, "status", "--set", "gen.rows=8"); code != 1 || !strings.Contains(out, "config gen.rows changed (7 -> 8)") {
		t.Fatalf("status with --set: %d %q", code, out)
	}
	code, out, _ = census(t, root, "show", "gen", "--rows", "3")
	if code != 0 || !strings.Contains(out, "rows         7") || !strings.Contains(out, "census.stage = gen") || !strings.Contains(out, "\n4\n") {
		t.Fatalf("show: %d\n%s", code, out)
	}
	if code, out, _ := census(t, root, "verify"); code != 0 || !strings.Contains(out, "1 artifacts match") {
		t.Fatalf("verify: %d %s", code, out)
	}
	if code, out, _ := census(t, root, "cite", "data/gen.parquet"); code != 0 || !strings.Contains(out, "@misc{sudokucensus:gen:") || !strings.Contains(out, "SHA-256 ") {
		t.Fatalf("cite: %d %s", code, out)
	}
	if code, out, _ := census(t, root, "dag", "--dot"); code != 0 || !strings.HasPrefix(out, "digraph census") {
		t.Fatalf("dag: %d %s", code, out)
	}
	// Damage: verify fails, run rebuilds.
	path := filepath.Join(root, "data/gen.parquet")
	b, _ := os.ReadFile(path)
	b[10] ^= 1
	os.WriteFile(path, b, 0o644)
	if code, out, _ := census(t, root, "verify"); code != 1 || !strings.Contains(out, "MISMATCH  data/gen.parquet") {
		t.Fatalf("verify of damaged: %d %s", code, out)
	}
	if code, _, _ := census(t, root, "run"); code != 0 {
		t.Fatal("rebuild failed")
	}
	if code, _, _ := census(t, root, "verify"); code != 0 {
		t.Fatal("verify after rebuild failed")
	}
}

func TestBadInputIsOneLine(t *testing.T) {
	root := project(t)
	os.WriteFile(filepath.Join(root, "bad.yaml"), []byte("gen: {rows: [\n"), 0o644)
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"run", "nosuch"}, `census: unknown stage "nosuch" (stages: gen)`},
		{[]string{"run", "--set", "gen.colour=red"}, "unknown config key gen.colour"},
		{[]string{"run", "--set", "gen.rows=0"}, "config key gen.rows: value 0 is not allowed: an integer ≥ 1"},
		{[]string{"--config", filepath.Join(root, "bad.yaml"), "run"}, "malformed YAML"},
		{[]string{"--config", filepath.Join(root, "none.yaml"), "status"}, "no such file or directory"},
		{[]string{"run", "--force"}, "--force needs the stages"},
		{[]string{"show", "nothing"}, `unknown artifact "nothing"`},
		{[]string{"run", "--jobs", "0"}, `--jobs "0": want an integer ≥ 1`},
		{[]string{"run", "--jobs", "-2"}, `--jobs "-2": want an integer ≥ 1`},
		{[]string{"run", "--jobs", "1.5"}, `--jobs "1.5": want an integer ≥ 1`},
		{[]string{"run", "-j", "two"}, `--jobs "two": want an integer ≥ 1`},
		{[]string{"run", "--jobs", "99999999999999999999"}, `--jobs "99999999999999999999": want an integer ≥ 1`},
		{[]string{"run", "--jobs="}, `--jobs "": want an integer ≥ 1`},
	}
	for _, c := range cases {
		code, _, errs := census(t, root, c.args...)
		if code != 2 || !strings.Contains(errs, c.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line with %q", c.args, code, errs, c.want)
		}
	}
}

// TestRunJobs: --jobs N sets the cores the run computes on.
func TestRunJobs(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	root := project(t)
	if code, _, errs := census(t, root, "run", "--jobs", "1"); code != 0 || runtime.GOMAXPROCS(0) != 1 {
		t.Fatalf("run --jobs 1: exit %d, GOMAXPROCS %d; %s", code, runtime.GOMAXPROCS(0), errs)
	}
	if code, _, errs := census(t, root, "run", "-j", "3"); code != 0 || runtime.GOMAXPROCS(0) != 3 {
		t.Fatalf("run -j 3: exit %d, GOMAXPROCS %d; %s", code, runtime.GOMAXPROCS(0), errs)
	}
}

// TestMistypedCommand: cobra's suggestion keeps its own lines.
func TestMistypedCommand(t *testing.T) {
	code, _, errs := census(t, project(t), "rn")
	want := "census: unknown command \"rn\" for \"census\"\nDid you mean this?\n"
	if code != 2 || !strings.HasPrefix(errs, want) || !strings.Contains(errs, "\n\trun\n") {
		t.Errorf("census rn: exit %d, stderr %q; want exit 2, %q and run on a line of its own", code, errs, want)
	}
	code, _, errs = census(t, project(t), "zzzzzz")
	if code != 2 || strings.Count(errs, "\n") != 1 || strings.Contains(errs, "Did you mean") {
		t.Errorf("census zzzzzz: exit %d, stderr %q; want exit 2 and one line", code, errs)
	}
}

func TestCount(t *testing.T) {
	root := project(t)
	puzzle := filepath.Join(root, "p.txt")
	cases := []struct {
		input, file string
		args        []string
		code        int
		out, err    string
	}{
		{input: "................", code: 0, out: "288\n"},
		{input: "....\n....\n....\n....\n", code: 0, out: "288\n"},
		{input: "1..1\n....\n....\n....\n", code: 0, out: "0\n", err: "the givens clash"},
		{input: "......", args: []string{"--box", "2x3"}, code: 2, err: "line 1"},
		{input: "....................................", args: []string{"--box", "2x3"}, code: 0, out: "28200960\n"},
		{input: "..5.............", code: 2, err: "line 1, column 3"},
		{input: "................", args: []string{"--box", "2y2"}, code: 2, err: "box shape"},
		// The first of Royle's 17-clue puzzles, which has one solution.
		{file: "000000010400000000020000000000050407008000300001090000300400200050100000000806000", code: 0, out: "1\n"},
	}
	for _, c := range cases {
		args := append([]string{"count"}, c.args...)
		var out, errb bytes.Buffer
		in := strings.NewReader(c.input)
		if c.file != "" {
			os.WriteFile(puzzle, []byte(c.file+"\n"), 0o644)
			args = append(args, puzzle)
		}
		code := Main(stages(), args, IO{Stdin: in, Stdout: &out, Stderr: &errb})
		if code != c.code || out.String() != c.out || !strings.Contains(errb.String(), c.err) || strings.Count(errb.String(), "\n") > 1 {
			t.Errorf("count %q %v: exit %d, out %q, err %q; want %d, %q, %q", c.input+c.file, c.args, code, out.String(), errb.String(), c.code, c.out, c.err)
		}
	}
}

// TestCountProgress: on a terminal the exact count draws its progress on
// stderr and clears it; off a terminal stderr stays empty; the count on
// stdout is the same.
func TestCountProgress(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2)) // CountParallel shares the subtrees among ≥ 2 workers
	empty6 := strings.Repeat(".", 36) + "\n"
	for _, terminal := range []bool{true, false} {
		var out, errb bytes.Buffer
		code := Main(stages(), []string{"count", "--box", "2x3", "--force"},
			IO{Stdin: strings.NewReader(empty6), Stdout: &out, Stderr: &errb, Terminal: terminal})
		if code != 0 || out.String() != "28200960\n" {
			t.Fatalf("terminal %v: exit %d, out %q, err %q", terminal, code, out.String(), errb.String())
		}
		drawn := strings.Contains(errb.String(), "count: subtrees [")
		if drawn != terminal || (terminal && !strings.HasSuffix(errb.String(), "\r")) {
			t.Errorf("terminal %v: stderr %q", terminal, errb.String())
		}
	}
}

// runCount runs census count with input on standard input.
func runCount(input string, args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := Main(stages(), append([]string{"count"}, args...), IO{Stdin: strings.NewReader(input), Stdout: &out, Stderr: &errb})
	return code, out.String(), errb.String()
}

// interval reads "LOW to HIGH" after "95% interval " in the line of text
// starting with prefix.
func interval(t *testing.T, text, prefix string) (lo, hi *big.Float) {
	t.Helper()
	for _, line := range strings.Split(text, "\n") {
		_, rest, ok := strings.Cut(line, prefix)
		if !ok {
			continue
		}
		_, rest, ok = strings.Cut(rest, "95% interval ")
		if !ok {
			break
		}
		var a, b string
		if _, err := fmt.Sscanf(strings.NewReplacer("(", " ", ")", " ").Replace(rest), "%s to %s", &a, &b); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		lo, _, err1 := big.ParseFloat(a, 10, 100, big.ToNearestEven)
		hi, _, err2 := big.ParseFloat(b, 10, 100, big.ToNearestEven)
		if err1 != nil || err2 != nil {
			t.Fatalf("%q: %v %v", line, err1, err2)
		}
		return lo, hi
	}
	t.Fatalf("no line %q with a 95%% interval in %q", prefix, text)
	return nil, nil
}

// covers reports whether [lo, hi] holds x.
func covers(lo, hi *big.Float, x *big.Int) bool {
	f := new(big.Float).SetInt(x)
	return lo.Cmp(f) <= 0 && f.Cmp(hi) <= 0
}

// TestCountEstimateEmpty9x9: the estimate covers the number of Sudoku grids
// (Felgenhauer and Jarvis), and the count is refused in one line.
func TestCountEstimateEmpty9x9(t *testing.T) {
	empty := strings.Repeat(".", 81)
	grids, _ := new(big.Int).SetString("6670903752021072936960", 10)
	code, out, errs := runCount(empty, "--estimate")
	if code != 0 || errs != "" {
		t.Fatalf("count --estimate: exit %d, stderr %q", code, errs)
	}
	if lo, hi := interval(t, out, "estimate:"); !covers(lo, hi, grids) {
		t.Errorf("count --estimate: interval %v to %v misses %v:\n%s", lo, hi, grids, out)
	}
	if !strings.Contains(out, "years (warm memo)") {
		t.Errorf("count --estimate: no prediction in years:\n%s", out)
	}
	code, out, errs = runCount(empty)
	if code != 1 || out != "" || strings.Count(errs, "\n") != 1 ||
		!strings.Contains(errs, "not counted: predicted to take") || !strings.Contains(errs, "over --max-time 10m0s") ||
		!strings.Contains(errs, "--force counts anyway") {
		t.Fatalf("count: exit %d, out %q, err %q; want exit 1 and a one-line refusal", code, out, errs)
	}
	if lo, hi := interval(t, errs, "completions"); !covers(lo, hi, grids) {
		t.Errorf("count: refusal's interval %v to %v misses %v: %s", lo, hi, grids, errs)
	}
}

// TestCountFirstBand: a 9×9 grid with only its first band filled is
// counted or refused as predicted, and the estimate covers the exact count
// of the band-pair method.
func TestCountFirstBand(t *testing.T) {
	rows := [3]string{"123456789", "457189236", "689237145"}
	band, err := sudoku.ParseBand(rows[0], rows[1], rows[2])
	if err != nil {
		t.Fatal(err)
	}
	bp, err := bandpair.NewCounter(0)
	if err != nil {
		t.Fatal(err)
	}
	exact, _, err := bp.Completions(band)
	if err != nil {
		t.Fatal(err)
	}
	want := new(big.Int).SetUint64(exact)
	input := rows[0] + rows[1] + rows[2] + strings.Repeat(".", 54)
	code, out, errs := runCount(input, "--estimate", "--seed", "5", "--samples", "100000")
	if code != 0 || errs != "" {
		t.Fatalf("count --estimate: exit %d, stderr %q", code, errs)
	}
	if lo, hi := interval(t, out, "estimate:"); !covers(lo, hi, want) {
		t.Errorf("count --estimate: interval %v to %v misses %v:\n%s", lo, hi, want, out)
	}
	// A low --max-time keeps the test short whichever way it goes.
	code, out, errs = runCount(input, "--max-time", "5s", "--seed", "5", "--samples", "100000")
	switch {
	case code == 0:
		if out != want.String()+"\n" || errs != "" {
			t.Errorf("count: out %q, err %q; want %s", out, errs, want)
		}
	case code == 1:
		if out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "over --max-time 5s; about") {
			t.Errorf("count: exit 1, out %q, err %q; want a one-line refusal", out, errs)
		}
		if lo, hi := interval(t, errs, "completions"); !covers(lo, hi, want) {
			t.Errorf("count: refusal's interval %v to %v misses %v: %s", lo, hi, want, errs)
		}
	default:
		t.Errorf("count: exit %d, out %q, err %q", code, out, errs)
	}
}

func TestCountBadFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--samples", "0"}, `--samples "0": want an integer from 1 to 100000000`},
		{[]string{"--samples", "many"}, `--samples "many": want an integer from 1 to 100000000`},
		{[]string{"--estimate", "--samples", "9223372036854775807"}, `--samples "9223372036854775807": want an integer from 1 to 100000000`},
		{[]string{"--estimate", "--samples", "1000000000000"}, `--samples "1000000000000": want an integer from 1 to 100000000`},
		{[]string{"--seed", "-1"}, `--seed "-1": want an integer from 0 to 18446744073709551615`},
		{[]string{"--max-time", "0s"}, `--max-time "0s": want a duration > 0`},
		{[]string{"--max-time", "ten"}, `--max-time "ten": want a duration > 0`},
		{[]string{"--estimate", "--force"}, "--estimate and --force"},
	} {
		code, out, errs := runCount("................", c.args...)
		if code != 2 || out != "" || !strings.Contains(errs, c.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("count %v: exit %d, out %q, err %q; want exit 2 and one line with %q", c.args, code, out, errs, c.want)
		}
	}
	// --force counts small grids as before.
	if code, out, _ := runCount("................", "--force"); code != 0 || out != "288\n" {
		t.Errorf("count --force: exit %d, out %q; want 288", code, out)
	}
}
