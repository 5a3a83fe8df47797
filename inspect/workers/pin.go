package workers

import (
	"fmt"
	"strconv"
	"strings"
)

// Pin is a KIP-891 plugin version requirement (`*.plugin.version`, Kafka
// 4.1+), read as Connect reads it: Maven version-range syntax, where a bare
// version ("4.1.0") is a hard requirement for exactly that version,
// "[1.0,2.0)" a range, "[1.0,)" a lower bound, and several ranges
// separated by commas a union; "latest" or empty means no pin.
type Pin struct {
	Spec   string
	ranges []versionRange
}

type versionRange struct {
	low, high         string // "" = unbounded
	lowIncl, highIncl bool
}

// maxPinLen bounds a pin's text (config values come from the cluster).
const maxPinLen = 1024

// ParsePin reads a version requirement; ok is false for "latest" and "".
func ParsePin(spec string) (Pin, bool, error) {
	s := strings.TrimSpace(spec)
	if s == "" || s == "latest" {
		return Pin{}, false, nil
	}
	if len(s) > maxPinLen {
		return Pin{}, false, fmt.Errorf("version requirement longer than %d characters", maxPinLen)
	}
	p := Pin{Spec: s}
	if s[0] != '[' && s[0] != '(' {
		if strings.ContainsAny(s, "[](),") {
			return Pin{}, false, fmt.Errorf("version requirement %q: not a version or a range", s)
		}
		p.ranges = []versionRange{{low: s, high: s, lowIncl: true, highIncl: true}}
		return p, true, nil
	}
	for s != "" {
		if s[0] != '[' && s[0] != '(' {
			return Pin{}, false, fmt.Errorf("version requirement %q: a range starts with [ or (", spec)
		}
		end := strings.IndexAny(s, "])")
		if end < 0 {
			return Pin{}, false, fmt.Errorf("version requirement %q: a range is not closed", spec)
		}
		body := s[1:end]
		r := versionRange{lowIncl: s[0] == '[', highIncl: s[end] == ']'}
		lo, hi, two := strings.Cut(body, ",")
		lo, hi = strings.TrimSpace(lo), strings.TrimSpace(hi)
		switch {
		case !two:
			if !r.lowIncl || !r.highIncl || lo == "" {
				return Pin{}, false, fmt.Errorf("version requirement %q: a single version needs [ ]", spec)
			}
			r.low, r.high = lo, lo
		default:
			if strings.Contains(hi, ",") {
				return Pin{}, false, fmt.Errorf("version requirement %q: a range has two bounds", spec)
			}
			r.low, r.high = lo, hi
			if lo != "" && hi != "" && compareVersions(lo, hi) > 0 {
				return Pin{}, false, fmt.Errorf("version requirement %q: lower bound above upper bound", spec)
			}
		}
		p.ranges = append(p.ranges, r)
		s = strings.TrimSpace(s[end+1:])
		if strings.HasPrefix(s, ",") {
			s = strings.TrimSpace(s[1:])
			if s == "" {
				return Pin{}, false, fmt.Errorf("version requirement %q: ends with a comma", spec)
			}
		} else if s != "" {
			return Pin{}, false, fmt.Errorf("version requirement %q: ranges are separated by commas", spec)
		}
	}
	return p, true, nil
}

// Allows reports whether version v satisfies the pin.
func (p Pin) Allows(v string) bool {
	v = strings.TrimSpace(v)
	if v == "" {
		return false // a plugin without a version cannot satisfy a pin
	}
	for _, r := range p.ranges {
		if r.low != "" {
			c := compareVersions(v, r.low)
			if c < 0 || (c == 0 && !r.lowIncl) {
				continue
			}
		}
		if r.high != "" {
			c := compareVersions(v, r.high)
			if c > 0 || (c == 0 && !r.highIncl) {
				continue
			}
		}
		return true
	}
	return false
}

// compareVersions orders versions as Maven roughly does: dot- and
// dash-separated parts, numbers numerically, a number after text, text
// qualifiers before the release ("4.1.0-rc1" < "4.1.0"), missing parts as
// zero ("4.1" = "4.1.0").
func compareVersions(a, b string) int {
	pa, pb := versionParts(a), versionParts(b)
	for i := 0; i < len(pa) || i < len(pb); i++ {
		x, y := part(pa, i), part(pb, i)
		xn, xerr := strconv.ParseUint(x, 10, 64)
		yn, yerr := strconv.ParseUint(y, 10, 64)
		switch {
		case xerr == nil && yerr == nil:
			if xn != yn {
				if xn < yn {
					return -1
				}
				return 1
			}
		case xerr == nil: // number vs qualifier: the release is newer
			if y == "" {
				if xn == 0 {
					continue
				}
				return 1
			}
			return 1
		case yerr == nil:
			if x == "" {
				if yn == 0 {
					continue
				}
				return -1
			}
			return -1
		default:
			if x == y {
				continue
			}
			if x == "" { // release after its qualifiers
				return 1
			}
			if y == "" {
				return -1
			}
			if x < y {
				return -1
			}
			return 1
		}
	}
	return 0
}

func versionParts(v string) []string {
	return strings.FieldsFunc(strings.ToLower(strings.TrimSpace(v)), func(r rune) bool { return r == '.' || r == '-' || r == '_' })
}

func part(ps []string, i int) string {
	if i < len(ps) {
		return ps[i]
	}
	return ""
}
