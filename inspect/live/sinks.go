package live

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"sort"
	"strings"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/store"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
)

// SinkRef names a sink connector and the consumer group its tasks use.
type SinkRef struct {
	Connector string
	Group     string   // connect-NAME, or consumer.override.group.id
	Topics    []string // the configured topics list (empty for topics.regex)
}

// SinkRefs lists the sink connectors of a decoded config topic with their
// consumer groups, sorted by connector name.
func SinkRefs(cfg *store.ConfigsResult) []SinkRef {
	var out []SinkRef
	for _, c := range cfg.Connectors {
		if store.ConnectorType(c.Config) != "sink" { // the same rule as `inspect connectors`
			continue
		}
		props := store.ConfigStrings(c.Config)
		ref := SinkRef{Connector: c.Name, Group: "connect-" + c.Name}
		if g := strings.TrimSpace(props["consumer.override.group.id"]); g != "" {
			ref.Group = g
		}
		for _, t := range strings.Split(props["topics"], ",") {
			if t = strings.TrimSpace(t); t != "" {
				ref.Topics = append(ref.Topics, t)
			}
		}
		out = append(out, ref)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Connector < out[j].Connector })
	return out
}

// sinkGroups reads the consumer groups of the sink connectors found in the
// config topic records.
func (r *reader) sinkGroups(ctx context.Context, records []inspect.Record) ([]inspect.SinkGroup, error) {
	var cfgRecs []inspect.Record
	for _, rec := range records {
		if rec.Topic == r.opts.Topics.Config {
			cfgRecs = append(cfgRecs, rec)
		}
	}
	cfg := store.DecodeConfigs(cfgRecs, store.DecodeOptions{ShowSecrets: true, Topic: r.opts.Topics.Config})
	refs := SinkRefs(cfg)
	deleted := deletedRefs(records, cfg, r.opts.Topics, r.opts.Group)
	refs = append(refs, deleted...)
	if len(refs) == 0 {
		return []inspect.SinkGroup{}, nil
	}
	groups := make([]string, len(refs))
	for i, ref := range refs {
		groups[i] = ref.Group
	}
	var described kadm.DescribedGroups
	if err := r.op(ctx, "describing the sink connectors' groups", func(ctx context.Context) error {
		var err error
		described, err = r.adm.DescribeGroups(ctx, groups...)
		return err
	}); err != nil {
		return nil, err
	}
	var fetched kadm.FetchOffsetsResponses
	if err := r.op(ctx, "fetching the sink connectors' committed offsets", func(ctx context.Context) error {
		fetched = r.adm.FetchManyOffsets(ctx, groups...)
		for _, g := range groups { // a group that does not exist has no commits
			if err := fetched[g].Err; err != nil && !errors.Is(err, kerr.GroupIDNotFound) {
				return err
			}
		}
		return nil
	}); err != nil {
		return nil, err
	}
	topicSet := map[string]bool{}
	for _, ref := range refs {
		for _, t := range ref.Topics {
			topicSet[t] = true
		}
	}
	for _, f := range fetched {
		for t := range f.Fetched {
			topicSet[t] = true
		}
	}
	for _, g := range described {
		for t := range g.AssignedPartitions() {
			topicSet[t] = true
		}
	}
	ends, err := r.sinkEndOffsets(ctx, topicSet)
	if err != nil {
		return nil, err
	}
	out := make([]inspect.SinkGroup, 0, len(refs))
	isDeleted := map[string]bool{}
	for _, ref := range deleted {
		isDeleted[ref.Group] = true
	}
	for _, ref := range refs {
		sg := buildSinkGroup(ref, described[ref.Group], fetched[ref.Group], ends)
		if isDeleted[ref.Group] {
			if sg.State == inspect.GroupDead && len(sg.Offsets) == 0 {
				continue // no group left behind
			}
			sg.Deleted = true
		}
		out = append(out, sg)
	}
	return out, nil
}

// deletedRefs are the connect-NAME groups of connectors the internal topics
// name (config, commit, task or status keys, tombstones included) but no
// config holds any more: a deleted sink's group outlives it. Names are
// taken only from this cluster's own topics, so another Connect cluster's
// sinks on the same brokers are never mistaken for leftovers.
func deletedRefs(records []inspect.Record, cfg *store.ConfigsResult, topics inspect.TopicNames, connectGroup string) []SinkRef {
	exists := map[string]bool{}
	for _, c := range cfg.Connectors {
		exists[c.Name] = true
	}
	seen := map[string]bool{}
	var out []SinkRef
	for _, rec := range records {
		name := ""
		key := string(rec.Key)
		switch rec.Topic {
		case topics.Config:
			if n, ok := strings.CutPrefix(key, "connector-"); ok {
				name = n
			} else if n, ok := strings.CutPrefix(key, "commit-"); ok {
				name = n
			}
		case topics.Status:
			if k := store.ParseStatusRecordKey(rec.Key); k.Is(store.StatusKeyConnector) {
				name = k.Connector
			}
		}
		group := "connect-" + name
		if name == "" || exists[name] || seen[name] || group == connectGroup {
			continue
		}
		seen[name] = true
		out = append(out, SinkRef{Connector: name, Group: group})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Connector < out[j].Connector })
	return out
}

// sinkEndOffsets lists end offsets of the topics sinks read; topics that do
// not exist are left out.
func (r *reader) sinkEndOffsets(ctx context.Context, topicSet map[string]bool) (kadm.ListedOffsets, error) {
	if len(topicSet) == 0 {
		return kadm.ListedOffsets{}, nil
	}
	topics := make([]string, 0, len(topicSet))
	for t := range topicSet {
		topics = append(topics, t)
	}
	sort.Strings(topics)
	var ends kadm.ListedOffsets
	err := r.op(ctx, "listing end offsets of the sink connectors' topics", func(ctx context.Context) error {
		var err error
		if ends, err = r.adm.ListEndOffsets(ctx, topics...); err != nil {
			return err
		}
		var firstErr error
		ends.Each(func(o kadm.ListedOffset) {
			if o.Err != nil && !errors.Is(o.Err, kerr.UnknownTopicOrPartition) && firstErr == nil {
				firstErr = o.Err
			}
		})
		return firstErr
	})
	return ends, err
}

// buildSinkGroup joins a group's description, its commits and the end offsets.
// A group the broker does not know is reported with state Dead; a group that
// could not be described carries the error's name as its state.
func buildSinkGroup(ref SinkRef, d kadm.DescribedGroup, f kadm.FetchOffsetsResponse, ends kadm.ListedOffsets) inspect.SinkGroup {
	sg := inspect.SinkGroup{Group: ref.Group, Connector: ref.Connector, State: d.State, ProtocolType: d.ProtocolType,
		Protocol: d.Protocol, Members: []inspect.SinkMember{}, Offsets: []inspect.PartitionOffset{}}
	switch {
	case d.Err != nil && errors.Is(d.Err, kerr.GroupIDNotFound):
		sg.State = inspect.GroupDead
	case d.Err != nil:
		sg.State = errorName(d.Err)
	case d.Group == "":
		sg.State = inspect.GroupDead
	}
	type tp struct {
		topic string
		part  int32
	}
	parts := map[tp]bool{}
	for _, m := range d.Members {
		sm := inspect.SinkMember{MemberID: m.MemberID, ClientID: m.ClientID, ClientHost: m.ClientHost, Partitions: []inspect.TopicPartitions{}}
		if a, ok := m.Assigned.AsConsumer(); ok && d.ProtocolType == "consumer" {
			for _, t := range a.Topics {
				ps := append([]int32(nil), t.Partitions...)
				sort.Slice(ps, func(i, j int) bool { return ps[i] < ps[j] })
				sm.Partitions = append(sm.Partitions, inspect.TopicPartitions{Topic: t.Topic, Partitions: ps})
				for _, p := range ps {
					parts[tp{t.Topic, p}] = true
				}
			}
			sort.Slice(sm.Partitions, func(i, j int) bool { return sm.Partitions[i].Topic < sm.Partitions[j].Topic })
		}
		sg.Members = append(sg.Members, sm)
	}
	sort.Slice(sg.Members, func(i, j int) bool { return sg.Members[i].MemberID < sg.Members[j].MemberID })
	committed := map[tp]int64{}
	f.Fetched.Each(func(o kadm.OffsetResponse) {
		if o.Err == nil && o.At >= 0 {
			committed[tp{o.Topic, o.Partition}] = o.At
			parts[tp{o.Topic, o.Partition}] = true
		}
	})
	for _, t := range ref.Topics {
		for p, o := range ends[t] {
			if o.Err == nil && p >= 0 {
				parts[tp{t, p}] = true
			}
		}
	}
	for k := range parts {
		po := inspect.PartitionOffset{Topic: k.topic, Partition: k.part, Committed: -1, End: -1}
		if c, ok := committed[k]; ok {
			po.Committed = c
		}
		if e, ok := ends.Lookup(k.topic, k.part); ok && e.Err == nil {
			po.End = e.Offset
		}
		sg.Offsets = append(sg.Offsets, po)
	}
	slices.SortFunc(sg.Offsets, func(a, b inspect.PartitionOffset) int {
		return cmp.Or(cmp.Compare(a.Topic, b.Topic), cmp.Compare(a.Partition, b.Partition))
	})
	return sg
}

func errorName(err error) string {
	var ke *kerr.Error
	if errors.As(err, &ke) {
		return ke.Message
	}
	return oneLine(err.Error())
}
