//go:build !unix

package boundedfile

import "os"

// openNonBlocking is os.Open where FIFOs do not block an open (Windows).
func openNonBlocking(path string) (*os.File, error) { return os.Open(path) }
