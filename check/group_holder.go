package check

import (
	"fmt"

	"github.com/connectscope/connectscope/inspect"
)

// GroupHolder is the group the brokers hold under the Connect group.id.
type GroupHolder struct {
	Group        string `json:"group"`
	Type         string `json:"type"`          // classic, consumer, share or streams
	State        string `json:"state"`         // the group's state as the broker reports it
	ProtocolType string `json:"protocol_type"` // "connect" for a Connect group
	Members      int    `json:"members"`       // members of a classic group (0 when unknown)
}

// GroupHolderOf reads what holds the group id from a live or snapshot group
// description; nil when there is none.
func GroupHolderOf(g *inspect.GroupDescription) *GroupHolder {
	switch {
	case g == nil:
		return nil
	case g.Other != nil:
		return &GroupHolder{Group: g.Group, Type: g.Other.Type, State: g.Other.State, ProtocolType: g.Other.ProtocolType}
	}
	return &GroupHolder{Group: g.Group, Type: inspect.GroupTypeClassic, State: g.State, ProtocolType: g.ProtocolType, Members: len(g.Members)}
}

// checkGroupHolder reports K17: a group the workers cannot join holds their
// group.id.
func checkGroupHolder(f *Findings, in TopicsInput) {
	h := in.GroupHolder
	if h == nil {
		return
	}
	group := h.Group
	if group == "" {
		group = in.Group
	}
	subject := "group " + group
	values := map[string]any{"group_type": h.Type, "state": h.State, "protocol_type": h.ProtocolType}
	switch h.Type {
	case inspect.GroupTypeClassic, "":
		// A classic group of another protocol type refuses the workers while
		// it has members; an empty one is taken over by the first join.
		busy := h.State != inspect.GroupEmpty && h.State != inspect.GroupDead && h.State != ""
		if h.ProtocolType != "" && h.ProtocolType != "connect" && busy {
			values["members"] = h.Members
			f.Add("K17", subject, fmt.Sprintf("group %s is a classic %q group (state %s, %d members), not a Connect group", group, h.ProtocolType, h.State, h.Members), values)
		}
	default:
		other := &inspect.OtherGroup{Type: h.Type, State: h.State, ProtocolType: h.ProtocolType}
		if other.BlocksConnect() {
			f.Add("K17", subject, fmt.Sprintf("group %s is a %s group (state %s): Connect workers cannot join it", group, h.Type, h.State), values)
		}
	}
}
