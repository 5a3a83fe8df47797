//go:build e2e

package realbroker

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// loggedRequest is one "Completed request" line of the broker's
// kafka.request.logger at DEBUG.
type loggedRequest struct {
	Key      int16  `json:"requestApiKey"`
	Version  int16  `json:"requestApiVersion"`
	ClientID string `json:"clientId"`
	// Principal and Listener follow the request and response in the line.
	Principal, Listener string
}

func (r loggedRequest) name() string {
	if n := kmsg.NameForKey(r.Key); n != "" {
		return n
	}
	return fmt.Sprintf("key %d", r.Key)
}

// requestLog reads the broker's log from a mark on.
type requestLog struct{ path string }

func newRequestLog(dir string) requestLog { return requestLog{path: filepath.Join(dir, "broker.log")} }

// mark is the log's current size: requests logged later come after it.
func (l requestLog) mark(t *testing.T) int64 {
	t.Helper()
	fi, err := os.Stat(l.path)
	if err != nil {
		t.Fatalf("the broker's request log: %v", err)
	}
	return fi.Size()
}

// since returns the requests logged after mark.
func (l requestLog) since(t *testing.T, mark int64) []loggedRequest {
	t.Helper()
	f, err := os.Open(l.path)
	if err != nil {
		t.Fatalf("the broker's request log: %v", err)
	}
	defer f.Close()
	if _, err := f.Seek(mark, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	var out []loggedRequest
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		if r, ok := parseRequestLine(sc.Text()); ok {
			out = append(out, r)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("reading the broker's request log: %v", err)
	}
	return out
}

// parseRequestLine reads the request header of a line such as
// `... Completed request:{"isForwarded":false,"requestHeader":{"requestApiKey":3,...},...}`.
func parseRequestLine(line string) (loggedRequest, bool) {
	_, rest, ok := strings.Cut(line, "Completed request:")
	if !ok {
		return loggedRequest{}, false
	}
	_, hdr, ok := strings.Cut(rest, `"requestHeader":`)
	if !ok {
		return loggedRequest{}, false
	}
	end := strings.IndexByte(hdr, '}')
	if end < 0 {
		return loggedRequest{}, false
	}
	var r loggedRequest
	if err := json.Unmarshal([]byte(hdr[:end+1]), &r); err != nil {
		return loggedRequest{}, false
	}
	r.Principal, r.Listener = lastString(line, `"principal":"`), lastString(line, `"listener":"`)
	return r, true
}

// lastString is the JSON string after the last occurrence of prefix in line
// (the connection fields come after the request and response bodies).
func lastString(line, prefix string) string {
	i := strings.LastIndex(line, prefix)
	if i < 0 {
		return ""
	}
	rest := line[i+len(prefix):]
	if end := strings.IndexByte(rest, '"'); end >= 0 {
		return rest[:end]
	}
	return ""
}
