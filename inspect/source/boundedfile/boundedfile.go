// Package boundedfile reads small files that must never block or grow
// memory without bound: a password file, the named-cluster config file a
// shell's Tab reads, a --from file completion looks into. A FIFO, a device
// (/dev/zero) or a socket is refused before a byte is read, and a file past
// the caller's limit is refused after reading at most limit+1 bytes.
package boundedfile

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// ErrNotRegular is a path that is not a regular file (after symbolic links).
var ErrNotRegular = errors.New("not a regular file")

// TooLargeError is a file past the limit.
type TooLargeError struct{ Limit int64 }

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("larger than %s", Size(e.Limit))
}

// Open opens path for reading only if it is a regular file. It never waits
// for a FIFO's writer: the file is opened without blocking (where the
// system has that) and checked on the open descriptor, so a file swapped
// for a FIFO between a check and the open is refused too.
func Open(path string) (*os.File, error) {
	if st, err := os.Stat(path); err != nil {
		return nil, err
	} else if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w (%s)", path, ErrNotRegular, kind(st.Mode()))
	}
	f, err := openNonBlocking(path)
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
		return nil, fmt.Errorf("%s: %w (%s)", path, ErrNotRegular, kind(st.Mode()))
	}
	return f, nil
}

// Read returns the content of the regular file at path, refusing one of
// more than limit bytes.
func Read(path string, limit int64) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%s: %w", path, &TooLargeError{Limit: limit})
	}
	return b, nil
}

func kind(m os.FileMode) string {
	switch {
	case m&os.ModeNamedPipe != 0:
		return "a FIFO"
	case m&os.ModeCharDevice != 0:
		return "a character device"
	case m&os.ModeDevice != 0:
		return "a device"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m.IsDir():
		return "a directory"
	}
	return "not a plain file"
}

// Size says a byte count as people read it: 4 KiB, 64 MiB.
func Size(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
