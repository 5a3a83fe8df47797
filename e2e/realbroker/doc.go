//go:build e2e

// Package realbroker holds tests that run connectscope's commands against
// real Apache Kafka brokers started by e2e/realkafka: broker behaviour
// of 4.x (GROUP_ID_NOT_FOUND, KIP-848 groups, KIP-896's removed API
// versions), the topic and broker-limit checks against real configs, the
// read-only guarantee seen from the broker's own request log, and TLS and
// SASL/SCRAM listeners. It has no code outside its tests; it lives apart so
// that `go test ./commands` does not start JVMs.
package realbroker
