package check

import (
	"strings"

	"github.com/connectscope/connectscope/inspect/rest"
	"github.com/connectscope/connectscope/inspect/workerconfig"
	"github.com/connectscope/connectscope/inspect/workers"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/group"
	"github.com/connectscope/connectscope/inspect/kafkaversion"
	"github.com/connectscope/connectscope/inspect/protocol"
	"github.com/connectscope/connectscope/inspect/store"
	"github.com/connectscope/connectscope/inspect/views"
)

// Decoded is the dataset the checks read, decoded once (views.Decode with
// ShowSecrets: the rules look at values; findings redact what they show).
type Decoded struct {
	*views.Dataset
}

// Decode wraps a dataset for the checks, decoded as the newest Kafka
// release reads it; nil stays nil (no dataset read).
func Decode(ds *inspect.Dataset) *Decoded { return DecodeAs(ds, kafkaversion.Version{}) }

// DecodeAs wraps a dataset decoded as the workers of Kafka version v read
// it where a reader rule changed (unknown v: the newest release).
func DecodeAs(ds *inspect.Dataset, v kafkaversion.Version) *Decoded {
	return &Decoded{Dataset: views.Decode(ds, store.DecodeOptions{ShowSecrets: true, KafkaVersion: v})}
}

// Connectors lists the configured connectors with flattened configs.
func (d *Decoded) Connectors() []ConnectorInfo {
	if d == nil || d.Configs() == nil {
		return nil
	}
	out := make([]ConnectorInfo, 0, len(d.Configs().Connectors))
	for _, c := range d.Configs().Connectors {
		out = append(out, ConnectorInfo{Name: c.Name, Type: store.ConnectorType(c.Config), Config: store.ConfigStrings(c.Config)})
	}
	return out
}

// MaxTasksPerWorker is the most tasks any member owns (0 when unknown).
func (d *Decoded) MaxTasksPerWorker() int {
	max := 0
	if d == nil || d.Members() == nil {
		return 0
	}
	for _, m := range d.Members().Members {
		if m.Owned != nil && len(m.Owned.Tasks) > max {
			max = len(m.Owned.Tasks)
		}
	}
	return max
}

// UpgradeGroup fills the group part of an upgrade input.
func (d *Decoded) UpgradeGroup(in *UpgradeInput) {
	if d == nil || d.Members() == nil {
		return
	}
	if d.Members().State == "Stable" {
		in.GroupProtocol = d.Members().Protocol
	}
	in.GroupState = d.Members().State
	for _, m := range d.Members().Members {
		v := -1
		if m.Version != nil {
			v = int(*m.Version)
		}
		in.Members = append(in.Members, UpgradeMember{MemberID: m.MemberID, WorkerID: group.WorkerID(m), MetadataVersion: v})
	}
}

// TopicsInput builds the topics check's input from the dataset.
func (d *Decoded) TopicsInput(groupID string) TopicsInput {
	in := TopicsInput{Group: groupID}
	if d == nil || !d.Loaded() {
		return in
	}
	ds := d.Dataset.Dataset
	in.ConfigTopic, in.OffsetTopic, in.StatusTopic = ds.Topics.Config, ds.Topics.Offset, ds.Topics.Status
	in.Descriptions = ds.TopicDescriptions
	in.Connectors = d.Connectors()
	in.ConfigsRead = d.Configs() != nil && hasTopic(ds, ds.Topics.Config)
	for _, g := range ds.SinkGroups {
		if !g.Deleted && len(g.Offsets) == 0 {
			continue
		}
		if in.SinkGroups == nil {
			in.SinkGroups = map[string]string{}
		}
		in.SinkGroups[g.Group] = g.Connector
	}
	if in.Group == "" || ds.Group == nil || ds.Group.Group == in.Group {
		in.GroupHolder = GroupHolderOf(ds.Group)
	}
	if d.Members() != nil {
		for _, m := range d.Members().Members {
			in.Members = append(in.Members, group.WorkerID(m))
		}
	}
	for _, r := range ds.Records {
		if r.Topic != ds.Topics.Offset && r.Topic != ds.Topics.Status {
			continue
		}
		kr := KeyRecord{Topic: r.Topic, Partition: r.Partition, Offset: r.Offset, Key: string(r.Key)}
		if r.Value != nil {
			v := string(r.Value)
			kr.Value = &v
		}
		in.Records = append(in.Records, kr)
	}
	return in
}

// BalanceInput builds the balance check's input from the dataset.
func (d *Decoded) BalanceInput() BalanceInput {
	in := BalanceInput{Protocol: "sessioned"}
	if d == nil || !d.Loaded() {
		return in
	}
	in.Broker = d.BrokerConfigs
	if d.Configs() != nil {
		for _, c := range d.Configs().Connectors {
			in.Configured = append(in.Configured, ConfiguredConnector{Name: c.Name, Tasks: len(c.Tasks)})
		}
	}
	if d.Status() != nil {
		for _, c := range d.Status().Connectors {
			in.Status = append(in.Status, PieceStatus{ID: c.Name, State: c.State, WorkerID: deref(c.WorkerID), Generation: int64(c.Generation)})
		}
		for _, t := range d.Status().Tasks {
			in.Status = append(in.Status, PieceStatus{ID: t.ID, Task: true, State: t.State, WorkerID: deref(t.WorkerID), Generation: int64(t.Generation)})
		}
	}
	if d.Members() != nil {
		if p := protocol.Setting(d.Members().Protocol); p != "" {
			in.Protocol = p
		}
		for _, m := range d.Members().Members {
			wl := WorkerLoad{ID: group.WorkerID(m), MemberID: m.MemberID, Connectors: []string{}, Tasks: []string{}}
			if m.Owned != nil {
				wl.Connectors = append(wl.Connectors, m.Owned.Connectors...)
				wl.Tasks = append(wl.Tasks, m.Owned.Tasks...)
			}
			if m.Assignment != nil && m.Assignment.DelayMs > 0 {
				in.DelayPending = true
				in.DelayMs = max(in.DelayMs, int64(m.Assignment.DelayMs))
			}
			in.Workers = append(in.Workers, wl)
		}
	}
	return in
}

// HasGroup reports whether the dataset described the Connect group.
func (d *Decoded) HasGroup() bool {
	return d != nil && d.Members() != nil && len(d.Members().Members) > 0
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return strings.TrimSpace(*s)
}

// hasTopic reports whether the dataset holds records of the topic (a read
// that saw the config topic, even if it was empty, has its end offsets).
func hasTopic(ds *inspect.Dataset, topic string) bool {
	if _, ok := ds.EndOffsets[topic]; ok {
		return true
	}
	for _, r := range ds.Records {
		if r.Topic == topic {
			return true
		}
	}
	return false
}

// ReleaseInput builds `check upgrade --to`'s input from the dataset and
// the workers' REST answers (infos may be nil: the workers were not asked).
func (d *Decoded) ReleaseInput(to kafkaversion.Version, files []*workerconfig.Config, infos []rest.WorkerInfo) ReleaseInput {
	in := ReleaseInput{To: to, WorkerFiles: files, Workers: infos, TaskCounts: map[string]int{}}
	if d == nil || !d.Loaded() {
		return in
	}
	in.Connectors = d.Connectors()
	in.Broker = d.BrokerConfigs
	in.Topics = ReleaseTopics(d.Dataset.Dataset)
	if cfg := d.Configs(); cfg != nil {
		for _, c := range cfg.Connectors {
			n := len(c.Tasks)
			if c.TaskCount != nil && int(*c.TaskCount) > n {
				n = int(*c.TaskCount)
			}
			in.TaskCounts[c.Name] = n
		}
		if anyPlugins(infos) {
			in.Matrix = workers.BuildMatrix(infos, cfg, d.Members())
		}
	}
	return in
}
