package contexts

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// use-context and set-context write through a symbolic link, as kubectl
// does: the file it points to changes and the link stays a link.
func TestWritesGoThroughSymlinks(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "dotfiles", "connectscope.yaml")
	if err := os.MkdirAll(filepath.Dir(real), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(real, []byte("contexts:\n  a: {group: ga}\n  b: {group: gb}\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "config.yaml")
	if err := os.Symlink("dotfiles/connectscope.yaml", link); err != nil {
		t.Fatal(err)
	}
	f, err := Load(link)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.UseContext("b"); err != nil {
		t.Fatal(err)
	}
	if err := f.SetContext("c", []Setting{{Key: "group", Value: "gc"}}); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced by a file: %v %v", fi.Mode(), err)
	}
	g, err := Load(real)
	if err != nil {
		t.Fatal(err)
	}
	if g.CurrentContext != "b" || g.Contexts["c"] == nil || g.Contexts["c"].Group != "gc" {
		t.Errorf("the linked file did not get the change: %+v", g)
	}
	if fi, _ := os.Stat(real); fi.Mode().Perm() != 0o640 {
		t.Errorf("the linked file's mode changed to %v", fi.Mode().Perm())
	}
	// A link to a file not written yet: set-context creates the file it names.
	dangling := filepath.Join(dir, "new.yaml")
	if err := os.Symlink(filepath.Join(dir, "later.yaml"), dangling); err != nil {
		t.Fatal(err)
	}
	n, err := Load(dangling)
	if err != nil {
		t.Fatal(err)
	}
	if err := n.SetContext("x", []Setting{{Key: "group", Value: "gx"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "later.yaml")); err != nil {
		t.Errorf("the file the link names was not written: %v", err)
	}
}

// A password file is read only when it is a regular file of a few KiB: a
// FIFO would wait for a writer forever, /dev/zero would never end.
func TestPasswordFileIsBounded(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pw.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big")
	if err := os.WriteFile(big, make([]byte, MaxPasswordFile+1), 0o600); err != nil {
		t.Fatal(err)
	}
	good := filepath.Join(dir, "pw")
	if err := os.WriteFile(good, []byte("s3cret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, want string }{
		{fifo, "not a regular file (a FIFO)"},
		{"/dev/zero", "not a regular file (a character device)"},
		{dir, "not a regular file (a directory)"},
		{big, "larger than 8 KiB"},
	} {
		done := make(chan error, 1)
		go func() { _, err := (&Context{SASLPasswordFile: tc.path}).Password("p"); done <- err }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s: %v, want %q", tc.path, err, tc.want)
			}
		case <-time.After(10 * time.Second): // a correctness bound: it must not wait at all
			t.Fatalf("%s: reading the password file does not return", tc.path)
		}
	}
	if pw, err := (&Context{SASLPasswordFile: good}).Password("p"); pw != "s3cret" || err != nil {
		t.Errorf("a plain password file: %q %v", pw, err)
	}
}

// A password pasted where the variable's name belongs is not echoed.
func TestPasswordEnvNameThatLooksLikeASecretIsNotShown(t *testing.T) {
	for _, pasted := range []string{"hunter2", "Tr0ub4dor&3", "p@ss word", "xK9-qL2"} {
		_, err := (&Context{SASLPasswordEnv: pasted}).Password("prod")
		if err == nil || strings.Contains(err.Error(), pasted) || !strings.Contains(err.Error(), "was the password pasted in its place") {
			t.Errorf("sasl-password-env %q: %v", pasted, err)
		}
	}
	p := write(t, "contexts:\n  prod: {sasl-mechanism: PLAIN, sasl-user: u, sasl-password-env: hunter2}\n")
	f, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if v := fmt.Sprintf("%s %+v", *f.View().Contexts[0].SASLPasswordEnv, f.View().Tables()); strings.Contains(v, "hunter2") || !strings.Contains(v, "[redacted]") {
		t.Errorf("config views show the pasted password: %s", v)
	}
	_, err = (&Context{SASLPasswordEnv: "CONNECTSCOPE_UNSET_PW"}).Password("prod")
	if err == nil || !strings.Contains(err.Error(), "names CONNECTSCOPE_UNSET_PW, which is not set") {
		t.Errorf("a conventional name is shown: %v", err)
	}
}

// The config file is read only when it is a regular file within
// MaxConfigFile, and many contexts decode in linear time.
func TestConfigFileIsBounded(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "config.yaml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(fifo); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a FIFO config file: %v", err)
	}
	big := filepath.Join(dir, "big.yaml")
	var b strings.Builder
	b.WriteString("contexts:\n")
	for i := 0; b.Len() <= MaxConfigFile; i++ {
		fmt.Fprintf(&b, "  c%07d: {group: g}\n", i)
	}
	if err := os.WriteFile(big, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(big); err == nil || !strings.Contains(err.Error(), "larger than 4 MiB") {
		t.Errorf("a config file past the bound: %v", err)
	}
	dup := filepath.Join(dir, "dup.yaml")
	if err := os.WriteFile(dup, []byte("contexts:\n  a: {}\n  b: {}\n  a: {group: x}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(dup); err == nil || !strings.Contains(err.Error(), `dup.yaml:4: mapping key "a" already defined at line 2`) {
		t.Errorf("a context twice: %v", err)
	}
}

// BenchmarkLoadManyContexts reads a config file of 100,000 contexts
// (BENCHMARKS.md, "Config file").
func BenchmarkLoadManyContexts(b *testing.B) {
	var doc strings.Builder
	doc.WriteString("contexts:\n")
	for i := 0; i < 100000; i++ {
		fmt.Fprintf(&doc, "  c%06d: {group: g}\n", i)
	}
	path := filepath.Join(b.TempDir(), "config.yaml")
	if err := os.WriteFile(path, []byte(doc.String()), 0o600); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		if _, err := Load(path); err != nil {
			b.Fatal(err)
		}
	}
}

// A context name set-context would write with a control character, a line
// break or an invisible mark is refused, and the file left as it was: it
// could not be typed back, and would print as another name.
func TestSetContextRefusesUnprintableNames(t *testing.T) {
	p := filepath.Join(t.TempDir(), "config.yaml")
	f := &File{Path: p}
	for _, name := range []string{"\x1b]0;title\x07", "a\nb", "prod\u202e", "x\u2028y", "tab\there", "del\x7f"} {
		err := f.SetContext(name, []Setting{{Key: "group", Value: "g"}})
		if err == nil || !strings.Contains(err.Error(), "printable characters") {
			t.Errorf("%q: %v", name, err)
		}
	}
	if _, err := os.Stat(p); !os.IsNotExist(err) {
		t.Errorf("a refused name wrote the file: %v", err)
	}
	if err := f.SetContext("prod-eu.1 ünïcode", []Setting{{Key: "group", Value: "g"}}); err != nil {
		t.Errorf("a printable name refused: %v", err)
	}
}
