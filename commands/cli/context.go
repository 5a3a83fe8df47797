package cli

import (
	"errors"
	"strings"

	"github.com/connectscope/connectscope/contexts"
)

const FlagContext = "context"

// applyContext lays the named cluster (--context, $CONNECTSCOPE_CONTEXT,
// else the file's current-context) under the flags and the environment: a
// context value counts only where neither set the flag. It returns the
// worker config patterns to read (the flag's, else the context's).
// A verb whose Spec says NoContext (the config verbs, which read the file
// themselves and must work on a file whose current context is broken, to
// repair it) gets none.
func (g *Globals) applyContext(r flagResolver, spec Spec) ([]string, error) {
	patterns := r.strings(FlagWorkerConfig)
	if spec.NoContext {
		return patterns, nil
	}
	name := r.string(FlagContext)
	if name == "" && r.isSet(FlagContext) {
		return nil, UsageErrorf("--context needs a NAME (connectscope config get-contexts lists them)")
	}
	path, err := contexts.DefaultPath()
	if err != nil {
		if name == "" {
			return patterns, nil // no config directory and none asked for
		}
		return nil, Exit(ExitUsage, err)
	}
	file, err := contexts.Load(path)
	if err != nil {
		if name == "" {
			// Read lazily: offline commands never needed the file, and a
			// live read reports it (ConnOptions, loadDataset).
			g.contextErr = Exit(ExitUsage, err)
			return patterns, nil
		}
		return nil, Exit(ExitUsage, err)
	}
	if name == "" {
		name = file.CurrentContext
	}
	if name == "" {
		return patterns, nil
	}
	ctx, err := file.Get(name)
	var nf *contexts.NotFoundError
	if errors.As(err, &nf) {
		return nil, NotFound(err)
	}
	g.Context = name
	g.fromContext = map[string]bool{}
	str := func(flag string, dst *string, v string) {
		if v != "" && !g.explicit[flag] {
			*dst = v
			g.fromContext[flag] = true
		}
	}
	boolean := func(flag string, dst *bool, v bool) {
		if v && !g.explicit[flag] {
			*dst = v
			g.fromContext[flag] = true
		}
	}
	if ctx.BootstrapServer != "" && !g.explicit[FlagBootstrap] {
		g.Bootstrap = SplitList([]string{ctx.BootstrapServer})
		g.fromContext[FlagBootstrap] = true
	}
	str(FlagGroup, &g.Group, ctx.Group)
	str(FlagConfigTopic, &g.Topics.Config, ctx.ConfigTopic)
	str(FlagOffsetTopic, &g.Topics.Offset, ctx.OffsetTopic)
	str(FlagStatusTopic, &g.Topics.Status, ctx.StatusTopic)
	str(FlagIsolation, &g.Isolation, ctx.Isolation)
	if ctx.Timeout > 0 && !g.explicit[FlagTimeout] {
		g.Timeout = ctx.Timeout
		g.fromContext[FlagTimeout] = true
	}
	boolean(FlagTLS, &g.TLS.Enabled, ctx.TLS)
	str(FlagTLSCA, &g.TLS.CAFile, ctx.TLSCA)
	str(FlagTLSCert, &g.TLS.CertFile, ctx.TLSCert)
	str(FlagTLSKey, &g.TLS.KeyFile, ctx.TLSKey)
	str(FlagTLSServerName, &g.TLS.ServerName, ctx.TLSServerName)
	boolean(FlagTLSInsecure, &g.TLS.InsecureSkipVerify, ctx.TLSInsecureSkipVerify)
	str(FlagSASLMechanism, &g.SASL.Mechanism, strings.ToUpper(ctx.SASLMechanism))
	str(FlagSASLUser, &g.SASL.User, ctx.SASLUser)
	if !g.explicit[FlagSASLPassword] {
		pass, err := ctx.Password(name)
		if err != nil {
			return nil, InputError(err) // like a file that cannot be read
		}
		str(FlagSASLPassword, &g.SASL.Password, pass)
	}
	if len(ctx.WorkerConfig) > 0 && !g.explicit[FlagWorkerConfig] {
		patterns = ctx.WorkerConfig
		g.fromContext[FlagWorkerConfig] = true
	}
	return patterns, nil
}

// setAbove reports whether a flag's value was given above the worker config
// file: on the command line, in the environment or by the context.
func (g Globals) setAbove(flag string) bool { return g.explicit[flag] || g.fromContext[flag] }

// FromContext says the flag's value came from the named cluster's context
// (a plan names the source of each setting).
func (g Globals) FromContext(flag string) bool { return g.fromContext[flag] }
