package commands

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/connectscope/connectscope/format"
	"github.com/urfave/cli/v2"
)

// Names of the global flags.
const (
	flagBootstrap     = "bootstrap-server"
	flagWorkerConfig  = "worker-config"
	flagGroup         = "group"
	flagConfigTopic   = "config-topic"
	flagOffsetTopic   = "offset-topic"
	flagStatusTopic   = "status-topic"
	flagFrom          = "from"
	flagOutput        = "output"
	flagJQ            = "jq"
	flagShowSecrets   = "show-secrets"
	flagNoColor       = "no-color"
	flagNoHeaders     = "no-headers"
	flagTimeout       = "timeout"
	flagTLS           = "tls"
	flagTLSCA         = "tls-ca"
	flagTLSCert       = "tls-cert"
	flagTLSKey        = "tls-key"
	flagTLSServerName = "tls-server-name"
	flagTLSInsecure   = "tls-insecure-skip-verify"
	flagSASLMechanism = "sasl-mechanism"
	flagSASLUser      = "sasl-user"
	flagSASLPassword  = "sasl-password"
	flagIsolation     = "isolation"
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
func globalFlags(readEnv bool) []cli.Flag {
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
	return []cli.Flag{
		// Input
		&cli.StringFlag{Name: flagBootstrap, Aliases: []string{"b"}, Category: catInput, EnvVars: env(flagBootstrap),
			Usage: usage(flagBootstrap, "Kafka bootstrap servers `HOSTS` (host:port, comma-separated); read the cluster live")},
		&cli.StringFlag{Name: flagContext, Category: catInput, EnvVars: env(flagContext),
			Usage: usage(flagContext, "use the named cluster `NAME` from the config file (connectscope config get-contexts)")},
		&cli.StringSliceFlag{Name: flagWorkerConfig, Category: catInput, EnvVars: env(flagWorkerConfig),
			Usage: usage(flagWorkerConfig, "Connect worker .properties `FILE` (repeatable; globs like 'workers/*.properties'); flags override its settings")},
		&cli.StringFlag{Name: flagGroup, Aliases: []string{"g"}, Value: "connect-cluster", Category: catInput, EnvVars: env(flagGroup),
			Usage: usage(flagGroup, "Connect group `ID` (group.id)")},
		&cli.StringFlag{Name: flagConfigTopic, Value: "connect-configs", Category: catInput, EnvVars: env(flagConfigTopic),
			Usage: usage(flagConfigTopic, "config topic `NAME` (config.storage.topic)")},
		&cli.StringFlag{Name: flagOffsetTopic, Value: "connect-offsets", Category: catInput, EnvVars: env(flagOffsetTopic),
			Usage: usage(flagOffsetTopic, "offsets topic `NAME` (offset.storage.topic)")},
		&cli.StringFlag{Name: flagStatusTopic, Value: "connect-status", Category: catInput, EnvVars: env(flagStatusTopic),
			Usage: usage(flagStatusTopic, "status topic `NAME` (status.storage.topic)")},
		&cli.StringFlag{Name: flagFrom, Category: catInput, EnvVars: env(flagFrom),
			Usage: usage(flagFrom, "read a snapshot or kcat -J dump `FILE` instead of a live cluster")},
		&cli.DurationFlag{Name: flagTimeout, Value: 30 * time.Second, Category: catInput, EnvVars: env(flagTimeout),
			Usage: usage(flagTimeout, "give up on the cluster after this `DURATION`")},
		// Output
		&cli.StringFlag{Name: flagOutput, Aliases: []string{"o"}, Value: format.OutputTable, Category: catOutput, EnvVars: env(flagOutput),
			Usage: usage(flagOutput, "output `FORMAT`: "+outputs)},
		&cli.StringFlag{Name: flagJQ, Category: catOutput, EnvVars: env(flagJQ),
			Usage: usage(flagJQ, "print what the jq `EXPRESSION` selects from the JSON output (strings raw; with -o jsonl each line is one input)")},
		&cli.BoolFlag{Name: flagShowSecrets, Category: catOutput, EnvVars: env(flagShowSecrets),
			Usage: usage(flagShowSecrets, "show config values that look secret instead of [redacted]")},
		&cli.BoolFlag{Name: flagNoColor, Category: catOutput, EnvVars: env(flagNoColor),
			Usage: usage(flagNoColor, "never colour tables (also when NO_COLOR is set)")},
		&cli.BoolFlag{Name: flagNoHeaders, Category: catOutput, EnvVars: env(flagNoHeaders),
			Usage: usage(flagNoHeaders, "print table rows only: no titles, column headers or notes (for scripts)")},
		// Connection
		&cli.BoolFlag{Name: flagTLS, Category: catConnection, EnvVars: env(flagTLS),
			Usage: usage(flagTLS, "connect with TLS")},
		&cli.StringFlag{Name: flagTLSCA, Category: catConnection, EnvVars: env(flagTLSCA),
			Usage: usage(flagTLSCA, "PEM `FILE` of CA certificates to trust (implies --tls)")},
		&cli.StringFlag{Name: flagTLSCert, Category: catConnection, EnvVars: env(flagTLSCert),
			Usage: usage(flagTLSCert, "PEM client certificate `FILE` (with --tls-key)")},
		&cli.StringFlag{Name: flagTLSKey, Category: catConnection, EnvVars: env(flagTLSKey),
			Usage: usage(flagTLSKey, "PEM client key `FILE` (with --tls-cert)")},
		&cli.StringFlag{Name: flagTLSServerName, Category: catConnection, EnvVars: env(flagTLSServerName),
			Usage: usage(flagTLSServerName, "expected `NAME` in the broker certificate")},
		&cli.BoolFlag{Name: flagTLSInsecure, Category: catConnection, EnvVars: env(flagTLSInsecure),
			Usage: usage(flagTLSInsecure, "do not verify the broker certificate (testing only)")},
		&cli.StringFlag{Name: flagSASLMechanism, Category: catConnection, EnvVars: env(flagSASLMechanism),
			Usage: usage(flagSASLMechanism, "SASL `MECHANISM`: PLAIN|SCRAM-SHA-256|SCRAM-SHA-512")},
		&cli.StringFlag{Name: flagSASLUser, Category: catConnection, EnvVars: env(flagSASLUser),
			Usage: usage(flagSASLUser, "SASL `USER`")},
		&cli.StringFlag{Name: flagSASLPassword, Category: catConnection, EnvVars: env(flagSASLPassword),
			Usage: usage(flagSASLPassword, "SASL `PASSWORD` (prefer the environment variable)")},
		&cli.StringFlag{Name: flagIsolation, Category: catConnection, EnvVars: env(flagIsolation),
			Usage: usage(flagIsolation, "read the topics at isolation `LEVEL`: read_committed|read_uncommitted (default: as the workers read, from exactly.once.source.support)")},
	}
}
