package stages

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sudoku-census/sudoku-census/stages/shared/pairunits"
)

// TestNoReadBlocksOnAFIFO gives a FIFO (with no writer: a read would wait
// forever) where census reads a file (issue 50, probe 7): as --config, as
// count's grid, as a lock for diff and verify --lock, and as a committed
// bundle. Each command ends at once, non-zero, with one line saying the
// file is not a regular one.
func TestNoReadBlocksOnAFIFO(t *testing.T) {
	root := t.TempDir()
	fifo := filepath.Join(root, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	bundle := filepath.Join(root, pairunits.Bundle.Path())
	if err := os.MkdirAll(filepath.Dir(bundle), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(bundle, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"--config", fifo, "status"},
		{"count", fifo},
		{"diff", fifo, "data"},
		{"verify", "--lock", fifo},
		{"verify", "--recompute", "1", "--bundle", "shapes-2x6"},
	} {
		done := make(chan struct{})
		var code int
		var out, errs string
		go func() {
			defer close(done)
			code, out, errs = censusCLI(t, root, args...)
		}()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Fatalf("census %s: still running after 20 s (blocked on the FIFO)", strings.Join(args, " "))
		}
		if code == 0 || !strings.Contains(out+errs, "not a regular file") {
			t.Errorf("census %s: exit %d, stdout %q, stderr %q; want non-zero and \"not a regular file\"", strings.Join(args, " "), code, out, errs)
		}
	}
	// status hashes the bundle (stale upstream stages hide its reason):
	// it must end too.
	done := make(chan struct{})
	go func() { defer close(done); censusCLI(t, root, "status") }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("census status: still running after 20 s (blocked on the FIFO bundle)")
	}
}
