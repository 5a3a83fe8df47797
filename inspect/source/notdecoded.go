package source

import (
	"bytes"
	"errors"
	"io"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/setting"
	"github.com/connectscope/connectscope/inspect/source/boundedfile"
)

// NothingDecoded refuses a file of which no entry became a record and that
// holds no group: a file of another kind (a README given as the input file),
// not a cluster without connectors. Its one line says what the file looks
// like, the setting it may be named as the caller names it.
func NothingDecoded(path string, ds *inspect.Dataset) error {
	if len(ds.Records) > 0 || ds.Group != nil || len(ds.Problems) == 0 {
		return nil
	}
	first := ds.Problems[0].Reason
	return setting.Errorf("%s is neither a snapshot nor a kcat -J dump: none of its %d entries decodes (first: %s); it looks like %s; give a file written by `connectscope snapshot` or `kcat -C -J`",
		path, len(ds.Problems), first, looksLike(path))
}

// looksLike names the kind of a file from its first bytes.
func looksLike(path string) setting.Text {
	if path == "-" {
		return setting.Textf("something else (standard input)")
	}
	// A FIFO was read once already: opening it again would wait for a
	// writer that is gone, so only a regular file is looked into.
	f, err := boundedfile.Open(path)
	if errors.Is(err, boundedfile.ErrNotRegular) {
		return setting.Textf("something else (not a regular file)")
	}
	if err != nil {
		return setting.Textf("something unreadable")
	}
	defer f.Close()
	head := make([]byte, 4096)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	trimmed := bytes.TrimLeft(head, " \t\r\n\ufeff")
	switch {
	case bytes.IndexByte(head, 0) >= 0 || !validText(head):
		return setting.Textf("binary data")
	case len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '['):
		return setting.Textf("JSON, but not Connect's records")
	case propertiesLine.Match(firstContentLine(trimmed)):
		return setting.Textf("a .properties file (a worker config? give it with %v)", setting.WorkerConfig)
	case bytes.HasPrefix(trimmed, []byte("#")) || bytes.Contains(head, []byte("\n## ")):
		return setting.Textf("text (Markdown?)")
	}
	line, _, _ := strings.Cut(string(trimmed), "\n")
	if len(line) > 40 {
		line = line[:40] + "…"
	}
	return setting.Textf("text (starting %q)", line)
}

// propertiesLine is a Java properties entry: key=value or key: value.
var propertiesLine = regexp.MustCompile(`^[A-Za-z0-9_.-]+\s*[=:]`)

// firstContentLine skips blank lines and #/! comments, as .properties does.
func firstContentLine(b []byte) []byte {
	for _, l := range bytes.Split(b, []byte("\n")) {
		l = bytes.TrimSpace(l)
		if len(l) > 0 && l[0] != '#' && l[0] != '!' {
			return l
		}
	}
	return nil
}

// validText is UTF-8, allowing the last rune to be cut by the read.
func validText(b []byte) bool {
	for i := 0; i < utf8.UTFMax && len(b) > 0; i++ {
		if utf8.Valid(b) {
			return true
		}
		b = b[:len(b)-1]
	}
	return utf8.Valid(b)
}
