// Package check audits a Kafka Connect cluster: worker timeouts, protocol
// upgrade readiness, internal topics and balance. Every finding names a rule
// of the catalogue (configs.md §6, extended), with the values involved, why
// it matters and how to fix it.
package check

import (
	"sort"
	"strconv"
	"strings"
)

// Severity of a rule or finding.
type Severity string

// Severities, from worst to mildest.
const (
	Error Severity = "error"
	Warn  Severity = "warn"
	Info  Severity = "info"
)

// rank orders severities: error 0, warn 1, info 2, unknown 3.
func (s Severity) rank() int {
	switch s {
	case Error:
		return 0
	case Warn:
		return 1
	case Info:
		return 2
	}
	return 3
}

// ParseSeverity accepts error, warn (or warning) and info.
func ParseSeverity(s string) (Severity, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "error":
		return Error, true
	case "warn", "warning":
		return Warn, true
	case "info":
		return Info, true
	}
	return "", false
}

// Reaches reports whether s is at least as severe as threshold.
func (s Severity) Reaches(threshold Severity) bool { return s.rank() <= threshold.rank() }

// Rule is one entry of the catalogue.
type Rule struct {
	ID       string   `json:"id"`
	Severity Severity `json:"severity"`
	Check    string   `json:"check"`    // the check that evaluates it: timeouts, upgrade, topics, balance
	Enforced string   `json:"enforced"` // "kafka" (Kafka itself fails) or "audit" (only connectscope checks)
	Title    string   `json:"title"`
	Why      string   `json:"why"`
	Fix      string   `json:"fix"`
	// AppliesTo names the Kafka versions the rule concerns, null when it
	// holds for every version. When the version is unknown, findings of such
	// rules carry this text so the reader can judge.
	AppliesTo *string `json:"applies_to"`
}

// Rules returns the whole catalogue, ordered by series (T, D, S, P, K, B, W, U)
// and number.
func Rules() []Rule {
	out := make([]Rule, len(catalogue))
	copy(out, catalogue)
	sort.SliceStable(out, func(i, j int) bool { return ruleLess(out[i].ID, out[j].ID) })
	return out
}

// RuleByID finds a rule, case-insensitively.
func RuleByID(id string) (Rule, bool) {
	id = strings.ToUpper(strings.TrimSpace(id))
	for _, r := range catalogue {
		if r.ID == id {
			return r, true
		}
	}
	return Rule{}, false
}

const seriesOrder = "TDSPKBWU"

// ruleLess orders ids by series, then number (T2 before T10).
func ruleLess(a, b string) bool {
	sa, na := splitID(a)
	sb, nb := splitID(b)
	if sa != sb {
		return sa < sb
	}
	if na != nb {
		return na < nb
	}
	return a < b
}

func splitID(id string) (int, int) {
	if id == "" {
		return len(seriesOrder), 0
	}
	s := strings.IndexByte(seriesOrder, id[0])
	if s < 0 {
		s = len(seriesOrder)
	}
	n, _ := strconv.Atoi(id[1:])
	return s, n
}

func versions(s string) *string { return &s }

// catalogue: T/D/S/P/K 1..n follow configs.md §6; higher numbers and the B
// (balance) series are connectscope's additions.
var catalogue = []Rule{
	// Group membership and timing.
	{ID: "T1", Severity: Error, Check: "timeouts", Enforced: "kafka",
		Title: "worker heartbeat.interval.ms must be below session.timeout.ms",
		Why:   "the worker's group client refuses to start when the heartbeat interval is not smaller than the session timeout",
		Fix:   "set heartbeat.interval.ms to at most a third of session.timeout.ms (defaults 3000 and 10000)"},
	{ID: "T2", Severity: Warn, Check: "timeouts", Enforced: "audit",
		Title: "worker heartbeat.interval.ms should be at most session.timeout.ms / 3",
		Why:   "with fewer than about three heartbeats per session window one delayed heartbeat expires the worker; its connectors and tasks become lost and wait for the scheduled rebalance delay",
		Fix:   "lower heartbeat.interval.ms or raise session.timeout.ms so that heartbeat ≤ session / 3"},
	{ID: "T3", Severity: Error, Check: "timeouts", Enforced: "kafka",
		Title: "worker session.timeout.ms must lie within the broker's group.min/max.session.timeout.ms",
		Why:   "the broker rejects the JoinGroup (INVALID_SESSION_TIMEOUT) and the worker never joins; the broker default maximum was 300000 ms before 2.3.0 and 30000 ms in 0.9",
		Fix:   "choose a session.timeout.ms inside the broker range, or change group.min/max.session.timeout.ms on the brokers"},
	{ID: "T4", Severity: Error, Check: "timeouts", Enforced: "kafka",
		Title: "sink consumer session.timeout.ms must lie within the broker's group session range",
		Why:   "sink tasks' consumers cannot join their consumer group connect-<connector>; the effective value is the worker's consumer.session.timeout.ms, a connector's consumer.override.session.timeout.ms, else 45000 (3.0+ clients; 10000 before)",
		Fix:   "set consumer.session.timeout.ms (worker) or consumer.override.session.timeout.ms (connector) inside the broker range"},
	{ID: "T5", Severity: Error, Check: "timeouts", Enforced: "kafka",
		Title: "sink consumer heartbeat.interval.ms must be below its session.timeout.ms",
		Why:   "the consumer fails to start and the sink task fails",
		Fix:   "lower consumer.heartbeat.interval.ms / consumer.override.heartbeat.interval.ms or raise the session timeout"},
	{ID: "T6", Severity: Warn, Check: "timeouts", Enforced: "audit",
		Title: "rebalance.timeout.ms should exceed the time a worker's main thread can block during a rebalance",
		Why:   "rebalance.timeout.ms is also the worker's poll timeout: stopping revoked tasks (8 in parallel, task.shutdown.graceful.timeout.ms each), stopping connectors (about 5000 ms) and reading the config topic (worker.sync.timeout.ms) longer than it makes the worker leave the group mid-work, and an eager worker that stops its tasks slower than it is dropped from the generation",
		Fix:   "raise rebalance.timeout.ms above ceil(tasks per worker / 8) × task.shutdown.graceful.timeout.ms + 5000 + worker.sync.timeout.ms, or lower the shutdown timeout"},
	{ID: "T7", Severity: Info, Check: "timeouts", Enforced: "audit",
		Title: "rebalance.timeout.ms is very large (over 5 minutes)",
		Why:   "every member waits up to the group's largest rebalance timeout for a stuck member before a round completes",
		Fix:   "keep rebalance.timeout.ms at the time a worker really needs (default 60000)"},
	{ID: "T8", Severity: Warn, Check: "timeouts", Enforced: "audit", AppliesTo: versions("2.4.0 and later"),
		Title: "heartbeat.interval.ms below 1000 ms",
		Why:   "since 2.4.0 the heartbeat interval is also how long a worker tolerates not finding the group coordinator before it stops all its connectors and tasks; tiny values turn brief coordinator moves into outages",
		Fix:   "set heartbeat.interval.ms to 1000 ms or more (default 3000)"},
	{ID: "T9", Severity: Warn, Check: "timeouts", Enforced: "audit",
		Title: "worker connections.max.idle.ms should be below the broker's",
		Why:   "the client should close idle connections first; when the broker closes them first the next request on that connection fails and is retried",
		Fix:   "keep the worker's connections.max.idle.ms (default 540000) below the broker's (default 600000)"},
	{ID: "T10", Severity: Info, Check: "timeouts", Enforced: "audit", AppliesTo: versions("clients 2.0.0 and later"),
		Title: "request.timeout.ms need not be tied to session or rebalance timeouts",
		Why:   "since 2.0 JoinGroup uses its own timeout (rebalance.timeout.ms + 5000, and at least request.timeout.ms since 2.6.0); raising request.timeout.ms to follow an outdated tutorial rule only delays the detection of dead connections",
		Fix:   "leave request.timeout.ms at its default (40000) unless requests really take that long"},
	{ID: "T11", Severity: Error, Check: "timeouts", Enforced: "kafka",
		Title: "numeric worker setting Kafka cannot parse",
		Why:   "Kafka accepts only integers (milliseconds for *.ms) and refuses to start the worker on a value such as \"30s\", \"1.5\" or one out of range",
		Fix:   "write the value as a plain integer number of milliseconds, e.g. 30000 for 30 s"},
	{ID: "T12", Severity: Warn, Check: "timeouts", Enforced: "audit",
		Title: "workers of one group disagree on a rebalance timing setting",
		Why:   "the delayed rebalance runs on the leader's scheduled.rebalance.max.delay.ms, so the cluster behaves differently after leadership moves; session.timeout.ms and heartbeat.interval.ms make a crash noticed sooner on some workers than on others; the group waits for the largest rebalance.timeout.ms of its members; plans and checks cannot say which value applies",
		Fix:   "set the same value in every worker file of the group (roll the change one worker at a time)"},
	// Scheduled delay and backoff.
	{ID: "D1", Severity: Error, Check: "timeouts", Enforced: "audit", AppliesTo: versions("2.3.0 to 3.5.1 and 3.6.0 (fixed in 3.5.2, 3.6.1, 3.7.0)"),
		Title: "scheduled.rebalance.max.delay.ms = 0 leaves lost work unassigned",
		Why:   "on affected versions a departed worker's connectors and tasks stay unassigned until some unrelated rebalance happens (KAFKA-15693)",
		Fix:   "set scheduled.rebalance.max.delay.ms above 0, or upgrade the workers to 3.5.2, 3.6.1, 3.7.0 or later"},
	{ID: "D2", Severity: Warn, Check: "timeouts", Enforced: "audit",
		Title: "scheduled.rebalance.max.delay.ms is shorter than a worker restart (--restart-time)",
		Why:   "a worker that returns after the deadline finds its work moved; the cluster then revokes and moves pieces a second time",
		Fix:   "raise scheduled.rebalance.max.delay.ms above the restart time, or speed up restarts"},
	{ID: "D3", Severity: Info, Check: "timeouts", Enforced: "audit",
		Title: "worst-case outage of a departed worker's connectors and tasks",
		Why:   "a crashed worker's pieces wait session.timeout.ms for detection plus scheduled.rebalance.max.delay.ms; a clean shutdown waits the delay only (not when the leader leaves, under eager, or with delay 0)",
		Fix:   "lower scheduled.rebalance.max.delay.ms (and session.timeout.ms) if the outage is too long for you"},
	{ID: "D4", Severity: Warn, Check: "timeouts", Enforced: "audit", AppliesTo: versions("2.5.1/2.6.0 and later, cooperative protocols"),
		Title: "scheduled.rebalance.max.delay.ms below 50 ms",
		Why:   "a cooperative worker that cannot catch up with the config topic sleeps delay/10/k ms (integer division) between retries; tiny values make it drop all its work after five near-instant retries",
		Fix:   "set scheduled.rebalance.max.delay.ms to 50 ms or more (default 300000)"},
	{ID: "D5", Severity: Info, Check: "timeouts", Enforced: "audit", AppliesTo: versions("3.4.0 and later"),
		Title: "consecutive-revocation backoff series",
		Why:   "repeated load-balancing revocations are throttled by delays of 40, 1600, 64000 ms, then the configured maximum delay",
		Fix:   "none needed; expect follow-up rebalances to be spaced by these delays"},
	{ID: "D6", Severity: Warn, Check: "timeouts", Enforced: "audit",
		Title: "crash outage exceeds the accepted downtime (--max-downtime)",
		Why:   "after a crash the worker's pieces are unassigned for up to session.timeout.ms + scheduled.rebalance.max.delay.ms, longer than the failover you said you can accept",
		Fix:   "lower scheduled.rebalance.max.delay.ms (and/or session.timeout.ms) so that their sum fits --max-downtime"},
	{ID: "D7", Severity: Info, Check: "timeouts", Enforced: "audit",
		Title: "another scheduled.rebalance.max.delay.ms costs fewer task-seconds and a shorter crash outage (needs the group and --restart-time)",
		Why:   "the advisor (plan advise) replays a rolling restart and a crash on the cluster's own members and connectors, with the delay that applies (the leader's: it schedules the delayed rebalance; each file's when the leader's file is unknown and the files differ): another delay gives both fewer task-seconds not running during the roll and a shorter outage when a worker crashes, often at the price of more tasks moved between machines, which the finding states",
		Fix:   "set scheduled.rebalance.max.delay.ms to the recommended value, after reading `connectscope plan advise` for the same cluster (it also weighs restart order, pacing and tasks moved)"},
	// Shutdown and offsets.
	{ID: "S1", Severity: Warn, Check: "timeouts", Enforced: "audit",
		Title: "task.shutdown.graceful.timeout.ms is shorter than offset.flush.timeout.ms",
		Why:   "a stopping source task waits up to offset.flush.timeout.ms for in-flight records and then commits offsets; when the stop wait ends first the task is abandoned and its last offsets may be lost (duplicates after reassignment)",
		Fix:   "set task.shutdown.graceful.timeout.ms to at least 2 × offset.flush.timeout.ms"},
	{ID: "S2", Severity: Warn, Check: "timeouts", Enforced: "audit",
		Title: "offset.flush.timeout.ms is not below offset.flush.interval.ms",
		Why:   "a flush that can run longer than the interval delays every following commit",
		Fix:   "keep offset.flush.timeout.ms below offset.flush.interval.ms"},
	{ID: "S3", Severity: Warn, Check: "timeouts", Enforced: "audit",
		Title: "sink consumer max.poll.interval.ms below the worst-case put() + flush time (--max-put-time)",
		Why:   "the sink consumer is then expelled from connect-<connector>, causing consumer-group rebalances and redelivery",
		Fix:   "raise consumer.max.poll.interval.ms (or the connector's consumer.override.max.poll.interval.ms), or make put() faster"},
	{ID: "S4", Severity: Info, Check: "timeouts", Enforced: "audit", AppliesTo: versions("2.5.1/2.6.0 and later"),
		Title: "worker.unsync.backoff.ms has no effect on a cooperative cluster",
		Why:   "since KAFKA-9849 cooperative workers back off by fractions of scheduled.rebalance.max.delay.ms instead; the setting only matters under eager",
		Fix:   "remove worker.unsync.backoff.ms, or tune scheduled.rebalance.max.delay.ms instead"},
	{ID: "S5", Severity: Info, Check: "timeouts", Enforced: "audit",
		Title: "task.shutdown.graceful.timeout.ms is below 2 × offset.flush.timeout.ms",
		Why:   "a stopping source task may wait for in-flight records and then for its final offset commit, each up to offset.flush.timeout.ms; with less than twice that the final commit can be cut short",
		Fix:   "set task.shutdown.graceful.timeout.ms to at least 2 × offset.flush.timeout.ms (only checked when the file sets one of them: Kafka's own 5000/5000 are left alone)"},
	// Protocol readiness.
	{ID: "P1", Severity: Warn, Check: "timeouts", Enforced: "audit",
		Title: "workers do not agree on connect.protocol",
		Why:   "the group runs the lowest protocol every worker offers, so one differing worker decides for all",
		Fix:   "give every worker the same connect.protocol (sessioned on 2.4.0+)"},
	{ID: "P2", Severity: Warn, Check: "upgrade", Enforced: "audit",
		Title: "a worker runs the eager protocol (connect.protocol=eager or Kafka before 2.3.0)",
		Why:   "one eager worker forces stop-the-world rebalances on the whole cluster and disables the lost-piece delay",
		Fix:   "set connect.protocol=sessioned (or remove it) on that worker, upgrading it to 2.4.0+ first if needed; see check upgrade"},
	{ID: "P3", Severity: Warn, Check: "upgrade", Enforced: "audit",
		Title: "a worker offers compatible while others offer sessioned",
		Why:   "the group falls back to compatible, which turns off the signing of internal REST requests (KIP-507)",
		Fix:   "set connect.protocol=sessioned on that worker (Kafka 2.4.0+)"},
	{ID: "P4", Severity: Warn, Check: "upgrade", Enforced: "audit", AppliesTo: versions("3.3.0 and later"),
		Title: "exactly-once source support without the sessioned protocol",
		Why:   "Kafka does not check it, but the zombie-fencing request followers send to the leader is only authenticated under sessioned",
		Fix:   "bring the group to connect.protocol=sessioned before exactly.once.source.support=preparing/enabled"},
	{ID: "P5", Severity: Error, Check: "upgrade", Enforced: "audit", AppliesTo: versions("3.3.0 and later"),
		Title: "exactly.once.source.support=enabled mixed with disabled",
		Why:   "source tasks on disabled workers write without transactions and a disabled leader writes the config topic non-transactionally without being fenced as a zombie, so the cluster gives no exactly-once guarantee",
		Fix:   "go disabled → preparing on every worker (one full roll), then preparing → enabled (a second roll); never mix enabled with disabled"},
	{ID: "P6", Severity: Error, Check: "timeouts", Enforced: "audit", AppliesTo: versions("2.4.0 and later"),
		Title: "a worker's inter.worker.signature.algorithm is not accepted by another worker",
		Why:   "forwarded internal requests (task configs, fencing) are rejected with 400 by workers whose inter.worker.verification.algorithms lack the sender's algorithm; Kafka checks only the local worker",
		Fix:   "add every worker's signature algorithm to every worker's inter.worker.verification.algorithms before changing any signature algorithm"},
	{ID: "P7", Severity: Warn, Check: "timeouts", Enforced: "audit", AppliesTo: versions("2.4.0 and later"),
		Title: "workers differ in inter.worker.key.generation.algorithm or inter.worker.key.size",
		Why:   "a new leader whose key generator differs from the current session key rotates the key immediately at every leadership change",
		Fix:   "use the same key generation algorithm and size on all workers"},
	{ID: "P8", Severity: Error, Check: "timeouts", Enforced: "kafka", AppliesTo: versions("3.3.0 and later (exactly-once source)"),
		Title: "producer transaction.timeout.ms exceeds the broker's transaction.max.timeout.ms",
		Why:   "the transactional producer fails to initialise (invalid transaction timeout): exactly-once source tasks (producer.* / producer.override.*) or the leader's config-topic producer (top-level transaction.timeout.ms) cannot start",
		Fix:   "lower transaction.timeout.ms to at most the broker's transaction.max.timeout.ms (default 900000)"},
	{ID: "P9", Severity: Warn, Check: "timeouts", Enforced: "audit", AppliesTo: versions("3.3.0 and later"),
		Title: "transaction.boundary=interval not shorter than the producer transaction timeout",
		Why:   "transactions left open longer than transaction.timeout.ms are aborted by the broker; both defaults are 60000",
		Fix:   "set transaction.boundary.interval.ms (or offset.flush.interval.ms) below the producer's transaction.timeout.ms"},
	{ID: "P10", Severity: Error, Check: "timeouts", Enforced: "kafka",
		Title: "connect.protocol or exactly.once.source.support has a value Kafka rejects",
		Why:   "the worker does not start: connect.protocol accepts eager, compatible, sessioned; exactly.once.source.support accepts disabled, preparing, enabled (any case)",
		Fix:   "use one of the accepted values"},
	{ID: "P11", Severity: Warn, Check: "upgrade", Enforced: "audit", AppliesTo: versions("3.3.0 and later"),
		Title: "workers differ in exactly.once.source.support (a roll in progress)",
		Why:   "preparing mixed with disabled or enabled is a legal intermediate state of the two-roll procedure, but the cluster has no exactly-once guarantee until every worker says enabled",
		Fix:   "finish the roll: every worker preparing, then every worker enabled"},
	{ID: "P12", Severity: Warn, Check: "upgrade", Enforced: "audit",
		Title: "the target protocol needs a newer Kafka on some workers",
		Why:   "compatible exists since 2.3.0, sessioned since 2.4.0, exactly-once source since 3.3.0; an older worker keeps offering only what it knows and holds the group back",
		Fix:   "upgrade those workers' Kafka Connect first, then change the setting"},
	{ID: "P13", Severity: Info, Check: "upgrade", Enforced: "audit",
		Title: "group members without a worker config file",
		Why:   "DescribeGroups shows only the selected protocol's metadata, so what these members offer (their connect.protocol) is unknown and the plan cannot say whether they hold the group back",
		Fix:   "pass every worker's file with --worker-config (globs allowed)"},
	{ID: "P14", Severity: Warn, Check: "timeouts", Enforced: "audit", AppliesTo: versions("2.4.0 and later, sessioned"),
		Title: "inter.worker.key.ttl.ms under one minute",
		Why:   "the leader rotates the session key after this; very short keys are rewritten to the config topic constantly and requests signed just before a rotation are rejected",
		Fix:   "keep inter.worker.key.ttl.ms at an hour (default 3600000) or at least several minutes"},
	// Topics and identity.
	{ID: "K1", Severity: Error, Check: "topics", Enforced: "kafka",
		Title: "the config topic must have exactly 1 partition",
		Why:   "workers refuse to start (2.5.1/2.6.0+); on older versions task and commit records can land in different partitions and connectors are marked inconsistent",
		Fix:   "recreate the config topic with one partition (copy its records in order) and point config.storage.topic at it"},
	{ID: "K2", Severity: Error, Check: "topics", Enforced: "kafka",
		Title: "internal topics must have cleanup.policy=compact exactly",
		Why:   "workers refuse to start (2.6.0+); with delete the config topic eventually loses connector configs",
		Fix:   "kafka-configs --alter --entity-type topics --entity-name TOPIC --add-config cleanup.policy=compact"},
	{ID: "K3", Severity: Error, Check: "timeouts", Enforced: "audit",
		Title: "config, offsets and status topic names must be pairwise distinct",
		Why:   "each store treats the others' keys as invalid and discards them; the config topic must also be single-partition",
		Fix:   "give config.storage.topic, offset.storage.topic and status.storage.topic three different names"},
	{ID: "K4", Severity: Error, Check: "timeouts", Enforced: "audit",
		Title: "workers of one group.id must share the topic names; different clusters need different group.id and topics",
		Why:   "otherwise workers disagree on configuration, or two Connect clusters fight over the same data",
		Fix:   "align group.id and the three storage topics on every worker of a cluster; give each cluster its own"},
	{ID: "K5", Severity: Warn, Check: "topics", Enforced: "audit",
		Title: "internal topic replication factor below 3 (or above the broker count)",
		Why:   "a single-replica internal topic makes the cluster's configuration, offsets or status unavailable when one broker fails",
		Fix:   "reassign the topic's partitions to 3 replicas (kafka-reassign-partitions)"},
	{ID: "K6", Severity: Warn, Check: "topics", Enforced: "audit",
		Title: "offsets/status partition count was increased after creation",
		Why:   "the same key then exists in two partitions; readers apply partitions in no defined order, so a stale value can win",
		Fix:   "never add partitions to these topics; to change the count create new topics and migrate"},
	{ID: "K7", Severity: Error, Check: "topics", Enforced: "audit",
		Title: "a sink connector's consumer group connect-<name> equals the worker group.id",
		Why:   "the consumer group and the Connect group collide (INCONSISTENT_GROUP_PROTOCOL)",
		Fix:   "rename the connector or set its consumer.override.group.id, or change the workers' group.id"},
	{ID: "K8", Severity: Error, Check: "balance", Enforced: "kafka",
		Title: "more workers than the broker's group.max.size",
		Why:   "workers beyond the limit are rejected from the group",
		Fix:   "raise group.max.size on the brokers or run fewer workers"},
	{ID: "K9", Severity: Warn, Check: "timeouts", Enforced: "audit", AppliesTo: versions("before 2.0.0 (ignored since)"),
		Title: "workers differ in the converters for internal topics",
		Why:   "internal.key.converter / internal.value.converter decide how the config, offsets and status topics are written before 2.0; workers that disagree cannot read each other's records",
		Fix:   "use the same internal converters on every worker (or remove them on 2.0+, where they are ignored)"},
	{ID: "K10", Severity: Info, Check: "timeouts", Enforced: "audit",
		Title: "worker files belong to different group.ids",
		Why:   "files with different group.id describe different Connect clusters; cross-worker rules are applied per group",
		Fix:   "pass one cluster's files at a time if that was not intended"},
	{ID: "K11", Severity: Error, Check: "timeouts", Enforced: "kafka",
		Title: "a required distributed-worker setting is missing",
		Why:   "group.id, config.storage.topic, offset.storage.topic and status.storage.topic have no default; the worker refuses to start",
		Fix:   "set the missing key"},
	{ID: "K12", Severity: Warn, Check: "topics", Enforced: "audit",
		Title: "an internal topic does not exist",
		Why:   "workers create missing topics at start-up only if allowed; a missing topic means the cluster never started, the name is wrong, or it was deleted with its data",
		Fix:   "check the topic names in the worker config; create the topic with the documented settings if needed"},
	{ID: "K13", Severity: Warn, Check: "topics", Enforced: "audit",
		Title: "min.insync.replicas not below the replication factor",
		Why:   "Connect writes its internal topics with acks=all; with min.insync.replicas ≥ RF one broker down stops all config, offset and status writes",
		Fix:   "use RF 3 with min.insync.replicas 2"},
	{ID: "K14", Severity: Info, Check: "topics", Enforced: "audit",
		Title: "min.insync.replicas is 1 on a replicated internal topic",
		Why:   "a write acknowledged by a single replica is lost if that broker fails before the others copy it",
		Fix:   "set min.insync.replicas=2 on the internal topics"},
	{ID: "K15", Severity: Info, Check: "topics", Enforced: "audit",
		Title: "internal topic partition count differs from the workers' settings",
		Why:   "offset.storage.partitions / status.storage.partitions only apply when the worker creates the topic; a different count shows the topic was made by hand or the setting changed later",
		Fix:   "nothing to do if intended; never increase the count of an existing topic (K6)"},
	{ID: "K16", Severity: Warn, Check: "topics", Enforced: "audit",
		Title: "status records from workers outside the group, with an older generation",
		Why:   "a worker that is not in the group wrote a status after members of a newer generation did: another Connect cluster may share the status topic, or a zombie worker is still running",
		Fix:   "give each Connect cluster its own group.id and topics; stop the zombie worker"},
	{ID: "K17", Severity: Error, Check: "topics", Enforced: "kafka", AppliesTo: versions("brokers 3.8.0 and later (KIP-848 groups); classic groups of another protocol type: all"),
		Title: "another kind of group holds the Connect group.id",
		Why:   "a share group, a consumer or streams group with members (KIP-848 protocol), or a classic group of another protocol type with members already uses the id: every worker's JoinGroup fails with INCONSISTENT_GROUP_PROTOCOL and the Connect cluster never forms; DescribeGroups hides the newer groups (GROUP_ID_NOT_FOUND, \"not a classic group\"), so only ListGroups shows them",
		Fix:   "give the workers a group.id no other application uses, or stop that application and delete its group (kafka-consumer-groups, kafka-share-groups or kafka-streams-groups --delete --group ID)"},
	// Balance, headroom and zombies.
	{ID: "K18", Severity: Warn, Check: "topics", Enforced: "audit",
		Title: "offsets, status records or a sink group of a connector that no longer exists",
		Why:   "deleting a connector leaves its source offsets (and, on many releases, task statuses and its connect-NAME consumer group); a connector created again under the same name silently resumes from those offsets instead of starting fresh",
		Fix:   "if the name will be reused for new data, reset the offsets first (create it stopped and DELETE /connectors/NAME/offsets on 3.6+, or delete the consumer group connect-NAME with kafka-consumer-groups for a sink); otherwise choose a new name"},
	{ID: "B1", Severity: Warn, Check: "balance", Enforced: "audit",
		Title: "connectors or tasks are spread unevenly across workers",
		Why:   "the busiest worker carries more than the assignor would give it; since 3.4.0 the cluster rebalances only on a trigger, so the skew persists",
		Fix:   "trigger a rebalance (restart or scale a worker), or check for a pending scheduled rebalance"},
	{ID: "B2", Severity: Warn, Check: "balance", Enforced: "audit",
		Title: "the remaining workers cannot absorb the busiest worker's tasks (--capacity)",
		Why:   "with N tasks per worker, losing the busiest worker must leave room on the others (N+1 headroom)",
		Fix:   "add a worker or raise the per-worker capacity"},
	{ID: "B3", Severity: Warn, Check: "balance", Enforced: "audit",
		Title: "losing one zone leaves too little capacity (--zones, --capacity)",
		Why:   "a zone outage takes all its workers; the others must hold every task within their capacity",
		Fix:   "spread workers over more zones or add capacity in each"},
	{ID: "B4", Severity: Warn, Check: "balance", Enforced: "audit",
		Title: "all workers are in one zone, or a worker has no zone",
		Why:   "a single zone is a single point of failure; a worker missing from --zones cannot be counted",
		Fix:   "run workers in at least two zones and list every worker in the zones file"},
	{ID: "B5", Severity: Error, Check: "balance", Enforced: "audit",
		Title: "a connector or task is owned by two workers",
		Why:   "two workers running the same task write duplicates and fight over offsets; Kafka revokes duplicates from all holders (2.5.1/2.6.0+)",
		Fix:   "restart the workers involved; look for a zombie worker that lost its group membership"},
	{ID: "B6", Severity: Warn, Check: "balance", Enforced: "audit",
		Title: "status says RUNNING on a worker other than the one owning it in the group",
		Why:   "the status topic and the group disagree: a zombie or a worker that did not write its status",
		Fix:   "restart the task (POST /connectors/<c>/tasks/<n>/restart) and check the worker named in the status"},
	{ID: "B7", Severity: Warn, Check: "balance", Enforced: "audit",
		Title: "status says RUNNING on a worker that is not in the group",
		Why:   "the recorded worker left (its status is stale) or still runs the task as a zombie next to the real owner",
		Fix:   "check that worker's process; restart the task through the REST API"},
	{ID: "B8", Severity: Warn, Check: "balance", Enforced: "audit",
		Title: "a task owned in the group is FAILED or UNASSIGNED in the status topic",
		Why:   "the worker holds the task but it does not run: FAILED needs a restart, UNASSIGNED means the worker never reported starting it",
		Fix:   "restart the task through the REST API and read its trace"},
	{ID: "B9", Severity: Warn, Check: "balance", Enforced: "audit",
		Title: "configured connectors or tasks owned by no worker",
		Why:   "work not assigned to anyone is not running; while a scheduled rebalance delay is pending it is a departed worker's work, held by the leader until the delay ends or the worker returns (one finding per departed worker, with its pieces and the time left)",
		Fix:   "wait for the delay to expire, or restart a worker to trigger a rebalance"},

	// Waivers (--waivers): the decisions to ignore findings.
	{ID: "W1", Severity: Warn, Check: "waivers", Enforced: "audit",
		Title: "a waiver has expired",
		Why:   "a waiver is a decision with a date on it; after that date the findings it covered count again and need a new decision",
		Fix:   "fix what the findings say, or renew the waiver with a new expires date and reason"},
	{ID: "W2", Severity: Info, Check: "waivers", Enforced: "audit",
		Title: "a waiver matches no finding",
		Why:   "a waiver whose rule's check ran but which matched none of its findings is out of date (the finding was fixed) or mistyped (its subject pattern matches nothing): either way the waiver list no longer says what is decided; waivers of checks that did not run are not judged",
		Fix:   "drop the waiver, or correct its subject pattern (the finding's subject, * any text, ? one character)"},

	// Upgrading to a Kafka release (check upgrade --to).
	{ID: "U1", Severity: Error, Check: "upgrade", Enforced: "audit", AppliesTo: versions("upgrades to 4.0 and later"),
		Title: "a connector config uses a key Kafka 4.0 removed",
		Why:   "4.0 removed ReplaceField's whitelist/blacklist and MirrorMaker 2's topics.blacklist, groups.blacklist, config.properties.blacklist, use.incremental.alter.configs and add.source.alias.to.metrics; 4.x ignores them without a word, so a ReplaceField that dropped fields passes them all and MirrorMaker replicates what it excluded",
		Fix:   "before the upgrade, rename the key in the connector config (whitelist → include, blacklist → exclude, *.blacklist → *.exclude) or drop it, with PUT /connectors/NAME/config"},
	{ID: "U2", Severity: Error, Check: "upgrade", Enforced: "audit", AppliesTo: versions("brokers 4.2 and later accept it"),
		Title: "an internal topic has an empty cleanup.policy",
		Why:   "from 4.2 brokers accept an empty cleanup.policy, meaning neither compaction nor deletion: the config, offsets or status topic grows without end and every worker replays all of it when it starts or rejoins",
		Fix:   "set cleanup.policy=compact on the topic (kafka-configs --alter --add-config cleanup.policy=compact)"},
	{ID: "U3", Severity: Warn, Check: "upgrade", Enforced: "audit",
		Title: "the brokers' log cleaner is disabled",
		Why:   "with log.cleaner.enable=false compacted topics are never compacted: the internal topics keep every record and worker start-up (reading them to the end) grows slower with every change",
		Fix:   "set log.cleaner.enable=true on the brokers (the default)"},
	{ID: "U4", Severity: Warn, Check: "upgrade", Enforced: "audit", AppliesTo: versions("upgrades to 5.0 (announced in 4.2, KIP-1188)"),
		Title: "connector client overrides the 5.0 default override policy would reject",
		Why:   "5.0 makes AllowlistConnectorClientConfigOverridePolicy the default and removes Principal; its connector.client.config.override.allowlist is empty unless set, so every producer.override.*, consumer.override.* and admin.override.* key of such a connector is rejected and the connector fails",
		Fix:   "set connector.client.config.override.policy and connector.client.config.override.allowlist on the workers (4.2+) to the keys the connectors use, or remove the overrides"},
	{ID: "U5", Severity: Error, Check: "upgrade", Enforced: "kafka", AppliesTo: versions("workers 3.8 and later (KIP-1004)"),
		Title: "a connector has more committed tasks than tasks.max",
		Why:   "from 3.8 workers enforce tasks.max: a connector whose committed task set is larger fails, with all its tasks, at the first restart on an upgraded worker",
		Fix:   "raise tasks.max to the task count, or let the connector regenerate its tasks under the limit before the upgrade"},
	{ID: "U6", Severity: Warn, Check: "upgrade", Enforced: "audit", AppliesTo: versions("3.8 and later (KIP-1004)"),
		Title: "tasks.max.enforce=false",
		Why:   "the escape hatch from KIP-1004's enforcement is deprecated and will be removed; the connector then fails if it generates more tasks than tasks.max",
		Fix:   "fix the connector's task count, raise tasks.max, and remove tasks.max.enforce"},
	{ID: "U7", Severity: Warn, Check: "upgrade", Enforced: "audit", AppliesTo: versions("brokers and workers 4.0 and later (KIP-848)"),
		Title: "sink connectors' consumers use group.protocol=consumer",
		Why:   "under the consumer protocol the broker assigns partitions: partition.assignment.strategy and session.timeout.ms overrides are ignored (group.consumer.* broker settings apply), connect-NAME becomes a consumer group that needs 4.0 brokers with the new coordinator, and tools that describe classic groups no longer see it",
		Fix:   "use it only with 4.0+ brokers; move session and assignor tuning to the broker's group.consumer.* settings, or remove the override"},
	{ID: "U8", Severity: Error, Check: "upgrade", Enforced: "kafka", AppliesTo: versions("4.0 and later (KIP-896)"),
		Title: "a worker or the brokers are below the 4.x protocol floor (2.1)",
		Why:   "4.0 removed the protocol versions older than 2.1: 4.x brokers refuse requests of older clients (workers included) and 4.x workers cannot talk to older brokers",
		Fix:   "upgrade the workers and brokers to at least 2.1 (better 3.9) before any of them goes to 4.x"},
	{ID: "U9", Severity: Info, Check: "upgrade", Enforced: "kafka", AppliesTo: versions("workers 4.0 and later"),
		Title: "4.x workers need Java 17",
		Why:   "Connect 4.0 and later run on Java 17 or later only; a worker started on Java 11 exits at once. No API shows the JVM, so this is a checklist item for each worker not yet on 4.x",
		Fix:   "install Java 17 (or 21) on each worker's host and point JAVA_HOME at it before upgrading the worker"},
	{ID: "U10", Severity: Info, Check: "upgrade", Enforced: "audit", AppliesTo: versions("workers 4.0 and later"),
		Title: "4.x workers read a log4j2 configuration",
		Why:   "4.0 moved to log4j2: a connect-log4j.properties file (log4j 1) is no longer read, so custom log levels, appenders and the connector context in log lines are lost until a log4j2 file replaces it. No API shows it, so this is a checklist item for each worker not yet on 4.x",
		Fix:   "convert the log4j 1 file to log4j2 (config/connect-log4j2.yaml in the 4.x distribution) and set KAFKA_LOG4J_OPTS to it"},
	{ID: "U11", Severity: Error, Check: "upgrade", Enforced: "audit",
		Title: "a worker lacks a plugin class a connector uses",
		Why:   "Connect's assignor places connectors and tasks by count, never by installed plugins: a piece that lands on a worker without its connector, converter, transformation or predicate class fails there (ClassNotFound), typically at the next rebalance of a rolling upgrade",
		Fix:   "install the same plugins on every worker (plugin.path) before the roll; inspect plugins lists which worker lacks what"},
	{ID: "U12", Severity: Error, Check: "upgrade", Enforced: "audit", AppliesTo: versions("workers 4.1 and later (KIP-891)"),
		Title: "a worker cannot satisfy a connector's plugin version pin",
		Why:   "with *.plugin.version a connector asks for a plugin version (KIP-891); a worker that has the class only at other versions fails the piece when the assignor gives it that worker",
		Fix:   "install the pinned version on every worker (several versions can live side by side on plugin.path), or widen the pin"},
	{ID: "U13", Severity: Warn, Check: "upgrade", Enforced: "audit",
		Title: "a worker's REST API did not answer (every call)",
		Why:   "what connectscope learns from a worker's REST API (its version, health and plugins) is unknown for a worker that did not answer, so the version-dependent rules fall back to --kafka-version or Kafka's defaults and the plugin checks skip it; a worker that does not answer is also one that may be down or stuck",
		Fix:   "check the worker named (is it running, is its REST listener reachable from here, do --rest-* TLS and credentials fit it), or give its version with --kafka-version"},
}
