package group

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/connectscope/connectscope/inspect"
)

// SinksResult is the `inspect sinks` view: each sink connector's consumer
// group, who holds which partition, and how far behind it is.
type SinksResult struct {
	Sinks []SinkView `json:"sinks"`
	Note  *string    `json:"note"` // why the list may be incomplete (input without group data)
}

// SinkView is one sink connector's group.
type SinkView struct {
	Connector    string              `json:"connector"`
	Group        string              `json:"group"`
	State        string              `json:"state"`
	ProtocolType *string             `json:"protocol_type"`
	Assignor     *string             `json:"assignor"` // the selected partition assignor (group protocol)
	Note         *string             `json:"note"`     // missing, empty, rebalancing or not a consumer group
	Members      []SinkMemberView    `json:"members"`
	Tasks        []SinkTaskView      `json:"tasks"`
	Partitions   []SinkPartitionView `json:"partitions"`
	Lag          *int64              `json:"lag"` // sum over partitions with a known lag; null when none is known
}

// SinkMemberView is one consumer of the group.
type SinkMemberView struct {
	MemberID   string                    `json:"member_id"`
	ClientID   string                    `json:"client_id"`
	ClientHost string                    `json:"client_host"`
	Task       *string                   `json:"task"` // CONNECTOR-N from the client id Connect gives a task's consumer
	Partitions []inspect.TopicPartitions `json:"partitions"`
}

// SinkTaskView is one task's share of the partitions and its lag.
type SinkTaskView struct {
	ID         string `json:"id"`
	MemberID   string `json:"member_id"`
	Partitions int    `json:"partitions"`
	Lag        *int64 `json:"lag"`
}

// SinkPartitionView is one partition the group reads or has committed.
type SinkPartitionView struct {
	Topic     string  `json:"topic"`
	Partition int32   `json:"partition"`
	Task      *string `json:"task"`
	MemberID  *string `json:"member_id"`
	Committed *int64  `json:"committed"` // null: the group committed nothing here
	End       *int64  `json:"end"`
	Lag       *int64  `json:"lag"` // end - committed; null when either is unknown
}

// Sinks builds the sinks view from a dataset; connector filters to one
// connector ("" = all).
func Sinks(ds *inspect.Dataset, connector string) SinksResult {
	res := SinksResult{Sinks: []SinkView{}}
	if ds == nil {
		return res
	}
	if len(ds.SinkGroups) == 0 && !strings.HasPrefix(ds.Source, "kafka:") {
		res.Note = ptr("this input holds no sink consumer groups (a kcat dump has none): read the cluster live or from a snapshot taken live")
	}
	for _, sg := range ds.SinkGroups {
		if sg.Deleted || (connector != "" && sg.Connector != connector) {
			continue
		}
		res.Sinks = append(res.Sinks, viewOf(sg))
	}
	slices.SortFunc(res.Sinks, func(a, b SinkView) int { return cmp.Compare(a.Connector, b.Connector) })
	return res
}

func viewOf(sg inspect.SinkGroup) SinkView {
	v := SinkView{Connector: sg.Connector, Group: sg.Group, State: sg.State,
		Members: []SinkMemberView{}, Tasks: []SinkTaskView{}, Partitions: []SinkPartitionView{}}
	if sg.ProtocolType != "" {
		v.ProtocolType = ptr(sg.ProtocolType)
	}
	if sg.Protocol != "" {
		v.Assignor = ptr(sg.Protocol)
	}
	v.Note = noteOf(sg)
	type tp struct {
		topic string
		part  int32
	}
	holder := map[tp]*SinkMemberView{}
	// One entry per member, not per task: two consumers of one task (a
	// zombie on a worker that left the Connect group) are both shown.
	tasks := map[string]*SinkTaskView{} // by member id
	consumersOf := map[string]int{}     // by task id
	for _, m := range sg.Members {
		mv := SinkMemberView{MemberID: m.MemberID, ClientID: m.ClientID, ClientHost: m.ClientHost,
			Task: taskIDOf(sg.Connector, m.ClientID), Partitions: m.Partitions}
		if mv.Partitions == nil {
			mv.Partitions = []inspect.TopicPartitions{}
		}
		v.Members = append(v.Members, mv)
	}
	slices.SortFunc(v.Members, func(a, b SinkMemberView) int { return cmp.Compare(a.MemberID, b.MemberID) })
	for i := range v.Members {
		m := &v.Members[i]
		n := 0
		for _, t := range m.Partitions {
			for _, p := range t.Partitions {
				holder[tp{t.Topic, p}] = m
				n++
			}
		}
		if m.Task != nil {
			tasks[m.MemberID] = &SinkTaskView{ID: *m.Task, MemberID: m.MemberID, Partitions: n}
			consumersOf[*m.Task]++
		}
	}
	for _, o := range sg.Offsets {
		pv := SinkPartitionView{Topic: o.Topic, Partition: o.Partition}
		if o.Committed >= 0 {
			pv.Committed = ptr(o.Committed)
		}
		if o.End >= 0 {
			pv.End = ptr(o.End)
		}
		if pv.Committed != nil && pv.End != nil {
			pv.Lag = ptr(max(0, *pv.End-*pv.Committed))
			v.Lag = addLag(v.Lag, *pv.Lag)
		}
		if m := holder[tp{o.Topic, o.Partition}]; m != nil {
			pv.MemberID = ptr(m.MemberID)
			pv.Task = m.Task
			if m.Task != nil && pv.Lag != nil {
				t := tasks[m.MemberID]
				t.Lag = addLag(t.Lag, *pv.Lag)
			}
		}
		v.Partitions = append(v.Partitions, pv)
	}
	slices.SortFunc(v.Partitions, func(a, b SinkPartitionView) int {
		return cmp.Or(cmp.Compare(a.Topic, b.Topic), cmp.Compare(a.Partition, b.Partition))
	})
	for _, t := range tasks {
		v.Tasks = append(v.Tasks, *t)
	}
	slices.SortFunc(v.Tasks, func(a, b SinkTaskView) int {
		return cmp.Or(compareTaskIDs(sg.Connector, a.ID, b.ID), cmp.Compare(a.MemberID, b.MemberID))
	})
	var doubled []string
	for _, t := range v.Tasks {
		if n := consumersOf[t.ID]; n > 1 && !slices.Contains(doubled, t.ID) {
			doubled = append(doubled, t.ID)
		}
	}
	if len(doubled) > 0 {
		note := "more than one consumer for task " + strings.Join(doubled, ", ") +
			": a zombie task (its old worker left the Connect group but still consumes) or a task restarting"
		if v.Note != nil {
			note = *v.Note + "; " + note
		}
		v.Note = &note
	}
	return v
}

// taskIDOf reads the task from the client id Connect gives each sink
// task's consumer, "connector-consumer-CONNECTOR-N"; nil when it is not one.
func taskIDOf(connector, clientID string) *string {
	rest, ok := strings.CutPrefix(clientID, "connector-consumer-"+connector+"-")
	if !ok {
		return nil
	}
	if _, err := strconv.ParseInt(rest, 10, 32); err != nil {
		return nil
	}
	return ptr(connector + "-" + rest)
}

func compareTaskIDs(connector, a, b string) int {
	na, _ := strconv.Atoi(strings.TrimPrefix(a, connector+"-"))
	nb, _ := strconv.Atoi(strings.TrimPrefix(b, connector+"-"))
	return cmp.Or(cmp.Compare(na, nb), cmp.Compare(a, b))
}

func noteOf(sg inspect.SinkGroup) *string {
	switch {
	case sg.State == inspect.GroupDead || sg.State == "":
		return ptr("the group does not exist: the connector's tasks have not started consuming (or use another group.id)")
	case sg.State == inspect.GroupEmpty:
		return ptr("no consumer is in the group: the connector's tasks are not running; lag is from the last commits")
	case sg.State == inspect.GroupPreparingRebalance || sg.State == inspect.GroupCompletingRebalance:
		return ptr("the group is rebalancing: partition holders will change")
	case sg.ProtocolType != "" && sg.ProtocolType != "consumer":
		return ptr("protocol type " + sg.ProtocolType + " is not a consumer group: partitions are not shown")
	case sg.State != inspect.GroupStable:
		return ptr("the group could not be described: " + sg.State)
	}
	return nil
}

func addLag(sum *int64, n int64) *int64 {
	if sum == nil {
		return ptr(n)
	}
	return ptr(*sum + n)
}

func ptr[T any](v T) *T { return &v }
