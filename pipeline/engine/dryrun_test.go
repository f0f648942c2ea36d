package engine

import (
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// tree lists every file below root with its size and modification time.
func tree(t *testing.T, root string) string {
	t.Helper()
	var b strings.Builder
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%s %d %d %v\n", path, info.Size(), info.ModTime().UnixNano(), info.Mode())
		return nil
	})
	return b.String()
}

// planned returns the stages a dry run would run and restore.
func (f *fixture) planned(set []string, ro RunOptions, targets ...string) (run, restore []string) {
	f.t.Helper()
	plan, err := f.engine(set...).DryRun(targets, ro)
	if err != nil {
		f.t.Fatal(err)
	}
	for _, p := range plan {
		switch p.Action {
		case "run":
			run = append(run, p.Stage)
		case "restore":
			restore = append(restore, p.Stage)
		}
	}
	return run, restore
}

func TestDryRunWritesNothingAndMatchesTheRun(t *testing.T) {
	f, _ := countingFixture(t)
	check := func(set []string, ro RunOptions, wantRun, wantRestore []string, targets ...string) {
		t.Helper()
		before := tree(t, f.root)
		run, restore := f.planned(set, ro, targets...)
		if after := tree(t, f.root); after != before {
			t.Fatalf("the dry run changed the tree:\n%s\n---\n%s", before, after)
		}
		if !equal(run, wantRun) || !equal(restore, wantRestore) {
			t.Fatalf("dry run: run %v restore %v; want %v, %v", run, restore, wantRun, wantRestore)
		}
		res, err := f.engine(set...).Run(context.Background(), targets, ro)
		if err != nil {
			t.Fatal(err)
		}
		var ran, restored []string
		for _, r := range res {
			if r.Ran {
				ran = append(ran, r.Stage)
			}
			if r.Restored {
				restored = append(restored, r.Stage)
			}
		}
		if !equal(ran, run) || !equal(restored, restore) {
			t.Fatalf("the run ran %v and restored %v; the dry run said %v, %v", ran, restored, run, restore)
		}
	}
	all := []string{"numbers", "squares", "total"}
	check(nil, RunOptions{}, all, nil) // never run
	check(nil, RunOptions{}, nil, nil) // all fresh
	check([]string{"squares.offset=5"}, RunOptions{}, []string{"squares", "total"}, nil)
	check(nil, RunOptions{}, nil, []string{"squares", "total"}) // back: from the cache
	check(nil, RunOptions{Force: []string{"squares"}}, []string{"squares"}, nil, "squares")
	check(nil, RunOptions{Force: []string{"numbers"}}, all, nil)
	check([]string{"squares.offset=7"}, RunOptions{}, []string{"squares"}, nil, "squares") // a target only
	// The reason and the last run's time are reported.
	plan, err := f.engine("numbers.count=5").DryRun(nil, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if plan[0].Action != "run" || !strings.Contains(plan[0].Reason, "config numbers.count changed (100 -> 5)") || plan[0].Expected <= 0 {
		t.Fatalf("plan %+v", plan[0])
	}
}
