package format

import (
	"fmt"
	"strconv"
)

// Millis is the one way tables and messages write a duration given in
// milliseconds: 350ms, 1.5s, 45s, 5m, 1h2m3s.
func Millis(ms int64) string {
	if ms < 0 {
		return "-" + Millis(-ms)
	}
	if ms%1000 != 0 {
		if ms < 1000 {
			return fmt.Sprintf("%dms", ms)
		}
		if ms < 60000 {
			return strconv.FormatFloat(float64(ms)/1000, 'f', -1, 64) + "s"
		}
		// Past a minute, tenths of a second are noise.
		ms = (ms + 500) / 1000 * 1000
	}
	s := ms / 1000
	h, m, sec := s/3600, (s%3600)/60, s%60
	out := ""
	if h > 0 {
		out += fmt.Sprintf("%dh", h)
	}
	if m > 0 {
		out += fmt.Sprintf("%dm", m)
	}
	if sec > 0 || out == "" {
		out += fmt.Sprintf("%ds", sec)
	}
	return out
}
