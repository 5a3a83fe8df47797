package cli

import (
	"os"
	"slices"
	"strings"
	"time"

	"github.com/connectscope/connectscope/format"
	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/live"
	"github.com/connectscope/connectscope/inspect/workerconfig"
	urfave "github.com/urfave/cli/v2"
)

// Globals are the global flags after the worker config file and the
// environment have been laid under them. Commands read these, never the flags.
type Globals struct {
	// Bootstrap is -b, or the first worker config's bootstrap.servers. Empty
	// means nothing live was asked for.
	Bootstrap []string
	// WorkerConfigs are the --worker-config files (globs expanded), parsed, in
	// the order given. Connection settings and names come from the first.
	WorkerConfigs []*workerconfig.Config
	Group         string
	Topics        inspect.TopicNames
	From          string // --from FILE; "" = read live
	Output        string // table, wide, json, jsonl, yaml, schema (or a command's own format)
	JQ            string
	JQVars        []format.JQVar // --arg and --argjson
	ShowSecrets   bool
	NoColor       bool
	NoHeaders     bool
	// Width is what default tables fit: COLUMNS, else the terminal's
	// width when stdout is one; 0 (no limit) for a pipe or a file.
	Width   int
	Timeout time.Duration
	TLS     TLSOptions
	SASL    SASLOptions
	// Isolation is read_committed or read_uncommitted: --isolation, else what
	// the workers use (exactly.once.source.support=enabled means committed).
	Isolation string

	// Context is the named cluster in use ("" = none): --context, its
	// variable, or the config file's current-context (globals_context.go).
	Context string

	explicit    map[string]bool // flags given on the command line or in the environment
	fromContext map[string]bool // flags whose value came from the context
	// contextErr is a named-cluster config file that could not be read; only
	// a command that reads a cluster fails on it.
	contextErr error
}

// TLSOptions are the --tls* flags.
type TLSOptions struct {
	Enabled            bool
	CAFile             string
	CertFile, KeyFile  string
	ServerName         string
	InsecureSkipVerify bool
}

// SASLOptions are the --sasl-* flags.
type SASLOptions struct {
	Mechanism string // PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512 (upper-cased); "" = none
	User      string
	Password  string
}

// Explicit reports whether a global flag was given (on the command line or
// through its environment variable), as opposed to a default or a value taken
// from the worker config.
func (g Globals) Explicit(flag string) bool { return g.explicit[flag] }

// Live reports whether the command should read a live cluster.
func (g Globals) Live() bool { return g.From == "" && len(g.Bootstrap) > 0 }

// FormatOptions are the options every command's output goes through.
func (g Globals) FormatOptions() format.Options {
	return format.Options{Output: g.Output, JQ: g.JQ, JQVars: g.JQVars, NoColor: g.NoColor, NoHeaders: g.NoHeaders, Width: g.Width}
}

// globalsFrom resolves the global flags for the command running in c: a flag
// typed after the command name beats one typed before it, which beats the
// environment, which beats the worker config file, which beats the default.
func globalsFrom(c *urfave.Context, spec Spec) (Globals, error) {
	r := newFlagResolver(c)
	g := Globals{
		Bootstrap:   SplitList([]string{r.string(FlagBootstrap)}),
		Group:       r.string(FlagGroup),
		Topics:      inspect.TopicNames{Config: r.string(FlagConfigTopic), Offset: r.string(FlagOffsetTopic), Status: r.string(FlagStatusTopic)},
		From:        r.string(FlagFrom),
		Output:      r.string(FlagOutput),
		JQ:          r.string(FlagJQ),
		ShowSecrets: r.bool(FlagShowSecrets),
		NoColor:     r.bool(FlagNoColor) || os.Getenv("NO_COLOR") != "",
		NoHeaders:   r.bool(FlagNoHeaders),
		Width:       outputWidth(c),
		Timeout:     r.duration(FlagTimeout),
		TLS: TLSOptions{
			Enabled:            r.bool(FlagTLS),
			CAFile:             r.string(FlagTLSCA),
			CertFile:           r.string(FlagTLSCert),
			KeyFile:            r.string(FlagTLSKey),
			ServerName:         r.string(FlagTLSServerName),
			InsecureSkipVerify: r.bool(FlagTLSInsecure),
		},
		SASL: SASLOptions{
			Mechanism: strings.ToUpper(r.string(FlagSASLMechanism)),
			User:      r.string(FlagSASLUser),
			Password:  r.string(FlagSASLPassword),
		},
		Isolation: r.string(FlagIsolation),
		explicit:  map[string]bool{},
	}
	for _, names := range globalFlagNamesInOrder() {
		if name := names[0]; r.isSet(name) {
			g.explicit[name] = true
		}
	}
	vars, err := jqVars(r.pairs(FlagArg), r.pairs(FlagArgJSON))
	if err != nil {
		return g, err
	}
	if err := needJQ(g.JQ, r.pairs(FlagArg), r.pairs(FlagArgJSON)); err != nil {
		return g, err
	}
	g.JQVars = vars
	patterns, err := g.applyContext(r, spec)
	if err != nil {
		return g, err
	}
	extra, _ := c.App.Metadata[outputsKey].([]string)
	if err := g.validate(extra); err != nil {
		return g, err
	}
	if err := g.loadWorkerConfigs(patterns); err != nil {
		return g, err
	}
	if g.Isolation == "" {
		eos := ""
		if len(g.WorkerConfigs) > 0 {
			eos = g.WorkerConfigs[0].ExactlyOnceSourceSupport
		}
		g.Isolation = live.IsolationFor(eos)
	}
	return g, nil
}

// outputWidth is the width tables fit on this run's standard output.
func outputWidth(c *urfave.Context) int {
	f, _ := c.App.Writer.(*os.File)
	return format.TerminalWidth(f)
}

// validate rejects flag values and combinations that cannot work, before
// anything is read.
// extra are the formats some verb offers besides the built-in ones (plan's
// mermaid): they pass here, and format.Write rejects them, listing what
// that result offers, if it does not.
func (g Globals) validate(extra []string) error {
	if !slices.Contains(extra, g.Output) {
		if err := format.CheckOutput(g.Output); err != nil {
			return err
		}
	}
	if g.JQ != "" {
		if _, err := format.CompileJQ(g.JQ, g.JQVars...); err != nil {
			return err
		}
		if g.explicit[FlagOutput] && g.Output != format.OutputJSON && g.Output != format.OutputJSONL {
			return UsageErrorf("--jq prints values of the JSON output; it cannot be combined with -o %s", g.Output)
		}
	}
	if g.From != "" {
		for _, f := range []string{FlagBootstrap, FlagTLS, FlagTLSCA, FlagTLSCert, FlagTLSKey, FlagSASLMechanism, FlagSASLUser, FlagIsolation} {
			if g.explicit[f] {
				return UsageErrorf("--from reads a file; it cannot be combined with --%s, which is for live clusters", f)
			}
		}
	}
	if g.Timeout <= 0 {
		return UsageErrorf("--timeout must be positive, not %s", g.Timeout)
	}
	if err := checkBootstrap(g.Bootstrap, "-b/--bootstrap-server"); err != nil {
		return err
	}
	if (g.TLS.CertFile == "") != (g.TLS.KeyFile == "") {
		return UsageErrorf("--tls-cert and --tls-key go together")
	}
	switch g.SASL.Mechanism {
	case "", "PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512":
	default:
		return UsageErrorf("--sasl-mechanism %q is not supported: use PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512", g.SASL.Mechanism)
	}
	if g.SASL.Mechanism == "" && (g.SASL.User != "" || g.SASL.Password != "") && !g.setAbove(FlagWorkerConfig) {
		return UsageErrorf("--sasl-user and --sasl-password need --sasl-mechanism")
	}
	switch g.Isolation {
	case "", live.ReadCommitted, live.ReadUncommitted:
	default:
		return UsageErrorf("--isolation %q: use %s or %s", g.Isolation, live.ReadCommitted, live.ReadUncommitted)
	}
	return nil
}

// SplitList accepts both repeated and comma-separated values.
func SplitList(in []string) []string { return workerconfig.List(in...) }
