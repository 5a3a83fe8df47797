package plan

import (
	"fmt"
	"strconv"
	"strings"
)

// features are the assignor behaviours that changed between Kafka releases
// (assignor.md §8, §9).
type features struct {
	resetDelayWhenNothingLost bool // 2.4.0 KAFKA-9184
	generationCheck           bool // 2.5.1/2.6.0 KAFKA-9848 (also: lost with nobody departed -> now)
	duplicates                bool // 2.5.1/2.6.0 KAFKA-9841
	multiCandidate            bool // 2.6.2/2.7.1/2.8.0 KAFKA-10413 (also: old LB trims to ceil)
	newRevocation             bool // 3.4.0 KAFKA-12495 (LB of §3.1 + consecutive backoff)
	zeroDelayNow              bool // 3.5.2/3.6.1/3.7.0 KAFKA-15693
}

type kversion struct{ major, minor, patch int }

func (v kversion) less(o kversion) bool {
	if v.major != o.major {
		return v.major < o.major
	}
	if v.minor != o.minor {
		return v.minor < o.minor
	}
	return v.patch < o.patch
}

// parseKafkaVersion accepts "", "3", "3.4", "3.4.1" (suffixes like "-rc3" or
// "-SNAPSHOT" are ignored). A missing patch means .0.
func parseKafkaVersion(s string) (kversion, error) {
	if s == "" {
		return kversion{3, 9, 0}, nil
	}
	core := s
	if i := strings.IndexAny(core, "-+ "); i >= 0 {
		core = core[:i]
	}
	parts := strings.Split(core, ".")
	if len(parts) > 3 {
		return kversion{}, fmt.Errorf("kafka version %q: want MAJOR.MINOR[.PATCH]", s)
	}
	var nums [3]int
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return kversion{}, fmt.Errorf("kafka version %q: want MAJOR.MINOR[.PATCH]", s)
		}
		nums[i] = n
	}
	v := kversion{nums[0], nums[1], nums[2]}
	if v.less(kversion{2, 3, 0}) {
		return kversion{}, fmt.Errorf("kafka version %q: Connect's cooperative assignor starts at 2.3.0 (use protocol eager for older clusters)", s)
	}
	return v, nil
}

// since reports whether v contains a change first released in the given
// versions, one per release line (e.g. "2.6.2", "2.7.1", "2.8.0"): a line
// listed gets it from that patch on, later lines always.
func (v kversion) since(firsts ...kversion) bool {
	newest := firsts[0]
	for _, f := range firsts {
		if f.major == v.major && f.minor == v.minor {
			return v.patch >= f.patch
		}
		if newest.less(f) {
			newest = f
		}
	}
	return !v.less(newest)
}

func featuresFor(v kversion) features {
	return features{
		resetDelayWhenNothingLost: v.since(kversion{2, 4, 0}),
		generationCheck:           v.since(kversion{2, 5, 1}, kversion{2, 6, 0}),
		duplicates:                v.since(kversion{2, 5, 1}, kversion{2, 6, 0}),
		multiCandidate:            v.since(kversion{2, 6, 2}, kversion{2, 7, 1}, kversion{2, 8, 0}),
		newRevocation:             v.since(kversion{3, 4, 0}),
		zeroDelayNow:              v.since(kversion{3, 5, 2}, kversion{3, 6, 1}, kversion{3, 7, 0}),
	}
}

// newestVerifiedLine is the newest Kafka release line whose own assignors were
// run against these profiles (internal/assignordiff: every line from 2.3 on).
var newestVerifiedLine = kversion{4, 4, 0}

// NewestVerifiedLine names it, as MAJOR.MINOR, for messages.
func NewestVerifiedLine() string {
	return fmt.Sprintf("%d.%d", newestVerifiedLine.major, newestVerifiedLine.minor)
}

// BeyondVerified reports whether version names a Kafka release line newer
// than the newest one whose assignor this package was checked against (or a
// 3.x line after 3.9, which was never released). Such versions replay the
// newest behaviour; the caller should say so. An unparseable version is not
// "beyond" (NewSim reports it).
func BeyondVerified(version string) bool {
	v, err := parseKafkaVersion(version)
	if err != nil {
		return false
	}
	if v.major == 3 && v.minor > 9 {
		return true
	}
	return kversion{newestVerifiedLine.major, newestVerifiedLine.minor, 1 << 30}.less(v)
}
