package check

import (
	"fmt"
	"sort"
	"strings"

	"github.com/connectscope/connectscope/inspect/field"
	"github.com/connectscope/connectscope/inspect/kafkaversion"
	"github.com/connectscope/connectscope/inspect/protocol"
	"github.com/connectscope/connectscope/inspect/workerconfig"
)

// UpgradeInput is what `check upgrade` plans from: the worker files and,
// when read, the group.
type UpgradeInput struct {
	Workers        []*workerconfig.Config          `json:"-"`
	Target         Protocol                        `json:"-"` // eager, compatible or sessioned
	ExactlyOnce    string                          `json:"-"` // wanted exactly.once.source.support; "" = keep
	KafkaVersion   kafkaversion.Version            `json:"-"`
	WorkerVersions map[string]kafkaversion.Version `json:"-"` // file path → version (REST root)
	// RESTFindings are the workers that did not tell their version (U13).
	RESTFindings []Finding `json:"-"`
	// GroupProtocol is the protocol DescribeGroups reports (default,
	// compatible, sessioned); "" when unknown.
	GroupProtocol string          `json:"group_protocol"`
	GroupState    string          `json:"group_state"`
	Members       []UpgradeMember `json:"members"`
}

// UpgradeMember is one group member as the upgrade plan needs it.
type UpgradeMember struct {
	MemberID string `json:"member_id"`
	// WorkerID is host:port from the member's REST URL (or its client id).
	WorkerID        string `json:"worker_id"`
	MetadataVersion int    `json:"metadata_version"` // -1 when unknown
}

// UpgradeReport is the result of `check upgrade`.
type UpgradeReport struct {
	Verdict
	Target        string          `json:"target"`
	ProtocolNow   string          `json:"protocol_now"`   // eager, compatible or sessioned
	GroupProtocol *string         `json:"group_protocol"` // as DescribeGroups named it; null when not read
	Reason        string          `json:"reason"`
	HeldBackBy    []string        `json:"held_back_by"`
	Workers       []UpgradeWorker `json:"workers"`
	Steps         []UpgradeStep   `json:"steps"`
	ProtocolFinal string          `json:"protocol_final"`
	// To is the release of --to (e.g. 4.4.0 for 4.x); null without --to.
	To *string `json:"to"`
	// RESTWorkers are the members as their REST APIs answered for --to
	// (version, health, plugin count, error); empty without --to.
	RESTWorkers []ReleaseWorker `json:"rest_workers"`
}

// AddRelease merges the release checks of --to into the protocol report.
func (r *UpgradeReport) AddRelease(rel *ReleaseReport) {
	to := rel.To
	r.To = &to
	r.RESTWorkers = rel.Workers
	var f Findings
	f.Merge(r.Findings)
	f.Merge(rel.Findings)
	r.Verdict = verdictOf(dedupe(f.List())) // U13 of a silent worker comes from both
}

// UpgradeWorker is a worker's protocol-relevant state.
type UpgradeWorker struct {
	Worker          string   `json:"worker"` // file name, or member id when no file matched
	MemberID        *string  `json:"member_id"`
	KafkaVersion    *string  `json:"kafka_version"`
	ConnectProtocol *string  `json:"connect_protocol"` // effective; null when no file
	Offers          []string `json:"offers"`           // JoinGroup protocol names, in order
	ExactlyOnce     *string  `json:"exactly_once_source_support"`
	// Name is the worker's HOST:PORT, as plans' --worker and inspect status
	// name it (from its member, else its file); null when neither says.
	Name *string `json:"name"`
}

// UpgradeStep is one worker restart of the rolling plan.
type UpgradeStep struct {
	Step             int     `json:"step"`
	Worker           string  `json:"worker"`
	Setting          string  `json:"setting"`
	From             string  `json:"from"`
	To               string  `json:"to"`
	KafkaAtLeast     *string `json:"kafka_at_least"` // the worker must first run at least this version
	ProtocolAfter    string  `json:"protocol_after"`
	ExactlyOnceAfter string  `json:"exactly_once_after"`
	Note             *string `json:"note"`
	Name             *string `json:"name"` // the worker's HOST:PORT, null when unknown
}

var protocolRank = map[string]int{"eager": 0, "compatible": 1, "sessioned": 2}

// offersFor is what a worker with this effective connect.protocol offers
// in JoinGroup (sessioned's offers for anything else).
func offersFor(connectProtocol string) []string {
	if offers := protocol.Offers(connectProtocol); offers != nil {
		return offers
	}
	return protocol.Offers("sessioned")
}

// minVersionFor is the first Kafka release that knows a protocol.
func minVersionFor(protocol string) kafkaversion.Version {
	switch protocol {
	case "compatible":
		return ver(2, 3, 0)
	case "sessioned":
		return ver(2, 4, 0)
	}
	return ver(0, 9, 0)
}

type planWorker struct {
	name     string
	file     *workerconfig.Config
	member   *UpgradeMember
	version  kafkaversion.Version
	protocol string // effective connect.protocol; for a member without file: assumed
	eos      string
	assumed  bool
}

// hostPort is the worker's HOST:PORT: its member's worker id, else what
// its file advertises; nil when neither says.
func (w *planWorker) hostPort() *string {
	id := ""
	if w.member != nil {
		id = w.member.WorkerID
	}
	if id == "" && w.file != nil {
		id = WorkerIDOf(w.file)
	}
	if id == "" {
		return nil
	}
	return &id
}

// Upgrade plans the rolling change of connect.protocol (and optionally of
// exactly.once.source.support) to the target.
func Upgrade(in UpgradeInput) (*UpgradeReport, error) {
	target, eosTarget, global, err := upgradeTargets(in)
	if err != nil {
		return nil, err
	}
	workers := matchWorkers(in, global, target)
	rep := &UpgradeReport{Target: target, HeldBackBy: []string{}, Workers: upgradeWorkers(workers), Steps: []UpgradeStep{}, RESTWorkers: []ReleaseWorker{}}
	computed := protocol.Setting(protocol.SelectProtocol(offersOf(workers)))
	rep.ProtocolNow = computed
	if in.GroupProtocol != "" {
		gp := in.GroupProtocol
		rep.GroupProtocol = &gp
		if s := protocol.Setting(in.GroupProtocol); s != "" {
			rep.ProtocolNow = s
		}
	}
	rep.Reason, rep.HeldBackBy = explainProtocol(workers, rep.ProtocolNow)
	if in.GroupProtocol != "" && computed != "" && computed != rep.ProtocolNow {
		if protocolRank[rep.ProtocolNow] > protocolRank[computed] {
			rep.Reason += fmt.Sprintf(" (the worker files alone would give %s: a member offers more than its file says; the file is out of date or the worker runs another file)", computed)
		} else {
			rep.Reason += fmt.Sprintf(" (the worker files alone would give %s: a member offers less than its file says, or the files are not all the workers)", computed)
		}
	}
	var f Findings
	upgradeFindings(&f, workers, rep.ProtocolNow, target, eosTarget)
	rep.Steps = append(rep.Steps, rollingPlan(workers, target, eosTarget)...)
	rep.ProtocolFinal = protocol.Setting(protocol.SelectProtocol(offersOf(workers)))
	f.Merge(in.RESTFindings)
	rep.Verdict = verdictOf(f.List())
	return rep, nil
}

// Protocol is a Connect group protocol an upgrade aims at: eager,
// compatible or sessioned.
type Protocol string

// ParseProtocol reads a target protocol as --target spells it, any case.
func ParseProtocol(s string) (Protocol, error) {
	p := strings.ToLower(strings.TrimSpace(s))
	if _, ok := protocolRank[p]; !ok {
		return "", field.Errorf("Target", " %q: use eager, compatible or sessioned", s)
	}
	return Protocol(p), nil
}

// upgradeTargets reads the target protocol, the exactly-once target and the
// cluster-wide Kafka version of the input.
func upgradeTargets(in UpgradeInput) (target, eosTarget string, global kafkaversion.Version, err error) {
	p, err := ParseProtocol(string(in.Target))
	if err != nil {
		return "", "", global, err
	}
	target = string(p)
	eosTarget = strings.ToLower(strings.TrimSpace(in.ExactlyOnce))
	switch eosTarget {
	case "", "disabled", "preparing", "enabled":
	default:
		return "", "", global, field.Errorf("ExactlyOnce", " %q: want disabled, preparing or enabled", in.ExactlyOnce)
	}
	if eosTarget != "" && eosTarget != "disabled" && target != "sessioned" {
		return "", "", global, field.Errorf("ExactlyOnce", " %s needs the target protocol sessioned (fencing requests are only signed under sessioned)", eosTarget)
	}
	return target, eosTarget, in.KafkaVersion, nil
}

// offersOf is what each worker offers in JoinGroup now.
func offersOf(workers []*planWorker) [][]string {
	out := make([][]string, len(workers))
	for i, w := range workers {
		out[i] = offersFor(w.protocol)
	}
	return out
}

// upgradeWorkers describes the workers as they are, sorted by name.
func upgradeWorkers(workers []*planWorker) []UpgradeWorker {
	out := []UpgradeWorker{}
	for _, w := range workers {
		uw := UpgradeWorker{Worker: w.name, Offers: offersFor(w.protocol), Name: w.hostPort()}
		if w.member != nil {
			id := w.member.MemberID
			uw.MemberID = &id
		}
		if w.version.Known {
			s := w.version.String()
			uw.KafkaVersion = &s
		}
		if w.file != nil {
			p, e := w.protocol, w.eos
			uw.ConnectProtocol, uw.ExactlyOnce = &p, &e
		}
		out = append(out, uw)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Worker < out[j].Worker })
	return out
}

// rollingPlan is the restart order: raise workers below the target first,
// then lower the ones above it, so the group never runs below min(now,
// target); exactly-once changes come before leaving sessioned and after
// reaching it. It changes workers as the restarts would.
func rollingPlan(workers []*planWorker, target, eosTarget string) []UpgradeStep {
	var steps []UpgradeStep
	emit := func(w *planWorker, setting, from, to string, atLeast *kafkaversion.Version, note string) {
		s := UpgradeStep{Step: len(steps) + 1, Worker: w.name, Name: w.hostPort(), Setting: setting, From: from, To: to,
			ProtocolAfter: protocol.Setting(protocol.SelectProtocol(offersOf(workers))), ExactlyOnceAfter: eosSummary(workers)}
		if atLeast != nil {
			v := atLeast.String()
			s.KafkaAtLeast = &v
		}
		if note != "" {
			s.Note = &note
		}
		steps = append(steps, s)
	}
	// Exactly-once must be off before leaving sessioned.
	if target != "sessioned" && anyEOS(workers) {
		eosTarget = "disabled"
	}
	if protocolRank[target] < protocolRank["sessioned"] {
		planEOS(workers, eosTarget, emit)
	}
	for _, w := range sortedWorkers(workers) {
		if w.file == nil || protocolRank[w.protocol] >= protocolRank[target] {
			continue
		}
		from := w.protocol
		var atLeast *kafkaversion.Version
		if min := minVersionFor(target); w.version.Known && w.version.Less(min) {
			atLeast = &min
			w.version = min
		}
		w.protocol = target
		emit(w, "connect.protocol", from, target, atLeast, "")
	}
	for _, w := range sortedWorkers(workers) {
		if w.file == nil || protocolRank[w.protocol] <= protocolRank[target] {
			continue
		}
		from := w.protocol
		w.protocol = target
		emit(w, "connect.protocol", from, target, nil, "")
	}
	if protocolRank[target] == protocolRank["sessioned"] {
		planEOS(workers, eosTarget, emit)
	}
	return steps
}

// planEOS adds the rolls that bring exactly.once.source.support to want
// without ever mixing enabled with disabled.
func planEOS(workers []*planWorker, want string, emit func(*planWorker, string, string, string, *kafkaversion.Version, string)) {
	if want == "" {
		return
	}
	roll := func(from, to string) {
		for _, w := range sortedWorkers(workers) {
			if w.file == nil || w.eos != from {
				continue
			}
			var atLeast *kafkaversion.Version
			if min := ver(3, 3, 0); to != "disabled" && w.version.Known && w.version.Less(min) {
				atLeast = &min
				w.version = min
			}
			w.eos = to
			note := ""
			if to == "enabled" {
				note = "second roll: start only after every worker runs preparing"
			}
			emit(w, "exactly.once.source.support", from, to, atLeast, note)
		}
	}
	switch want {
	case "enabled":
		roll("disabled", "preparing")
		roll("preparing", "enabled")
	case "preparing":
		roll("disabled", "preparing")
		roll("enabled", "preparing")
	case "disabled":
		roll("enabled", "preparing")
		roll("preparing", "disabled")
	}
}

func anyEOS(workers []*planWorker) bool {
	for _, w := range workers {
		if w.file != nil && w.eos != "disabled" {
			return true
		}
	}
	return false
}

func eosSummary(workers []*planWorker) string {
	count := map[string]int{}
	n := 0
	for _, w := range workers {
		if w.file != nil {
			count[w.eos]++
			n++
		}
	}
	if len(count) == 1 {
		for k := range count {
			return k
		}
	}
	var parts []string
	for _, k := range []string{"disabled", "preparing", "enabled"} {
		if count[k] > 0 {
			parts = append(parts, fmt.Sprintf("%s %d/%d", k, count[k], n))
		}
	}
	return strings.Join(parts, ", ")
}

func sortedWorkers(ws []*planWorker) []*planWorker {
	out := append([]*planWorker{}, ws...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// matchWorkers pairs worker files with group members (by REST host:port);
// members without a file are kept, assumed to offer the target.
func matchWorkers(in UpgradeInput, global kafkaversion.Version, target string) []*planWorker {
	var out []*planWorker
	used := map[int]bool{}
	ids := make([]string, len(in.Members))
	for i, m := range in.Members {
		ids[i] = m.WorkerID
	}
	match := matchFiles(in.Workers, ids)
	for wi, w := range in.Workers {
		v := global
		if pv, ok := in.WorkerVersions[w.Path]; ok && pv.Known {
			v = pv
		}
		pw := &planWorker{name: w.Name(), file: w, version: v, protocol: effectiveProtocol(w, v), eos: eosOf(w)}
		if i := match[wi]; i >= 0 {
			used[i] = true
			m := in.Members[i]
			pw.member = &m
		}
		out = append(out, pw)
	}
	for i := range in.Members {
		if used[i] {
			continue
		}
		m := in.Members[i]
		name := m.WorkerID
		if name == "" {
			name = m.MemberID
		}
		out = append(out, &planWorker{name: name, member: &m, protocol: target, eos: "disabled", assumed: true, version: global})
	}
	return out
}
