package sandbox

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// ConnectorSpec describes a connector to create.
type ConnectorSpec struct {
	Name  string
	Kind  string // KindSource (default) or KindSink
	Tasks int
	// Topic is what a sink consumes or a source produces to; default
	// NAME-data. A sink's topic is created with data if it does not exist.
	Topic string
}

// sinkTopicPartitions is how many partitions a sink's data topic gets.
const sinkTopicPartitions = 4

// configRecord is one record for the config topic (nil value = tombstone).
type configRecord struct {
	key   string
	value []byte
}

// writeConfig writes records to the config topic in order, as the leader
// does, and advances the cluster's config position.
func (c *Cluster) writeConfig(ctx context.Context, recs ...configRecord) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	krs := make([]*kgo.Record, len(recs))
	for i, r := range recs {
		krs[i] = &kgo.Record{Topic: c.cfg.Topics.Config, Key: []byte(r.key), Value: r.value}
	}
	res := c.admin.ProduceSync(ctx, krs...)
	if err := res.FirstErr(); err != nil {
		return fmt.Errorf("writing %s: %w", c.cfg.Topics.Config, err)
	}
	last := int64(-1)
	for _, r := range res {
		last = max(last, r.Record.Offset)
	}
	c.mu.Lock()
	c.configPos = max(c.configPos, last+1)
	c.mu.Unlock()
	return nil
}

// configPosition is the position after the last config record written.
func (c *Cluster) configPosition() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.configPos
}

func (c *Cluster) connector(name string) (*connectorState, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	cs, ok := c.connectors[name]
	if !ok {
		return nil, fmt.Errorf("no connector %q", name)
	}
	return cs, nil
}

// connectorCopy returns a copy of a connector's state, or nil.
func (c *Cluster) connectorCopy(name string) *connectorState {
	c.mu.Lock()
	defer c.mu.Unlock()
	cs, ok := c.connectors[name]
	if !ok {
		return nil
	}
	cp := *cs
	cp.failed = map[int]bool{}
	for k, v := range cs.failed {
		cp.failed[k] = v
	}
	return &cp
}

// taskRecords are the task configs 0..n-1 followed by the commit.
func taskRecords(cs *connectorState, n int) []configRecord {
	var recs []configRecord
	for i := 0; i < n; i++ {
		recs = append(recs, configRecord{taskKey(taskID{Connector: cs.name, Task: i}), taskConfigValue(cs, i)})
	}
	return append(recs, configRecord{commitKey(cs.name), commitValue(n)})
}

// AddConnector creates a connector: its config record, then (as if the
// connector had started and generated them) its task configs and commit.
// Workers rebalance to place it.
func (c *Cluster) AddConnector(ctx context.Context, spec ConnectorSpec) error {
	if spec.Name == "" || strings.ContainsAny(spec.Name, " \t\n") {
		return fmt.Errorf("connector name %q: must be non-empty without spaces", spec.Name)
	}
	if spec.Tasks < 0 {
		return fmt.Errorf("connector %s: negative task count %d", spec.Name, spec.Tasks)
	}
	switch spec.Kind {
	case "":
		spec.Kind = KindSource
	case KindSource, KindSink:
	default:
		return fmt.Errorf("connector %s: kind %q, want source or sink", spec.Name, spec.Kind)
	}
	if spec.Topic == "" {
		spec.Topic = spec.Name + "-data"
	}
	c.opMu.Lock()
	defer c.opMu.Unlock()
	c.mu.Lock()
	_, exists := c.connectors[spec.Name]
	c.mu.Unlock()
	if exists {
		return fmt.Errorf("connector %s already exists", spec.Name)
	}
	cs := &connectorState{name: spec.Name, kind: spec.Kind, topic: spec.Topic, tasksMax: spec.Tasks,
		tasks: spec.Tasks, target: TargetStarted, failed: map[int]bool{},
		multiFile: spec.Kind != KindSink && spec.Tasks > 1}
	if spec.Kind == KindSink {
		if err := c.ensureSinkTopic(ctx, spec.Topic); err != nil {
			return err
		}
	}
	recs := append([]configRecord{{connectorKey(cs.name), connectorConfigValue(cs)}}, taskRecords(cs, cs.tasks)...)
	if err := c.writeConfig(ctx, recs...); err != nil {
		return fmt.Errorf("creating connector %s: %w", cs.name, err)
	}
	c.mu.Lock()
	c.connectors[cs.name] = cs
	c.mu.Unlock()
	c.log.printf("connector %s created (%s, %d tasks)", cs.name, cs.kind, cs.tasks)
	c.notifyAll(workerMsg{kind: msgRejoin})
	return nil
}

// ensureSinkTopic creates a sink's data topic with some records in every
// partition, so the sink's consumer group has something to lag behind.
func (c *Cluster) ensureSinkTopic(ctx context.Context, topic string) error {
	adm := kadm.NewClient(c.admin)
	lctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	td, err := adm.ListTopics(lctx, topic)
	if err != nil {
		return fmt.Errorf("looking up topic %s: %w", topic, err)
	}
	if td.Has(topic) {
		return nil
	}
	if err := c.createTopic(ctx, adm, topic, sinkTopicPartitions, nil); err != nil {
		return err
	}
	var recs []*kgo.Record
	for p := int32(0); p < sinkTopicPartitions; p++ {
		for i := 0; i < c.cfg.SinkRecordsPerPartition; i++ {
			recs = append(recs, &kgo.Record{Topic: topic, Partition: p,
				Key:   []byte("key-" + strconv.Itoa(i)),
				Value: []byte(`{"n":` + strconv.Itoa(i) + `}`)})
		}
	}
	pctx, cancel2 := context.WithTimeout(ctx, 10*time.Second)
	defer cancel2()
	cl, err := kgo.NewClient(kgo.SeedBrokers(c.addr), kgo.ClientID("sandbox-data-producer"),
		kgo.RecordPartitioner(kgo.ManualPartitioner()), kgo.ProducerLinger(0))
	if err != nil {
		return fmt.Errorf("producing to %s: %w", topic, err)
	}
	defer cl.Close()
	if err := cl.ProduceSync(pctx, recs...).FirstErr(); err != nil {
		return fmt.Errorf("producing to %s: %w", topic, err)
	}
	return nil
}

// RemoveConnector deletes a connector: connector tombstone, then
// target-state tombstone (connect-internals.md §6.7).
func (c *Cluster) RemoveConnector(ctx context.Context, name string) error {
	c.opMu.Lock()
	defer c.opMu.Unlock()
	if _, err := c.connector(name); err != nil {
		return err
	}
	if err := c.writeConfig(ctx, configRecord{connectorKey(name), nil}, configRecord{targetStateKey(name), nil}); err != nil {
		return fmt.Errorf("removing connector %s: %w", name, err)
	}
	c.mu.Lock()
	delete(c.connectors, name)
	c.mu.Unlock()
	c.log.printf("connector %s removed", name)
	c.notifyAll(workerMsg{kind: msgRejoin})
	return nil
}

// ReconfigureConnector sets a connector's task count: new connector config
// (tasks.max), then a full set of task configs and the commit.
func (c *Cluster) ReconfigureConnector(ctx context.Context, name string, tasks int) error {
	if tasks < 0 {
		return fmt.Errorf("connector %s: negative task count %d", name, tasks)
	}
	c.opMu.Lock()
	defer c.opMu.Unlock()
	cs := c.connectorCopy(name)
	if cs == nil {
		return fmt.Errorf("no connector %q", name)
	}
	if cs.target == TargetStopped {
		return fmt.Errorf("connector %s is STOPPED; resume it first", name)
	}
	cs.tasksMax, cs.tasks = tasks, tasks
	// Real FileStreamSource runs one task whatever tasks.max says; a source
	// scaled past one becomes the sandbox's multi-file class.
	multi := cs.multiFile || (cs.kind != KindSink && tasks > 1)
	cs.multiFile = multi
	// The worker running the connector writes its task configs; one that
	// runs on no worker (held for a departed one) gets them when it runs.
	now := c.runsOnAWorker(name)
	recs := []configRecord{{connectorKey(name), connectorConfigValue(cs)}}
	if now {
		recs = append(recs, taskRecords(cs, tasks)...)
	}
	if err := c.writeConfig(ctx, recs...); err != nil {
		return fmt.Errorf("reconfiguring connector %s: %w", name, err)
	}
	c.mu.Lock()
	if live, ok := c.connectors[name]; ok {
		live.tasksMax, live.multiFile, live.tasksPending = tasks, multi, !now
		if now {
			live.setTasks(tasks)
		}
	}
	c.mu.Unlock()
	if now {
		c.log.printf("connector %s reconfigured to %d tasks", name, tasks)
	} else {
		c.log.printf("connector %s reconfigured to %d tasks; it runs on no worker, so its task configs wait until it runs again", name, tasks)
	}
	c.notifyAll(workerMsg{kind: msgRejoin})
	return nil
}

// PauseConnector writes target state PAUSED; the workers running it report
// PAUSED. No rebalance.
func (c *Cluster) PauseConnector(ctx context.Context, name string) error {
	return c.setTarget(ctx, name, TargetPaused)
}

// ResumeConnector writes target state STARTED. A STOPPED connector gets its
// task configs back (tasks.max of them) and the workers rebalance.
func (c *Cluster) ResumeConnector(ctx context.Context, name string) error {
	return c.setTarget(ctx, name, TargetStarted)
}

// StopConnector stops a connector (3.5+): an empty task set (commit with
// zero tasks), then target state STOPPED. Its tasks are revoked.
func (c *Cluster) StopConnector(ctx context.Context, name string) error {
	return c.setTarget(ctx, name, TargetStopped)
}

func (c *Cluster) setTarget(ctx context.Context, name, target string) error {
	c.opMu.Lock()
	defer c.opMu.Unlock()
	cs := c.connectorCopy(name)
	if cs == nil {
		return fmt.Errorf("no connector %q", name)
	}
	// The order Connect writes (checked against real workers by
	// e2e/realkafka/realcluster): stopping commits an empty task set,
	// then STOPPED; resuming writes the target state first, and the task
	// configs and their commit follow once the connector runs again.
	var recs []configRecord
	tasks := cs.tasks
	state := configRecord{targetStateKey(name), targetStateValue(target)}
	switch {
	case target == TargetStopped && cs.target != TargetStopped:
		recs = append(recs, configRecord{commitKey(name), commitValue(0)}, state)
		tasks = 0
	case target != TargetStopped && cs.target == TargetStopped:
		tasks = cs.tasksMax
		recs = append(append(recs, state), taskRecords(cs, tasks)...)
	default:
		recs = append(recs, state)
	}
	if err := c.writeConfig(ctx, recs...); err != nil {
		return fmt.Errorf("setting connector %s to %s: %w", name, target, err)
	}
	c.mu.Lock()
	rebalance := false
	if live, ok := c.connectors[name]; ok {
		rebalance = live.tasks != tasks
		live.target, live.tasks = target, tasks
		if tasks == 0 {
			live.failed = map[int]bool{}
		}
	}
	c.mu.Unlock()
	c.log.printf("connector %s target state %s", name, target)
	c.notifyAll(workerMsg{kind: msgTarget, connector: name})
	if rebalance {
		c.notifyAll(workerMsg{kind: msgRejoin})
	}
	return nil
}

// FailTask makes a running task fail: the worker running it reports FAILED
// with a stack trace. The task stays failed until it is revoked.
func (c *Cluster) FailTask(ctx context.Context, connector string, task int) error {
	c.mu.Lock()
	cs, ok := c.connectors[connector]
	if !ok || task < 0 || task >= cs.tasks {
		c.mu.Unlock()
		return fmt.Errorf("no task %s-%d", connector, task)
	}
	cs.failed[task] = true
	c.mu.Unlock()
	c.notifyAll(workerMsg{kind: msgFail, task: taskID{Connector: connector, Task: task}})
	c.log.printf("task %s-%d failed", connector, task)
	return nil
}

// Connectors describes the configured connectors, sorted by name.
func (c *Cluster) Connectors() []ConnectorInfo {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]ConnectorInfo, 0, len(c.connectors))
	for _, cs := range c.connectors {
		ci := ConnectorInfo{Name: cs.name, Kind: cs.kind, Topic: cs.topic, Tasks: cs.tasks, Target: cs.target}
		for n := range cs.failed {
			ci.Failed = append(ci.Failed, n)
		}
		slices.Sort(ci.Failed)
		out = append(out, ci)
	}
	slices.SortFunc(out, func(a, b ConnectorInfo) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// configured lists connectors with their committed task counts, sorted.
func (c *Cluster) configured() []ConnectorInfo { return c.Connectors() }
