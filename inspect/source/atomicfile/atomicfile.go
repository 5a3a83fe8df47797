// Package atomicfile writes a file whole or not at all: into a temporary
// file in the same directory, renamed over the name once complete. A reader
// sees the old content or the new, never half; a failed write leaves the
// old file; two writers at once leave one of their files whole.
package atomicfile

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Write writes path through write; the file gets permissions perm exactly
// (no umask). The error names path.
// A symbolic link at path is replaced, not followed; callers that must
// write through a link resolve it first.
func Write(path string, perm fs.FileMode, write func(io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	defer os.Remove(tmp.Name()) // after the rename there is nothing left to remove
	if err := write(tmp); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := tmp.Chmod(perm); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}
