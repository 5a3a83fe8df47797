// Package kafkatest starts embedded Kafka clusters (franz-go's kfake) for
// tests of live reading: seeded internal topics, records written as Connect
// writes them, a minimal Connect group member, and a log of every request the
// cluster receives. Test-only; it imports nothing of connectscope so that
// inspect's own tests can use it.
package kafkatest

import (
	"context"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
)

// Internal topic names and partition counts used by New (Connect's defaults
// for names; partitions as Connect creates them: 1, 25, 5).
const (
	ConfigTopic = "connect-configs"
	OffsetTopic = "connect-offsets"
	StatusTopic = "connect-status"
	Group       = "connect-cluster"
)

// Cluster is a running kfake cluster on loopback ports.
type Cluster struct {
	*kfake.Cluster
	Addrs []string // host:port of each broker
	// ClientOpts are added to every test-setup client (TLS, SASL for a
	// cluster that needs them).
	ClientOpts []kgo.Opt
}

// New starts a one-broker cluster with the three internal topics seeded; the
// cluster is closed when the test ends. opts are added after the defaults.
func New(t testing.TB, opts ...kfake.Opt) *Cluster {
	t.Helper()
	all := append([]kfake.Opt{
		kfake.NumBrokers(1),
		kfake.SeedTopics(1, ConfigTopic),
		kfake.SeedTopics(25, OffsetTopic),
		kfake.SeedTopics(5, StatusTopic),
		kfake.GroupMinSessionTimeout(100 * time.Millisecond),
	}, opts...)
	c, err := kfake.NewCluster(all...)
	if err != nil {
		t.Fatalf("starting kfake: %v", err)
	}
	t.Cleanup(c.Close)
	return &Cluster{Cluster: c, Addrs: c.ListenAddrs()}
}

// Bootstrap is the comma-separated broker list.
func (c *Cluster) Bootstrap() string {
	out := ""
	for i, a := range c.Addrs {
		if i > 0 {
			out += ","
		}
		out += a
	}
	return out
}

// Client returns a client for test setup (never for the code under test),
// closed when the test ends.
func (c *Cluster) Client(t testing.TB, opts ...kgo.Opt) *kgo.Client {
	t.Helper()
	base := append([]kgo.Opt{kgo.SeedBrokers(c.Addrs...), kgo.ClientID("kafkatest")}, c.ClientOpts...)
	cl, err := kgo.NewClient(append(base, opts...)...)
	if err != nil {
		t.Fatalf("test client: %v", err)
	}
	t.Cleanup(cl.Close)
	return cl
}

// Produce writes records synchronously with a fresh client; records without
// a partition set are placed by key hash as Connect's producers do.
func (c *Cluster) Produce(t testing.TB, recs ...*kgo.Record) {
	t.Helper()
	cl := c.Client(t, kgo.DefaultProduceTopic(ConfigTopic), kgo.ProducerLinger(0),
		kgo.RecordPartitioner(kgo.StickyKeyPartitioner(nil)))
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := cl.ProduceSync(ctx, recs...).FirstErr(); err != nil {
		t.Fatalf("producing: %v", err)
	}
}

// Rec builds a record; a nil value is a tombstone.
func Rec(topic, key string, value []byte) *kgo.Record {
	return &kgo.Record{Topic: topic, Key: []byte(key), Value: value}
}

// Str is a shorthand for a non-nil value.
func Str(s string) []byte { return []byte(s) }
