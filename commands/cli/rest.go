package cli

import (
	"os"
	"time"

	"github.com/connectscope/connectscope/inspect/rest"
	"github.com/connectscope/connectscope/inspect/views"
	urfave "github.com/urfave/cli/v2"
)

// Flags of the verbs that ask the workers' REST APIs.
const (
	FlagRESTTimeout  = "rest-timeout"
	FlagRESTTotal    = "rest-total-timeout"
	FlagRESTUser     = "rest-user"
	FlagRESTCA       = "rest-ca"
	FlagRESTCert     = "rest-cert"
	FlagRESTKey      = "rest-key"
	FlagRESTInsecure = "rest-insecure"
	// EnvRESTPassword holds the basic-auth password (never a flag: it
	// would show in the process list and shell history).
	EnvRESTPassword = "CONNECTSCOPE_REST_PASSWORD"
)

// RESTOptions are the flags of a verb that asks every worker's REST API.
type RESTOptions struct {
	PerRequest, Total time.Duration
	User              string
	CA, Cert, Key     string
	Insecure          bool
}

// Flags binds the options.
func (o *RESTOptions) Flags() []urfave.Flag {
	return []urfave.Flag{
		&urfave.DurationFlag{Name: FlagRESTTimeout, Value: rest.DefaultPerRequest, Destination: &o.PerRequest, Usage: "bound of one REST request to a worker (`DURATION`)"},
		&urfave.DurationFlag{Name: FlagRESTTotal, Value: rest.DefaultTotal, Destination: &o.Total, Usage: "bound of asking every worker (`DURATION`, at most --timeout); workers unanswered by then are rows with a timeout"},
		&urfave.StringFlag{Name: FlagRESTUser, Destination: &o.User, Usage: "basic-auth `USER` of the workers' REST API (BasicAuthSecurityRestExtension); the password comes from " + EnvRESTPassword},
		&urfave.StringFlag{Name: FlagRESTCA, Destination: &o.CA, Usage: "PEM `FILE` of the CA that signed the workers' listeners.https certificates"},
		&urfave.StringFlag{Name: FlagRESTCert, Destination: &o.Cert, Usage: "PEM client certificate `FILE`, when the workers set listeners.https.ssl.client.auth=required"},
		&urfave.StringFlag{Name: FlagRESTKey, Destination: &o.Key, Usage: "PEM key `FILE` of --rest-cert"},
		&urfave.BoolFlag{Name: FlagRESTInsecure, Destination: &o.Insecure, Usage: "do not verify the workers' certificates (test clusters only)"},
	}
}

// Client builds the REST client; the global --timeout bounds the round too.
func (o *RESTOptions) Client(e *Env) (*rest.Client, error) {
	per, total := o.PerRequest, o.Total
	if per == 0 {
		per = rest.DefaultPerRequest
	}
	if total == 0 {
		total = rest.DefaultTotal
	}
	if per < 0 || total < 0 {
		return nil, UsageErrorf("--%s and --%s must be positive durations", FlagRESTTimeout, FlagRESTTotal)
	}
	if t := e.Globals.Timeout; t > 0 && total > t {
		total = t
	}
	tlsCfg, err := rest.TLSFiles{CA: o.CA, Cert: o.Cert, Key: o.Key, Insecure: o.Insecure}.Config()
	if err != nil {
		return nil, InputError(err)
	}
	pw := os.Getenv(EnvRESTPassword)
	if o.User == "" && pw != "" {
		return nil, UsageErrorf("%s is set but --%s is not: give the workers' basic-auth user", EnvRESTPassword, FlagRESTUser)
	}
	opts := rest.Options{PerRequest: per, Total: total, TLS: tlsCfg, Username: o.User, Password: pw}
	if !e.Globals.ShowSecrets {
		opts.Redact = views.RedactText
	}
	if e.HTTP != nil {
		opts.Transport = e.HTTP.Transport
	}
	return rest.New(opts), nil
}
