package protocol

import (
	"fmt"
	"strings"
)

// JoinProtocol is one (name, metadata) entry a worker offers in JoinGroup.
type JoinProtocol struct {
	Name     string
	Metadata []byte
}

// ProtocolVersion returns the metadata/assignment header version of a
// JoinGroup protocol name (default 0, compatible 1, sessioned 2).
func ProtocolVersion(name string) (int16, error) {
	switch name {
	case ProtocolEager:
		return 0, nil
	case ProtocolCompatible:
		return 1, nil
	case ProtocolSessioned:
		return 2, nil
	}
	return 0, fmt.Errorf("unknown Connect protocol %q (want %s, %s or %s)", name, ProtocolEager, ProtocolCompatible, ProtocolSessioned)
}

// Offers is what a worker with a connect.protocol setting (eager,
// compatible or sessioned, lower case) offers in JoinGroup, most preferred
// first; nil for any other value.
func Offers(connectProtocol string) []string {
	switch connectProtocol {
	case "eager":
		return []string{ProtocolEager}
	case "compatible":
		return []string{ProtocolCompatible, ProtocolEager}
	case "sessioned":
		return []string{ProtocolSessioned, ProtocolCompatible, ProtocolEager}
	}
	return nil
}

// Setting is the connect.protocol value whose first offer is a JoinGroup
// protocol name: eager for default, compatible, sessioned; "" for any
// other name.
func Setting(joinName string) string {
	switch joinName {
	case ProtocolEager:
		return "eager"
	case ProtocolCompatible:
		return "compatible"
	case ProtocolSessioned:
		return "sessioned"
	}
	return ""
}

// JoinProtocols builds the protocol list a worker sends in JoinGroup for a
// connect.protocol setting (eager, compatible or sessioned,
// case-insensitive), most preferred first: sessioned offers sessioned,
// compatible and default; compatible offers compatible and default; eager
// offers default. owned is the worker's current assignment (nil for a worker
// that holds none); each V1/V2 metadata embeds it re-stamped with that
// metadata's version, as Kafka's worker does.
func JoinProtocols(connectProtocol, url string, configOffset int64, owned *Assignment) ([]JoinProtocol, error) {
	names := Offers(strings.ToLower(connectProtocol))
	if names == nil {
		return nil, fmt.Errorf("unknown connect.protocol %q (want eager, compatible or sessioned)", connectProtocol)
	}
	out := make([]JoinProtocol, 0, len(names))
	for _, name := range names {
		version, _ := ProtocolVersion(name)
		m := &MemberMetadata{Version: version, URL: url, ConfigOffset: configOffset}
		if version > 0 && owned != nil {
			alloc := *owned
			alloc.Version = version
			m.Allocation = &alloc
		}
		b, err := EncodeMetadata(m)
		if err != nil {
			return nil, fmt.Errorf("encoding %s metadata: %w", name, err)
		}
		out = append(out, JoinProtocol{Name: name, Metadata: b})
	}
	return out, nil
}

// SelectProtocol picks the group protocol as the broker's classic group
// coordinator does: candidates are the names every member offers; each
// member votes for the first candidate in its own list; most votes wins
// (ties go to the candidate first preferred by the earliest member). It
// returns "" when the members share no protocol.
func SelectProtocol(offers [][]string) string {
	if len(offers) == 0 {
		return ""
	}
	count := map[string]int{}
	for _, names := range offers {
		seen := map[string]bool{}
		for _, n := range names {
			if !seen[n] {
				seen[n] = true
				count[n]++
			}
		}
	}
	votes := map[string]int{}
	var order []string
	for _, names := range offers {
		for _, n := range names {
			if count[n] == len(offers) {
				if votes[n] == 0 {
					order = append(order, n)
				}
				votes[n]++
				break
			}
		}
	}
	best := ""
	for _, n := range order {
		if best == "" || votes[n] > votes[best] {
			best = n
		}
	}
	return best
}
