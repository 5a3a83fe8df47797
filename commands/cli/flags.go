package cli

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/connectscope/connectscope/format"
	urfave "github.com/urfave/cli/v2"
)

// Names of the global flags.
const (
	FlagBootstrap     = "bootstrap-server"
	FlagWorkerConfig  = "worker-config"
	FlagGroup         = "group"
	FlagConfigTopic   = "config-topic"
	FlagOffsetTopic   = "offset-topic"
	FlagStatusTopic   = "status-topic"
	FlagFrom          = "from"
	FlagOutput        = "output"
	FlagJQ            = "jq"
	FlagShowSecrets   = "show-secrets"
	FlagNoColor       = "no-color"
	FlagNoHeaders     = "no-headers"
	FlagTimeout       = "timeout"
	FlagTLS           = "tls"
	FlagTLSCA         = "tls-ca"
	FlagTLSCert       = "tls-cert"
	FlagTLSKey        = "tls-key"
	FlagTLSServerName = "tls-server-name"
	FlagTLSInsecure   = "tls-insecure-skip-verify"
	FlagSASLMechanism = "sasl-mechanism"
	FlagSASLUser      = "sasl-user"
	FlagSASLPassword  = "sasl-password"
	FlagIsolation     = "isolation"
)

const (
	catInput      = "Input"
	catOutput     = "Output"
	catConnection = "Connection"
)

// envName is the environment variable that sets a global flag.
func envName(flag string) string {
	return "CONNECTSCOPE_" + strings.ToUpper(strings.ReplaceAll(flag, "-", "_"))
}

// globalFlags builds a fresh set of the global flags. Every command gets its
// own copy (urfave flags keep parse state), so they work before or after the
// command name: `connectscope -o json inspect configs` and
// `connectscope inspect configs -o json` mean the same. Only the copy on the
// application reads the environment; the others show the variable in their
// help text, so a flag typed after the command always beats the environment.
func globalFlags(readEnv bool) []urfave.Flag {
	if readEnv {
		return buildGlobalFlags(true)
	}
	flags := globalFlagsHelpOnly()
	copies := make([]urfave.Flag, len(flags))
	for i, f := range flags {
		copies[i] = freshCopy(f)
	}
	return copies
}

// globalFlagsHelpOnly are the global flags that read no environment, built
// once: building them words every usage line again, and every command gets
// a copy. They are never parsed; commands get fresh copies of them.
var globalFlagsHelpOnly = sync.OnceValue(func() []urfave.Flag { return buildGlobalFlags(false) })

// freshCopy is f, unparsed, as a new flag of its own.
func freshCopy(f urfave.Flag) urfave.Flag {
	switch f := f.(type) {
	case *urfave.StringFlag:
		return clone(f)
	case *urfave.StringSliceFlag:
		return clone(f)
	case *urfave.BoolFlag:
		return clone(f)
	case *urfave.DurationFlag:
		return clone(f)
	case *urfave.GenericFlag:
		c := clone(f)
		c.Value = &pairList{}
		return c
	}
	panic(fmt.Sprintf("global flag of an unexpected kind %T", f))
}

func clone[T any](f *T) *T { c := *f; return &c }

func buildGlobalFlags(readEnv bool) []urfave.Flag {
	// An empty variable counts as unset, as if it were not exported.
	active := func(name string) bool { return readEnv && os.Getenv(envName(name)) != "" }
	env := func(name string) []string {
		if active(name) {
			return []string{envName(name)}
		}
		return nil
	}
	usage := func(name, text string) string {
		if active(name) {
			return text // urfave appends [$VAR] itself
		}
		return fmt.Sprintf("%s [$%s]", text, envName(name))
	}
	outputs := strings.Join(format.Outputs(), "|")
	return []urfave.Flag{
		// Input
		&urfave.StringFlag{Name: FlagBootstrap, Aliases: []string{"b"}, Category: catInput, EnvVars: env(FlagBootstrap),
			Usage: usage(FlagBootstrap, "Kafka bootstrap servers `HOSTS` (host:port, comma-separated); read the cluster live")},
		&urfave.StringFlag{Name: FlagContext, Category: catInput, EnvVars: env(FlagContext),
			Usage: usage(FlagContext, "use the named cluster `NAME` from the config file (connectscope config get-contexts)")},
		&urfave.StringSliceFlag{Name: FlagWorkerConfig, Category: catInput, EnvVars: env(FlagWorkerConfig),
			Usage: usage(FlagWorkerConfig, "Connect worker .properties `FILE` (repeatable; globs like 'workers/*.properties'); flags override its settings")},
		&urfave.StringFlag{Name: FlagGroup, Aliases: []string{"g"}, Value: "connect-cluster", Category: catInput, EnvVars: env(FlagGroup),
			Usage: usage(FlagGroup, "Connect group `ID` (group.id)")},
		&urfave.StringFlag{Name: FlagConfigTopic, Value: "connect-configs", Category: catInput, EnvVars: env(FlagConfigTopic),
			Usage: usage(FlagConfigTopic, "config topic `NAME` (config.storage.topic)")},
		&urfave.StringFlag{Name: FlagOffsetTopic, Value: "connect-offsets", Category: catInput, EnvVars: env(FlagOffsetTopic),
			Usage: usage(FlagOffsetTopic, "offsets topic `NAME` (offset.storage.topic)")},
		&urfave.StringFlag{Name: FlagStatusTopic, Value: "connect-status", Category: catInput, EnvVars: env(FlagStatusTopic),
			Usage: usage(FlagStatusTopic, "status topic `NAME` (status.storage.topic)")},
		&urfave.StringFlag{Name: FlagFrom, Category: catInput, EnvVars: env(FlagFrom),
			Usage: usage(FlagFrom, "read a snapshot or kcat -J dump `FILE` instead of a live cluster")},
		&urfave.DurationFlag{Name: FlagTimeout, Value: 30 * time.Second, Category: catInput, EnvVars: env(FlagTimeout),
			Usage: usage(FlagTimeout, "give up on the cluster after this `DURATION`")},
		// Output
		&urfave.StringFlag{Name: FlagOutput, Aliases: []string{"o"}, Value: format.OutputTable, Category: catOutput, EnvVars: env(FlagOutput),
			Usage: usage(FlagOutput, "output `FORMAT`: "+outputs)},
		&urfave.StringFlag{Name: FlagJQ, Category: catOutput, EnvVars: env(FlagJQ),
			Usage: usage(FlagJQ, "print what the jq `EXPRESSION` selects from the JSON output (strings raw; with -o jsonl each line is one input)")},
		&urfave.GenericFlag{Name: FlagArg, Category: catOutput, Value: &pairList{},
			Usage: "the --jq expression reads the string VALUE as $NAME, as jq's --arg (`NAME VALUE`; repeatable; $ENV holds the environment)"},
		&urfave.GenericFlag{Name: FlagArgJSON, Category: catOutput, Value: &pairList{},
			Usage: "the --jq expression reads the JSON value as $NAME, as jq's --argjson (`NAME JSON`; repeatable)"},
		&urfave.BoolFlag{Name: FlagShowSecrets, Category: catOutput, EnvVars: env(FlagShowSecrets),
			Usage: usage(FlagShowSecrets, "show config values that look secret instead of [redacted]")},
		&urfave.BoolFlag{Name: FlagNoColor, Category: catOutput, EnvVars: env(FlagNoColor),
			Usage: usage(FlagNoColor, "never colour tables (also when NO_COLOR is set)")},
		&urfave.BoolFlag{Name: FlagNoHeaders, Category: catOutput, EnvVars: env(FlagNoHeaders),
			Usage: usage(FlagNoHeaders, "print table rows only, for awk and cut: no titles, column headers or notes; a blank line between tables; each cell one word (lists joined by commas, an empty cell -)")},
		// Connection
		&urfave.BoolFlag{Name: FlagTLS, Category: catConnection, EnvVars: env(FlagTLS),
			Usage: usage(FlagTLS, "connect with TLS")},
		&urfave.StringFlag{Name: FlagTLSCA, Category: catConnection, EnvVars: env(FlagTLSCA),
			Usage: usage(FlagTLSCA, "PEM `FILE` of CA certificates to trust (implies --tls)")},
		&urfave.StringFlag{Name: FlagTLSCert, Category: catConnection, EnvVars: env(FlagTLSCert),
			Usage: usage(FlagTLSCert, "PEM client certificate `FILE` (with --tls-key)")},
		&urfave.StringFlag{Name: FlagTLSKey, Category: catConnection, EnvVars: env(FlagTLSKey),
			Usage: usage(FlagTLSKey, "PEM client key `FILE` (with --tls-cert)")},
		&urfave.StringFlag{Name: FlagTLSServerName, Category: catConnection, EnvVars: env(FlagTLSServerName),
			Usage: usage(FlagTLSServerName, "expected `NAME` in the broker certificate")},
		&urfave.BoolFlag{Name: FlagTLSInsecure, Category: catConnection, EnvVars: env(FlagTLSInsecure),
			Usage: usage(FlagTLSInsecure, "do not verify the broker certificate (testing only)")},
		&urfave.StringFlag{Name: FlagSASLMechanism, Category: catConnection, EnvVars: env(FlagSASLMechanism),
			Usage: usage(FlagSASLMechanism, "SASL `MECHANISM`: PLAIN|SCRAM-SHA-256|SCRAM-SHA-512")},
		&urfave.StringFlag{Name: FlagSASLUser, Category: catConnection, EnvVars: env(FlagSASLUser),
			Usage: usage(FlagSASLUser, "SASL `USER`")},
		&urfave.StringFlag{Name: FlagSASLPassword, Category: catConnection, EnvVars: env(FlagSASLPassword),
			Usage: usage(FlagSASLPassword, "SASL `PASSWORD` (prefer the environment variable)")},
		&urfave.StringFlag{Name: FlagIsolation, Category: catConnection, EnvVars: env(FlagIsolation),
			Usage: usage(FlagIsolation, "read the topics at isolation `LEVEL`: read_committed|read_uncommitted (default: as the workers read, from exactly.once.source.support)")},
	}
}
