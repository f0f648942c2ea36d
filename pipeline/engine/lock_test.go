package engine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sudoku-census/sudoku-census/pipeline/store"
)

// The run lock is held by the process, not by the file's existence:
// deleting data/.lock (or replacing it) while a run holds it does not let
// a second run in.
func TestLockSurvivesDeletingItsFile(t *testing.T) {
	for _, damage := range []string{"delete", "replace"} {
		t.Run(damage, func(t *testing.T) {
			f := newFixture(t, "")
			release, err := store.Lock(f.root, false)
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(f.root, store.LockPath)
			os.Remove(path)
			if damage == "replace" {
				os.WriteFile(path, []byte("12345\n"), 0o644)
			}
			if _, err := f.engine().Run(context.Background(), nil, RunOptions{}); err == nil || !strings.Contains(err.Error(), "is held by another census run") {
				t.Fatalf("second run after the lock file was %sd: %v", damage, err)
			}
			if _, err := f.engine().GC(false, 0); err == nil {
				t.Fatalf("gc after the lock file was %sd: no error", damage)
			}
			release()
			if ran := f.run(RunOptions{}, nil); len(ran) != 3 {
				t.Fatalf("after release ran %v", ran)
			}
			if _, err := os.Stat(path); err != nil {
				t.Errorf("lock file after a run: %v", err)
			}
		})
	}
}
