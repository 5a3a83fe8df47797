package kafkatest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TLSMaterial is a throwaway PKI for TLS tests: a CA, a broker certificate
// for 127.0.0.1/localhost and a client certificate, all signed by the CA,
// plus an unrelated CA that trusts nothing here.
type TLSMaterial struct {
	Server         *tls.Config // broker side, no client certificate asked
	Mutual         *tls.Config // broker side, a client certificate signed by the CA required
	CAFile         string      // PEM of the CA
	WrongCAFile    string      // PEM of another CA
	ClientCertFile string
	ClientKeyFile  string
}

// NewTLS creates the material in a temporary directory.
func NewTLS(t testing.TB) *TLSMaterial {
	t.Helper()
	dir := t.TempDir()
	ca, err := NewCA("kafkatest CA", 24*time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	wrong, err := NewCA("unrelated CA", 24*time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	serverCert, err := ca.Issue(time.Now().UnixNano(), &x509.Certificate{
		Subject:     pkix.Name{CommonName: "localhost"},
		DNSNames:    []string{"localhost"},
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")},
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	})
	if err != nil {
		t.Fatal(err)
	}
	clientCert, err := ca.Issue(time.Now().UnixNano(), &x509.Certificate{
		Subject:     pkix.Name{CommonName: "connectscope-test"},
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	})
	if err != nil {
		t.Fatal(err)
	}
	m := &TLSMaterial{
		CAFile:         writePEM(t, dir, "ca.pem", "CERTIFICATE", ca.Cert.Raw),
		WrongCAFile:    writePEM(t, dir, "wrong-ca.pem", "CERTIFICATE", wrong.Cert.Raw),
		ClientCertFile: writePEM(t, dir, "client.pem", "CERTIFICATE", clientCert.Certificate[0]),
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(clientCert.PrivateKey)
	if err != nil {
		t.Fatal(err)
	}
	m.ClientKeyFile = writePEM(t, dir, "client.key", "PRIVATE KEY", keyDER)
	pool := x509.NewCertPool()
	pool.AddCert(ca.Cert)
	m.Server = &tls.Config{Certificates: []tls.Certificate{serverCert}, MinVersion: tls.VersionTLS12}
	m.Mutual = &tls.Config{Certificates: []tls.Certificate{serverCert}, MinVersion: tls.VersionTLS12,
		ClientCAs: pool, ClientAuth: tls.RequireAndVerifyClientCert}
	return m
}

// CA is a throwaway certificate authority with an ECDSA P-256 key: the one
// issuer of the TLS material of the kfake brokers here and of the real
// brokers of e2e/realkafka.
type CA struct {
	Cert     *x509.Certificate
	key      *ecdsa.PrivateKey
	validFor time.Duration
}

// NewCA makes a self-signed CA named name, valid from an hour ago for
// validFor; the certificates it issues are valid as long.
func NewCA(name string, validFor time.Duration) (*CA, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("generating the key of the test CA %q: %w", name, err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: name},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(validFor),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, fmt.Errorf("creating the test CA %q: %w", name, err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, fmt.Errorf("parsing the test CA %q: %w", name, err)
	}
	return &CA{Cert: cert, key: key, validFor: validFor}, nil
}

// Issue signs a certificate for a fresh key: tmpl gives its subject, names
// and extended key usages; Issue sets the serial number, the CA's validity
// and the digital-signature key usage.
func (ca *CA) Issue(serial int64, tmpl *x509.Certificate) (tls.Certificate, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("generating the key of %q: %w", tmpl.Subject.CommonName, err)
	}
	tmpl.SerialNumber = big.NewInt(serial)
	tmpl.NotBefore, tmpl.NotAfter = time.Now().Add(-time.Hour), time.Now().Add(ca.validFor)
	tmpl.KeyUsage = x509.KeyUsageDigitalSignature
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.Cert, &key.PublicKey, ca.key)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("issuing %q: %w", tmpl.Subject.CommonName, err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, nil
}

func writePEM(t testing.TB, dir, name, typ string, der []byte) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}
