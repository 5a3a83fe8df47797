package contexts

import (
	"strings"
	"time"

	"github.com/connectscope/connectscope/format"
)

// List is the `config get-contexts` view.
type List struct {
	Path           string  `json:"path"`
	Exists         bool    `json:"exists"`
	CurrentContext *string `json:"current_context"` // null when none is set
	Contexts       []Entry `json:"contexts"`
}

// Entry is one context with its name, settings it leaves out null; the
// password is shown as its reference only.
type Entry struct {
	Name                  string   `json:"name"`
	Current               bool     `json:"current"`
	BootstrapServer       *string  `json:"bootstrap_server"`
	WorkerConfig          []string `json:"worker_config"`
	Group                 *string  `json:"group"`
	ConfigTopic           *string  `json:"config_topic"`
	OffsetTopic           *string  `json:"offset_topic"`
	StatusTopic           *string  `json:"status_topic"`
	TimeoutMs             *int64   `json:"timeout_ms"`
	Isolation             *string  `json:"isolation"`
	TLS                   bool     `json:"tls"`
	TLSCA                 *string  `json:"tls_ca"`
	TLSCert               *string  `json:"tls_cert"`
	TLSKey                *string  `json:"tls_key"`
	TLSServerName         *string  `json:"tls_server_name"`
	TLSInsecureSkipVerify bool     `json:"tls_insecure_skip_verify"`
	SASLMechanism         *string  `json:"sasl_mechanism"`
	SASLUser              *string  `json:"sasl_user"`
	SASLPasswordEnv       *string  `json:"sasl_password_env"`
	SASLPasswordFile      *string  `json:"sasl_password_file"`
	ctx                   Context
}

func entry(name string, current bool, c Context) Entry {
	e := Entry{Name: name, Current: current, BootstrapServer: opt(c.BootstrapServer), WorkerConfig: c.WorkerConfig,
		Group: opt(c.Group), ConfigTopic: opt(c.ConfigTopic), OffsetTopic: opt(c.OffsetTopic), StatusTopic: opt(c.StatusTopic),
		Isolation: opt(c.Isolation), TLS: c.TLS, TLSCA: opt(c.TLSCA), TLSCert: opt(c.TLSCert), TLSKey: opt(c.TLSKey),
		TLSServerName: opt(c.TLSServerName), TLSInsecureSkipVerify: c.TLSInsecureSkipVerify,
		SASLMechanism: opt(strings.ToUpper(c.SASLMechanism)), SASLUser: opt(c.SASLUser),
		SASLPasswordEnv: opt(shownVariable(c.SASLPasswordEnv)), SASLPasswordFile: opt(c.SASLPasswordFile), ctx: c}
	if e.WorkerConfig == nil {
		e.WorkerConfig = []string{}
	}
	if c.Timeout > 0 {
		ms := c.Timeout.Milliseconds()
		e.TimeoutMs = &ms
	}
	return e
}

func opt(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// View lists the file's contexts, sorted by name.
func (f *File) View() List {
	l := List{Path: f.Path, Exists: f.exists, Contexts: []Entry{}}
	if f.CurrentContext != "" {
		cur := f.CurrentContext
		l.CurrentContext = &cur
	}
	for _, n := range f.Names() {
		l.Contexts = append(l.Contexts, entry(n, n == f.CurrentContext, *f.Contexts[n]))
	}
	return l
}

// Tables shows one row per context, as kubectl config get-contexts does;
// wide adds the topics and TLS files.
func (l List) Tables() []format.Table {
	t := format.Table{Title: "Contexts (" + l.Path + ")",
		Header: []string{"CURRENT", "NAME", "BOOTSTRAP", "GROUP", "WORKER CONFIG", "SECURITY", "TOPICS", "TLS FILES", "TIMEOUT"},
		Wide:   []int{6, 7, 8}, Rows: [][]string{}, Key: []int{0, 1}}
	for _, x := range l.Contexts {
		e := x.ctx
		cur := ""
		if x.Current {
			cur = "*"
		}
		t.Rows = append(t.Rows, []string{cur, x.Name, dash(e.BootstrapServer), dash(e.Group), dash(strings.Join(e.WorkerConfig, ",")),
			security(e), dash(strings.Trim(strings.Join([]string{e.ConfigTopic, e.OffsetTopic, e.StatusTopic}, ","), ",")),
			dash(strings.Trim(strings.Join([]string{e.TLSCA, e.TLSCert, e.TLSKey}, ","), ",")), duration(e.Timeout)})
	}
	if !l.Exists {
		t.Footer = []string{"no config file yet: write one at this path (or set " + EnvConfig + ")"}
	}
	return []format.Table{t}
}

// Items gives one JSON line per context with -o jsonl.
func (l List) Items() []any {
	out := make([]any, len(l.Contexts))
	for i, e := range l.Contexts {
		out[i] = e
	}
	return out
}

func security(c Context) string {
	var parts []string
	if c.TLS || c.TLSCA != "" || c.TLSCert != "" {
		parts = append(parts, "TLS")
	}
	if c.SASLMechanism != "" {
		s := "SASL " + strings.ToUpper(c.SASLMechanism)
		if c.SASLUser != "" {
			s += " " + c.SASLUser
		}
		switch {
		case c.SASLPasswordEnv != "":
			s += " (password $" + shownVariable(c.SASLPasswordEnv) + ")"
		case c.SASLPasswordFile != "":
			s += " (password file)"
		}
		parts = append(parts, s)
	}
	return dash(strings.Join(parts, ", "))
}

// shownVariable is a sasl-password-env value as views show it: a name
// that does not look like a variable's may be a password pasted in its
// place, and is redacted.
func shownVariable(name string) string {
	if name == "" || looksLikeVariableName(name) {
		return name
	}
	return "[redacted]"
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func duration(d time.Duration) string {
	if d == 0 {
		return "-"
	}
	return d.String()
}
