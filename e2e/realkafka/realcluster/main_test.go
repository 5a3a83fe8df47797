//go:build e2e

package realcluster

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/connectscope/connectscope/e2e/realkafka"
)

// One broker per Kafka version is shared by the package's tests; each test
// uses its own Connect group and internal topics, so they do not see each
// other (the broker is the only shared part, as in a real shared cluster).
var (
	brokersMu sync.Mutex
	brokers   = map[string]*realkafka.Broker{}
)

func TestMain(m *testing.M) {
	code := m.Run()
	brokersMu.Lock()
	for _, b := range brokers {
		b.Close()
	}
	brokersMu.Unlock()
	os.Exit(code)
}

// broker is the shared broker of a version, started on first use.
func broker(t testing.TB, version string) *realkafka.Broker {
	t.Helper()
	realkafka.Require(t)
	brokersMu.Lock()
	defer brokersMu.Unlock()
	if b := brokers[version]; b != nil {
		b.Watch(t)
		return b
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	b, err := realkafka.Launch(ctx, realkafka.BrokerOptions{Version: version})
	if err != nil {
		t.Fatal(err)
	}
	brokers[version] = b
	b.Watch(t)
	return b
}

var groupSeq struct {
	sync.Mutex
	n int
}

// newGroup is a group id no other test of this run uses.
func newGroup(prefix string) string {
	groupSeq.Lock()
	defer groupSeq.Unlock()
	groupSeq.n++
	return fmt.Sprintf("%s-%d-%d", prefix, os.Getpid()%10000, groupSeq.n)
}
