package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// LockPath is the lock file that keeps two runs off the same data/.
const LockPath = "data/.lock"

// ErrLocked is wrapped by Lock's error when another process holds the
// lock, so that a command can say so instead of reporting what it did not
// do.
var ErrLocked = errors.New(LockPath + " is held by another census run")

// Lock takes an exclusive flock on the data/ directory itself and on
// data/.lock, and writes our pid into the file. The lock belongs to the
// process's open descriptors, not to the file's existence: deleting
// data/.lock during a run does not let a second run in, since data/ stays
// locked (on a file system that cannot flock a directory, NFS, the file's
// lock alone is taken). The kernel releases both when the process dies, so
// a killed run never leaves data/ locked. With wait false, a held lock is
// an error naming the holder's pid.
func Lock(root string, wait bool) (release func(), err error) {
	path := filepath.Join(root, LockPath)
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	how := syscall.LOCK_EX
	if !wait {
		how |= syscall.LOCK_NB
	}
	held := func() error {
		holder, _ := os.ReadFile(path)
		pid := strings.TrimSpace(string(holder))
		if _, convErr := strconv.Atoi(pid); convErr != nil {
			pid = "unknown"
		}
		return fmt.Errorf("%w (pid %s); wait for it to finish or pass --wait", ErrLocked, pid)
	}
	d, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(d.Fd()), how); err != nil {
		d.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, held()
		}
		d = nil // no directory locks here: the file's lock alone
	}
	unlockDir := func() {
		if d != nil {
			syscall.Flock(int(d.Fd()), syscall.LOCK_UN)
			d.Close()
		}
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		unlockDir()
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), how); err != nil {
		f.Close()
		unlockDir()
		return nil, held()
	}
	f.Truncate(0)
	f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	return func() {
		f.Truncate(0)
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
		unlockDir()
	}, nil
}
