package engine

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sudoku-census/sudoku-census/pipeline"

	"github.com/sudoku-census/sudoku-census/pipeline/store"
)

// The toy pipeline: numbers -> squares -> total.

type numberRow struct {
	N int64 `parquet:"n"`
}

type numbersConfig struct {
	Count int `mapstructure:"count" json:"count"`
}

func (c *numbersConfig) Validate() error {
	if c.Count < 1 || c.Count > 1_000_000 {
		return pipeline.Invalid("numbers.count", c.Count, "an integer from 1 to 1000000")
	}
	return nil
}

type squaresConfig struct {
	Offset int64 `mapstructure:"offset" json:"offset"`
}

func (c *squaresConfig) Validate() error { return nil }

var (
	numbersTable = pipeline.NewTable[numberRow]("numbers", "one row per number")
	squaresTable = pipeline.NewTable[numberRow]("squares", "one row per square")
	totalFile    = pipeline.NewFile("total", "data/total.txt", "the sum of the squares")
)

func toyStages() []*pipeline.Stage {
	numbers := &pipeline.Stage{
		Name: "numbers", Doc: "the numbers 0..count-1", Version: 1,
		NewConfig: func() pipeline.Config { return &numbersConfig{Count: 1000} },
		Globals:   []string{"seed"},
		Outputs:   []pipeline.Output{numbersTable.Output},
		Run: func(p *pipeline.Pass) error {
			cfg := pipeline.ConfigOf[numbersConfig](p)
			rows := make([]numberRow, cfg.Count)
			for i := range rows {
				rows[i].N = int64(i) + int64(p.Seed)
			}
			return numbersTable.Write(p, rows)
		},
	}
	squares := &pipeline.Stage{
		Name: "squares", Doc: "their squares", Version: 1, Requires: []*pipeline.Stage{numbers},
		NewConfig: func() pipeline.Config { return &squaresConfig{} },
		Outputs:   []pipeline.Output{squaresTable.Output},
		Run: func(p *pipeline.Pass) error {
			in, err := numbersTable.Read(p)
			if err != nil {
				return err
			}
			off := pipeline.ConfigOf[squaresConfig](p).Offset
			for i := range in {
				in[i].N = in[i].N*in[i].N + off
			}
			return squaresTable.Write(p, in)
		},
	}
	total := &pipeline.Stage{
		Name: "total", Doc: "their sum", Version: 1, Requires: []*pipeline.Stage{squares},
		Outputs: []pipeline.Output{totalFile.Output},
		Run: func(p *pipeline.Pass) error {
			in, err := squaresTable.Read(p)
			if err != nil {
				return err
			}
			var sum int64
			for _, r := range in {
				sum += r.N
			}
			return totalFile.Write(p, []byte(fmt.Sprintln(sum)))
		},
	}
	return []*pipeline.Stage{numbers, squares, total}
}

type fixture struct {
	t      *testing.T
	root   string
	config string
	stages []*pipeline.Stage
}

func newFixture(t *testing.T, yaml string) *fixture {
	t.Helper()
	root := t.TempDir()
	config := filepath.Join(root, "config.yaml")
	// An empty config file is refused: a comment keeps every default.
	if err := os.WriteFile(config, []byte("# test config\n"+yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	return &fixture{t: t, root: root, config: config, stages: toyStages()}
}

func (f *fixture) engine(set ...string) *Engine {
	f.t.Helper()
	e, err := New(Options{Root: f.root, Stages: f.stages, ConfigFile: f.config, Set: set})
	if err != nil {
		f.t.Fatal(err)
	}
	return e
}

// run runs targets and returns the names of the stages that ran.
func (f *fixture) run(ro RunOptions, set []string, targets ...string) []string {
	f.t.Helper()
	res, err := f.engine(set...).Run(context.Background(), targets, ro)
	if err != nil {
		f.t.Fatal(err)
	}
	var ran []string
	for _, r := range res {
		if r.Ran {
			ran = append(ran, r.Stage)
		}
	}
	return ran
}

func (f *fixture) status() map[string]string {
	f.t.Helper()
	st, err := f.engine().Status()
	if err != nil {
		f.t.Fatal(err)
	}
	out := map[string]string{}
	for _, s := range st {
		out[s.Stage] = s.Reason
		if s.Fresh {
			out[s.Stage] = "fresh"
		}
	}
	return out
}

func (f *fixture) read(path string) []byte {
	f.t.Helper()
	b, err := os.ReadFile(filepath.Join(f.root, path))
	if err != nil {
		f.t.Fatal(err)
	}
	return b
}

func equal(a, b []string) bool { return strings.Join(a, ",") == strings.Join(b, ",") }

func TestSecondRunRunsNothing(t *testing.T) {
	f := newFixture(t, "seed: 3\nnumbers:\n  count: 500\n")
	if ran := f.run(RunOptions{}, nil); !equal(ran, []string{"numbers", "squares", "total"}) {
		t.Fatalf("first run ran %v", ran)
	}
	if ran := f.run(RunOptions{}, nil); len(ran) != 0 {
		t.Fatalf("second run ran %v, want nothing", ran)
	}
	for stage, why := range f.status() {
		if why != "fresh" {
			t.Errorf("%s: %s", stage, why)
		}
	}
	// 500 numbers from 3: sum of squares of 3..502.
	var want int64
	for n := int64(3); n < 503; n++ {
		want += n * n
	}
	if got := strings.TrimSpace(string(f.read("data/total.txt"))); got != fmt.Sprint(want) {
		t.Fatalf("total %s, want %d", got, want)
	}
}

func TestConfigChangeRerunsThatStageAndDownstream(t *testing.T) {
	f := newFixture(t, "numbers:\n  count: 100\n")
	f.run(RunOptions{}, nil)
	st, _ := f.engine("squares.offset=5").Status()
	status := st
	if status[0].Reason != "" || !strings.Contains(status[1].Reason, "config squares.offset changed (0 -> 5)") {
		t.Fatalf("status %+v", status)
	}
	if ran := f.run(RunOptions{}, []string{"squares.offset=5"}, "squares"); !equal(ran, []string{"squares"}) {
		t.Fatalf("--set squares.offset ran %v, want squares only", ran)
	}
	st, _ = f.engine("squares.offset=5").Status()
	if !strings.Contains(st[2].Reason, "input squares changed") {
		t.Fatalf("total after squares changed: %q", st[2].Reason)
	}
	if ran := f.run(RunOptions{}, []string{"squares.offset=5"}); !equal(ran, []string{"total"}) {
		t.Fatalf("downstream run ran %v", ran)
	}
	// A changed input (numbers) reruns everything downstream of it.
	if ran := f.run(RunOptions{}, []string{"squares.offset=5", "numbers.count=101"}); !equal(ran, []string{"numbers", "squares", "total"}) {
		t.Fatalf("changed input ran %v", ran)
	}
}

func TestGlobalSeedAndEnvironment(t *testing.T) {
	f := newFixture(t, "")
	f.run(RunOptions{}, nil)
	t.Setenv("CENSUS_SEED", "7")
	s := f.status()
	if !strings.Contains(s["numbers"], "config seed changed (1 -> 7)") || s["squares"] != "upstream stage numbers is stale" {
		t.Fatalf("status with CENSUS_SEED=7: %v", s)
	}
	t.Setenv("CENSUS_NUMBERS_COUNT", "10")
	if ran := f.run(RunOptions{}, nil, "numbers"); !equal(ran, []string{"numbers"}) {
		t.Fatalf("ran %v", ran)
	}
	rows, err := numbersTable.Load(f.root)
	if err != nil || len(rows) != 10 || rows[0].N != 7 {
		t.Fatalf("rows %v, %v", rows, err)
	}
}

func TestForceRerunsDownstream(t *testing.T) {
	f := newFixture(t, "")
	f.run(RunOptions{}, nil)
	before := f.read("data/squares.parquet")
	if ran := f.run(RunOptions{Force: []string{"squares"}}, nil, "squares", "total"); !equal(ran, []string{"squares", "total"}) {
		t.Fatalf("--force squares ran %v", ran)
	}
	if !bytes.Equal(before, f.read("data/squares.parquet")) {
		t.Fatal("a forced rerun changed the bytes of squares")
	}
}

func TestCodeVersionMakesStale(t *testing.T) {
	f := newFixture(t, "")
	f.run(RunOptions{}, nil)
	f.stages[1].Version = 2
	if s := f.status(); s["squares"] != "code version 1 -> 2" || s["total"] != "upstream stage squares is stale" {
		t.Fatalf("status %v", s)
	}
}

// TestToolVersionMakesStale: another version of a program a stage calls
// (Stage.Tools) makes it stale, with the versions in the reason; the
// manifest records them; a stage without Tools keeps its fingerprint.
func TestToolVersionMakesStale(t *testing.T) {
	f := newFixture(t, "")
	version := "1.0"
	f.stages[2].Tools = func() map[string]string { return map[string]string{"tex": version} }
	f.run(RunOptions{}, nil)
	if s := f.status(); s["total"] != "fresh" {
		t.Fatalf("status after the run %v", s)
	}
	m, err := store.ReadManifest(f.root)
	if err != nil || m.Stages["total"].Tools["tex"] != "1.0" || m.Stages["squares"].Tools != nil {
		t.Fatalf("manifest records tools %v and %v (%v)", m.Stages["total"].Tools, m.Stages["squares"].Tools, err)
	}
	version = "2.0"
	if s := f.status(); s["total"] != "tool tex changed (1.0 -> 2.0)" || s["squares"] != "fresh" {
		t.Fatalf("status after the tool changed %v", s)
	}
	if ran := f.run(RunOptions{}, nil); !equal(ran, []string{"total"}) {
		t.Fatalf("after the tool changed the run ran %v", ran)
	}
}

func TestDamagedArtifactIsStaleFlaggedAndRebuilt(t *testing.T) {
	for _, damage := range []string{"flip", "truncate", "delete"} {
		t.Run(damage, func(t *testing.T) {
			f := newFixture(t, "")
			f.run(RunOptions{}, nil)
			path := filepath.Join(f.root, "data/squares.parquet")
			good := f.read("data/squares.parquet")
			switch damage {
			case "flip":
				bad := append([]byte(nil), good...)
				bad[len(bad)/2] ^= 0x40
				os.WriteFile(path, bad, 0o644)
			case "truncate":
				os.WriteFile(path, good[:len(good)/2], 0o644)
			case "delete":
				os.Remove(path)
			}
			s := f.status()
			if !strings.Contains(s["squares"], "data/squares.parquet is") || s["numbers"] != "fresh" {
				t.Fatalf("status after %s: %v", damage, s)
			}
			res, err := f.engine().Project().Verify()
			if err != nil {
				t.Fatal(err)
			}
			flagged := 0
			for _, r := range res {
				if !r.OK {
					flagged++
					if r.Artifact.Name != "squares" {
						t.Errorf("verify flagged %s", r.Artifact.Name)
					}
				}
			}
			if flagged != 1 {
				t.Fatalf("verify flagged %d artifacts, want 1", flagged)
			}
			// The run cache holds the artifact's bytes: the run restores
			// them without running the stage.
			if ran := f.run(RunOptions{}, nil); len(ran) != 0 || !bytes.Equal(good, f.read("data/squares.parquet")) {
				t.Fatalf("restore ran %v, or restored other bytes", ran)
			}
			// Without the cache, the stage runs and rebuilds the same bytes.
			damageAgain := append([]byte(nil), good...)
			damageAgain[len(damageAgain)/2] ^= 0x40
			os.WriteFile(path, damageAgain, 0o644)
			os.RemoveAll(filepath.Join(f.root, store.CacheDir))
			if ran := f.run(RunOptions{}, nil); !equal(ran, []string{"squares"}) {
				t.Fatalf("rebuild ran %v", ran)
			}
			if !bytes.Equal(good, f.read("data/squares.parquet")) {
				t.Fatal("rebuilt artifact differs from the original")
			}
		})
	}
}

func TestInterruptedStageLeavesNothingFresh(t *testing.T) {
	f := newFixture(t, "numbers:\n  count: 200000\n")
	_, err := f.engine().Run(context.Background(), nil, RunOptions{FailAfterRows: map[string]int64{"numbers": 100000}})
	if err == nil || !strings.Contains(err.Error(), "injected failure after 100000 rows") {
		t.Fatalf("err = %v", err)
	}
	if _, err := os.Stat(filepath.Join(f.root, "data/numbers.parquet")); !os.IsNotExist(err) {
		t.Fatalf("a failed stage left data/numbers.parquet: %v", err)
	}
	leftovers, _ := filepath.Glob(filepath.Join(f.root, "data/.*.tmp-*"))
	if len(leftovers) > 0 {
		t.Fatalf("temporary files left: %v", leftovers)
	}
	if s := f.status(); s["numbers"] != "never run" {
		t.Fatalf("status after failure: %v", s)
	}
	// A failure on a rerun keeps the old artifact but never marks the new
	// configuration fresh.
	f.run(RunOptions{}, nil)
	good := f.read("data/numbers.parquet")
	_, err = f.engine("numbers.count=300000").Run(context.Background(), nil, RunOptions{FailAfterRows: map[string]int64{"numbers": 150000}})
	if err == nil {
		t.Fatal("injected failure did not fail the run")
	}
	if !bytes.Equal(good, f.read("data/numbers.parquet")) {
		t.Fatal("a failed rerun touched the published artifact")
	}
	st, _ := f.engine("numbers.count=300000").Status()
	if st[0].Fresh || !strings.Contains(st[0].Reason, "numbers.count changed") {
		t.Fatalf("status after failed rerun: %+v", st[0])
	}
}

func TestCrashedRunTemporariesAreRemoved(t *testing.T) {
	f := newFixture(t, "")
	os.MkdirAll(filepath.Join(f.root, "data"), 0o755)
	junk := filepath.Join(f.root, "data/.numbers.parquet.tmp-123")
	os.WriteFile(junk, []byte("half a file"), 0o644)
	f.run(RunOptions{}, nil)
	if _, err := os.Stat(junk); !os.IsNotExist(err) {
		t.Fatal("temporary file of a crashed run survived")
	}
}

func TestByteIdenticalRuns(t *testing.T) {
	a, b := newFixture(t, "seed: 9\n"), newFixture(t, "seed: 9\n")
	a.run(RunOptions{}, nil)
	b.run(RunOptions{}, nil)
	for _, p := range []string{"data/numbers.parquet", "data/squares.parquet", "data/total.txt", store.ManifestPath} {
		if !bytes.Equal(a.read(p), b.read(p)) {
			t.Errorf("%s differs between two runs", p)
		}
	}
}

func TestProvenanceInFooter(t *testing.T) {
	f := newFixture(t, "seed: 4\n")
	f.run(RunOptions{}, nil)
	var out bytes.Buffer
	if err := f.engine().Project().Show(&out, "numbers", 3); err != nil {
		t.Fatal(err)
	}
	m, _ := store.ReadManifest(f.root)
	a, _ := m.Artifact("numbers")
	for _, want := range []string{
		"census.fingerprint = " + a.Fingerprint, `census.config = {"numbers":{"count":1000},"seed":4}`,
		"census.stage = numbers", "census.version = 1", "census.tool = " + pipeline.ToolVersion, "rows         1000",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("show lacks %q:\n%s", want, out.String())
		}
	}
	if a.Rows != 1000 || a.Stage != "numbers" || len(a.SHA256) != 64 {
		t.Errorf("manifest entry %+v", a)
	}
}

func TestLockRefusesSecondRun(t *testing.T) {
	f := newFixture(t, "")
	release, err := store.Lock(f.root, false)
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.engine().Run(context.Background(), nil, RunOptions{})
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("pid %d", os.Getpid())) {
		t.Fatalf("second run: %v", err)
	}
	release()
	if ran := f.run(RunOptions{}, nil); len(ran) != 3 {
		t.Fatalf("after release ran %v", ran)
	}
}

func TestBadInput(t *testing.T) {
	root := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(root, name)
		os.WriteFile(p, []byte(text), 0o644)
		return p
	}
	cases := []struct {
		name, file string
		set        []string
		want       string
	}{
		{"unknown key", write("a.yaml", "numbers:\n  cuont: 3\n"), nil, "unknown config key numbers.cuont"},
		{"unknown top key", write("b.yaml", "sede: 3\n"), nil, "unknown config key sede"},
		{"malformed", write("c.yaml", "numbers: [1,\n"), nil, "malformed YAML"},
		{"missing file", filepath.Join(root, "nope.yaml"), nil, "no such file or directory"},
		{"out of range", write("d.yaml", "numbers:\n  count: 0\n"), nil, "config key numbers.count: value 0 is not allowed: an integer from 1 to 1000000"},
		{"wrong type", write("e.yaml", "numbers:\n  count: many\n"), nil, "config key numbers.count: value many is not allowed: an integer"},
		{"unknown --set", write("f.yaml", "# defaults\n"), []string{"numbers.size=3"}, "unknown config key numbers.size"},
		{"malformed --set", write("g.yaml", "# defaults\n"), []string{"seed"}, "want key=value"},
		{"negative seed", write("h.yaml", "seed: -1\n"), nil, "config key seed: value -1 is not allowed"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := New(Options{Root: root, Stages: toyStages(), ConfigFile: c.file, Set: c.set})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want %q", err, c.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error is not one line: %q", err)
			}
		})
	}
	t.Run("unknown env", func(t *testing.T) {
		t.Setenv("CENSUS_NUMBERS_CUONT", "3")
		_, err := New(Options{Root: root, Stages: toyStages(), ConfigFile: write("i.yaml", "# defaults\n")})
		if err == nil || !strings.Contains(err.Error(), "CENSUS_NUMBERS_CUONT: no such config key") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("unknown stage", func(t *testing.T) {
		e, err := New(Options{Root: root, Stages: toyStages(), ConfigFile: write("j.yaml", "# defaults\n")})
		if err != nil {
			t.Fatal(err)
		}
		_, err = e.Run(context.Background(), []string{"cubes"}, RunOptions{})
		if err == nil || err.Error() != `unknown stage "cubes" (stages: numbers, squares, total)` {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestGraphErrors(t *testing.T) {
	config := filepath.Join(t.TempDir(), "c.yaml")
	os.WriteFile(config, nil, 0o644)
	a := &pipeline.Stage{Name: "a"}
	b := &pipeline.Stage{Name: "b", Requires: []*pipeline.Stage{a}}
	a.Requires = []*pipeline.Stage{b}
	if _, err := New(Options{Stages: []*pipeline.Stage{a, b}, ConfigFile: config}); err == nil || !strings.Contains(err.Error(), "cycle") {
		t.Fatalf("cycle: %v", err)
	}
	orphan := &pipeline.Stage{Name: "c", Requires: []*pipeline.Stage{{Name: "ghost"}}}
	if _, err := New(Options{Stages: []*pipeline.Stage{orphan}, ConfigFile: config}); err == nil || !strings.Contains(err.Error(), "not in the pipeline") {
		t.Fatalf("missing requirement: %v", err)
	}
	s := toyStages()
	s[2].Outputs = []pipeline.Output{numbersTable.Output}
	if _, err := New(Options{Stages: s, ConfigFile: config}); err == nil || !strings.Contains(err.Error(), "already belongs") {
		t.Fatalf("duplicate output: %v", err)
	}
}

type mapConfig struct {
	Samples map[string]int `mapstructure:"samples" json:"samples"`
}

func (c *mapConfig) Validate() error { return nil }

func TestSetOneMapEntryKeepsTheOthers(t *testing.T) {
	f := newFixture(t, "sampler:\n  samples:\n    2x2: 10\n    3x3: 20\n")
	f.stages = append(f.stages, &pipeline.Stage{
		Name: "sampler", Version: 1,
		NewConfig: func() pipeline.Config { return &mapConfig{Samples: map[string]int{"2x2": 1}} },
		Run:       func(p *pipeline.Pass) error { return nil },
	})
	e := f.engine("sampler.samples.3x3=30", "sampler.samples.4x4=40")
	got := e.settings.Stage["sampler"].(*mapConfig).Samples
	if len(got) != 3 || got["2x2"] != 10 || got["3x3"] != 30 || got["4x4"] != 40 {
		t.Fatalf("samples = %v, want 2x2:10 3x3:30 4x4:40", got)
	}
}

func TestLoadReadsEveryRowGroupInOrder(t *testing.T) {
	f := newFixture(t, "seed: 0\nnumbers:\n  count: 600000\n")
	f.run(RunOptions{}, nil, "numbers")
	rows, err := numbersTable.Load(f.root)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 600000 {
		t.Fatalf("%d rows, want 600000", len(rows))
	}
	for i, r := range rows {
		if r.N != int64(i) {
			t.Fatalf("row %d holds %d", i, r.N)
		}
	}
}
