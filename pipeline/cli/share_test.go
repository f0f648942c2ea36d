package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sudoku-census/sudoku-census/pipeline/internal/files"
	"github.com/sudoku-census/sudoku-census/pipeline/store"
)

// TestDiffCommand checks census diff's table, --json and --exit-code on
// two runs of the toy pipeline.
func TestDiffCommand(t *testing.T) {
	root := project(t)
	if code, _, errs := census(t, root, "run"); code != 0 {
		t.Fatal(errs)
	}
	lock := filepath.Join(root, "seven.lock.json")
	if code, _, errs := census(t, root, "lock", "-o", lock); code != 0 {
		t.Fatal(errs)
	}
	if code, out, errs := census(t, root, "diff", lock, "--exit-code"); code != 0 || !strings.Contains(out, "no difference") {
		t.Fatalf("diff of a run with its lock: exit %d\n%s%s", code, out, errs)
	}
	os.WriteFile(filepath.Join(root, "c.yaml"), []byte("gen:\n  rows: 9\n"), 0o644)
	if code, _, errs := census(t, root, "run"); code != 0 {
		t.Fatal(errs)
	}
	code, out, _ := census(t, root, "diff", lock)
	if code != 0 || !strings.Contains(out, "gen.rows  7    9") || !strings.Contains(out, "data/gen.parquet") {
		t.Fatalf("diff: exit %d\n%s", code, out)
	}
	if code, _, _ := census(t, root, "diff", lock, "data", "--exit-code"); code != 1 {
		t.Errorf("diff --exit-code of two runs: exit %d, want 1", code)
	}
	code, out, _ = census(t, root, "diff", lock, "--json")
	// Values are typed JSON: the number 9, not the text "9".
	var d struct {
		Config []struct {
			Key      string
			Old, New any
		}
		Metrics []struct{ Old, New any }
	}
	if err := json.Unmarshal([]byte(out), &d); code != 0 || err != nil || len(d.Config) != 1 || d.Config[0].Key != "gen.rows" ||
		d.Config[0].Old != 7.0 || d.Config[0].New != 9.0 {
		t.Errorf("diff --json: exit %d, %v\n%s", code, err, out)
	}
	for _, m := range d.Metrics {
		for _, v := range []any{m.Old, m.New} {
			if s, ok := v.(string); ok && jsonNumberText(s) {
				t.Errorf("diff --json: number %q written as a string\n%s", s, out)
			}
		}
	}
	for _, args := range [][]string{{"diff"}, {"diff", "a", "b", "c"}, {"diff", filepath.Join(root, "none.json")}} {
		if code, _, errs := census(t, root, args...); code != 2 || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: exit %d, %q; want 2 and one line", args, code, errs)
		}
	}
}

// TestPushPullCommands pushes runs of the toy pipeline to a file://
// remote and pulls them into an empty root: first a run stopped by a
// failing unit (the finished units travel, the stage stays to compute),
// then the whole run, which the other root then has, lock and all; the
// config key remote is the default remote.
func TestPushPullCommands(t *testing.T) {
	root := toyProject(t, "blocks:\n  count: 12\n  rounds: 10\n")
	t.Setenv("TOYCENSUS_FAIL_UNIT", "block-005")
	if code, _, _ := toyCensus(t, root, "run", "-q"); code != 1 {
		t.Fatal("the injected failure did not fail the run")
	}
	remote := "file://" + t.TempDir()
	code, out, errs := toyCensus(t, root, "push", remote)
	if code != 0 || !strings.Contains(out, "pushed ") || strings.Contains(out, " 0 units") {
		t.Fatalf("push of a stopped run: exit %d\n%s%s", code, out, errs)
	}
	other := toyProject(t, "blocks:\n  count: 12\n  rounds: 10\nremote: "+remote+"\n")
	code, out, errs = toyCensus(t, other, "pull")
	if code != 0 || !strings.Contains(out, "restored 1 stages") || strings.Contains(out, " 0 units") ||
		!strings.Contains(out, "stages census run must compute: blocks, sum") {
		t.Fatalf("pull of a stopped run: exit %d\n%s%s", code, out, errs)
	}
	if code, out, _ := toyCensus(t, other, "status", "blocks"); code != 1 || !strings.Contains(out, "units done") {
		t.Errorf("status after pulling units: %d %q", code, out)
	}

	t.Setenv("TOYCENSUS_FAIL_UNIT", "")
	if code, _, errs := toyCensus(t, root, "run", "-q"); code != 0 {
		t.Fatal(errs)
	}
	lock := filepath.Join(root, "run.lock.json")
	toyCensus(t, root, "lock", "-o", lock)
	if code, out, errs := toyCensus(t, root, "push", remote); code != 0 || strings.Contains(out, "pushed 0 files") {
		t.Fatalf("push: exit %d\n%s%s", code, out, errs)
	}
	if code, out, _ := toyCensus(t, root, "push", remote); code != 0 || !strings.Contains(out, "pushed 0 files, 0 bytes") {
		t.Fatalf("second push: exit %d\n%s", code, out)
	}
	code, out, errs = toyCensus(t, other, "pull")
	if code != 0 || !strings.Contains(out, "restored 2 stages") {
		t.Fatalf("pull: exit %d\n%s%s", code, out, errs)
	}
	if code, out, errs := toyCensus(t, other, "verify", "--lock", lock); code != 0 {
		t.Fatalf("verify --lock after the pull: exit %d\n%s%s", code, out, errs)
	}
	if code, _, errs := toyCensus(t, other, "push", "ftp://x"); code != 2 || !strings.Contains(errs, `remote "ftp://x"`) {
		t.Errorf("push ftp://x: exit %d, %q", code, errs)
	}
	if code, _, errs := toyCensus(t, root, "pull"); code != 2 || !strings.Contains(errs, "pull needs a remote") {
		t.Errorf("pull without a remote: exit %d, %q", code, errs)
	}
}

// jsonNumberText reports whether s is the text of a number.
func jsonNumberText(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}

// Push and pull while a run holds data/ say so, and print no count of
// files they did not send.
func TestPushPullWhileLocked(t *testing.T) {
	root := toyProject(t, "blocks:\n  count: 12\n  rounds: 10\n")
	release, err := store.Lock(root, false)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	remote := "file://" + t.TempDir()
	for _, cmd := range []string{"push", "pull"} {
		code, out, errs := toyCensus(t, root, cmd, remote)
		if code != 1 || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "census: data/.lock is held by another census run (pid ") {
			t.Errorf("%s while locked: exit %d, stdout %q, stderr %q", cmd, code, out, errs)
		}
	}
}

// TestPullRefusesARecordTheLockDoesNotName: a run whose artifact was
// replaced, with its manifest entry, is pushed; census pull in another
// root, whose configuration c.yaml has the honest run's lock beside it
// (c.lock.json), refuses the record on one line naming the stage, restores
// nothing and exits 1 (issue 50, probe 4).
func TestPullRefusesARecordTheLockDoesNotName(t *testing.T) {
	root := project(t)
	if code, _, errs := census(t, root, "run"); code != 0 {
		t.Fatal(errs)
	}
	lock := filepath.Join(root, "c.lock.json")
	if code, _, errs := census(t, root, "lock", "-o", lock); code != 0 {
		t.Fatal(errs)
	}
	m, err := store.ReadManifest(root)
	if err != nil || len(m.Artifacts) != 1 {
		t.Fatalf("manifest %+v, %v", m, err)
	}
	// The forger's copy: other bytes under the same fingerprint.
	other := project(t)
	if code, _, errs := census(t, other, "run", "--set", "gen.rows=8"); code != 0 {
		t.Fatal(errs)
	}
	forged, _ := os.ReadFile(filepath.Join(other, m.Artifacts[0].Path))
	os.WriteFile(filepath.Join(root, m.Artifacts[0].Path), forged, 0o644)
	m.Artifacts[0].SHA256, m.Artifacts[0].Size, _ = files.Hash(filepath.Join(root, m.Artifacts[0].Path))
	if err := m.Write(root); err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(filepath.Join(root, store.CacheDir))
	remote := "file://" + t.TempDir()
	if code, out, errs := census(t, root, "push", remote); code != 0 {
		t.Fatalf("push: exit %d\n%s%s", code, out, errs)
	}

	honest := project(t)
	data, _ := os.ReadFile(lock)
	os.WriteFile(filepath.Join(honest, "c.lock.json"), data, 0o644)
	code, out, errs := census(t, honest, "pull", remote)
	if code != 1 || !strings.Contains(out, "restored 0 stages") || !strings.Contains(errs, "census: stage gen, fingerprint ") ||
		!strings.Contains(errs, "refused: artifact "+m.Artifacts[0].Path) || !strings.Contains(errs, "refused 1 run record of the remote") {
		t.Fatalf("pull of a forged record with the lock: exit %d\n%s%s", code, out, errs)
	}
	if _, err := os.Stat(filepath.Join(honest, m.Artifacts[0].Path)); err == nil {
		t.Error("the forged artifact reached data/")
	}
}
