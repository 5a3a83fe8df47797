package live

import (
	"context"

	"github.com/connectscope/connectscope/inspect"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// normalizeMissing makes a missing group read the same from every broker
// version: DescribeGroups v6 (Kafka 4.x) answers GROUP_ID_NOT_FOUND where
// older versions answer state Dead with no error.
func normalizeMissing(g *inspect.GroupDescription) {
	if g.ErrorCode == kerr.GroupIDNotFound.Code {
		g.State, g.ErrorCode = inspect.GroupDead, 0
		g.ProtocolType, g.Protocol, g.Members = "", "", []inspect.GroupMember{}
	}
}

// FindOtherGroup looks group up with ListGroups and returns it when a group
// of another type than classic holds the id; nil when none does, or when the
// brokers are too old to say (before 3.8 ListGroups has no type).
func FindOtherGroup(ctx context.Context, cl *kgo.Client, group string) (*inspect.OtherGroup, error) {
	req := kmsg.NewPtrListGroupsRequest()
	var found *inspect.OtherGroup
	for _, shard := range cl.RequestSharded(ctx, req) {
		if shard.Err != nil {
			return nil, shard.Err
		}
		resp := shard.Resp.(*kmsg.ListGroupsResponse)
		if err := kerr.ErrorForCode(resp.ErrorCode); err != nil {
			return nil, err
		}
		for _, g := range resp.Groups {
			if g.Group == group && g.GroupType != "" && g.GroupType != inspect.GroupTypeClassic {
				found = &inspect.OtherGroup{Type: g.GroupType, State: g.GroupState, ProtocolType: g.ProtocolType}
			}
		}
	}
	return found, nil
}

// otherGroupOf asks, for a Connect group that DescribeGroups calls missing
// (or describes without a protocol type, as kfake does for a consumer-type
// group), whether a group of another kind holds its id. A failure here is
// not fatal: the group is still reported as described, only without the
// reason.
func (r *reader) otherGroupOf(ctx context.Context, g *inspect.GroupDescription) {
	if g == nil || (!inspect.GroupMissing(g) && g.ProtocolType != "") {
		return
	}
	_ = r.op(ctx, "listing groups", func(ctx context.Context) error {
		other, err := FindOtherGroup(ctx, r.cl, g.Group)
		if err == nil {
			g.Other = other
		}
		return err
	})
}
