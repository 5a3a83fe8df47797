// Package rest asks Kafka Connect workers' REST APIs what the internal
// topics cannot say: each worker's version and commit (GET /), its health
// (GET /health, KIP-1017, 3.9+) and the plugins it has installed
// (GET /connector-plugins?connectorsOnly=false, with KIP-891 versions on
// 4.1+). It fans out to every worker at once, bounds every request and the
// whole round, and keeps one result per worker with its own error, so a
// worker that does not answer is a row with a reason, never left out.
//
// It only reads (GET); credentials for basic auth never appear in a URL,
// an error or a result.
package rest

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/connectscope/connectscope/inspect/redact"
)

// Defaults of Options.
const (
	DefaultPerRequest = 5 * time.Second
	DefaultTotal      = 15 * time.Second
	DefaultMaxBody    = 4 << 20 // the plugin list of a worker with many plugins stays far below
	DefaultParallel   = 16
)

// Options configure a Client. The zero value asks plain HTTP with the defaults.
type Options struct {
	PerRequest time.Duration // bound of one request (connect, headers and body); default 5 s
	Total      time.Duration // bound of one fan-out round; default 15 s
	MaxBody    int64         // largest answer read; larger answers are an error; default 4 MiB
	Parallel   int           // workers asked at once; default 16
	// TLS is used for https:// URLs (the workers' listeners.https.* or
	// rest.* TLS settings); nil means the system roots.
	TLS *tls.Config
	// Username and Password are sent as HTTP basic auth (Connect's
	// BasicAuthSecurityRestExtension) when Username is set.
	Username, Password string
	// Transport replaces the client's own (tests); TLS and the dial bound
	// are then the transport's.
	Transport http.RoundTripper
	// Redact removes credentials from text a worker sent back (an error
	// answer may quote a connector's config) before it reaches a result or
	// an error; nil keeps the text (--show-secrets).
	Redact func(string) string
}

// Client asks workers' REST APIs. Safe for concurrent use.
type Client struct {
	opts Options
	http *http.Client
}

// New makes a client.
func New(opts Options) *Client {
	if opts.PerRequest <= 0 {
		opts.PerRequest = DefaultPerRequest
	}
	if opts.Total <= 0 {
		opts.Total = DefaultTotal
	}
	if opts.MaxBody <= 0 {
		opts.MaxBody = DefaultMaxBody
	}
	if opts.Parallel <= 0 {
		opts.Parallel = DefaultParallel
	}
	tr := &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: opts.PerRequest}).DialContext,
		TLSClientConfig:       opts.TLS,
		TLSHandshakeTimeout:   opts.PerRequest,
		ResponseHeaderTimeout: opts.PerRequest,
		MaxIdleConnsPerHost:   2,
		IdleConnTimeout:       30 * time.Second,
	}
	var rt http.RoundTripper = tr
	if opts.Transport != nil {
		rt = opts.Transport
	}
	return &Client{opts: opts, http: &http.Client{Transport: rt, Timeout: opts.PerRequest,
		// Connect does not redirect; following one could send the
		// credentials elsewhere.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// Options are the client's effective options (defaults filled in).
func (c *Client) Options() Options { return c.opts }

// Close releases idle connections.
func (c *Client) Close() { c.http.CloseIdleConnections() }

// StatusError is an answer other than 2xx.
type StatusError struct {
	URL    string // redacted
	Status int
	Body   string // at most 200 bytes of the answer, as text
}

func (e *StatusError) Error() string {
	msg := fmt.Sprintf("GET %s: HTTP %d", e.URL, e.Status)
	if e.Body != "" {
		msg += ": " + e.Body
	}
	return msg
}

// Endpoint joins a worker's advertised REST URL and a path, without user
// information (credentials go in a header, never in the URL).
func Endpoint(base, path string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(base))
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return "", fmt.Errorf("REST URL %q: not an http:// or https:// URL", redact.URL(base))
	}
	u.User = nil
	p, q, _ := strings.Cut(path, "?")
	u.Path = strings.TrimSuffix(u.Path, "/") + p
	u.RawQuery = q
	u.Fragment = ""
	return u.String(), nil
}

// get asks one path of one worker and decodes a 2xx JSON answer into out.
// A non-2xx answer is a *StatusError whose Body holds the start of the
// answer; the decoded body is also returned for callers (like /health) that
// read error answers.
func (c *Client) get(ctx context.Context, base, path string, out any) error {
	u, err := Endpoint(base, path)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, c.opts.PerRequest)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return fmt.Errorf("GET %s: %w", u, err)
	}
	req.Header.Set("Accept", "application/json")
	if c.opts.Username != "" {
		req.SetBasicAuth(c.opts.Username, c.opts.Password)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return c.wrap(u, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, c.opts.MaxBody+1))
	if err != nil {
		return c.wrap(u, fmt.Errorf("reading the answer: %w", err))
	}
	if int64(len(data)) > c.opts.MaxBody {
		return fmt.Errorf("GET %s: answer larger than %d bytes", u, c.opts.MaxBody)
	}
	if resp.StatusCode/100 != 2 {
		se := &StatusError{URL: u, Status: resp.StatusCode, Body: c.scrub(snippet(data))}
		if out != nil && json.Valid(data) {
			_ = json.Unmarshal(data, out) // /health answers 503/500 with a body worth reading
		}
		return se
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			return fmt.Errorf("GET %s: answer is not the JSON expected (%s): %w", u, c.scrub(snippet(data)), err)
		}
	}
	return nil
}

// wrap words a transport error with the URL, without the *url.Error
// repetition, and keeps context errors recognisable.
func (c *Client) wrap(u string, err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	msg := c.scrub(err.Error())
	switch {
	case errors.Is(err, context.DeadlineExceeded) || isTimeout(err):
		return &TimeoutError{URL: u, Bound: c.opts.PerRequest, Cause: msg}
	case errors.Is(err, context.Canceled):
		return fmt.Errorf("GET %s: %w", u, context.Canceled)
	}
	return fmt.Errorf("GET %s: %s", u, msg)
}

// TimeoutError is a request that did not finish within its bound.
type TimeoutError struct {
	URL   string
	Bound time.Duration
	Cause string
}

func (e *TimeoutError) Error() string {
	return fmt.Sprintf("GET %s: no answer within %v", e.URL, e.Bound)
}

// Timeout marks it as a timeout for net.Error-style checks.
func (e *TimeoutError) Timeout() bool { return true }

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// scrub removes the password from text that might echo it.
func (c *Client) scrub(s string) string {
	if c.opts.Password != "" {
		s = strings.ReplaceAll(s, c.opts.Password, "[redacted]")
	}
	if c.opts.Redact != nil {
		s = c.opts.Redact(s)
	}
	return s
}

// snippet is the start of an answer as one line of printable text.
func snippet(b []byte) string {
	const max = 200
	s := string(b)
	if len(s) > max {
		s = s[:max] + "…"
	}
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return ' '
		}
		return r
	}, s)
	return strings.TrimSpace(s)
}
