package cli

import "github.com/connectscope/connectscope/inspect/live"

// Candidates complete a flag's value or a verb's argument.
type Candidates func(q *Query) []string

// Fixed are candidates that are always the same.
func Fixed(values ...string) Candidates { return func(*Query) []string { return values } }

// FirstArg offers c for the first positional argument only.
func FirstArg(c Candidates) Candidates {
	return func(q *Query) []string {
		if len(q.Positional) > 0 {
			return nil
		}
		return c(q)
	}
}

// Connectors are the connector names of the cluster or file the typed
// global flags point at.
func Connectors(q *Query) []string { return q.ClusterNames("connector") }

// Workers are the worker names of the cluster or file.
func Workers(q *Query) []string { return q.ClusterNames("worker") }

// Contexts are the named clusters of the config file.
func Contexts(*Query) []string { return contextNames() }

// globalValues complete the global flags' values.
var globalValues = map[string]Candidates{
	FlagContext:       Contexts,
	FlagIsolation:     Fixed(live.ReadCommitted, live.ReadUncommitted),
	FlagSASLMechanism: Fixed("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"),
}
