package live

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/connectscope/connectscope/inspect/workerconfig"
)

// A worker file fills in what the given settings leave out, and only that.
func TestConnOptionsWithWorker(t *testing.T) {
	p := filepath.Join(t.TempDir(), "w.properties")
	text := "bootstrap.servers=w1:9092,w2:9092\nsecurity.protocol=SASL_PLAINTEXT\nsasl.mechanism=SCRAM-SHA-512\n" +
		`sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="connect" password="s3cret";` + "\n"
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	w, err := workerconfig.Load(p)
	if err != nil {
		t.Fatal(err)
	}
	o, err := ConnOptions{Bootstrap: []string{"flag:9092"}}.WithWorker(w, Given{})
	if err != nil || !slices.Equal(o.Bootstrap, []string{"w1:9092", "w2:9092"}) || o.SASLMechanism != "SCRAM-SHA-512" || o.SASLUser != "connect" || o.SASLPassword != "s3cret" {
		t.Fatalf("from the file: %+v, %v", o, err)
	}
	o, err = ConnOptions{Bootstrap: []string{"flag:9092"}, SASLUser: "ops"}.WithWorker(w, Given{Bootstrap: true})
	if err != nil || !slices.Equal(o.Bootstrap, []string{"flag:9092"}) || o.SASLUser != "ops" || o.SASLPassword != "s3cret" {
		t.Fatalf("given settings stay: %+v, %v", o, err)
	}
}
