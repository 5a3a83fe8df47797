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
