package cli

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	urfave "github.com/urfave/cli/v2"
)

// The group's time settings as flags, named as the what-if plans name them.
const (
	FlagMaxDelay       = "max-delay"
	FlagSessionTimeout = "session-timeout"
	FlagHeartbeat      = "heartbeat-interval"
)

// Clock is the group's time settings as flags (--max-delay,
// --session-timeout, --heartbeat-interval), each read once, at the flag,
// into milliseconds; nil when not given.
type Clock struct {
	MaxDelayMs, SessionTimeoutMs, HeartbeatMs *int64
}

// ClockHelp is what a verb's help says of its clock flags: what applies to
// each when it is not given, and what the verb does with the heartbeat
// interval ("" for nothing more than its name).
type ClockHelp struct {
	MaxDelay, SessionTimeout, Heartbeat string
	HeartbeatEffect                     string
}

// Flags binds the clock flags into c.
func (c *Clock) Flags(h ClockHelp) []urfave.Flag {
	ms := func(s string) (*int64, error) {
		v, err := DurationMs(s)
		return &v, err
	}
	effect := ""
	if h.HeartbeatEffect != "" {
		effect = ": " + h.HeartbeatEffect
	}
	return []urfave.Flag{
		ValueFlag(FlagMaxDelay, &c.MaxDelayMs, ms, "scheduled.rebalance.max.delay.ms as a `DURATION` (5m) or ms (default: "+h.MaxDelay+")"),
		ValueFlag(FlagSessionTimeout, &c.SessionTimeoutMs, ms, "session.timeout.ms as a `DURATION`: how long the group takes to notice a crashed worker (default: "+h.SessionTimeout+")"),
		ValueFlag(FlagHeartbeat, &c.HeartbeatMs, ms, "heartbeat.interval.ms as a `DURATION`"+effect+" (default: "+h.Heartbeat+")"),
	}
}

// DurationMsFlag is a flag of a duration (90s, 5m) or milliseconds, read
// once into dest; def, when not "", is its default, shown in help.
func DurationMsFlag(name string, dest *int64, def, usage string) *urfave.StringFlag {
	f := ValueFlag(name, dest, DurationMs, usage)
	if def != "" {
		*dest, _ = DurationMs(def)
		f.Value = def
	}
	return f
}

// DurationMs reads a duration (90s, 5m) or milliseconds, never negative.
func DurationMs(s string) (int64, error) {
	s = strings.TrimSpace(s)
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		if n < 0 {
			return 0, fmt.Errorf("must not be negative, got %s", s)
		}
		return n, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("want a duration like 90s or 5m, or milliseconds, got %q", s)
	}
	if d < 0 {
		return 0, fmt.Errorf("must not be negative, got %s", s)
	}
	return d.Milliseconds(), nil
}
