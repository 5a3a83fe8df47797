//go:build e2e

package realkafka

import (
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/connectscope/connectscope/internal/kafkatest"
)

// SASL mechanisms the SASL listeners enable.
var saslMechanisms = []string{"PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"}

// DefaultUsers are the SASL users of a broker whose options name none.
var DefaultUsers = map[string]string{"alice": "alice-secret", "bob": "bob-secret"}

// PKI is the throwaway TLS material of a broker with TLS listeners: a CA,
// the broker's certificate (127.0.0.1, localhost) and a client certificate,
// as PEM files (Kafka reads PEM key stores since 2.7).
type PKI struct {
	CAFile         string // the CA certificate
	ServerFile     string // the broker's private key and certificate (ssl.keystore.type=PEM)
	ClientCertFile string // a client certificate signed by the CA
	ClientKeyFile  string // its PKCS#8 key
	pool           *x509.CertPool
}

// ClientTLS is a client configuration trusting the CA; with cert the client
// also presents its certificate (for a listener with MutualTLS).
func (p *PKI) ClientTLS(cert bool) (*tls.Config, error) {
	cfg := &tls.Config{RootCAs: p.pool, MinVersion: tls.VersionTLS12}
	if cert {
		c, err := tls.LoadX509KeyPair(p.ClientCertFile, p.ClientKeyFile)
		if err != nil {
			return nil, fmt.Errorf("loading the test client certificate: %w", err)
		}
		cfg.Certificates = []tls.Certificate{c}
	}
	return cfg, nil
}

func newPKI(dir string) (*PKI, error) {
	ca, err := kafkatest.NewCA("realkafka test CA", 7*24*time.Hour)
	if err != nil {
		return nil, err
	}
	issue := func(serial int64, tmpl *x509.Certificate) ([]byte, []byte, error) {
		c, err := ca.Issue(serial, tmpl)
		if err != nil {
			return nil, nil, err
		}
		keyDER, err := x509.MarshalPKCS8PrivateKey(c.PrivateKey)
		return c.Certificate[0], keyDER, err
	}
	serverDER, serverKey, err := issue(2, &x509.Certificate{
		Subject: pkix.Name{CommonName: "localhost"}, DNSNames: []string{"localhost"},
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")},
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth},
	})
	if err != nil {
		return nil, fmt.Errorf("issuing the broker certificate: %w", err)
	}
	clientDER, clientKey, err := issue(3, &x509.Certificate{
		Subject: pkix.Name{CommonName: "realkafka-client"}, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	})
	if err != nil {
		return nil, fmt.Errorf("issuing the client certificate: %w", err)
	}
	block := func(typ string, der []byte) []byte { return pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}) }
	p := &PKI{
		CAFile:         filepath.Join(dir, "ca.pem"),
		ServerFile:     filepath.Join(dir, "server.pem"),
		ClientCertFile: filepath.Join(dir, "client.pem"),
		ClientKeyFile:  filepath.Join(dir, "client.key"),
		pool:           x509.NewCertPool(),
	}
	p.pool.AddCert(ca.Cert)
	files := map[string][]byte{
		p.CAFile:         block("CERTIFICATE", ca.Cert.Raw),
		p.ServerFile:     append(block("PRIVATE KEY", serverKey), block("CERTIFICATE", serverDER)...),
		p.ClientCertFile: block("CERTIFICATE", clientDER),
		p.ClientKeyFile:  block("PRIVATE KEY", clientKey),
	}
	for path, data := range files {
		if err := os.WriteFile(path, data, 0o600); err != nil {
			return nil, fmt.Errorf("writing %s: %w", path, err)
		}
	}
	return p, nil
}

// securityProps adds the SSL, SASL_SSL and SASL_PLAINTEXT listeners the
// options ask for to the broker's properties; ports come from the caller.
func (b *Broker) securityProps(opts BrokerOptions, ports []int) error {
	if !opts.TLS && !opts.SASL {
		return nil
	}
	var names []string
	if opts.TLS {
		names = append(names, "SSL")
	}
	if opts.SASL {
		names = append(names, "SASL_SSL", "SASL_PLAINTEXT")
	}
	if len(ports) < len(names) {
		return fmt.Errorf("internal: %d ports for %d listeners", len(ports), len(names))
	}
	pki, err := newPKI(b.dir)
	if err != nil {
		return err
	}
	b.pki = pki
	b.users = opts.Users
	if len(b.users) == 0 {
		b.users = DefaultUsers
	}
	for i, n := range names {
		addr := fmt.Sprintf("127.0.0.1:%d", ports[i])
		b.listeners[n] = addr
		b.props["listeners"] += "," + n + "://" + addr
		b.props["advertised.listeners"] += "," + n + "://" + addr
		b.props["listener.security.protocol.map"] += "," + n + ":" + n
		lower := "listener.name." + strings.ToLower(n) + "."
		if n != "SASL_PLAINTEXT" {
			b.props[lower+"ssl.keystore.type"] = "PEM"
			b.props[lower+"ssl.keystore.location"] = pki.ServerFile
			b.props[lower+"ssl.truststore.type"] = "PEM"
			b.props[lower+"ssl.truststore.location"] = pki.CAFile
			b.props[lower+"ssl.endpoint.identification.algorithm"] = ""
			if n == "SSL" && opts.MutualTLS {
				b.props[lower+"ssl.client.auth"] = "required"
			}
		}
		if n != "SSL" {
			b.props[lower+"sasl.enabled.mechanisms"] = strings.Join(saslMechanisms, ",")
			b.props[lower+"plain.sasl.jaas.config"] = plainServerJAAS(b.users)
			for _, m := range []string{"scram-sha-256", "scram-sha-512"} {
				b.props[lower+m+".sasl.jaas.config"] = "org.apache.kafka.common.security.scram.ScramLoginModule required;"
			}
		}
	}
	return nil
}

func plainServerJAAS(users map[string]string) string {
	names := make([]string, 0, len(users))
	for u := range users {
		names = append(names, u)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString("org.apache.kafka.common.security.plain.PlainLoginModule required")
	for _, u := range names {
		fmt.Fprintf(&b, " user_%s=%q", u, users[u])
	}
	b.WriteString(";")
	return b.String()
}

// scramFormatArgs creates the SCRAM credentials at format time
// (kafka-storage format --add-scram, KRaft, Kafka 3.5+).
func (b *Broker) scramFormatArgs() []string {
	if b.users == nil {
		return nil
	}
	names := make([]string, 0, len(b.users))
	for u := range b.users {
		names = append(names, u)
	}
	sort.Strings(names)
	var args []string
	for _, u := range names {
		for _, m := range []string{"SCRAM-SHA-256", "SCRAM-SHA-512"} {
			args = append(args, "--add-scram", fmt.Sprintf("%s=[name=%s,password=%s]", m, u, b.users[u]))
		}
	}
	return args
}

// PKI is the broker's TLS material, nil without TLS or SASL listeners.
func (b *Broker) PKI() *PKI { return b.pki }

// Users are the SASL users and passwords, nil without SASL listeners.
func (b *Broker) Users() map[string]string { return b.users }

// ClientProps are the Java client properties that reach the broker on a
// listener (PLAINTEXT, SSL, SASL_SSL, SASL_PLAINTEXT) as a SASL user with a
// mechanism (ignored without SASL): bootstrap.servers, security.protocol,
// ssl.* (PEM trust store) and sasl.*. Each key is also given with the
// producer., consumer. and admin. prefixes, so a worker's own clients and
// its connectors' clients all use it.
func (b *Broker) ClientProps(listener, mechanism, user string) (map[string]string, error) {
	addr := b.listeners[listener]
	if addr == "" || listener == "CONTROLLER" {
		return nil, fmt.Errorf("broker has no %s listener (it has %v)", listener, b.listenerNames())
	}
	base := map[string]string{"security.protocol": listener}
	if strings.Contains(listener, "SSL") {
		base["ssl.truststore.type"] = "PEM"
		base["ssl.truststore.location"] = b.pki.CAFile
		base["ssl.endpoint.identification.algorithm"] = "https"
	}
	if strings.HasPrefix(listener, "SASL") {
		pw, ok := b.users[user]
		if !ok {
			return nil, fmt.Errorf("broker has no SASL user %q", user)
		}
		module := "org.apache.kafka.common.security.scram.ScramLoginModule"
		if mechanism == "PLAIN" {
			module = "org.apache.kafka.common.security.plain.PlainLoginModule"
		}
		base["sasl.mechanism"] = mechanism
		base["sasl.jaas.config"] = fmt.Sprintf("%s required username=%q password=%q;", module, user, pw)
	}
	out := map[string]string{"bootstrap.servers": addr}
	for k, v := range base {
		out[k] = v
		for _, p := range []string{"producer.", "consumer.", "admin."} {
			out[p+k] = v
		}
	}
	return out, nil
}

func (b *Broker) listenerNames() []string {
	var out []string
	for n := range b.listeners {
		if n != "CONTROLLER" {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}
