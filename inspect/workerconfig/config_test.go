package workerconfig

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"math/big"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/connectscope/connectscope/inspect"
)

const workersDir = "testdata/workers"

func loadTestWorker(t *testing.T, name string) *Config {
	t.Helper()
	w, err := Load(filepath.Join(workersDir, name))
	if err != nil {
		t.Fatalf("LoadWorkerConfig(%s): %v", name, err)
	}
	return w
}

func TestLoadWorkerConfigApacheDefaults(t *testing.T) {
	w := loadTestWorker(t, "apache-kafka-connect-distributed.properties")
	if !reflect.DeepEqual(w.BootstrapServers, []string{"localhost:9092"}) {
		t.Errorf("BootstrapServers = %q", w.BootstrapServers)
	}
	if w.GroupID != "connect-cluster" || w.ConfigTopic != "connect-configs" || w.OffsetTopic != "connect-offsets" || w.StatusTopic != "connect-status" {
		t.Errorf("identity = %q %q %q %q", w.GroupID, w.ConfigTopic, w.OffsetTopic, w.StatusTopic)
	}
	if w.Has("offset.storage.partitions") {
		t.Errorf("commented-out key offset.storage.partitions was read")
	}
	if v, set, err := w.Long("offset.flush.interval.ms"); v != 10000 || !set || err != nil {
		t.Errorf("offset.flush.interval.ms = %d %v %v", v, set, err)
	}
	if v, set, err := w.Int("session.timeout.ms"); set || err != nil || v != 0 {
		t.Errorf("unset session.timeout.ms = %d %v %v", v, set, err)
	}
	if w.ConnectProtocol != "" || w.ExactlyOnceSourceSupport != "" || w.SecurityProtocol != "" {
		t.Errorf("unset settings got values: %q %q %q", w.ConnectProtocol, w.ExactlyOnceSourceSupport, w.SecurityProtocol)
	}
	if len(w.ProviderRefs) != 0 {
		t.Errorf("ProviderRefs = %v", w.ProviderRefs)
	}
	if w.Name() != "apache-kafka-connect-distributed.properties" {
		t.Errorf("Name() = %q", w.Name())
	}
	if w.UsesTLS() || w.UsesSASL() {
		t.Errorf("plaintext file reports TLS/SASL")
	}
	if cfg, err := w.TLSConfig(); cfg != nil || err != nil {
		t.Errorf("TLSConfig of plaintext file = %v, %v", cfg, err)
	}
}

func TestLoadWorkerConfigConfluentTopics(t *testing.T) {
	w := loadTestWorker(t, "confluent-connect-avro-distributed.properties")
	want := inspect.TopicNames{Config: "connect-configs", Offset: "connect-offsets", Status: "connect-statuses"}
	if got := w.TopicNames(); got != want {
		t.Errorf("TopicNames() = %+v, want %+v", got, want)
	}
	if got := w.Str("value.converter.schema.registry.url"); got != "http://localhost:8081" {
		t.Errorf("schema registry url = %q", got)
	}
}

func TestTopicNamesDefaultsWhenSilent(t *testing.T) {
	w := loadTestWorker(t, "jks-truststore.properties")
	if got := w.TopicNames(); got != inspect.DefaultTopicNames() {
		t.Errorf("TopicNames() = %+v", got)
	}
}

func TestJavaPropertiesSyntax(t *testing.T) {
	w := loadTestWorker(t, "java-syntax.properties")
	if !reflect.DeepEqual(w.BootstrapServers, []string{"broker-1:9092", "broker-2:9092", "broker-3:9092"}) {
		t.Errorf("continued, colon-separated list = %q", w.BootstrapServers)
	}
	checks := map[string]string{
		"group.id":                  "connect-prod",
		"offset.storage.topic":      "prod-connect-offsets   ", // Java keeps trailing blanks
		"status.storage.topic":      "prod-connect-status",     // continuation drops leading blanks
		"rest.advertised.host.name": "w\u00e9rker-1",
		"key with spaces":           "value",
		"empty.value":               "",
		"client.id":                 "last", // last duplicate wins, as in Java
		"trailing.continuation":     "end",  // backslash at end of file
	}
	for k, want := range checks {
		if got, ok := w.Get(k); !ok || got != want {
			t.Errorf("%s = %q (%v), want %q", k, got, ok, want)
		}
	}
	if w.OffsetTopic != "prod-connect-offsets" {
		t.Errorf("typed OffsetTopic not trimmed: %q", w.OffsetTopic)
	}
	if w.ConnectProtocol != "sessioned" || w.ExactlyOnceSourceSupport != "preparing" {
		t.Errorf("case-insensitive enums: %q %q", w.ConnectProtocol, w.ExactlyOnceSourceSupport)
	}
	if v, _, err := w.Int("session.timeout.ms"); err != nil || v != 15000 {
		t.Errorf("session.timeout.ms = %d, %v", v, err)
	}
	for _, bad := range []string{"!", "#", "a bang comment"} {
		if w.Has(bad) {
			t.Errorf("comment text read as key %q", bad)
		}
	}
}

func TestContinuationOfKeysAndComments(t *testing.T) {
	cases := []struct{ in, key, val string }{
		{"gro\\\n   up.id=x\n", "group.id", "x"},
		{"# comment \\\ngroup.id=y\n", "group.id", "y"}, // comment lines never continue
		{"a=b\\\\\nc=d\n", "a", "b\\"},                  // even backslashes: no continuation
		{"a=1\r\nb=2\r", "b", "2"},
		{"a=\\\n#not a comment\n", "a", "#not a comment"},
	}
	for _, c := range cases {
		w, err := Parse("x.properties", []byte(c.in))
		if err != nil {
			t.Fatalf("%q: %v", c.in, err)
		}
		if got, ok := w.Get(c.key); !ok || got != c.val {
			t.Errorf("%q: %s = %q (%v), want %q; props %q", c.in, c.key, got, ok, c.val, w.Props)
		}
	}
}

func TestISO88591LikeJava(t *testing.T) {
	// Kafka reads the file as ISO-8859-1 bytes: UTF-8 é is two characters to Java.
	w, err := Parse("x", []byte("name=\xc3\xa9\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := w.Props["name"]; got != "\u00c3\u00a9" {
		t.Errorf("name = %q", got)
	}
}

func TestParseWorkerConfigError(t *testing.T) {
	_, err := Parse("bad.properties", []byte("a=\\u12zz\n"))
	if err == nil || !strings.Contains(err.Error(), "bad.properties") {
		t.Fatalf("malformed \\u escape: err = %v", err)
	}
	_, err = Load(filepath.Join(workersDir, "missing.properties"))
	if !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("missing file: err = %v", err)
	}
}

func TestIntValues(t *testing.T) {
	w, err := Parse("w.properties", []byte(strings.Join([]string{
		"a=30s", "b= 42 ", "c=+7", "d=-1", "e=2147483648", "f=abc", "g=", "h=${env:X}", "i=1.5", "j=5 min", "k=--1",
	}, "\n")))
	if err != nil {
		t.Fatal(err)
	}
	type want struct {
		v      int64
		reason string
	}
	cases := map[string]want{
		"a": {0, `not a unit like "s"`}, "b": {42, ""}, "c": {7, ""}, "d": {-1, ""},
		"e": {0, "out of range for a Java int"}, "f": {0, "not an integer"}, "g": {0, "empty value"},
		"h": {0, "config-provider reference"}, "i": {0, "not an integer"}, "j": {0, `unit like "min"`}, "k": {0, "not an integer"},
	}
	for k, c := range cases {
		v, set, err := w.Int(k)
		if !set {
			t.Errorf("%s not set", k)
		}
		if c.reason == "" {
			if err != nil || v != c.v {
				t.Errorf("%s = %d, %v; want %d", k, v, err, c.v)
			}
			continue
		}
		var ve *ValueError
		if !errors.As(err, &ve) || !strings.Contains(err.Error(), c.reason) || ve.Key != k || ve.Path != "w.properties" {
			t.Errorf("%s: err = %v, want one containing %q", k, err, c.reason)
		}
	}
	if v, _, err := w.Long("e"); err != nil || v != 2147483648 {
		t.Errorf("Long(e) = %d, %v", v, err)
	}
	if _, _, err := w.Int("a"); err == nil || !strings.Contains(err.Error(), `w.properties: a = "30s"`) {
		t.Errorf("error does not name file, key and value: %v", err)
	}
}

func TestProviderRefs(t *testing.T) {
	w := loadTestWorker(t, "provider-refs.properties")
	want := map[string]string{
		"bootstrap.servers": "${env:KAFKA_BOOTSTRAP}",
		"sasl.jaas.config":  "${file:/etc/kafka/secrets/jaas.properties:sasl.jaas.config}",
	}
	if !reflect.DeepEqual(w.ProviderRefs, want) {
		t.Errorf("ProviderRefs = %v", w.ProviderRefs)
	}
	if _, err := w.Bootstrap(); err == nil || !strings.Contains(err.Error(), "config-provider") || !strings.Contains(err.Error(), "bootstrap.servers") {
		t.Errorf("Bootstrap() err = %v", err)
	}
	if _, _, _, err := w.SASLCredentials(); err == nil || !strings.Contains(err.Error(), "sasl.jaas.config") {
		t.Errorf("SASLCredentials() err = %v", err)
	}
	// A near miss: ${...} without a provider colon is not a reference.
	if HasProviderRef("${plain}") || !HasProviderRef("pw=${vault:secret/data:pw}") {
		t.Errorf("HasProviderRef pattern wrong")
	}
}

func TestStrimziSCRAMAndPKCS12(t *testing.T) {
	w := loadTestWorker(t, "strimzi-connect.properties")
	if w.SASLMechanism != "SCRAM-SHA-512" || w.SASLUsername != "my-connect" || w.SASLLoginModule != "org.apache.kafka.common.security.scram.ScramLoginModule" {
		t.Errorf("SASL = %q %q %q", w.SASLMechanism, w.SASLUsername, w.SASLLoginModule)
	}
	if _, _, _, err := w.SASLCredentials(); err == nil || !strings.Contains(err.Error(), "config-provider") {
		t.Errorf("provider-valued password: err = %v", err)
	}
	_, err := w.TLSMaterial()
	if err == nil || !strings.Contains(err.Error(), "PKCS12 store; connectscope needs PEM") || !strings.Contains(err.Error(), "openssl pkcs12") {
		t.Errorf("PKCS12 truststore: err = %v", err)
	}
	if w.TopicNames() != (inspect.TopicNames{Config: "connect-cluster-configs", Offset: "connect-cluster-offsets", Status: "connect-cluster-status"}) {
		t.Errorf("TopicNames() = %+v", w.TopicNames())
	}
}

func TestJKSTruststoreError(t *testing.T) {
	w := loadTestWorker(t, "jks-truststore.properties")
	_, err := w.TLSConfig()
	if err == nil || !strings.Contains(err.Error(), "JKS (the default) store; connectscope needs PEM") || !strings.Contains(err.Error(), "keytool -exportcert") {
		t.Errorf("JKS truststore: err = %v", err)
	}
}

func TestPlainSASLSSLWithPEMFiles(t *testing.T) {
	dir := t.TempDir()
	caPEM, certPEM, keyPEM := testCertificate(t)
	writeFile(t, filepath.Join(dir, "ca.pem"), caPEM)
	writeFile(t, filepath.Join(dir, "client.pem"), append(append([]byte{}, keyPEM...), certPEM...))
	text, err := os.ReadFile(filepath.Join(workersDir, "plain-sasl-ssl-pem.properties"))
	if err != nil {
		t.Fatal(err)
	}
	text = []byte(strings.NewReplacer("location=ca.pem", "location="+filepath.Join(dir, "ca.pem"),
		"location=client.pem", "location="+filepath.Join(dir, "client.pem")).Replace(string(text)))
	w, err := Parse("plain.properties", text)
	if err != nil {
		t.Fatal(err)
	}
	mech, user, pass, err := w.SASLCredentials()
	if err != nil || mech != "PLAIN" || user != "connect" || pass != `s3cr"et` {
		t.Errorf("SASLCredentials() = %q %q %q %v", mech, user, pass, err)
	}
	m, err := w.TLSMaterial()
	if err != nil {
		t.Fatal(err)
	}
	if m.VerifyHostname {
		t.Errorf("empty ssl.endpoint.identification.algorithm should turn host name checks off")
	}
	if !strings.Contains(string(m.KeyPEM), "PRIVATE KEY") || !strings.Contains(string(m.CertPEM), "CERTIFICATE") || strings.Contains(string(m.CertPEM), "PRIVATE") {
		t.Errorf("keystore file not split into key and chain")
	}
	cfg, err := w.TLSConfig()
	if err != nil || cfg == nil || cfg.RootCAs == nil || len(cfg.Certificates) != 1 || !cfg.InsecureSkipVerify || cfg.VerifyPeerCertificate == nil {
		t.Fatalf("TLSConfig() = %+v, %v", cfg, err)
	}
	// The custom verifier accepts the CA's own chain and rejects garbage.
	block, _ := pem.Decode(caPEM)
	if err := cfg.VerifyPeerCertificate([][]byte{block.Bytes}, nil); err != nil {
		t.Errorf("chain check rejected a trusted certificate: %v", err)
	}
	if err := cfg.VerifyPeerCertificate([][]byte{[]byte("junk")}, nil); err == nil {
		t.Errorf("chain check accepted junk")
	}
}

func TestInlinePEM(t *testing.T) {
	caPEM, certPEM, keyPEM := testCertificate(t)
	esc := func(b []byte) string { return strings.ReplaceAll(string(b), "\n", "\\n\\\n") }
	text := "security.protocol=SSL\nssl.truststore.type=PEM\nssl.keystore.type=PEM\n" +
		"ssl.truststore.certificates=" + esc(caPEM) + "\n" +
		"ssl.keystore.certificate.chain=" + esc(certPEM) + "\n" +
		"ssl.keystore.key=" + esc(keyPEM) + "\n"
	w, err := Parse("inline.properties", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := w.TLSConfig()
	if err != nil || cfg.RootCAs == nil || len(cfg.Certificates) != 1 || cfg.InsecureSkipVerify {
		t.Fatalf("TLSConfig() = %+v, %v", cfg, err)
	}
	// Near misses: inline PEM without type PEM, key without chain, encrypted key.
	bad := map[string]string{
		"ssl.truststore.type":            "JKS",
		"ssl.keystore.certificate.chain": "",
	}
	for k, v := range bad {
		w2, _ := Parse("inline.properties", []byte(text))
		w2.Props[k] = v
		w2.fillTyped()
		if _, err := w2.TLSMaterial(); err == nil {
			t.Errorf("%s=%q accepted", k, v)
		}
	}
	w3, _ := Parse("inline.properties", []byte(text))
	w3.KeyPEM = "-----BEGIN ENCRYPTED PRIVATE KEY-----\nAA==\n-----END ENCRYPTED PRIVATE KEY-----\n"
	if _, err := w3.TLSMaterial(); err == nil || !strings.Contains(err.Error(), "encrypted") {
		t.Errorf("encrypted key: %v", err)
	}
}

func TestNotPEMFile(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "ca.pem"), []byte("\xfe\xed\xfe\xed binary"))
	w, _ := Parse("w", []byte("security.protocol=SSL\nssl.truststore.type=PEM\nssl.truststore.location="+filepath.Join(dir, "ca.pem")))
	if _, err := w.TLSMaterial(); err == nil || !strings.Contains(err.Error(), "not PEM") {
		t.Errorf("binary truststore with type PEM: %v", err)
	}
}

func TestParseJAASConfig(t *testing.T) {
	e, err := ParseJAASConfig(`org.apache.kafka.common.security.scram.ScramLoginModule Required /* c */ username='u\'1' password="p w" tokenauth=true // tail
;`)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"username": "u'1", "password": "p w", "tokenauth": "true"}
	if e.Flag != "required" || !reflect.DeepEqual(e.Options, want) {
		t.Errorf("entry = %+v", e)
	}
	for _, bad := range []string{
		"", "Mod required username=\"u\"", "Mod wrong;", "Mod required user;", "Mod required a=;",
		"A required; B required;", `Mod required a="open;`, "Mod required /* open",
	} {
		if _, err := ParseJAASConfig(bad); err == nil {
			t.Errorf("ParseJAASConfig(%q) accepted", bad)
		}
	}
}

func TestSASLCredentialsErrors(t *testing.T) {
	cases := map[string]string{
		"sasl.mechanism=GSSAPI\nsasl.jaas.config=com.sun.security.auth.module.Krb5LoginModule required;": "not supported",
		"sasl.mechanism=PLAIN":                                            "not set",
		"sasl.mechanism=PLAIN\nsasl.jaas.config=Mod required":             "not terminated",
		"sasl.mechanism=PLAIN\nsasl.jaas.config=Mod required password=x;": "no username",
	}
	for text, want := range cases {
		w, err := Parse("s.properties", []byte(text))
		if err != nil {
			t.Fatal(err)
		}
		if _, _, _, err := w.SASLCredentials(); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: err = %v, want %q", text, err, want)
		}
	}
}

func TestBootstrapMissing(t *testing.T) {
	w, _ := Parse("empty.properties", nil)
	if _, err := w.Bootstrap(); err == nil || !strings.Contains(err.Error(), "not set") {
		t.Errorf("err = %v", err)
	}
}

func TestExpandWorkerConfigPaths(t *testing.T) {
	got, err := ExpandPaths([]string{filepath.Join(workersDir, "*-connect*.properties"), "plain/name.properties", filepath.Join(workersDir, "strimzi-connect.properties")})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		filepath.Join(workersDir, "apache-kafka-connect-distributed.properties"),
		filepath.Join(workersDir, "confluent-connect-avro-distributed.properties"),
		filepath.Join(workersDir, "strimzi-connect.properties"),
		"plain/name.properties",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
	if _, err := ExpandPaths([]string{filepath.Join(workersDir, "*.nothing")}); err == nil || !strings.Contains(err.Error(), "matches no file") {
		t.Errorf("empty glob: %v", err)
	}
	if _, err := ExpandPaths([]string{"[bad"}); err == nil {
		t.Errorf("malformed glob accepted")
	}
	ws, err := LoadAll([]string{filepath.Join(workersDir, "*.properties")})
	if err != nil || len(ws) != 7 {
		t.Errorf("LoadWorkerConfigs: %d, %v", len(ws), err)
	}
	if _, err := LoadAll([]string{"no/such/file.properties"}); err == nil {
		t.Errorf("missing file loaded")
	}
}

func testCertificate(t *testing.T) (caPEM, certPEM, keyPEM []byte) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "test-ca"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	certPEM = pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	keyPEM = pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: kder})
	return certPEM, certPEM, keyPEM
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// A list setting: commas and repeats alike, blanks and spaces dropped.
func TestList(t *testing.T) {
	got := List(" a, b,,c ", "", "d")
	if want := []string{"a", "b", "c", "d"}; !slices.Equal(got, want) {
		t.Errorf("List = %q, want %q", got, want)
	}
	if got := List(" , "); got != nil {
		t.Errorf("blanks only: %q, want nil", got)
	}
}
