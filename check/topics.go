package check

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/kafkaversion"
	"github.com/connectscope/connectscope/inspect/store"
	"github.com/connectscope/connectscope/inspect/workerconfig"
)

// TopicsInput is what `check topics` audits.
type TopicsInput struct {
	ConfigTopic  string                     `json:"config_topic"`
	OffsetTopic  string                     `json:"offset_topic"`
	StatusTopic  string                     `json:"status_topic"`
	Descriptions []inspect.TopicDescription `json:"descriptions"` // empty when not read live
	BrokerCount  int                        `json:"broker_count"` // 0 = unknown
	Group        string                     `json:"group"`        // the Connect group.id
	Members      []string                   `json:"members"`      // worker ids (host:port) of current members
	Records      []KeyRecord                `json:"records"`      // status and offsets records in read order
	Workers      []*workerconfig.Config     `json:"-"`
	Connectors   []ConnectorInfo            `json:"-"`
	// GroupHolder is what holds the Connect group.id on the brokers (K17);
	// nil when the group was not read.
	GroupHolder *GroupHolder `json:"group_holder"`
	// ConfigsRead says the config topic was read, so Connectors is every
	// connector there is (K18 needs it; without it nothing is an orphan).
	ConfigsRead bool `json:"configs_read"`
	// SinkGroups maps the sink consumer groups read (connect-NAME) to
	// their connector.
	SinkGroups map[string]string `json:"sink_groups"`
}

// KeyRecord is the part of an internal-topic record the topic checks read.
type KeyRecord struct {
	Topic     string  `json:"topic"`
	Partition int32   `json:"partition"`
	Offset    int64   `json:"offset"`
	Key       string  `json:"key"`
	Value     *string `json:"value"`
}

// TopicsReport is the result of `check topics`.
type TopicsReport struct {
	Verdict
	Topics []TopicView `json:"topics"`
}

// TopicView is one internal topic as described.
type TopicView struct {
	Role              string  `json:"role"` // config, offsets, status
	Name              string  `json:"name"`
	Exists            *bool   `json:"exists"`
	Partitions        *int    `json:"partitions"`
	ReplicationFactor *int    `json:"replication_factor"`
	CleanupPolicy     *string `json:"cleanup_policy"`
	MinInsyncReplicas *string `json:"min_insync_replicas"`
}

// Topics audits the internal topics and the group id: K1, K2, K5, K6, K7,
// K12–K17.
func Topics(in TopicsInput) *TopicsReport {
	var f Findings
	rep := &TopicsReport{Topics: []TopicView{}}
	names := inspect.TopicNames{Config: in.ConfigTopic, Offset: in.OffsetTopic, Status: in.StatusTopic}.Or(inspect.DefaultTopicNames())
	wantPartitions := map[string]int64{"offsets": 25, "status": 5}
	if len(in.Workers) > 0 {
		w := in.Workers[0]
		wantPartitions["offsets"] = workerValue(w, "offset.storage.partitions", kafkaversion.Version{}).N
		wantPartitions["status"] = workerValue(w, "status.storage.partitions", kafkaversion.Version{}).N
	}
	roles := []struct{ role, name string }{{"config", names.Config}, {"offsets", names.Offset}, {"status", names.Status}}
	for _, r := range roles {
		view := TopicView{Role: r.role, Name: r.name}
		d := findDescription(in.Descriptions, r.name)
		if d != nil {
			checkTopic(&f, in, r.role, d, wantPartitions)
			e, p, rf := d.Exists, d.Partitions, d.ReplicationFactor
			view.Exists = &e
			if d.Exists {
				view.Partitions, view.ReplicationFactor = &p, &rf
				if v, ok := d.Configs["cleanup.policy"]; ok {
					view.CleanupPolicy = &v
				}
				if v, ok := d.Configs["min.insync.replicas"]; ok {
					view.MinInsyncReplicas = &v
				}
			}
		}
		rep.Topics = append(rep.Topics, view)
	}
	checkKeysInTwoPartitions(&f, in.Records, names)
	checkForeignStatus(&f, in.Records, names.Status, in.Members)
	oin := in
	oin.OffsetTopic, oin.StatusTopic = names.Offset, names.Status
	checkOrphans(&f, oin)
	checkSinkGroupCollision(&f, in)
	checkGroupHolder(&f, in)
	rep.Verdict = verdictOf(f.List())
	return rep
}

func findDescription(ds []inspect.TopicDescription, name string) *inspect.TopicDescription {
	for i := range ds {
		if ds[i].Name == name {
			return &ds[i]
		}
	}
	return nil
}

func checkTopic(f *Findings, in TopicsInput, role string, d *inspect.TopicDescription, want map[string]int64) {
	subject := "topic " + d.Name
	if !d.Exists {
		f.Add("K12", subject, fmt.Sprintf("the %s topic %s does not exist", role, d.Name), map[string]any{"topic": d.Name, "role": role})
		return
	}
	if role == "config" && d.Partitions != 1 {
		f.Add("K1", subject, fmt.Sprintf("config topic %s has %d partitions", d.Name, d.Partitions), map[string]any{"partitions": d.Partitions})
	}
	if policy, ok := d.Configs["cleanup.policy"]; ok && strings.TrimSpace(policy) != "compact" {
		f.Add("K2", subject, fmt.Sprintf("%s topic %s has cleanup.policy=%s", role, d.Name, policy), map[string]any{"cleanup.policy": policy})
	}
	if d.ReplicationFactor < 3 {
		f.Add("K5", subject, fmt.Sprintf("%s topic %s has replication factor %d", role, d.Name, d.ReplicationFactor), map[string]any{"replication_factor": d.ReplicationFactor})
	} else if in.BrokerCount > 0 && d.ReplicationFactor > in.BrokerCount {
		f.Add("K5", subject, fmt.Sprintf("%s topic %s has replication factor %d but there are %d brokers", role, d.Name, d.ReplicationFactor, in.BrokerCount),
			map[string]any{"replication_factor": d.ReplicationFactor, "brokers": in.BrokerCount})
	}
	if raw, ok := d.Configs["min.insync.replicas"]; ok {
		if isr, reason := workerconfig.ParseJavaInt(raw, 32); reason == "" {
			values := map[string]any{"min.insync.replicas": isr, "replication_factor": d.ReplicationFactor}
			switch {
			case isr >= int64(d.ReplicationFactor):
				f.Add("K13", subject, fmt.Sprintf("%s topic %s: min.insync.replicas %d with replication factor %d", role, d.Name, isr, d.ReplicationFactor), values)
			case isr == 1 && d.ReplicationFactor > 1:
				f.Add("K14", subject, fmt.Sprintf("%s topic %s: min.insync.replicas 1 with replication factor %d", role, d.Name, d.ReplicationFactor), values)
			}
		}
	}
	if w, ok := want[role]; ok && w > 0 && int64(d.Partitions) != w {
		f.Add("K15", subject, fmt.Sprintf("%s topic %s has %d partitions; the workers would create %d", role, d.Name, d.Partitions, w),
			map[string]any{"partitions": d.Partitions, "configured": w})
	}
}

// checkKeysInTwoPartitions reports K6: a key written to two partitions of the
// offsets or status topic (its partition count grew after creation).
func checkKeysInTwoPartitions(f *Findings, records []KeyRecord, names inspect.TopicNames) {
	for _, topic := range []string{names.Offset, names.Status} {
		parts := map[string]map[int32]bool{}
		for _, r := range records {
			if r.Topic != topic {
				continue
			}
			if parts[r.Key] == nil {
				parts[r.Key] = map[int32]bool{}
			}
			parts[r.Key][r.Partition] = true
		}
		var keys []string
		for k, p := range parts {
			if len(p) > 1 {
				keys = append(keys, k)
			}
		}
		if len(keys) == 0 {
			continue
		}
		sort.Strings(keys)
		example := keys[0]
		ps := make([]int32, 0, len(parts[example]))
		for p := range parts[example] {
			ps = append(ps, p)
		}
		sort.Slice(ps, func(i, j int) bool { return ps[i] < ps[j] })
		f.Add("K6", "topic "+topic, fmt.Sprintf("%d keys appear in more than one partition, e.g. %s in partitions %v", len(keys), example, ps),
			map[string]any{"keys": len(keys), "example_key": example, "example_partitions": ps})
	}
}

type statusValue struct {
	WorkerID   *string `json:"worker_id"`
	Generation *int64  `json:"generation"`
}

// checkForeignStatus reports K16: a worker outside the group writing a status
// with an older generation after members wrote newer ones (same partition).
func checkForeignStatus(f *Findings, records []KeyRecord, topic string, members []string) {
	if len(members) == 0 {
		return
	}
	isMember := map[string]bool{}
	for _, m := range members {
		isMember[m] = true
	}
	newest := map[int32]int64{}
	type hit struct{ gen, newer int64 }
	foreign := map[string]hit{}
	for _, r := range records {
		if r.Topic != topic || r.Value == nil || statusConnector(r.Key) == "" {
			continue
		}
		var v statusValue
		if json.Unmarshal([]byte(*r.Value), &v) != nil || v.WorkerID == nil || v.Generation == nil {
			continue
		}
		if isMember[*v.WorkerID] {
			if *v.Generation > newest[r.Partition] {
				newest[r.Partition] = *v.Generation
			}
			continue
		}
		if n, ok := newest[r.Partition]; ok && *v.Generation < n {
			if h, seen := foreign[*v.WorkerID]; !seen || n-*v.Generation > h.newer-h.gen {
				foreign[*v.WorkerID] = hit{gen: *v.Generation, newer: n}
			}
		}
	}
	ids := slices.Sorted(maps.Keys(foreign))
	for _, id := range ids {
		h := foreign[id]
		f.Add("K16", "worker "+id, fmt.Sprintf("worker %s (not in the group) wrote generation %d after members wrote generation %d", id, h.gen, h.newer),
			map[string]any{"worker_id": id, "generation": h.gen, "newer_generation": h.newer})
	}
}

// checkSinkGroupCollision reports K7.
func checkSinkGroupCollision(f *Findings, in TopicsInput) {
	groups := map[string]bool{}
	if in.Group != "" {
		groups[in.Group] = true
	}
	for _, w := range in.Workers {
		if w.GroupID != "" {
			groups[w.GroupID] = true
		}
	}
	for _, c := range in.Connectors {
		if c.Type == "source" {
			continue
		}
		consumerGroup := "connect-" + c.Name
		if g, ok := c.Config["consumer.override.group.id"]; ok && strings.TrimSpace(g) != "" {
			consumerGroup = strings.TrimSpace(g)
		}
		if groups[consumerGroup] {
			f.Add("K7", "connector "+c.Name, fmt.Sprintf("sink connector %s consumes as group %s, the Connect group's id", c.Name, consumerGroup),
				map[string]any{"connector": c.Name, "consumer_group": consumerGroup})
		}
	}
}

// Orphan is what the internal topics and groups still hold for one
// connector that no longer exists (K18).
type Orphan struct {
	Connector     string   `json:"connector"`
	SourceOffsets int      `json:"source_offsets"` // live keys in the offsets topic
	StatusRecords []string `json:"status_records"` // live status keys
	SinkGroup     *string  `json:"sink_group"`     // its consumer group, when read
}

// Orphans lists, for connectors that have no config, the live (not
// tombstoned) source offsets and status records and their sink group: what
// a connector created again under the same name would silently resume from.
// Nil unless the config topic was read.
func Orphans(in TopicsInput) []Orphan {
	if !in.ConfigsRead {
		return nil
	}
	exists := map[string]bool{}
	for _, c := range in.Connectors {
		exists[c.Name] = true
	}
	latest := map[string]KeyRecord{}
	var order []string
	for _, r := range in.Records {
		if r.Topic != in.OffsetTopic && r.Topic != in.StatusTopic {
			continue
		}
		k := r.Topic + "\x00" + r.Key
		if _, seen := latest[k]; !seen {
			order = append(order, k)
		}
		latest[k] = r
	}
	by := map[string]*Orphan{}
	get := func(name string) *Orphan {
		if by[name] == nil {
			by[name] = &Orphan{Connector: name, StatusRecords: []string{}}
		}
		return by[name]
	}
	for _, k := range order {
		r := latest[k]
		if r.Value == nil {
			continue
		}
		if r.Topic == in.OffsetTopic {
			var key []json.RawMessage
			var name string
			if json.Unmarshal([]byte(r.Key), &key) != nil || len(key) != 2 || json.Unmarshal(key[0], &name) != nil || exists[name] {
				continue
			}
			get(name).SourceOffsets++
			continue
		}
		name := statusConnector(r.Key)
		if name == "" || exists[name] {
			continue
		}
		o := get(name)
		o.StatusRecords = append(o.StatusRecords, r.Key)
	}
	for g, c := range in.SinkGroups {
		if c != "" && !exists[c] {
			gg := g
			get(c).SinkGroup = &gg
		}
	}
	out := make([]Orphan, 0, len(by))
	for _, o := range by {
		sort.Strings(o.StatusRecords)
		out = append(out, *o)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Connector < out[j].Connector })
	return out
}

// statusConnector is the connector a connector or task status key names,
// as Kafka reads the key ("" for topic statuses and keys Kafka discards).
func statusConnector(key string) string {
	if k := store.ParseStatusRecordKey([]byte(key)); k.OfPiece() {
		return k.Connector
	}
	return ""
}

// checkOrphans reports K18.
func checkOrphans(f *Findings, in TopicsInput) {
	for _, o := range Orphans(in) {
		var parts []string
		if o.SourceOffsets > 0 {
			parts = append(parts, fmt.Sprintf("%d source offset key(s)", o.SourceOffsets))
		}
		if len(o.StatusRecords) > 0 {
			parts = append(parts, fmt.Sprintf("%d status record(s)", len(o.StatusRecords)))
		}
		if o.SinkGroup != nil {
			parts = append(parts, "sink group "+*o.SinkGroup)
		}
		f.Add("K18", "connector "+o.Connector, fmt.Sprintf("connector %s no longer exists but %s remain", o.Connector, strings.Join(parts, ", ")),
			map[string]any{"connector": o.Connector, "source_offsets": o.SourceOffsets, "status_records": o.StatusRecords, "sink_group": o.SinkGroup})
	}
}
