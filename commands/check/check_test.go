package check

import "testing"

func TestParseMillis(t *testing.T) {
	for in, want := range map[string]int64{"90s": 90000, "2m": 120000, "1500": 1500, "": 0, "1h30m": 5400000} {
		if got, err := parseMillis("x", in); err != nil || got != want {
			t.Errorf("%q: %d %v", in, got, err)
		}
	}
	for _, bad := range []string{"-5", "-1s", "5 parsecs", "1.5"} {
		if _, err := parseMillis("x", bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
