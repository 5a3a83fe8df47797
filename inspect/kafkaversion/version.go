// Package kafkaversion is the one reading of a Kafka release number, shared
// by the assignor's version profiles and the check rules, so that every
// --kafka-version flag accepts the same spellings.
package kafkaversion

import (
	"fmt"
	"strconv"
	"strings"
)

// Version is a Kafka release; the zero value means "unknown".
type Version struct {
	Major, Minor, Patch int
	Known               bool
}

// New returns the known version major.minor.patch.
func New(major, minor, patch int) Version { return Version{major, minor, patch, true} }

// Parse accepts "" (unknown), "3", "3.4", "3.4.1", an optional leading "v",
// and ignores suffixes such as "-rc3", "-SNAPSHOT" or "-ccs" (Confluent's
// builds). A missing minor or patch is 0.
func Parse(s string) (Version, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return Version{}, nil
	}
	core := strings.TrimPrefix(strings.ToLower(s), "v")
	if i := strings.IndexAny(core, "-+ "); i >= 0 {
		core = core[:i]
	}
	parts := strings.Split(core, ".")
	if len(parts) > 3 {
		return Version{}, fmt.Errorf("kafka version %q: want MAJOR.MINOR[.PATCH]", s)
	}
	var n [3]int
	for i, p := range parts {
		v, err := strconv.Atoi(p)
		if err != nil || v < 0 {
			return Version{}, fmt.Errorf("kafka version %q: want MAJOR.MINOR[.PATCH]", s)
		}
		n[i] = v
	}
	return New(n[0], n[1], n[2]), nil
}

func (v Version) String() string {
	if !v.Known {
		return "unknown"
	}
	return fmt.Sprintf("%d.%d.%d", v.Major, v.Minor, v.Patch)
}

// Less orders versions by major, minor, patch.
func (v Version) Less(o Version) bool {
	if v.Major != o.Major {
		return v.Major < o.Major
	}
	if v.Minor != o.Minor {
		return v.Minor < o.Minor
	}
	return v.Patch < o.Patch
}

// AtLeast reports whether v contains a change first released in firsts (one
// per release line, as "2.5.1, 2.6.0"): a listed line has it from that patch
// on, later lines always. Meaningless when v is unknown (check Known first).
func (v Version) AtLeast(firsts ...Version) bool {
	newest := firsts[0]
	for _, f := range firsts {
		if f.Major == v.Major && f.Minor == v.Minor {
			return v.Patch >= f.Patch
		}
		if newest.Less(f) {
			newest = f
		}
	}
	return !v.Less(newest)
}
