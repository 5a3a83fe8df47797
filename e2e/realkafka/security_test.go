//go:build e2e

package realkafka

import (
	"context"
	"crypto/tls"
	"net"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sasl/plain"
	"github.com/twmb/franz-go/pkg/sasl/scram"
)

// TestSecureListeners reaches the SSL, SASL_SSL and SASL_PLAINTEXT
// listeners with franz-go and runs a worker over SASL_SSL with SCRAM.
func TestSecureListeners(t *testing.T) {
	b := StartBroker(t, BrokerOptions{TLS: true, SASL: true})
	tlsCfg, err := b.PKI().ClientTLS(false)
	if err != nil {
		t.Fatal(err)
	}
	dialer := func(cfg *tls.Config) kgo.Opt {
		return kgo.Dialer((&tls.Dialer{NetDialer: &net.Dialer{Timeout: 5 * time.Second}, Config: cfg}).DialContext)
	}
	pw := b.Users()["alice"]
	cases := []struct {
		name string
		opts []kgo.Opt
	}{
		{"SSL", []kgo.Opt{kgo.SeedBrokers(b.Listener("SSL")), dialer(tlsCfg)}},
		{"SASL_SSL SCRAM-SHA-512", []kgo.Opt{kgo.SeedBrokers(b.Listener("SASL_SSL")), dialer(tlsCfg),
			kgo.SASL(scram.Auth{User: "alice", Pass: pw}.AsSha512Mechanism())}},
		{"SASL_SSL SCRAM-SHA-256", []kgo.Opt{kgo.SeedBrokers(b.Listener("SASL_SSL")), dialer(tlsCfg),
			kgo.SASL(scram.Auth{User: "alice", Pass: pw}.AsSha256Mechanism())}},
		{"SASL_PLAINTEXT PLAIN", []kgo.Opt{kgo.SeedBrokers(b.Listener("SASL_PLAINTEXT")),
			kgo.SASL(plain.Auth{User: "alice", Pass: pw}.AsMechanism())}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cl, err := kgo.NewClient(c.opts...)
			if err != nil {
				t.Fatal(err)
			}
			defer cl.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
			defer cancel()
			if _, err := kadm.NewClient(cl).BrokerMetadata(ctx); err != nil {
				t.Fatalf("metadata over %s: %v", c.name, err)
			}
		})
	}
	t.Run("wrong SCRAM password is refused", func(t *testing.T) {
		cl, err := kgo.NewClient(kgo.SeedBrokers(b.Listener("SASL_SSL")), dialer(tlsCfg),
			kgo.SASL(scram.Auth{User: "alice", Pass: "wrong"}.AsSha512Mechanism()))
		if err != nil {
			t.Fatal(err)
		}
		defer cl.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		defer cancel()
		if _, err := kadm.NewClient(cl).BrokerMetadata(ctx); err == nil {
			t.Fatal("metadata answered with a wrong password")
		}
	})

	props, err := b.ClientProps("SASL_SSL", "SCRAM-SHA-512", "alice")
	if err != nil {
		t.Fatal(err)
	}
	w := b.StartWorker(t, WorkerOptions{Group: "secure", Props: props})
	if w.Props()["bootstrap.servers"] != b.Listener("SASL_SSL") {
		t.Fatalf("worker bootstrap %s, want the SASL_SSL listener %s", w.Props()["bootstrap.servers"], b.Listener("SASL_SSL"))
	}
}
