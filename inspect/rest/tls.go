package rest

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"github.com/connectscope/connectscope/inspect/source/boundedfile"
	"io"
)

// TLSFiles name PEM files for https:// workers: the CA that signed the
// workers' listeners.https certificates and, when the workers require
// client authentication (listeners.https.ssl.client.auth=required), a
// client certificate and key.
type TLSFiles struct {
	CA, Cert, Key string
	ServerName    string // checked instead of the URL's host
	Insecure      bool   // skip verification (a test cluster with self-signed certificates)
}

// maxPEM bounds a PEM file read.
const maxPEM = 1 << 20

// Config builds the tls.Config; nil when nothing is set.
func (f TLSFiles) Config() (*tls.Config, error) {
	if f == (TLSFiles{}) {
		return nil, nil
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12, ServerName: f.ServerName, InsecureSkipVerify: f.Insecure} //nolint:gosec // only on request
	if f.CA != "" {
		pem, err := readPEM(f.CA)
		if err != nil {
			return nil, err
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("REST CA file %s: no PEM certificate in it (convert a JKS truststore with keytool -exportcert -rfc)", f.CA)
		}
		cfg.RootCAs = pool
	}
	if (f.Cert == "") != (f.Key == "") {
		return nil, fmt.Errorf("REST client certificate: give both the certificate and the key file")
	}
	if f.Cert != "" {
		cert, err := readPEM(f.Cert)
		if err != nil {
			return nil, err
		}
		key, err := readPEM(f.Key)
		if err != nil {
			return nil, err
		}
		pair, err := tls.X509KeyPair(cert, key)
		if err != nil {
			return nil, fmt.Errorf("REST client certificate %s with key %s: %w", f.Cert, f.Key, err)
		}
		cfg.Certificates = []tls.Certificate{pair}
	}
	return cfg, nil
}

func readPEM(path string) ([]byte, error) {
	fh, err := boundedfile.Open(path)
	if err != nil {
		return nil, fmt.Errorf("REST TLS file: %w", err)
	}
	defer fh.Close()
	data, err := io.ReadAll(io.LimitReader(fh, maxPEM+1))
	if err != nil {
		return nil, fmt.Errorf("REST TLS file %s: %w", path, err)
	}
	if len(data) > maxPEM {
		return nil, fmt.Errorf("REST TLS file %s: larger than %d bytes, not a PEM file", path, maxPEM)
	}
	return data, nil
}
