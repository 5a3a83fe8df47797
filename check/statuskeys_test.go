package check

import (
	"testing"

	"github.com/connectscope/connectscope/internal/vectors"
)

// TestStatusConnectorHostileKeys: orphans and foreign writers are counted
// under the connector Kafka reads from a status key (the shared table).
func TestStatusConnectorHostileKeys(t *testing.T) {
	for _, v := range vectors.HostileStatusKeys {
		want := ""
		if v.Kind == "connector" || v.Kind == "task" {
			want = v.Connector
		}
		if got := statusConnector(v.Key); got != want {
			t.Errorf("%q: %q, want %q", v.Key, got, want)
		}
	}
}
