//go:build e2e

// Package realcluster holds the real-cluster suite: connectscope's inspect,
// plan and check run against a real KRaft broker and real Kafka Connect
// workers (e2e/realkafka), and what they say is compared with the
// workers' own REST API and with what the cluster then does. It has tests
// only; see README.md, "Real-Kafka suites".
package realcluster
