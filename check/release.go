package check

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/connectscope/connectscope/format"
	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/field"
	"github.com/connectscope/connectscope/inspect/kafkaversion"
	"github.com/connectscope/connectscope/inspect/rest"
	"github.com/connectscope/connectscope/inspect/store"
	"github.com/connectscope/connectscope/inspect/workerconfig"
	"github.com/connectscope/connectscope/inspect/workers"
)

// ReleaseInput is what `check upgrade --to RELEASE` checks: the connector
// configs of the config topic, the internal topics and the broker's
// settings, the worker files, and what every worker's REST API answered.
type ReleaseInput struct {
	To          kafkaversion.Version `json:"-"` // a release ParseRelease accepts
	Connectors  []ConnectorInfo      `json:"-"`
	TaskCounts  map[string]int       `json:"task_counts"` // committed tasks per connector
	Topics      TopicsInput          `json:"topics"`
	Broker      map[string]string    `json:"-"`
	WorkerFiles []*workerconfig.Config
	// Workers is what each member's REST API answered (inspect/rest);
	// empty when the workers were not asked.
	Workers []rest.WorkerInfo `json:"workers"`
	// Matrix is the plugin view built from Workers and the config topic;
	// nil when the plugins were not read.
	Matrix *workers.Matrix `json:"-"`
}

// ReleaseReport is the release part of `check upgrade --to`.
type ReleaseReport struct {
	To string `json:"to"` // the release checked against, e.g. 4.4.0 for 4.x
	Verdict
	Workers []ReleaseWorker `json:"workers"`
}

// ReleaseWorker is one worker as the release check saw it.
type ReleaseWorker struct {
	Worker  string  `json:"worker"` // HOST:PORT
	Version *string `json:"version"`
	Health  *string `json:"health"`
	Plugins *int    `json:"plugins"`
	Error   *string `json:"error"`
}

// newest4x is what "--to 4.x" means: the newest 4.x release connectscope knows.
var newest4x = ver(4, 4, 0)

// ParseRelease reads --to: 4.x, 4, 4.0 … 4.N, 5.0 (announced changes only):
// a release, never a number past the newest 4.x (4.10 is not 4.1).
func ParseRelease(s string) (kafkaversion.Version, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	switch t {
	case "4.x", "4":
		return newest4x, nil
	case "5.x", "5":
		t = "5.0"
	}
	v, err := kafkaversion.Parse(t)
	if err != nil || !v.Known || v.Less(ver(4, 0, 0)) || !v.Less(ver(5, 1, 0)) || (v.Major == 4 && v.Minor > newest4x.Minor) {
		return kafkaversion.Version{}, field.Errorf("To", " %q: want 4.x, a 4.N release (4.0 … %d.%d) or 5.0", s, newest4x.Major, newest4x.Minor)
	}
	return v, nil
}

// removed40 are connector keys Kafka 4.0 removed: the connector or
// transformation ignores them from 4.0 on, silently.
var removed40 = []struct {
	key, classPart, instead string
}{
	{"topics.blacklist", "org.apache.kafka.connect.mirror.Mirror", "topics.exclude"},
	{"groups.blacklist", "org.apache.kafka.connect.mirror.Mirror", "groups.exclude"},
	{"config.properties.blacklist", "org.apache.kafka.connect.mirror.Mirror", "config.properties.exclude"},
	{"use.incremental.alter.configs", "org.apache.kafka.connect.mirror.Mirror", "nothing: 4.0 always uses IncrementalAlterConfigs (target brokers 2.3.0 or later)"},
	{"add.source.alias.to.metrics", "org.apache.kafka.connect.mirror.Mirror", "nothing: 4.0 always adds the source alias to the metrics"},
}

// Release checks a cluster against a Kafka release (rules U1–U13).
func Release(in ReleaseInput) (*ReleaseReport, error) {
	to := in.To
	if !to.Known {
		return nil, field.Errorf("To", ": no release to check against: want 4.x, a 4.N release or 5.0")
	}
	var f Findings
	rep := &ReleaseReport{To: to.String(), Workers: []ReleaseWorker{}}
	conns := append([]ConnectorInfo{}, in.Connectors...)
	sort.Slice(conns, func(i, j int) bool { return conns[i].Name < conns[j].Name })
	for _, c := range conns {
		removedKeys(&f, c)
		taskLimits(&f, c, in.TaskCounts)
		if c.Type == "sink" && strings.EqualFold(strings.TrimSpace(c.Config["consumer.override.group.protocol"]), "consumer") {
			f.Addf("U7", c.Name, map[string]any{"consumer.override.group.protocol": "consumer"},
				"sink connector %s runs its consumers under the consumer group protocol (KIP-848)", c.Name)
		}
	}
	for _, w := range in.WorkerFiles {
		if strings.EqualFold(strings.TrimSpace(w.Props["consumer.group.protocol"]), "consumer") {
			f.Addf("U7", w.Name(), map[string]any{"consumer.group.protocol": "consumer"},
				"%s sets consumer.group.protocol=consumer for every sink connector", w.Name())
		}
	}
	cleanupPolicies(&f, in.Topics, to)
	if v, ok := in.Broker["log.cleaner.enable"]; ok && strings.EqualFold(strings.TrimSpace(v), "false") {
		f.Add("U3", "broker", "log.cleaner.enable=false: the internal topics are never compacted", map[string]any{"log.cleaner.enable": v})
	}
	if !to.Less(ver(5, 0, 0)) {
		overridePolicy(&f, in.WorkerFiles, conns)
	}
	protocolFloor(&f, in, to)
	checklist(&f, in.Workers, to)
	if in.Matrix == nil && anyPlugins(in.Workers) {
		in.Matrix = workers.BuildMatrix(in.Workers, configsOf(conns), nil)
	}
	if in.Matrix != nil {
		for _, g := range in.Matrix.Gaps {
			values := map[string]any{"connector": g.Connector, "key": g.Key, "class": g.Class, "worker": g.Worker,
				"worker_has": g.Has, "held_now": g.Now, "could_land": g.CouldLand}
			if g.Pin == nil || len(g.Has) == 0 {
				// A class the worker lacks is U11, pinned or not.
				f.Addf("U11", g.Connector+" on "+g.Worker, values, "%s (%s=%s)%s", g.Reason, g.Key, g.Class, landing(g))
				continue
			}
			values["pin"], values["pin_key"] = *g.Pin, *g.PinKey
			f.Addf("U12", g.Connector+" on "+g.Worker, values, "%s%s", g.Reason, landing(g))
		}
	}
	for i := range in.Workers {
		if w := &in.Workers[i]; w.Error != nil {
			notAnswered(&f, w)
		}
	}
	for _, w := range in.Workers {
		rw := ReleaseWorker{Worker: w.Worker, Version: w.Version, Error: w.Error}
		if w.Health != nil {
			s := w.Health.Status
			rw.Health = &s
		}
		if w.Plugins != nil {
			n := len(w.Plugins)
			rw.Plugins = &n
		}
		rep.Workers = append(rep.Workers, rw)
	}
	sort.Slice(rep.Workers, func(i, j int) bool { return rep.Workers[i].Worker < rep.Workers[j].Worker })
	rep.Verdict = verdictOf(f.List())
	return rep, nil
}

func landing(g workers.Gap) string {
	switch {
	case len(g.Now) > 0:
		return fmt.Sprintf("; it holds %s now, which cannot run there", format.List(g.Now))
	case len(g.CouldLand) > 0:
		return fmt.Sprintf("; the next rebalance may give it %s (Connect assigns by count, not by plugins)", format.List(g.CouldLand))
	}
	return ""
}

// removedKeys is U1: keys 4.0 removed, which 4.x ignores without a word.
func removedKeys(f *Findings, c ConnectorInfo) {
	class := c.Config["connector.class"]
	for _, r := range removed40 {
		if _, ok := c.Config[r.key]; ok && (strings.HasPrefix(class, r.classPart) || strings.HasPrefix(class, "Mirror")) {
			f.Addf("U1", c.Name, map[string]any{"key": r.key, "value": c.Config[r.key], "instead": r.instead},
				"%s sets %s, removed in 4.0 (use %s)", c.Name, r.key, r.instead)
		}
	}
	for _, alias := range workerconfig.List(c.Config["transforms"]) {
		typ := c.Config["transforms."+alias+".type"]
		if !strings.Contains(typ, "ReplaceField$") {
			continue
		}
		for old, now := range map[string]string{"whitelist": "include", "blacklist": "exclude"} {
			key := "transforms." + alias + "." + old
			if _, ok := c.Config[key]; ok {
				f.Addf("U1", c.Name, map[string]any{"key": key, "value": c.Config[key], "instead": "transforms." + alias + "." + now},
					"%s sets %s (ReplaceField), removed in 4.0: 4.x ignores it and passes every field (use transforms.%s.%s)", c.Name, key, alias, now)
			}
		}
	}
}

// taskLimits is U5 and U6: KIP-1004 (3.8) fails connectors with more
// committed tasks than tasks.max, and tasks.max.enforce=false, the way
// around it, is deprecated.
func taskLimits(f *Findings, c ConnectorInfo, counts map[string]int) {
	enforce := strings.TrimSpace(strings.ToLower(c.Config["tasks.max.enforce"]))
	if enforce == "false" {
		f.Addf("U6", c.Name, map[string]any{"tasks.max.enforce": "false"},
			"%s sets tasks.max.enforce=false, deprecated since 3.8 (KIP-1004)", c.Name)
	}
	n, ok := counts[c.Name]
	max, err := strconv.Atoi(strings.TrimSpace(c.Config["tasks.max"]))
	if _, set := c.Config["tasks.max"]; !set {
		max, err = 1, nil
	}
	if !ok || err != nil || n <= max || enforce == "false" {
		return
	}
	f.Addf("U5", c.Name, map[string]any{"tasks": n, "tasks.max": max},
		"%s has %d committed tasks but tasks.max=%d: 3.8+ workers fail it", c.Name, n, max)
}

// cleanupPolicies is U2: an internal topic whose cleanup.policy is empty
// (brokers accept it from 4.2: neither compaction nor deletion).
func cleanupPolicies(f *Findings, t TopicsInput, to kafkaversion.Version) {
	names := map[string]string{t.ConfigTopic: "config", t.OffsetTopic: "offsets", t.StatusTopic: "status"}
	for _, d := range t.Descriptions {
		role, ok := names[d.Name]
		if !ok || d.Name == "" || !d.Exists || d.Configs == nil {
			continue
		}
		if v, set := d.Configs["cleanup.policy"]; set && strings.TrimSpace(v) == "" {
			f.Addf("U2", d.Name, map[string]any{"cleanup.policy": v, "role": role},
				"%s topic %s has an empty cleanup.policy: never compacted, it grows without end and workers replay all of it at start", role, d.Name)
		}
	}
}

// overridePolicy is U4: with 5.0 the default connector client override
// policy becomes Allowlist with an empty list (KIP-1188); connectors whose
// overrides the policy then rejects fail validation and restarts.
func overridePolicy(f *Findings, files []*workerconfig.Config, conns []ConnectorInfo) {
	policy, allow, src := "All", map[string]bool{}, "default since 3.0"
	for _, w := range files {
		if p, ok := w.Props["connector.client.config.override.policy"]; ok {
			policy, src = strings.TrimSpace(p), w.Name()
		}
		for _, k := range workerconfig.List(w.Props["connector.client.config.override.allowlist"]) {
			allow[k] = true
		}
	}
	simple := policy[strings.LastIndexByte(policy, '.')+1:]
	simple = strings.TrimSuffix(simple, "ConnectorClientConfigOverridePolicy")
	if simple != "All" && simple != "Principal" {
		return // None rejects overrides already; Allowlist is the 5.0 default
	}
	for _, c := range conns {
		var rejected []string
		for k := range c.Config {
			for _, p := range []string{"producer.override.", "consumer.override.", "admin.override."} {
				if rest, ok := strings.CutPrefix(k, p); ok && !allow[rest] {
					rejected = append(rejected, k)
				}
			}
		}
		if len(rejected) == 0 {
			continue
		}
		sort.Strings(rejected)
		f.Addf("U4", c.Name, map[string]any{"policy": simple, "policy_from": src, "rejected": rejected},
			"%s overrides %s; under 5.0's default policy (Allowlist, empty list) %s rejected",
			c.Name, strings.Join(rejected, ", "), pluralWord(len(rejected), "it is", "they are"))
	}
}

func pluralWord(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// protocolFloor is U8: 4.x clients (Connect workers included) talk only to
// brokers 2.1 and later, and 4.x brokers only to clients 2.1 and later
// (KIP-896).
func protocolFloor(f *Findings, in ReleaseInput, to kafkaversion.Version) {
	floor := ver(2, 1, 0)
	for _, w := range in.Workers {
		if w.Version == nil {
			continue
		}
		v, err := kafkaversion.Parse(*w.Version)
		if err == nil && v.Known && v.Less(floor) {
			f.Addf("U8", w.Worker, map[string]any{"kafka_version": *w.Version, "needs": floor.String()},
				"%s runs Kafka %s: 4.x brokers refuse its requests (protocol floor 2.1, KIP-896)", w.Worker, *w.Version)
		}
	}
	if ibp, ok := in.Broker["inter.broker.protocol.version"]; ok {
		v, err := kafkaversion.Parse(ibp)
		if err == nil && v.Known && v.Less(floor) {
			f.Addf("U8", "broker", map[string]any{"inter.broker.protocol.version": ibp, "needs": floor.String()},
				"brokers run inter.broker.protocol.version=%s: %s workers cannot talk to brokers below 2.1 (KIP-896)", ibp, to)
		}
	}
}

// checklist is U9 and U10: what a 4.x worker needs that no API shows:
// Java 17 and a log4j2 configuration. Given once per worker below 4.0 (or
// of unknown version); workers already on 4.x are past it.
func checklist(f *Findings, ws []rest.WorkerInfo, to kafkaversion.Version) {
	var below []string
	for _, w := range ws {
		if w.Version == nil {
			below = append(below, w.Worker+" (version unknown)")
			continue
		}
		if v, err := kafkaversion.Parse(*w.Version); err != nil || !v.Known || v.Less(ver(4, 0, 0)) {
			below = append(below, w.Worker+" ("+*w.Version+")")
		}
	}
	if len(ws) == 0 {
		below = []string{"every worker (versions not read)"}
	}
	if len(below) == 0 {
		return
	}
	sort.Strings(below)
	vals := map[string]any{"workers": below, "to": to.String()}
	f.Addf("U9", "workers", vals, "before %s: run %s on Java 17 or later", to, format.List(below))
	f.Addf("U10", "workers", vals, "before %s: give %s a log4j2 configuration (connect-log4j2.yaml); log4j 1 properties files are not read", to, format.List(below))
}

// ReleaseTopics picks the topic part of the release input from a dataset.
func ReleaseTopics(ds *inspect.Dataset) TopicsInput {
	if ds == nil {
		return TopicsInput{}
	}
	return TopicsInput{ConfigTopic: ds.Topics.Config, OffsetTopic: ds.Topics.Offset, StatusTopic: ds.Topics.Status, Descriptions: ds.TopicDescriptions}
}

func anyPlugins(ws []rest.WorkerInfo) bool {
	for _, w := range ws {
		if w.Plugins != nil {
			return true
		}
	}
	return false
}

// configsOf turns flattened connector configs back into the config
// topic's shape for the plugin matrix (without tasks).
func configsOf(conns []ConnectorInfo) *store.ConfigsResult {
	res := &store.ConfigsResult{}
	for _, c := range conns {
		cfg := make(map[string]any, len(c.Config))
		for k, v := range c.Config {
			cfg[k] = v
		}
		res.Connectors = append(res.Connectors, store.ConnectorConfig{Name: c.Name, Config: cfg})
	}
	return res
}
