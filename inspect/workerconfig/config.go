// Package workerconfig reads Kafka Connect worker .properties files as
// Java does, with their JAAS entries and TLS material.
package workerconfig

import (
	"fmt"
	"github.com/connectscope/connectscope/inspect/source/boundedfile"
	"maps"
	"slices"
	"strings"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/setting"
	"github.com/magiconair/properties"
)

// WorkerConfig is a Kafka Connect worker's .properties file, read with Java's
// rules (Kafka loads it with java.util.Properties from a byte stream, so the
// bytes are ISO-8859-1 and \uXXXX escapes give other characters).
//
// Props holds every key exactly as Java would; the typed fields are the
// trimmed values Kafka's ConfigDef would see, empty when the file is silent.
// Nothing is defaulted here: checks apply Java defaults themselves so they can
// say which values were defaults.
type Config struct {
	Path  string
	Props map[string]string

	BootstrapServers []string
	GroupID          string
	ConfigTopic      string
	OffsetTopic      string
	StatusTopic      string
	ConnectProtocol  string // lower-cased connect.protocol ("" when unset)
	// ExactlyOnceSourceSupport is the lower-cased exactly.once.source.support ("" when unset).
	ExactlyOnceSourceSupport string

	SecurityProtocol string // upper-cased security.protocol ("" when unset = PLAINTEXT)
	SASLMechanism    string // upper-cased sasl.mechanism ("" when unset = GSSAPI)
	SASLLoginModule  string // login module class of sasl.jaas.config
	SASLUsername     string // from sasl.jaas.config (PlainLoginModule, ScramLoginModule)
	SASLPassword     string

	TruststoreType string // upper-cased ssl.truststore.type ("" when unset = JKS)
	KeystoreType   string // upper-cased ssl.keystore.type ("" when unset = JKS)
	CAFile         string // ssl.truststore.location
	CertFile       string // ssl.keystore.location (a PEM keystore holds key and chain in one file)
	KeyFile        string // ssl.keystore.location
	CAPEM          string // ssl.truststore.certificates (inline PEM)
	CertPEM        string // ssl.keystore.certificate.chain (inline PEM)
	KeyPEM         string // ssl.keystore.key (inline PEM)
	KeyPassword    string // ssl.key.password

	// ProviderRefs lists the keys whose values use a config provider
	// (${provider:path:key}); connectscope never resolves them.
	ProviderRefs map[string]string
}

// MaxFile bounds a worker .properties file and the PEM files it names: a
// worker file is a few KiB, a PEM bundle of many CAs well under 1 MiB.
const MaxFile = 4 << 20

// Load reads and parses one worker .properties file.
func Load(path string) (*Config, error) {
	data, err := boundedfile.Read(path, MaxFile)
	if err != nil {
		return nil, fmt.Errorf("reading worker config: %w", err)
	}
	return Parse(path, data)
}

// Parse parses the bytes of a worker .properties file; path is
// only used to name the file in errors and findings.
func Parse(path string, data []byte) (*Config, error) {
	// Expansion of ${...} is off: ${file:...} is a Kafka config-provider
	// reference that must stay literal (and magiconair would reject it).
	loader := &properties.Loader{Encoding: properties.ISO_8859_1, DisableExpansion: true}
	p, err := loader.LoadBytes([]byte(markEmptyKeys(joinJavaContinuations(string(data)))))
	if err != nil {
		return nil, fmt.Errorf("parsing worker config %s: %s", path, safeParseMessage(err))
	}
	w := &Config{Path: path, Props: make(map[string]string, p.Len()), ProviderRefs: map[string]string{}}
	for _, k := range p.Keys() {
		v, _ := p.Get(k)
		if k == emptyKeySentinel {
			k = ""
		}
		w.Props[k] = v
		if HasProviderRef(v) {
			w.ProviderRefs[k] = v
		}
	}
	w.fillTyped()
	return w, nil
}

func (w *Config) fillTyped() {
	w.BootstrapServers = w.List("bootstrap.servers")
	w.GroupID = w.Str("group.id")
	w.ConfigTopic = w.Str("config.storage.topic")
	w.OffsetTopic = w.Str("offset.storage.topic")
	w.StatusTopic = w.Str("status.storage.topic")
	w.ConnectProtocol = strings.ToLower(w.Str("connect.protocol"))
	w.ExactlyOnceSourceSupport = strings.ToLower(w.Str("exactly.once.source.support"))
	w.SecurityProtocol = strings.ToUpper(w.Str("security.protocol"))
	w.SASLMechanism = strings.ToUpper(w.Str("sasl.mechanism"))
	if jaas := w.Str("sasl.jaas.config"); jaas != "" {
		if entry, err := ParseJAASConfig(jaas); err == nil {
			w.SASLLoginModule = entry.LoginModule
			w.SASLUsername = entry.Options["username"]
			w.SASLPassword = entry.Options["password"]
		}
	}
	w.TruststoreType = strings.ToUpper(w.Str("ssl.truststore.type"))
	w.KeystoreType = strings.ToUpper(w.Str("ssl.keystore.type"))
	w.CAFile = w.Str("ssl.truststore.location")
	w.CertFile = w.Str("ssl.keystore.location")
	w.KeyFile = w.CertFile
	w.CAPEM = w.Str("ssl.truststore.certificates")
	w.CertPEM = w.Str("ssl.keystore.certificate.chain")
	w.KeyPEM = w.Str("ssl.keystore.key")
	w.KeyPassword = w.Str("ssl.key.password")
}

// Get returns a key's raw value as Java's Properties holds it.
func (w *Config) Get(key string) (string, bool) {
	v, ok := w.Props[key]
	return v, ok
}

// Has reports whether the file sets key.
func (w *Config) Has(key string) bool {
	_, ok := w.Props[key]
	return ok
}

// Str returns a key's value trimmed as Kafka's ConfigDef trims strings; "" when unset.
func (w *Config) Str(key string) string {
	return strings.TrimSpace(w.Props[key])
}

// List returns a comma-separated list value the way Kafka's ConfigDef splits
// it (split on commas, items trimmed, empty value = empty list).
func (w *Config) List(key string) []string {
	v := w.Str(key)
	if v == "" {
		return nil
	}
	parts := strings.Split(v, ",")
	out := make([]string, 0, len(parts))
	for _, s := range parts {
		out = append(out, strings.TrimSpace(s))
	}
	return out
}

// Keys returns all keys of the file, sorted.
func (w *Config) Keys() []string {
	return slices.Sorted(maps.Keys(w.Props))
}

// Name is the file's base name, for findings and tables.
func (w *Config) Name() string {
	if i := strings.LastIndexAny(w.Path, `/\`); i >= 0 {
		return w.Path[i+1:]
	}
	return w.Path
}

// TopicNames returns the three storage topics, with Connect's documented
// defaults for any the file does not set.
func (w *Config) TopicNames() inspect.TopicNames {
	t := inspect.DefaultTopicNames()
	if w.ConfigTopic != "" {
		t.Config = w.ConfigTopic
	}
	if w.OffsetTopic != "" {
		t.Offset = w.OffsetTopic
	}
	if w.StatusTopic != "" {
		t.Status = w.StatusTopic
	}
	return t
}

// Bootstrap returns bootstrap.servers for connecting, or an error when it is
// missing or a config-provider reference connectscope cannot resolve.
func (w *Config) Bootstrap() ([]string, error) {
	if ref, ok := w.ProviderRefs["bootstrap.servers"]; ok {
		return nil, setting.Errorf("%s: bootstrap.servers = %q is a config-provider reference connectscope does not resolve; pass %v", w.Path, providerRefsOnly(ref), setting.BootstrapServers)
	}
	if len(w.BootstrapServers) == 0 {
		return nil, setting.Errorf("%s: bootstrap.servers is not set; pass %v", w.Path, setting.BootstrapServers)
	}
	return w.BootstrapServers, nil
}

// SASLCredentials returns the mechanism, user and password for connecting
// with SASL PLAIN or SCRAM, or an error saying why the file cannot supply them.
func (w *Config) SASLCredentials() (mechanism, user, password string, err error) {
	mechanism = w.SASLMechanism
	if mechanism == "" {
		mechanism = "GSSAPI"
	}
	if ref, ok := w.ProviderRefs["sasl.jaas.config"]; ok {
		// The reference may cover only the password or the whole JAAS text.
		entry, perr := ParseJAASConfig(w.Str("sasl.jaas.config"))
		if perr != nil || HasProviderRef(entry.Options["username"]) || HasProviderRef(entry.Options["password"]) || HasProviderRef(entry.LoginModule) {
			return mechanism, "", "", fmt.Errorf("%s: sasl.jaas.config uses a config-provider reference (%s) connectscope does not resolve; put the resolved value in a copy of the file", w.Path, providerRefsOnly(ref))
		}
	}
	switch mechanism {
	case "PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512":
	default:
		return mechanism, "", "", fmt.Errorf("%s: sasl.mechanism %s is not supported by connectscope (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512 are)", w.Path, mechanism)
	}
	jaas := w.Str("sasl.jaas.config")
	if jaas == "" {
		return mechanism, "", "", fmt.Errorf("%s: sasl.mechanism=%s but sasl.jaas.config is not set", w.Path, mechanism)
	}
	entry, perr := ParseJAASConfig(jaas)
	if perr != nil {
		return mechanism, "", "", fmt.Errorf("%s: sasl.jaas.config: %w", w.Path, perr)
	}
	if entry.Options["username"] == "" {
		return mechanism, "", "", fmt.Errorf("%s: sasl.jaas.config (%s) has no username option", w.Path, safeModuleName(entry.LoginModule))
	}
	return mechanism, entry.Options["username"], entry.Options["password"], nil
}

// joinJavaContinuations joins continued lines exactly as Java's
// Properties.LineReader does (a line ending in an odd number of backslashes
// continues; the next line's leading blanks are dropped; comment lines never
// continue) so that keys split over lines and a backslash at end of file
// behave as in Java. The result has one logical line per line.
func joinJavaContinuations(s string) string {
	if !strings.Contains(s, "\\") {
		return s
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	lines := strings.Split(s, "\n")
	var b strings.Builder
	b.Grow(len(s))
	continuing := false
	for _, line := range lines {
		if continuing {
			line = strings.TrimLeft(line, " \t\f")
		} else {
			trimmed := strings.TrimLeft(line, " \t\f")
			if trimmed == "" || trimmed[0] == '#' || trimmed[0] == '!' {
				b.WriteString(line)
				b.WriteByte('\n')
				continue
			}
		}
		n := 0
		for i := len(line) - 1; i >= 0 && line[i] == '\\'; i-- {
			n++
		}
		if n%2 == 1 {
			b.WriteString(line[:len(line)-1])
			continuing = true
			continue
		}
		b.WriteString(line)
		b.WriteByte('\n')
		continuing = false
	}
	return b.String()
}

// List reads a list setting as Connect does: comma-separated values,
// trimmed, blanks dropped. Several values (a flag given more than once) read
// as one list.
func List(values ...string) []string {
	var out []string
	for _, v := range values {
		for _, s := range strings.Split(v, ",") {
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, s)
			}
		}
	}
	return out
}
