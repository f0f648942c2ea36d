package remote

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sudoku-census/sudoku-census/pipeline/internal/s3test"
)

// TestAbandonedWriteLeavesNothing: an upload whose bytes do not hash to
// what they should, or whose context has ended, leaves no key behind, on
// a file remote and on an S3-compatible server; a whole one is listed
// with its size and read back.
func TestAbandonedWriteLeavesNothing(t *testing.T) {
	ctx := context.Background()
	local := filepath.Join(t.TempDir(), "obj")
	if err := os.WriteFile(local, []byte("twelve bytes"), 0o644); err != nil {
		t.Fatal(err)
	}
	const sum = "c1ec89cbb8d1c3a04ae8b2a1c43e1b0fc1f3ab4b2b8a4e7a02f0a9ad1b1c2a2b" // not the file's
	for kind, url := range map[string]string{
		"file": "file://" + t.TempDir(),
		"s3":   s3test.Start(t, "census").URL("team/cache"),
	} {
		t.Run(kind, func(t *testing.T) {
			r, err := Open(ctx, url)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			if _, err := r.upload(ctx, "objects/bad", local, sum); err == nil || !strings.Contains(err.Error(), "changed while it was sent") {
				t.Errorf("upload with a wrong hash: %v", err)
			}
			cancelled, cancel := context.WithCancel(ctx)
			cancel()
			if _, err := r.upload(cancelled, "objects/cancelled", local, ""); err == nil {
				t.Error("an upload with an ended context succeeded")
			}
			if n, err := r.upload(ctx, "objects/good", local, ""); err != nil || n != 12 {
				t.Fatalf("upload: %d, %v", n, err)
			}
			keys, err := r.Keys(ctx)
			if err != nil || len(keys) != 1 || keys["objects/good"] != 12 {
				t.Errorf("keys after one good and two abandoned uploads: %v, %v", keys, err)
			}
			if data, err := r.read(ctx, "objects/good", 100); err != nil || string(data) != "twelve bytes" {
				t.Errorf("read: %q, %v", data, err)
			}
			if _, err := r.read(ctx, "objects/absent", 100); err == nil {
				t.Error("reading an absent key succeeded")
			}
			if _, err := r.read(ctx, "objects/good", 5); err == nil || !strings.Contains(err.Error(), "larger than 5 bytes") {
				t.Errorf("read beyond its limit: %v", err)
			}
		})
	}
}

// TestS3Options: every query parameter is checked, one line naming it.
func TestS3Options(t *testing.T) {
	for _, raw := range []string{
		"s3://b/p?colour=blue", "s3://b/p?use_path_style=yes", "s3://b/p?disable_https=1",
		"s3://b/p?region=a&region=b", "s3://b/p?endpoint=http://h:9000/path",
	} {
		_, err := Open(context.Background(), raw)
		if err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), raw) {
			t.Errorf("%q: err = %v, want one line naming the remote", raw, err)
		}
	}
	if _, err := Open(context.Background(), "s3://b/p?region=eu-west-1&endpoint=http://127.0.0.1:9000&use_path_style=true"); err != nil {
		t.Errorf("a good s3 URL: %v", err)
	}
}
