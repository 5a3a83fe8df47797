//go:build e2e

// Package realkafka starts real Apache Kafka for tests: a KRaft broker
// (combined broker and controller) and Kafka Connect workers in distributed
// mode, each its own JVM on loopback. The jars come from Maven Central
// through pom.xml, resolved once per version into a cache outside the
// repository. Test-only; it imports nothing of connectscope so any package's
// tests can use it.
package realkafka

import "fmt"

// The Kafka versions the real-Kafka suites run.
const (
	Newest4x = "4.4.0"
	Newest39 = "3.9.2"
)

// release pins what one Kafka version resolves to.
type release struct {
	// connectFile is the connect-file version used as the workers' plugin.
	// Maven Central has no connect-file for some releases (4.4.0); the
	// newest published one is used instead (a plugin loaded in isolation
	// through plugin.path, as operators run it).
	connectFile string
	// binding is the SLF4J binding Kafka's distribution ships with the
	// release (group:artifact:version); the published poms leave it out.
	binding string
	// bridge compiles bridge/ (AppInfoParser at its pre-4.4 place) into
	// the connect-file plugin directory: connect-file 4.3.1 calls it, and
	// 4.4.0 moved it.
	bridge bool
}

var releases = map[string]release{
	Newest4x: {connectFile: "4.3.1", binding: "org.apache.logging.log4j:log4j-slf4j-impl:2.25.5", bridge: true},
	Newest39: {connectFile: Newest39, binding: "org.slf4j:slf4j-reload4j:1.7.36"},
}

// Versions lists the pinned versions, newest first.
func Versions() []string { return []string{Newest4x, Newest39} }

func lookup(version string) (release, error) {
	r, ok := releases[version]
	if !ok {
		return release{}, fmt.Errorf("kafka %q is not pinned in e2e/realkafka/versions.go (pinned: %v)", version, Versions())
	}
	return r, nil
}
