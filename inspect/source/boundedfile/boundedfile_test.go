package boundedfile

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func writeFile(t testing.TB, n int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, make([]byte, n), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// allocated is the bytes Read allocates for one file.
func allocated(t *testing.T, path string, limit int64) uint64 {
	t.Helper()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := Read(path, limit)
	runtime.ReadMemStats(&after)
	var tooLarge *TooLargeError
	if err != nil && !errors.As(err, &tooLarge) {
		t.Fatal(err)
	}
	return after.TotalAlloc - before.TotalAlloc
}

// Peak memory follows the bound: reading a file at the limit, or one far
// past it, allocates about the limit once, not the doubling io.ReadAll does
// (about twice the limit).
func TestReadAllocatesAboutTheBound(t *testing.T) {
	const limit = 4 << 20
	for name, size := range map[string]int{"at the limit": limit, "past the limit": 4 * limit, "small": 100} {
		got := allocated(t, writeFile(t, size), limit)
		want := uint64(min(size, limit)) * 5 / 4
		if got > want+64<<10 {
			t.Errorf("%s (%d bytes): %d bytes allocated, want at most %d", name, size, got, want)
		}
	}
}

func TestReadContentAndRefusals(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, []byte("hunter2\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if b, err := Read(path, 8); err != nil || string(b) != "hunter2\n" {
		t.Errorf("at the limit: %q, %v", b, err)
	}
	var tooLarge *TooLargeError
	if _, err := Read(path, 7); !errors.As(err, &tooLarge) {
		t.Errorf("past the limit: %v", err)
	}
	if _, err := Read(t.TempDir(), 8); !errors.Is(err, ErrNotRegular) {
		t.Errorf("a directory: %v", err)
	}
}

// A file whose stat size is 0 but has content (as /proc files do) is read
// whole: the buffer grows past the stat size, never past limit+1.
func TestReadGrowsPastStatSize(t *testing.T) {
	const proc = "/proc/self/status"
	if _, err := os.Stat(proc); err != nil {
		t.Skip("no /proc here")
	}
	b, err := Read(proc, 1<<20)
	if err != nil || len(b) < 100 {
		t.Fatalf("%d bytes, %v", len(b), err)
	}
	var tooLarge *TooLargeError
	if _, err := Read(proc, 10); !errors.As(err, &tooLarge) {
		t.Errorf("past the limit: %v", err)
	}
}

func BenchmarkRead(b *testing.B) {
	const limit = 4 << 20
	path := writeFile(b, limit)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := Read(path, limit); err != nil {
			b.Fatal(err)
		}
	}
}
