package check

import "github.com/connectscope/connectscope/inspect/kafkaversion"

// ver is shorthand for the release numbers the rules cite.
func ver(major, minor, patch int) kafkaversion.Version { return kafkaversion.New(major, minor, patch) }

// tri is a yes/no/unknown answer for version-dependent rules.
type tri int

const (
	no tri = iota
	yes
	unknown
)

// applies answers "does a rule that holds from firsts on apply to v?".
func applies(v kafkaversion.Version, firsts ...kafkaversion.Version) tri {
	if !v.Known {
		return unknown
	}
	if v.AtLeast(firsts...) {
		return yes
	}
	return no
}
