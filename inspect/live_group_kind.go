package inspect

import (
	"context"
	"fmt"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// Group types as ListGroups v5+ reports them (KIP-848, KIP-932, KIP-1071).
const (
	GroupTypeClassic  = "classic"
	GroupTypeConsumer = "consumer"
	GroupTypeShare    = "share"
	GroupTypeStreams  = "streams"
)

// OtherGroup is a group of a newer kind (a KIP-848 consumer group, a share
// or a streams group) that holds the Connect group.id. DescribeGroups only
// describes classic groups: from Kafka 3.8 it answers such an id as if no
// group existed (Dead; GROUP_ID_NOT_FOUND "is not a classic group" from v6),
// so only ListGroups tells the two apart.
type OtherGroup struct {
	Type         string `json:"type"`          // consumer, share or streams
	State        string `json:"state"`         // as ListGroups reports it (Empty, Stable, Assigning, …)
	ProtocolType string `json:"protocol_type"` // "consumer", "share", "streams" (or empty)
}

// normalizeMissing makes a missing group read the same from every broker
// version: DescribeGroups v6 (Kafka 4.x) answers GROUP_ID_NOT_FOUND where
// older versions answer state Dead with no error.
func normalizeMissing(g *GroupDescription) {
	if g.ErrorCode == kerr.GroupIDNotFound.Code {
		g.State, g.ErrorCode = GroupDead, 0
		g.ProtocolType, g.Protocol, g.Members = "", "", []GroupMember{}
	}
}

// FindOtherGroup looks group up with ListGroups and returns it when a group
// of another type than classic holds the id; nil when none does, or when the
// brokers are too old to say (before 3.8 ListGroups has no type).
func FindOtherGroup(ctx context.Context, cl *kgo.Client, group string) (*OtherGroup, error) {
	req := kmsg.NewPtrListGroupsRequest()
	var found *OtherGroup
	for _, shard := range cl.RequestSharded(ctx, req) {
		if shard.Err != nil {
			return nil, shard.Err
		}
		resp := shard.Resp.(*kmsg.ListGroupsResponse)
		if err := kerr.ErrorForCode(resp.ErrorCode); err != nil {
			return nil, err
		}
		for _, g := range resp.Groups {
			if g.Group == group && g.GroupType != "" && g.GroupType != GroupTypeClassic {
				found = &OtherGroup{Type: g.GroupType, State: g.GroupState, ProtocolType: g.ProtocolType}
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
func (r *liveReader) otherGroupOf(ctx context.Context, g *GroupDescription) {
	if g == nil || (!GroupMissing(g) && g.ProtocolType != "") {
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

// BlocksConnect reports whether Connect workers joining this group id fail
// with INCONSISTENT_GROUP_PROTOCOL. The group coordinator (Kafka 3.8+)
// refuses a classic JoinGroup to a share group, and to a consumer or streams
// group that has members; an empty consumer or streams group is converted to
// a classic group by the first join.
func (o *OtherGroup) BlocksConnect() bool {
	if o == nil {
		return false
	}
	switch o.Type {
	case GroupTypeConsumer, GroupTypeStreams:
		return o.State != GroupEmpty && o.State != GroupDead
	case GroupTypeClassic, "":
		return false
	}
	return true // share, and any type newer than this code
}

// otherGroupNote explains, in the members view, what holds the group id.
func otherGroupNote(group string, o *OtherGroup) string {
	if !o.BlocksConnect() {
		return fmt.Sprintf("no Connect group: %q is held by an empty %s group, which the first Connect worker to join turns into a classic group", group, o.Type)
	}
	return fmt.Sprintf("no Connect group: %q is held by a %s group (state %s), which Connect workers cannot join (INCONSISTENT_GROUP_PROTOCOL; see check rule K17)", group, o.Type, o.State)
}
