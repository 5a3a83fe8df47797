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

// ClockFlags are --max-delay, --session-timeout and --heartbeat-interval,
// each read into its destination (left nil when not given); defaults says
// what applies without them.
func ClockFlags(maxDelay, session, heartbeat **int64, defaults string) []urfave.Flag {
	ms := func(s string) (*int64, error) {
		v, err := DurationMs(s)
		return &v, err
	}
	return []urfave.Flag{
		ValueFlag(FlagMaxDelay, maxDelay, ms, "scheduled.rebalance.max.delay.ms as a `DURATION` (5m) or ms (default: "+defaults+")"),
		ValueFlag(FlagSessionTimeout, session, ms, "session.timeout.ms as a `DURATION`: how long the group takes to notice a crashed worker (default: "+defaults+")"),
		ValueFlag(FlagHeartbeat, heartbeat, ms, "heartbeat.interval.ms as a `DURATION` (default: "+defaults+")"),
	}
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
