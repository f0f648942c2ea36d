package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sudoku-census/sudoku-census/pipeline"
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
	}
	for _, c := range cases {
		code, _, errs := census(t, root, c.args...)
		if code != 2 || !strings.Contains(errs, c.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line with %q", c.args, code, errs, c.want)
		}
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
