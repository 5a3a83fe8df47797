package cli

import (
	"errors"
	"io/fs"

	"github.com/connectscope/connectscope/inspect/live"
	"github.com/connectscope/connectscope/inspect/workerconfig"
)

// loadWorkerConfigs reads the --worker-config files and takes from the first
// whatever the flags left unset.
func (g *Globals) loadWorkerConfigs(patterns []string) error {
	if len(patterns) == 0 {
		return nil
	}
	paths, err := workerconfig.ExpandPaths(patterns)
	if err != nil {
		return InputError(err)
	}
	for _, p := range paths {
		w, err := workerconfig.Load(p)
		if err != nil {
			var pe *fs.PathError
			if errors.As(err, &pe) {
				return InputError(err) // missing or unreadable
			}
			return Exit(ExitUsage, err) // read, but not a properties file we can use
		}
		g.WorkerConfigs = append(g.WorkerConfigs, w)
	}
	first := g.WorkerConfigs[0]
	if !g.setAbove(FlagBootstrap) && g.From == "" {
		g.Bootstrap = first.BootstrapServers
		if _, ref := first.ProviderRefs["bootstrap.servers"]; !ref { // a reference is refused later, by name
			if err := checkBootstrap(g.Bootstrap, first.Path+": bootstrap.servers"); err != nil {
				return err
			}
		}
	}
	if !g.setAbove(FlagGroup) && first.GroupID != "" {
		g.Group = first.GroupID
	}
	names := first.TopicNames()
	if !g.setAbove(FlagConfigTopic) {
		g.Topics.Config = names.Config
	}
	if !g.setAbove(FlagOffsetTopic) {
		g.Topics.Offset = names.Offset
	}
	if !g.setAbove(FlagStatusTopic) {
		g.Topics.Status = names.Status
	}
	return nil
}

// ConnOptions are the connection settings for a live read: the flags laid
// over the first worker config's security settings. Errors (a JKS store, a
// config-provider reference, an unsupported SASL mechanism) are usage errors
// worded by the worker config reader.
func (g Globals) ConnOptions() (live.ConnOptions, error) {
	if g.contextErr != nil {
		return live.ConnOptions{}, g.contextErr
	}
	o := live.ConnOptions{
		Bootstrap:          g.Bootstrap,
		TLS:                g.TLS.Enabled || g.TLS.CAFile != "" || g.TLS.CertFile != "" || g.TLS.InsecureSkipVerify || g.TLS.ServerName != "",
		CAFile:             g.TLS.CAFile,
		CertFile:           g.TLS.CertFile,
		KeyFile:            g.TLS.KeyFile,
		ServerName:         g.TLS.ServerName,
		InsecureSkipVerify: g.TLS.InsecureSkipVerify,
		SASLMechanism:      g.SASL.Mechanism,
		SASLUser:           g.SASL.User,
		SASLPassword:       g.SASL.Password,
		Timeout:            g.Timeout,
	}
	if len(g.WorkerConfigs) == 0 {
		return o, saslComplete(o)
	}
	o, err := o.WithWorker(g.WorkerConfigs[0], live.Given{
		Bootstrap: g.setAbove(FlagBootstrap), TLS: g.setAbove(FlagTLS), SASLMechanism: g.setAbove(FlagSASLMechanism)})
	if err != nil {
		return o, Exit(ExitUsage, err)
	}
	return o, saslComplete(o)
}

// saslComplete refuses a SASL mechanism without both credentials before
// anything is dialled: it is a usage error, not a failed login.
func saslComplete(o live.ConnOptions) error {
	if o.SASLMechanism != "" && (o.SASLUser == "" || o.SASLPassword == "") {
		return UsageErrorf("--sasl-mechanism %s needs a user and a password: give --sasl-user and --sasl-password (better: the CONNECTSCOPE_SASL_PASSWORD variable), or a --worker-config whose sasl.jaas.config holds them", o.SASLMechanism)
	}
	return nil
}
