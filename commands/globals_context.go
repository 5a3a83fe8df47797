package commands

import (
	"errors"
	"strings"

	"github.com/connectscope/connectscope/contexts"
	"github.com/urfave/cli/v2"
)

const flagContext = "context"

// applyContext lays the named cluster (--context, $CONNECTSCOPE_CONTEXT,
// else the file's current-context) under the flags and the environment: a
// context value counts only where neither set the flag. It returns the
// worker config patterns to read (the flag's, else the context's).
func (g *Globals) applyContext(r flagResolver) ([]string, error) {
	patterns := r.strings(flagWorkerConfig)
	if underCommand(r.c, "config") {
		// The config commands read the file themselves, and must work on a
		// file whose current context is broken, to repair it.
		return patterns, nil
	}
	name := r.string(flagContext)
	if name == "" && r.isSet(flagContext) {
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
		return nil, notFound(err)
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
	if ctx.BootstrapServer != "" && !g.explicit[flagBootstrap] {
		g.Bootstrap = splitList([]string{ctx.BootstrapServer})
		g.fromContext[flagBootstrap] = true
	}
	str(flagGroup, &g.Group, ctx.Group)
	str(flagConfigTopic, &g.Topics.Config, ctx.ConfigTopic)
	str(flagOffsetTopic, &g.Topics.Offset, ctx.OffsetTopic)
	str(flagStatusTopic, &g.Topics.Status, ctx.StatusTopic)
	str(flagIsolation, &g.Isolation, ctx.Isolation)
	if ctx.Timeout > 0 && !g.explicit[flagTimeout] {
		g.Timeout = ctx.Timeout
		g.fromContext[flagTimeout] = true
	}
	boolean(flagTLS, &g.TLS.Enabled, ctx.TLS)
	str(flagTLSCA, &g.TLS.CAFile, ctx.TLSCA)
	str(flagTLSCert, &g.TLS.CertFile, ctx.TLSCert)
	str(flagTLSKey, &g.TLS.KeyFile, ctx.TLSKey)
	str(flagTLSServerName, &g.TLS.ServerName, ctx.TLSServerName)
	boolean(flagTLSInsecure, &g.TLS.InsecureSkipVerify, ctx.TLSInsecureSkipVerify)
	str(flagSASLMechanism, &g.SASL.Mechanism, strings.ToUpper(ctx.SASLMechanism))
	str(flagSASLUser, &g.SASL.User, ctx.SASLUser)
	if !g.explicit[flagSASLPassword] {
		pass, err := ctx.Password(name)
		if err != nil {
			return nil, InputError(err) // like a file that cannot be read
		}
		str(flagSASLPassword, &g.SASL.Password, pass)
	}
	if len(ctx.WorkerConfig) > 0 && !g.explicit[flagWorkerConfig] {
		patterns = ctx.WorkerConfig
		g.fromContext[flagWorkerConfig] = true
	}
	return patterns, nil
}

// setAbove reports whether a flag's value was given above the worker config
// file: on the command line, in the environment or by the context.
func (g Globals) setAbove(flag string) bool { return g.explicit[flag] || g.fromContext[flag] }

// underCommand reports whether the running command is name or one of its
// subcommands.
func underCommand(c *cli.Context, name string) bool {
	for _, ctx := range c.Lineage() {
		if ctx.Command != nil && ctx.Command.Name == name && ctx.App != nil && ctx.Command.Name != ctx.App.Name {
			return true
		}
	}
	return false
}
