package check

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

// ParseVersion accepts "" (unknown), "3", "3.4", "3.4.1", with suffixes such
// as "-rc3", "-SNAPSHOT" or "-ccs" (Confluent's builds) ignored.
func ParseVersion(s string) (Version, error) {
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
	return Version{Major: n[0], Minor: n[1], Patch: n[2], Known: true}, nil
}

func (v Version) String() string {
	if !v.Known {
		return "unknown"
	}
	return fmt.Sprintf("%d.%d.%d", v.Major, v.Minor, v.Patch)
}

func (v Version) less(o Version) bool {
	if v.Major != o.Major {
		return v.Major < o.Major
	}
	if v.Minor != o.Minor {
		return v.Minor < o.Minor
	}
	return v.Patch < o.Patch
}

func ver(major, minor, patch int) Version { return Version{major, minor, patch, true} }

// AtLeast reports whether v contains a change first released in firsts (one
// per release line, as "2.5.1, 2.6.0"): a listed line has it from that patch
// on, later lines always. Meaningless when v is unknown (check Known first).
func (v Version) AtLeast(firsts ...Version) bool {
	newest := firsts[0]
	for _, f := range firsts {
		if f.Major == v.Major && f.Minor == v.Minor {
			return v.Patch >= f.Patch
		}
		if newest.less(f) {
			newest = f
		}
	}
	return !v.less(newest)
}

// tri is a yes/no/unknown answer for version-dependent rules.
type tri int

const (
	no tri = iota
	yes
	unknown
)

// applies answers "does a rule that holds from firsts on apply to v?".
func applies(v Version, firsts ...Version) tri {
	if !v.Known {
		return unknown
	}
	if v.AtLeast(firsts...) {
		return yes
	}
	return no
}
