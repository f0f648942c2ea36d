package pipeline

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// LockPath is the lock file that keeps two runs off the same data/.
const LockPath = "data/.lock"

// lock takes an exclusive flock on data/.lock and writes our pid into it.
// The kernel releases the lock when the process dies, so a killed run never
// leaves data/ locked. With wait false, a held lock is an error naming the
// holder's pid.
func lock(root string, wait bool) (release func(), err error) {
	path := filepath.Join(root, LockPath)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	how := syscall.LOCK_EX
	if !wait {
		how |= syscall.LOCK_NB
	}
	if err := syscall.Flock(int(f.Fd()), how); err != nil {
		holder, _ := os.ReadFile(path)
		f.Close()
		pid := strings.TrimSpace(string(holder))
		if _, convErr := strconv.Atoi(pid); convErr != nil {
			pid = "unknown"
		}
		return nil, fmt.Errorf("%s is held by another census run (pid %s); wait for it to finish or pass --wait", LockPath, pid)
	}
	f.Truncate(0)
	f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	return func() {
		f.Truncate(0)
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
