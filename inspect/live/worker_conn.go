package live

import "github.com/connectscope/connectscope/inspect/workerconfig"

// Given says which connection settings were given above a worker file (on
// the command line, in the environment or by a named cluster): the file
// fills in only the others.
type Given struct {
	Bootstrap, TLS, SASLMechanism bool
}

// WithWorker lays the worker file w under o: its bootstrap.servers, its TLS
// material (a worker that uses TLS turns it on) and its SASL credentials,
// wherever o leaves them out, as the worker itself would connect. A problem
// of the file matters only where it has to fill something in.
func (o ConnOptions) WithWorker(w *workerconfig.Config, given Given) (ConnOptions, error) {
	if !given.Bootstrap {
		servers, err := w.Bootstrap()
		if err != nil {
			return o, err
		}
		o.Bootstrap = servers
	}
	if w.UsesTLS() && !given.TLS {
		o.TLS = true
	}
	if o.TLS {
		m, err := w.TLSMaterial()
		if err != nil {
			return o, err
		}
		if o.CAFile == "" && len(m.CAPEM) > 0 {
			o.CAPEM = m.CAPEM
		}
		if o.CertFile == "" && len(m.CertPEM) > 0 {
			o.CertPEM, o.KeyPEM = m.CertPEM, m.KeyPEM
		}
		// ssl.endpoint.identification.algorithm= (empty): the chain is
		// checked, the host name is not, as the workers themselves connect;
		// an expected server name asks for a name check again.
		if !m.VerifyHostname && o.ServerName == "" {
			o.NoHostnameCheck = true
		}
	}
	if w.UsesSASL() && (o.SASLMechanism == "" || o.SASLUser == "" || o.SASLPassword == "") {
		mech, user, pass, err := w.SASLCredentials()
		if o.SASLMechanism == "" {
			o.SASLMechanism = mech
		}
		if o.SASLUser == "" {
			o.SASLUser = user
		}
		if o.SASLPassword == "" {
			o.SASLPassword = pass
		}
		if err != nil && (o.SASLUser == "" || o.SASLPassword == "" || !given.SASLMechanism) {
			return o, err
		}
	}
	return o, nil
}
