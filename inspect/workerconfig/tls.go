package workerconfig

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"github.com/connectscope/connectscope/inspect/source/boundedfile"
	"strings"
)

// TLSMaterial is the PEM material a worker file names, read and ready to use.
type TLSMaterial struct {
	CAPEM   []byte // trusted certificates; nil = system roots (as the JVM's cacerts)
	CertPEM []byte // client certificate chain; nil = no client certificate
	KeyPEM  []byte // client private key (unencrypted PKCS#8, PKCS#1 or EC)
	// VerifyHostname is false when ssl.endpoint.identification.algorithm is
	// set to empty (Kafka then checks the chain but not the host name).
	VerifyHostname bool
}

// UsesTLS reports whether security.protocol is SSL or SASL_SSL.
func (w *Config) UsesTLS() bool {
	return w.SecurityProtocol == "SSL" || w.SecurityProtocol == "SASL_SSL"
}

// UsesSASL reports whether security.protocol is SASL_PLAINTEXT or SASL_SSL.
func (w *Config) UsesSASL() bool {
	return w.SecurityProtocol == "SASL_PLAINTEXT" || w.SecurityProtocol == "SASL_SSL"
}

// TLSMaterial reads the trust and key material the file names. Only PEM is
// supported; a JKS or PKCS12 store gives an error telling how to convert it.
func (w *Config) TLSMaterial() (*TLSMaterial, error) {
	m := &TLSMaterial{VerifyHostname: true}
	if v, ok := w.Props["ssl.endpoint.identification.algorithm"]; ok && strings.TrimSpace(v) == "" {
		m.VerifyHostname = false
	}
	for _, k := range []string{"ssl.truststore.location", "ssl.truststore.certificates", "ssl.keystore.location",
		"ssl.keystore.certificate.chain", "ssl.keystore.key", "ssl.key.password"} {
		if ref, ok := w.ProviderRefs[k]; ok {
			return nil, fmt.Errorf("%s: %s = %q is a config-provider reference connectscope does not resolve; put the resolved value in a copy of the file", w.Path, k, providerRefsOnly(ref))
		}
	}
	var err error
	switch {
	case w.CAPEM != "":
		if w.TruststoreType != "PEM" {
			return nil, fmt.Errorf("%s: ssl.truststore.certificates needs ssl.truststore.type=PEM (it is %s)", w.Path, typeOrDefault(w.TruststoreType))
		}
		m.CAPEM = []byte(w.CAPEM)
	case w.CAFile != "":
		if w.TruststoreType != "PEM" {
			return nil, storeTypeError(w.Path, "ssl.truststore", w.CAFile, w.TruststoreType,
				"keytool -exportcert -rfc -keystore "+w.CAFile+" -alias <ca-alias> -file ca.pem  (PKCS12: openssl pkcs12 -in "+w.CAFile+" -nokeys -out ca.pem)")
		}
		if m.CAPEM, err = readPEMFile(w.Path, "ssl.truststore.location", w.CAFile); err != nil {
			return nil, err
		}
	}
	switch {
	case w.CertPEM != "" || w.KeyPEM != "":
		if w.KeystoreType != "PEM" {
			return nil, fmt.Errorf("%s: ssl.keystore.certificate.chain/ssl.keystore.key need ssl.keystore.type=PEM (it is %s)", w.Path, typeOrDefault(w.KeystoreType))
		}
		if w.CertPEM == "" || w.KeyPEM == "" {
			return nil, fmt.Errorf("%s: ssl.keystore.certificate.chain and ssl.keystore.key must be set together", w.Path)
		}
		m.CertPEM, m.KeyPEM = []byte(w.CertPEM), []byte(w.KeyPEM)
	case w.CertFile != "":
		if w.KeystoreType != "PEM" {
			return nil, storeTypeError(w.Path, "ssl.keystore", w.CertFile, w.KeystoreType,
				"keytool -importkeystore -srckeystore "+w.CertFile+" -destkeystore client.p12 -deststoretype PKCS12 && openssl pkcs12 -in client.p12 -nodes -out client.pem")
		}
		data, err := readPEMFile(w.Path, "ssl.keystore.location", w.CertFile)
		if err != nil {
			return nil, err
		}
		// A PEM keystore file holds the private key and the chain together.
		m.CertPEM, m.KeyPEM = splitPEM(data)
		if len(m.CertPEM) == 0 || len(m.KeyPEM) == 0 {
			return nil, fmt.Errorf("%s: ssl.keystore.location %s must hold both a private key and a certificate chain in PEM", w.Path, w.CertFile)
		}
	}
	if len(m.KeyPEM) > 0 && strings.Contains(string(m.KeyPEM), "ENCRYPTED PRIVATE KEY") {
		return nil, fmt.Errorf("%s: the private key is encrypted (ssl.key.password); connectscope needs it unencrypted: openssl pkcs8 -in key.pem -out key-plain.pem (and keep that file private)", w.Path)
	}
	return m, nil
}

// TLSConfig builds a client TLS configuration from the file, or nil when the
// file does not use TLS.
func (w *Config) TLSConfig() (*tls.Config, error) {
	if !w.UsesTLS() {
		return nil, nil
	}
	m, err := w.TLSMaterial()
	if err != nil {
		return nil, err
	}
	return m.Config()
}

// Config turns the material into a *tls.Config.
func (m *TLSMaterial) Config() (*tls.Config, error) {
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	if len(m.CAPEM) > 0 {
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(m.CAPEM) {
			return nil, fmt.Errorf("truststore holds no PEM certificate")
		}
		cfg.RootCAs = pool
	}
	if len(m.CertPEM) > 0 {
		cert, err := tls.X509KeyPair(m.CertPEM, m.KeyPEM)
		if err != nil {
			return nil, fmt.Errorf("client certificate and key: %w", err)
		}
		cfg.Certificates = []tls.Certificate{cert}
	}
	if !m.VerifyHostname {
		// Check the chain as Kafka does, but not the host name.
		roots := cfg.RootCAs
		cfg.InsecureSkipVerify = true
		cfg.VerifyPeerCertificate = func(raw [][]byte, _ [][]*x509.Certificate) error {
			if len(raw) == 0 {
				return fmt.Errorf("server sent no certificate")
			}
			certs := make([]*x509.Certificate, len(raw))
			for i, r := range raw {
				c, err := x509.ParseCertificate(r)
				if err != nil {
					return fmt.Errorf("server certificate: %w", err)
				}
				certs[i] = c
			}
			inter := x509.NewCertPool()
			for _, c := range certs[1:] {
				inter.AddCert(c)
			}
			_, err := certs[0].Verify(x509.VerifyOptions{Roots: roots, Intermediates: inter})
			return err
		}
	}
	return cfg, nil
}

func typeOrDefault(t string) string {
	if t == "" {
		return "JKS (the default)"
	}
	return t
}

func storeTypeError(path, prefix, location, typ, convert string) error {
	return fmt.Errorf("%s: %s.location %s is a %s store; connectscope needs PEM: convert with %s, then set %s.type=PEM and %s.location to the PEM file",
		path, prefix, location, typeOrDefault(typ), convert, prefix, prefix)
}

func readPEMFile(path, key, file string) ([]byte, error) {
	data, err := boundedfile.Read(file, MaxFile)
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %w", path, key, err)
	}
	if !strings.Contains(string(data), "-----BEGIN ") {
		return nil, fmt.Errorf("%s: %s %s is not PEM (no -----BEGIN line)", path, key, file)
	}
	return data, nil
}

// splitPEM separates private key blocks from certificate blocks.
func splitPEM(data []byte) (certs, keys []byte) {
	for {
		var b *pem.Block
		b, data = pem.Decode(data)
		if b == nil {
			return certs, keys
		}
		if strings.Contains(b.Type, "PRIVATE KEY") {
			keys = append(keys, pem.EncodeToMemory(b)...)
		} else if b.Type == "CERTIFICATE" {
			certs = append(certs, pem.EncodeToMemory(b)...)
		}
	}
}
