// Package files holds the file operations every package of the pipeline
// shares: hashing a file, reading one of bounded size, and replacing or
// copying one atomically, so that a reader sees either the old bytes or
// the new, whole. It also says which strings are well-formed digests and
// project paths, the checks every reader of a manifest, lock or remote
// applies before it trusts one.
package files

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"syscall"
)

// OpenRegular opens a regular file for reading, and refuses anything
// else (a FIFO, a device, a socket, a directory) with an error naming it,
// without blocking: the open does not wait for a FIFO's writer.
func OpenRegular(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, notRegular(path, st.Mode())
	}
	return f, nil
}

// CheckRegular returns an error unless path names a regular file (after
// symbolic links); a missing file gives the error os.Stat gives.
func CheckRegular(path string) error {
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() {
		return notRegular(path, st.Mode())
	}
	return nil
}

// notRegular is the error for path, of mode m, that is not a regular
// file: an *os.PathError, as the open's own errors are.
func notRegular(path string, m os.FileMode) error {
	if m.IsDir() {
		return &os.PathError{Op: "read", Path: path, Err: syscall.EISDIR}
	}
	return &os.PathError{Op: "read", Path: path, Err: fmt.Errorf("not a regular file (%s)", modeName(m))}
}

// modeName says what kind of file a mode is.
func modeName(m os.FileMode) string {
	switch {
	case m&os.ModeNamedPipe != 0:
		return "a FIFO"
	case m&os.ModeCharDevice != 0:
		return "a character device"
	case m&os.ModeDevice != 0:
		return "a device"
	case m&os.ModeSocket != 0:
		return "a socket"
	}
	return "mode " + m.String()
}

// Hash returns the hex SHA-256 and size of a regular file.
func Hash(path string) (string, int64, error) {
	f, err := OpenRegular(path)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return "", 0, err
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}

// ReadLimited reads a whole regular file of at most limit bytes.
func ReadLimited(path string, limit int64) ([]byte, error) {
	f, err := OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("larger than %d bytes", limit)
	}
	return data, nil
}

// WriteAtomic writes data to a temporary file beside path, syncs it and
// renames it over path, so that path is always either old or new, whole.
func WriteAtomic(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Chmod(f.Name(), 0o644); err != nil {
		return err
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return err
	}
	SyncDir(filepath.Dir(path))
	return nil
}

// SyncDir syncs a directory, so that a rename into it survives a crash;
// a failure is ignored (not every file system syncs directories).
func SyncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// Copy copies src to dst, atomically: dst is whole or absent.
func Copy(src, dst string) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	tmp := dst + ".tmp-copy"
	out, err := os.Create(tmp)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		os.Remove(tmp)
		return err
	}
	if err := out.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, dst); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// IsHexDigest reports whether s is a SHA-256 in lowercase hex.
func IsHexDigest(s string) bool {
	if len(s) != 2*sha256.Size {
		return false
	}
	for _, c := range []byte(s) {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// SafeRelPath reports whether p is a clean slash-separated path below the
// project root.
func SafeRelPath(p string) bool {
	return p != "" && filepath.IsLocal(filepath.FromSlash(p)) && path.Clean(p) == p
}
