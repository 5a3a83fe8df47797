package inspect

import "github.com/twmb/franz-go/pkg/kerr"

// Group states as DescribeGroups reports them (connect-internals.md §5).
const (
	GroupStable              = "Stable"
	GroupPreparingRebalance  = "PreparingRebalance"
	GroupCompletingRebalance = "CompletingRebalance"
	GroupEmpty               = "Empty"
	GroupDead                = "Dead"
)

// GroupMissing reports whether the group does not exist: the broker answers
// Dead (and, from DescribeGroups v6, GROUP_ID_NOT_FOUND).
func GroupMissing(g *GroupDescription) bool {
	return g == nil || g.State == GroupDead || g.ErrorCode == kerr.GroupIDNotFound.Code
}

// GroupRebalancing reports whether the group is mid-rebalance, when its
// metadata and assignments cannot be trusted.
func GroupRebalancing(g *GroupDescription) bool {
	return g != nil && (g.State == GroupPreparingRebalance || g.State == GroupCompletingRebalance)
}

// MemberIDs are the group's member ids in the broker's order (nil for no
// group).
func MemberIDs(g *GroupDescription) []string {
	if g == nil {
		return nil
	}
	ids := make([]string, 0, len(g.Members))
	for _, m := range g.Members {
		ids = append(ids, m.MemberID)
	}
	return ids
}
