package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestStatusAndVerifyTakeTargets(t *testing.T) {
	root := project(t)
	if code, _, errs := census(t, root, "run"); code != 0 {
		t.Fatal(errs)
	}
	if code, out, _ := census(t, root, "status", "gen"); code != 0 || out != "gen  fresh\n" {
		t.Errorf("status gen: exit %d, %q", code, out)
	}
	if code, _, errs := census(t, root, "status", "nosuch"); code != 2 || !strings.Contains(errs, `unknown stage "nosuch"`) || strings.Count(errs, "\n") != 1 {
		t.Errorf("status nosuch: exit %d, %q", code, errs)
	}
	if code, out, _ := census(t, root, "verify", "gen"); code != 0 || !strings.Contains(out, "1 artifacts match") {
		t.Errorf("verify gen: exit %d, %q", code, out)
	}
	if code, _, errs := census(t, root, "verify", "nosuch"); code != 2 || !strings.Contains(errs, `unknown artifact "nosuch"`) {
		t.Errorf("verify nosuch: exit %d, %q", code, errs)
	}
}

func TestLockAndVerifyLock(t *testing.T) {
	root := project(t)
	lock := filepath.Join(root, "run.lock.json")
	// A lock records a finished run only.
	if code, _, errs := census(t, root, "lock", "-o", lock); code != 1 || !strings.Contains(errs, "stage gen is stale") || strings.Count(errs, "\n") != 1 {
		t.Fatalf("lock before a run: exit %d, %q", code, errs)
	}
	if _, err := os.Stat(lock); err == nil {
		t.Fatal("a refused lock left a file")
	}
	if code, _, errs := census(t, root, "run"); code != 0 {
		t.Fatal(errs)
	}
	if code, _, errs := census(t, root, "lock", "-o", lock); code != 0 {
		t.Fatalf("lock: exit %d, %q", code, errs)
	}
	// Standard output gives the same bytes.
	code, out, _ := census(t, root, "lock")
	written, _ := os.ReadFile(lock)
	if code != 0 || out != string(written) || !strings.Contains(out, `"path": "data/gen.parquet"`) {
		t.Fatalf("lock to stdout: exit %d, %q, file %q", code, out, written)
	}
	if code, out, _ := census(t, root, "verify", "--lock", lock); code != 0 || !strings.Contains(out, "1 artifacts and 1 stages match") {
		t.Errorf("verify --lock after the run: exit %d, %q", code, out)
	}
	// Another configuration gives other bytes and another fingerprint.
	if code, _, errs := census(t, root, "run", "--set", "gen.rows=9"); code != 0 {
		t.Fatal(errs)
	}
	code, out, errs := census(t, root, "verify", "--lock", lock)
	if code != 1 || !strings.Contains(out, "DIFFERS  data/gen.parquet: SHA-256 ") || !strings.Contains(out, "DIFFERS  stage gen: fingerprint ") ||
		!strings.Contains(errs, "2 differences") {
		t.Errorf("verify --lock after another run: exit %d, %q, %q", code, out, errs)
	}
	// A file that is not a lock is a one-line error.
	os.WriteFile(lock, []byte(`{"nonsense": 1}`), 0o644)
	if code, _, errs := census(t, root, "verify", "--lock", lock); code == 0 || !strings.Contains(errs, "is not a census lock") || strings.Count(errs, "\n") != 1 {
		t.Errorf("verify --lock with a bad file: exit %d, %q", code, errs)
	}
}

func TestCiteNamesYearCodeAndRepository(t *testing.T) {
	root := project(t)
	if code, _, errs := census(t, root, "run"); code != 0 {
		t.Fatal(errs)
	}
	code, out, _ := census(t, root, "cite", "gen")
	if code != 0 || !strings.Contains(out, "year         = {") || !strings.Contains(out, "commit is unknown") || strings.Contains(out, "url") {
		t.Fatalf("cite outside git: exit %d\n%s", code, out)
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	for _, args := range [][]string{{"init", "-q"}, {"remote", "add", "origin", "https://example.org/census.git"}} {
		if out, err := exec.Command("git", append([]string{"-C", root}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	if code, out, _ := census(t, root, "cite", "gen"); code != 0 || !strings.Contains(out, "url          = {https://example.org/census.git},") {
		t.Fatalf("cite in a git checkout with a remote: exit %d\n%s", code, out)
	}
}
