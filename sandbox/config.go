// Package sandbox runs an embedded Kafka broker (franz-go's kfake) with
// simulated Kafka Connect workers that speak the Connect group protocol over
// the wire, write the internal topics as Connect does and run real consumer
// groups for their sink connectors. Tests, `connectscope sandbox` and
// `connectscope demo` drive it.
package sandbox

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/connectscope/connectscope/inspect"
)

// Config sets up a sandbox cluster. The zero value of every field means its
// default (see DefaultConfig).
type Config struct {
	// Listen is the broker's address; port 0 picks a free port.
	Listen string
	// GroupID is the Connect group (worker group.id).
	GroupID string
	// Topics are the internal topic names.
	Topics inspect.TopicNames
	// Protocol is the connect.protocol of workers added without one:
	// eager, compatible or sessioned.
	Protocol string

	SessionTimeout    time.Duration // worker session.timeout.ms
	HeartbeatInterval time.Duration // worker heartbeat.interval.ms
	RebalanceTimeout  time.Duration // worker rebalance.timeout.ms
	// ScheduledRebalanceMaxDelay is scheduled.rebalance.max.delay.ms. Use
	// NoDelay for an explicit 0.
	ScheduledRebalanceMaxDelay time.Duration

	// SinkRecordsPerPartition is how many records each sink topic partition
	// gets at creation; sink tasks commit only part of them so lag exists.
	SinkRecordsPerPartition int

	// Log receives one line per rebalance and per notable worker event; nil
	// discards them.
	Log io.Writer
}

// NoDelay asks for scheduled.rebalance.max.delay.ms = 0 (a zero Duration
// means "default").
const NoDelay time.Duration = -1

// DefaultConfig has timings fit for an interactive sandbox: quick enough to
// watch, slow enough to read.
func DefaultConfig() Config {
	return Config{
		Listen:                     "127.0.0.1:0",
		GroupID:                    "connect-cluster",
		Topics:                     inspect.DefaultTopicNames(),
		Protocol:                   "sessioned",
		SessionTimeout:             3 * time.Second,
		HeartbeatInterval:          300 * time.Millisecond,
		RebalanceTimeout:           10 * time.Second,
		ScheduledRebalanceMaxDelay: 10 * time.Second,
		SinkRecordsPerPartition:    100,
	}
}

// TestConfig has short timings so tests settle in well under a second per
// rebalance.
func TestConfig() Config {
	c := DefaultConfig()
	c.SessionTimeout = time.Second
	c.HeartbeatInterval = 40 * time.Millisecond
	c.RebalanceTimeout = 10 * time.Second
	c.ScheduledRebalanceMaxDelay = 500 * time.Millisecond
	c.SinkRecordsPerPartition = 20
	return c
}

// withDefaults fills zero fields from DefaultConfig and checks the rest.
func (c Config) withDefaults() (Config, error) {
	d := DefaultConfig()
	if c.Listen == "" {
		c.Listen = d.Listen
	}
	if c.GroupID == "" {
		c.GroupID = d.GroupID
	}
	c.Topics = c.Topics.Or(d.Topics)
	if c.Protocol == "" {
		c.Protocol = d.Protocol
	}
	p, err := ParseProtocol(c.Protocol)
	if err != nil {
		return c, err
	}
	c.Protocol = p
	if c.SessionTimeout <= 0 {
		c.SessionTimeout = d.SessionTimeout
	}
	if c.HeartbeatInterval <= 0 {
		c.HeartbeatInterval = d.HeartbeatInterval
	}
	if c.RebalanceTimeout <= 0 {
		c.RebalanceTimeout = d.RebalanceTimeout
	}
	switch {
	case c.ScheduledRebalanceMaxDelay == NoDelay:
		c.ScheduledRebalanceMaxDelay = 0
	case c.ScheduledRebalanceMaxDelay <= 0:
		c.ScheduledRebalanceMaxDelay = d.ScheduledRebalanceMaxDelay
	}
	if c.SinkRecordsPerPartition <= 0 {
		c.SinkRecordsPerPartition = d.SinkRecordsPerPartition
	}
	if c.HeartbeatInterval >= c.SessionTimeout {
		return c, fmt.Errorf("heartbeat interval %v must be shorter than the session timeout %v", c.HeartbeatInterval, c.SessionTimeout)
	}
	return c, nil
}

// ParseProtocol accepts connect.protocol values case-insensitively, as
// workers do, and returns eager, compatible or sessioned.
func ParseProtocol(p string) (string, error) {
	switch strings.ToLower(strings.TrimSpace(p)) {
	case "eager":
		return "eager", nil
	case "compatible":
		return "compatible", nil
	case "sessioned":
		return "sessioned", nil
	}
	return "", fmt.Errorf("connect.protocol %q: want eager, compatible or sessioned", p)
}

// offeredProtocols lists what a worker with connect.protocol p offers in
// JoinGroup, most preferred first, with each entry's metadata version
// (connect-internals.md §2.2).
func offeredProtocols(p string) []joinProtocol {
	switch p {
	case "sessioned":
		return []joinProtocol{{"sessioned", 2}, {"compatible", 1}, {"default", 0}}
	case "compatible":
		return []joinProtocol{{"compatible", 1}, {"default", 0}}
	default:
		return []joinProtocol{{"default", 0}}
	}
}

type joinProtocol struct {
	name    string
	version int16
}
