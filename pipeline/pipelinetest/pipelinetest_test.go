package pipelinetest_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/sudoku-census/sudoku-census/pipeline"
	"github.com/sudoku-census/sudoku-census/pipeline/pipelinetest"
)

// toyConfig is the toy stage's configuration: how many lines it writes.
type toyConfig struct {
	Lines int `mapstructure:"lines" json:"lines"`
}

func (c *toyConfig) Validate() error {
	if c.Lines < 1 {
		return pipeline.Invalid("toy.lines", c.Lines, "an integer ≥ 1")
	}
	return nil
}

var (
	toyFile = pipeline.NewFile("toy", "data/toy.txt", "numbered lines")
	// procs records GOMAXPROCS as the toy stage saw it.
	procs int
	toy   = &pipeline.Stage{
		Name: "toy", Doc: "writes numbered lines", Version: 1,
		NewConfig: func() pipeline.Config { return &toyConfig{Lines: 2} },
		Outputs:   []pipeline.Output{toyFile.Output},
		Run: func(p *pipeline.Pass) error {
			procs = runtime.GOMAXPROCS(0)
			var b []byte
			for i := range pipeline.ConfigOf[toyConfig](p).Lines {
				b = fmt.Appendf(b, "%d\n", i)
			}
			return toyFile.Write(p, b)
		},
	}
)

func config(t *testing.T) string {
	path := filepath.Join(t.TempDir(), "toy.yaml")
	if err := os.WriteFile(path, []byte("toy:\n  lines: 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestRun(t *testing.T) {
	before := runtime.GOMAXPROCS(0)
	o := pipelinetest.Options{Stages: []*pipeline.Stage{toy}, Config: config(t), Procs: 1}
	a := pipelinetest.Run(t, o)
	if procs != 1 || runtime.GOMAXPROCS(0) != before {
		t.Errorf("stage ran under GOMAXPROCS %d, %d after the run; want 1, then %d again", procs, runtime.GOMAXPROCS(0), before)
	}
	if got, err := os.ReadFile(filepath.Join(a, toyFile.Path)); err != nil || string(got) != "0\n1\n2\n" {
		t.Errorf("toy.txt %q, %v; want the 3 lines of the config", got, err)
	}

	b := pipelinetest.Copy(t, a)
	o.Root, o.Force, o.Procs = b, []string{"toy"}, 0
	if got := pipelinetest.Run(t, o); got != b {
		t.Errorf("Run in root %s returned %s", b, got)
	}
	pipelinetest.SameOutputs(t, a, b, toy)

	o.Root, o.Force, o.Set = "", nil, []string{"toy.lines=4"}
	c := pipelinetest.Run(t, o)
	if c == a || c == b {
		t.Error("Run without a root reused one")
	}
	// SameOutputs must see the difference.
	inner := &recorder{TB: t}
	pipelinetest.SameOutputs(inner, a, c, toy)
	if !inner.failed {
		t.Error("SameOutputs passed outputs of 3 and 4 lines")
	}
}

func TestRejects(t *testing.T) {
	o := pipelinetest.Options{Stages: []*pipeline.Stage{toy}, Config: config(t), Set: []string{"toy.lines=5"}}
	if err := pipelinetest.Rejects(t, o, "toy.lines=0", "toy.lines"); err == nil {
		t.Error("toy.lines=0 accepted")
	}
	inner := &recorder{TB: t}
	if err := pipelinetest.Rejects(inner, o, "toy.lines=3", "toy.lines"); err != nil || !inner.failed {
		t.Errorf("Rejects of the valid toy.lines=3: error %v, failed %v; want no error and a failure", err, inner.failed)
	}
}

// recorder is a testing.TB whose Errorf records a failure instead of
// failing the test, to check that a helper reports one.
type recorder struct {
	testing.TB
	failed bool
}

func (r *recorder) Errorf(string, ...any) { r.failed = true }
