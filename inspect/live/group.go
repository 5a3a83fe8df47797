package live

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/setting"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// GroupUnsettledError is the one-line error for a command that needs a
// Stable Connect group (ownership) and did not get one; nil when usable.
func GroupUnsettledError(g *inspect.GroupDescription) error {
	switch {
	case g == nil:
		return nil
	case inspect.GroupMissing(g):
		return &Error{What: "describing group " + g.Group, Err: errors.New("the group does not exist"),
			Hint: setting.Textf("check %v (group.id in the worker config) and that the workers are running", setting.GroupID)}
	case inspect.GroupRebalancing(g):
		return &Error{What: "describing group " + g.Group, Err: fmt.Errorf("the group is rebalancing (%s)", g.State),
			Hint: setting.Textf("ownership is unknown until it completes: run again in a few seconds, or follow it with `connectscope watch`")}
	case g.ProtocolType != "" && g.ProtocolType != "connect":
		return &Error{What: "describing group " + g.Group, Err: fmt.Errorf("protocol type is %q, not \"connect\"", g.ProtocolType),
			Hint: setting.Textf("this is not a Connect group: check %v (group.id in the worker config)", setting.GroupID)}
	}
	return nil
}

// DescribeGroup describes one group with a raw DescribeGroups request, so
// the member metadata and assignment bytes stay exactly as the broker holds
// them (kadm decodes and drops them). Coordinator moves and loads are retried
// by the caller; a missing group is a result, not an error. Members stay in
// the broker's order: it is the order of the leader's JoinGroup list, which
// breaks ties between member ids of one hash bucket (assignor.md §6.2), so
// plans need it.
func DescribeGroup(ctx context.Context, cl *kgo.Client, group string) (*inspect.GroupDescription, error) {
	req := kmsg.NewPtrDescribeGroupsRequest()
	req.Groups = []string{group}
	kresp, err := cl.Request(ctx, req)
	if err != nil {
		return nil, err
	}
	resp := kresp.(*kmsg.DescribeGroupsResponse)
	for _, g := range resp.Groups {
		if g.Group != group {
			continue
		}
		if err := kerr.ErrorForCode(g.ErrorCode); err != nil && g.ErrorCode != kerr.GroupIDNotFound.Code {
			return nil, err
		}
		out := &inspect.GroupDescription{Group: g.Group, State: g.State, ProtocolType: g.ProtocolType,
			Protocol: g.Protocol, ErrorCode: g.ErrorCode, Members: []inspect.GroupMember{}}
		for _, m := range g.Members {
			gm := inspect.GroupMember{MemberID: m.MemberID, ClientID: m.ClientID, ClientHost: m.ClientHost,
				Metadata: m.ProtocolMetadata, Assignment: m.MemberAssignment}
			if m.InstanceID != nil {
				gm.InstanceID = *m.InstanceID
			}
			out.Members = append(out.Members, gm)
		}
		normalizeMissing(out)
		return out, nil
	}
	return nil, fmt.Errorf("the broker's answer does not mention group %q", group)
}

// describeConnectGroup describes the Connect group; while it is mid-rebalance
// it asks again for up to opts.GroupSettle, hoping to see it Stable.
func (r *reader) describeConnectGroup(ctx context.Context) (*inspect.GroupDescription, error) {
	settleUntil := time.Now().Add(r.opts.GroupSettle)
	for {
		var g *inspect.GroupDescription
		err := r.op(ctx, "describing group "+r.opts.Group, func(ctx context.Context) error {
			var err error
			g, err = DescribeGroup(ctx, r.cl, r.opts.Group)
			return err
		})
		if err != nil {
			return nil, err
		}
		if !inspect.GroupRebalancing(g) || time.Now().After(settleUntil) {
			r.otherGroupOf(ctx, g)
			return g, nil
		}
		if !sleepCtx(ctx, 250*time.Millisecond) {
			return nil, explain("describing group "+r.opts.Group, ctx.Err(), r.opts.Conn, r.watch)
		}
	}
}
