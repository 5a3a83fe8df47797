package live

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/connectscope/connectscope/inspect/setting"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sasl"
)

// Error is a failed live read, worded for an operator: what failed, why,
// and what to try. Error() is one line. Commands exit 3 on it.
type Error struct {
	What string       // what connectscope was doing ("listing end offsets of connect-status")
	Err  error        // the cause
	Hint setting.Text // what to try, naming settings, not flags; may be empty
}

func (e *Error) Error() string { return e.ErrorWith(nil) }

// ErrorWith is the message with the settings named as n says (the commands
// name their flags).
func (e *Error) ErrorWith(n setting.Namer) string {
	msg := e.What + ": " + oneLine(setting.Words(e.Err, n))
	if !e.Hint.IsZero() {
		msg += " — " + e.Hint.With(n)
	}
	return msg
}

func (e *Error) Unwrap() error { return e.Err }

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// connWatch remembers the latest connection failure, so that an operation cut
// off by its deadline can say why it could not get through, not just
// "context deadline exceeded".
type connWatch struct {
	mu           sync.Mutex
	lastErr      error
	addr         string
	connected    bool                 // some broker accepted a connection
	refused      map[string]time.Time // bootstrap servers that refused, first refusal
	saslFailed   error                // the latest failure inside a SASL exchange
	saslInFlight int                  // SASL exchanges begun and not finished
}

// watchedMechanism wraps a SASL mechanism to notice an exchange that began
// and never finished: kgo returns the bare cause of such a failure (often
// EOF, when a broker hangs up on a wrong password), not that it happened
// while authenticating.
type watchedMechanism struct {
	sasl.Mechanism
	w *connWatch
}

func (m watchedMechanism) Authenticate(ctx context.Context, host string) (sasl.Session, []byte, error) {
	s, first, err := m.Mechanism.Authenticate(ctx, host)
	if err != nil {
		return nil, nil, err
	}
	m.w.mu.Lock()
	m.w.saslInFlight++
	m.w.mu.Unlock()
	return &watchedSession{Session: s, w: m.w}, first, nil
}

type watchedSession struct {
	sasl.Session
	w    *connWatch
	done bool
}

func (s *watchedSession) Challenge(b []byte) (bool, []byte, error) {
	done, out, err := s.Session.Challenge(b)
	if (done || err != nil) && !s.done {
		s.done = true
		s.w.mu.Lock()
		s.w.saslInFlight--
		if err != nil {
			s.w.saslFailed = err
		}
		s.w.mu.Unlock()
	}
	return done, out, err
}

func (w *connWatch) saslError() error {
	if w == nil {
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.saslFailed
}

func (w *connWatch) OnBrokerConnect(meta kgo.BrokerMetadata, _ time.Duration, _ net.Conn, err error) {
	if err == nil {
		w.mu.Lock()
		w.connected = true
		w.mu.Unlock()
		return
	}
	w.mu.Lock()
	if errors.Is(err, context.Canceled) && w.lastErr != nil {
		// A dial cut short by our own cancel (every seed refused, or the
		// seed probe moved on) is not the cause: keep the one that is.
		w.mu.Unlock()
		return
	}
	w.lastErr, w.addr = err, net.JoinHostPort(meta.Host, fmt.Sprint(meta.Port))
	if meta.NodeID < 0 && errors.Is(err, syscall.ECONNREFUSED) { // a seed: kgo numbers them below zero
		if w.refused == nil {
			w.refused = map[string]time.Time{}
		}
		if _, seen := w.refused[w.addr]; !seen {
			w.refused[w.addr] = time.Now()
		}
	}
	if w.saslInFlight > 0 { // the connection died inside a SASL exchange
		w.saslFailed = err
		w.saslInFlight--
	}
	w.mu.Unlock()
}

// allRefused reports whether each of the n bootstrap servers refused a
// connection, none was ever accepted, and the first refusal is at least
// grace old (a broker that is starting gets that long).
func (w *connWatch) allRefused(n int, grace time.Duration) bool {
	if w == nil || n == 0 {
		return false
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.connected || len(w.refused) < n {
		return false
	}
	for _, at := range w.refused {
		if time.Since(at) >= grace {
			return true
		}
	}
	return false
}

func (w *connWatch) last() (error, string) { //nolint:revive // pair read under one lock
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.lastErr, w.addr
}

// explain turns an error from a network operation into a LiveError whose
// message names the cause and a remedy.
func explain(what string, err error, o ConnOptions, w *connWatch) error {
	if err == nil {
		return nil
	}
	var le *Error
	if errors.As(err, &le) {
		return err
	}
	cause := err
	timedOut := errors.Is(err, context.DeadlineExceeded)
	if timedOut && w != nil {
		if last, addr := w.last(); last != nil {
			cause = fmt.Errorf("timed out after %s; last connection error (%s): %w", o.timeout(), addr, last)
		} else {
			cause = fmt.Errorf("timed out after %s", o.timeout())
		}
	}
	if se := w.saslError(); se != nil && o.SASLMechanism != "" && !errors.As(cause, new(*kerr.Error)) {
		cause = fmt.Errorf("authentication failed: %w", se)
		if _, isK := errors.AsType[*kerr.Error](se); !isK {
			// The broker hung up mid-exchange, as some do on a wrong password.
			cause = fmt.Errorf("the broker closed the connection while authenticating (%w)", se)
		}
		return &Error{What: what, Err: cause, Hint: setting.Textf("authentication failed for user %q with %s: check the SASL user, password and mechanism", o.SASLUser, strings.ToUpper(o.SASLMechanism))}
	}
	return &Error{What: what, Err: cause, Hint: hintFor(cause, timedOut, o)}
}

// hintFor picks the remedy for the most specific cause found in err.
func hintFor(err error, timedOut bool, o ConnOptions) setting.Text {
	bootstrap := strings.Join(o.Bootstrap, ",")
	var (
		unknownAuth x509.UnknownAuthorityError
		hostErr     x509.HostnameError
		certInvalid x509.CertificateInvalidError
		recordHdr   tls.RecordHeaderError
		dnsErr      *net.DNSError
		kErr        *kerr.Error
	)
	msg := err.Error()
	switch {
	case errors.Is(err, context.Canceled):
		return setting.Textf("the read was interrupted; nothing was printed")
	case errors.As(err, &unknownAuth) || strings.Contains(msg, "certificate signed by unknown authority"):
		return setting.Textf("the broker's certificate is not trusted: pass its CA with %v (PEM) or set ssl.truststore.location", setting.TLSCA)
	case errors.As(err, &hostErr) || strings.Contains(msg, "certificate is valid for"):
		return setting.Textf("the broker's certificate does not name this host: pass %v with a name it holds", setting.TLSServerName)
	case errors.As(err, &certInvalid):
		return setting.Textf("the broker's certificate is invalid (expired or not yet valid?)")
	case errors.As(err, &recordHdr) || strings.Contains(msg, "first record does not look like a TLS handshake"):
		return setting.Textf("the broker does not speak TLS on this port: drop %v (security.protocol=PLAINTEXT/SASL_PLAINTEXT) or use its TLS port", setting.TLS)
	case errors.As(err, &kErr) && kErr.Code == kerr.SaslAuthenticationFailed.Code:
		return setting.Textf("authentication failed for user %q with %s: check the SASL user, password and mechanism", o.SASLUser, strings.ToUpper(o.SASLMechanism))
	case errors.As(err, &kErr) && kErr.Code == kerr.UnsupportedSaslMechanism.Code:
		return setting.Textf("the broker does not enable this SASL mechanism: try %v PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512 as configured on the broker", setting.SASLMechanism)
	case errors.As(err, &kErr) && kErr.Code == kerr.IllegalSaslState.Code:
		return setting.Textf("the broker expects SASL: give %v, %v and %v (or sasl.* in %v)", setting.SASLMechanism, setting.SASLUser, setting.SASLPassword, setting.WorkerConfig)
	case errors.As(err, &kErr) && (kErr.Code == kerr.TopicAuthorizationFailed.Code || kErr.Code == kerr.GroupAuthorizationFailed.Code || kErr.Code == kerr.ClusterAuthorizationFailed.Code):
		return setting.Textf("the principal lacks permission: grant DESCRIBE and READ on the internal topics and DESCRIBE on the groups")
	case errors.As(err, &kErr) && (kErr.Code == kerr.CoordinatorNotAvailable.Code || kErr.Code == kerr.NotCoordinator.Code || kErr.Code == kerr.CoordinatorLoadInProgress.Code):
		return setting.Textf("the group coordinator is moving or loading (a broker restart?): try again in a few seconds, or raise %v to wait longer", setting.Timeout)
	case errors.As(err, &kErr) && (kErr.Code == kerr.NotLeaderForPartition.Code || kErr.Code == kerr.LeaderNotAvailable.Code || kErr.Code == kerr.FencedLeaderEpoch.Code):
		return setting.Textf("partition leadership is moving (a broker restart?): try again in a few seconds, or raise %v to wait longer", setting.Timeout)
	case errors.As(err, &dnsErr):
		return setting.Textf("the bootstrap host name does not resolve: check %v (%s)", setting.BootstrapServers, bootstrap)
	case errors.Is(err, syscall.ECONNREFUSED):
		return setting.Textf("nothing listens there: check the host and port in %v (%s) and that the broker is up", setting.BootstrapServers, bootstrap)
	case errors.Is(err, syscall.EHOSTUNREACH) || errors.Is(err, syscall.ENETUNREACH):
		return setting.Textf("the broker's network is unreachable from here: check %v, VPN and firewalls", setting.BootstrapServers)
	case strings.Contains(msg, "requires TLS but the client is using plaintext"):
		return setting.Textf("the broker expects TLS on this port: add %v with %v (or security.protocol=SSL/SASL_SSL in the worker config)", setting.TLS, setting.TLSCA)
	case strings.Contains(msg, "SASL is required but not provided"):
		return setting.Textf("the broker expects SASL on this port: give %v, %v and %v (or sasl.* in the worker config)", setting.SASLMechanism, setting.SASLUser, setting.SASLPassword)
	case strings.Contains(msg, "invalid large response size"):
		return setting.Textf("that port does not speak the Kafka protocol: check the port in %v (%s)", setting.BootstrapServers, bootstrap)
	case errors.Is(err, io.EOF) || errors.Is(err, syscall.ECONNRESET) || strings.Contains(msg, "connection reset"):
		if o.TLS || o.SASLMechanism != "" {
			return setting.Textf("the broker closed the connection: check that %v and %v match its listener on this port", setting.TLS, setting.SASLMechanism)
		}
		return setting.Textf("the broker closed the connection: it may expect TLS or SASL on this port (%v, %v), or it is restarting", setting.TLS, setting.SASLMechanism)
	case timedOut && o.TLS:
		return setting.Textf("the broker did not answer in time: if its listener is PLAINTEXT or SASL_PLAINTEXT (no TLS), drop %v; else check %v (%s) or raise %v", setting.TLS, setting.BootstrapServers, bootstrap, setting.Timeout)
	case timedOut:
		return setting.Textf("the broker did not answer in time: check %v (%s), TLS/SASL settings, or raise %v", setting.BootstrapServers, bootstrap, setting.Timeout)
	}
	return setting.Textf("check the connection settings and the broker, then try again")
}

// retriableNetError reports connection failures a retry may cure (a broker
// restarting, a connection dropped); TLS, certificate, name resolution and
// authentication failures are not among them.
func retriableNetError(err error) bool {
	var (
		recordHdr tls.RecordHeaderError
		certErr   *tls.CertificateVerificationError
		dnsErr    *net.DNSError
		kErr      *kerr.Error
	)
	switch {
	case errors.As(err, &recordHdr), errors.As(err, &certErr), errors.As(err, &kErr):
		return false
	case errors.As(err, &dnsErr):
		return dnsErr.IsTemporary
	case strings.Contains(err.Error(), "connection has died"): // kgo's unexported errChosenBrokerDead
		return true
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF),
		errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE),
		errors.Is(err, net.ErrClosed):
		return true
	}
	var netErr net.Error
	return errors.As(err, &netErr)
}

// retriable reports whether an operation that failed with err may succeed if
// tried again shortly.
func retriable(err error) bool {
	return kerr.IsRetriable(err) || retriableNetError(err)
}
