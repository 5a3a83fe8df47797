package live

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"github.com/connectscope/connectscope/inspect/source/boundedfile"
	"github.com/connectscope/connectscope/inspect/workerconfig"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/connectscope/connectscope/inspect/setting"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sasl"
	"github.com/twmb/franz-go/pkg/sasl/plain"
	"github.com/twmb/franz-go/pkg/sasl/scram"
)

// DefaultTimeout bounds each network operation when the caller gives none.
const DefaultTimeout = 10 * time.Second

// ConnOptions say how to reach and authenticate to a Kafka cluster. They are
// built from the command-line flags laid over the worker config file.
type ConnOptions struct {
	Bootstrap []string // host:port; the port defaults to 9092

	TLS                bool
	CAFile             string // PEM file of CA certificates to trust
	CertFile, KeyFile  string // PEM client certificate and key (mutual TLS)
	ServerName         string // expected name in the broker certificate
	InsecureSkipVerify bool
	// NoHostnameCheck verifies the broker's certificate chain but not the
	// name in it, as Kafka does with ssl.endpoint.identification.algorithm
	// set empty.
	NoHostnameCheck bool
	// PEM contents given inline (worker config ssl.truststore.certificates,
	// ssl.keystore.certificate.chain, ssl.keystore.key); used when the
	// matching file is not set.
	CAPEM, CertPEM, KeyPEM []byte

	SASLMechanism string // PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512; "" = none
	SASLUser      string
	SASLPassword  string

	// Timeout bounds every network operation, and any stretch of a long read
	// that makes no progress. Zero means DefaultTimeout.
	Timeout time.Duration
}

// timeout is the effective per-operation timeout.
func (o ConnOptions) timeout() time.Duration {
	if o.Timeout <= 0 {
		return DefaultTimeout
	}
	return o.Timeout
}

// ClientOpts turns the options into franz-go client options. The client never
// joins a group, never creates topics (kgo.AllowAutoTopicCreation is not set)
// and is only used for reads.
func (o ConnOptions) ClientOpts() ([]kgo.Opt, error) { return o.clientOpts(nil) }

// clientOpts builds the options; a non-nil watch observes connections and
// SASL exchanges so that failures can be explained.
func (o ConnOptions) clientOpts(watch *connWatch) ([]kgo.Opt, error) {
	if len(o.Bootstrap) == 0 {
		return nil, setting.Errorf("no bootstrap server: give %v or %v with bootstrap.servers", setting.BootstrapServers, setting.WorkerConfig)
	}
	seeds := workerconfig.List(o.Bootstrap...)
	if len(seeds) == 0 {
		return nil, setting.Errorf("no bootstrap server: %v is empty", setting.BootstrapServers)
	}
	t := o.timeout()
	opts := []kgo.Opt{
		kgo.SeedBrokers(seeds...),
		kgo.ClientID("connectscope"),
		kgo.DisableClientMetrics(), // push nothing to the brokers, not even client telemetry (KIP-714)
		kgo.DialTimeout(t),
		kgo.RetryTimeout(t / 2),     // so kgo hands back the cause before our own deadline ends the operation
		kgo.RequestRetries(1 << 20), // bounded by RetryTimeout and the caller's context
		kgo.RetryBackoffFn(Backoff),
		kgo.MetadataMinAge(250 * time.Millisecond),
	}
	tlsCfg, err := o.tlsConfig()
	if err != nil {
		return nil, err
	}
	if tlsCfg != nil {
		opts = append(opts, kgo.DialTLSConfig(tlsCfg))
	}
	mech, err := o.saslMechanism()
	if err != nil {
		return nil, err
	}
	if mech != nil {
		if watch != nil {
			mech = watchedMechanism{Mechanism: mech, w: watch}
		}
		opts = append(opts, kgo.SASL(mech))
	}
	if watch != nil {
		opts = append(opts, kgo.WithHooks(watch))
	}
	return opts, nil
}

// NewClient returns a franz-go client for the options. The caller closes it.
func NewClient(o ConnOptions, extra ...kgo.Opt) (*kgo.Client, error) {
	return newWatchedClient(o, nil, extra...)
}

func newWatchedClient(o ConnOptions, watch *connWatch, extra ...kgo.Opt) (*kgo.Client, error) {
	opts, err := o.clientOpts(watch)
	if err != nil {
		return nil, err
	}
	cl, err := kgo.NewClient(append(opts, extra...)...)
	if err != nil {
		return nil, fmt.Errorf("creating kafka client: %w", err)
	}
	return cl, nil
}

// Backoff is the retry backoff: exponential from 100ms, capped at 1s, with
// jitter so that several retries do not march in step.
func Backoff(tries int) time.Duration {
	d := 100 * time.Millisecond
	for i := 1; i < tries && d < time.Second; i++ {
		d *= 2
	}
	if d > time.Second {
		d = time.Second
	}
	return d/2 + time.Duration(rand.Int64N(int64(d/2)+1))
}

func (o ConnOptions) tlsConfig() (cfg *tls.Config, err error) {
	usesTLS := o.TLS || o.CAFile != "" || o.CertFile != "" || len(o.CAPEM) > 0 || len(o.CertPEM) > 0 || o.InsecureSkipVerify
	if !usesTLS {
		return nil, nil
	}
	defer func() {
		if cfg != nil && o.NoHostnameCheck && !o.InsecureSkipVerify {
			verifyChainOnly(cfg)
		}
	}()
	cfg = &tls.Config{MinVersion: tls.VersionTLS12, ServerName: o.ServerName, InsecureSkipVerify: o.InsecureSkipVerify} //nolint:gosec // only when the user asks for it
	ca := o.CAPEM
	if o.CAFile != "" {
		b, err := boundedfile.Read(o.CAFile, workerconfig.MaxFile)
		if err != nil {
			return nil, fmt.Errorf("reading CA file: %w", err)
		}
		ca = b
	}
	if len(ca) > 0 {
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(ca) {
			return nil, errors.New("CA certificates: no PEM certificate found (connectscope reads PEM, not JKS or PKCS12)")
		}
		cfg.RootCAs = pool
	}
	cert, key := o.CertPEM, o.KeyPEM
	if o.CertFile != "" {
		b, err := boundedfile.Read(o.CertFile, workerconfig.MaxFile)
		if err != nil {
			return nil, fmt.Errorf("reading client certificate: %w", err)
		}
		cert = b
	}
	if o.KeyFile != "" {
		b, err := boundedfile.Read(o.KeyFile, workerconfig.MaxFile)
		if err != nil {
			return nil, fmt.Errorf("reading client key: %w", err)
		}
		key = b
	}
	switch {
	case len(cert) > 0 && len(key) > 0:
		pair, err := tls.X509KeyPair(cert, key)
		if err != nil {
			return nil, fmt.Errorf("client certificate and key: %w", err)
		}
		cfg.Certificates = []tls.Certificate{pair}
	case len(cert) > 0 || len(key) > 0:
		return nil, errors.New("client certificate and key must be given together")
	}
	return cfg, nil
}

func (o ConnOptions) saslMechanism() (sasl.Mechanism, error) {
	m := strings.ToUpper(strings.TrimSpace(o.SASLMechanism))
	if m == "" {
		return nil, nil
	}
	switch m {
	case "PLAIN":
		return plain.Auth{User: o.SASLUser, Pass: o.SASLPassword}.AsMechanism(), nil
	case "SCRAM-SHA-256":
		return scram.Auth{User: o.SASLUser, Pass: o.SASLPassword}.AsSha256Mechanism(), nil
	case "SCRAM-SHA-512":
		return scram.Auth{User: o.SASLUser, Pass: o.SASLPassword}.AsSha512Mechanism(), nil
	default:
		return nil, fmt.Errorf("SASL mechanism %q is not supported (use PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512)", o.SASLMechanism)
	}
}

// verifyChainOnly makes cfg check the broker's chain against its roots but
// not the host name: Go's own check is switched off and replaced.
func verifyChainOnly(cfg *tls.Config) {
	roots := cfg.RootCAs
	cfg.InsecureSkipVerify = true //nolint:gosec // the chain is verified below
	cfg.VerifyConnection = func(cs tls.ConnectionState) error {
		if len(cs.PeerCertificates) == 0 {
			return errors.New("the broker sent no certificate")
		}
		inter := x509.NewCertPool()
		for _, c := range cs.PeerCertificates[1:] {
			inter.AddCert(c)
		}
		_, err := cs.PeerCertificates[0].Verify(x509.VerifyOptions{Roots: roots, Intermediates: inter})
		return err
	}
}
