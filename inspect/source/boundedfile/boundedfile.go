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
// more than limit bytes. The buffer is sized by the file's stat size
// (capped at limit+1) so that peak memory follows the file, not twice the
// bound as io.ReadAll's doubling gives; a file whose size stat does not
// tell (/proc) or that grows while read has its buffer grown, never past
// limit+1.
func Read(path string, limit int64) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size := int64(0)
	if st, err := f.Stat(); err == nil {
		size = st.Size()
	}
	b, err := readAtMost(f, min(max(size, 0), limit)+1, limit+1)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%s: %w", path, &TooLargeError{Limit: limit})
	}
	return b, nil
}

// readAtMost reads r to its end or to max bytes, starting with a buffer of
// first bytes and doubling it (up to max) only when it fills.
func readAtMost(r io.Reader, first, max int64) ([]byte, error) {
	buf := make([]byte, first)
	n := 0
	for {
		m, err := r.Read(buf[n:])
		n += m
		if err == io.EOF {
			return buf[:n], nil
		}
		if err != nil {
			return nil, err
		}
		if n == len(buf) {
			if int64(n) >= max {
				return buf, nil
			}
			grown := make([]byte, min(2*int64(n), max))
			copy(grown, buf)
			buf = grown
		}
	}
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
