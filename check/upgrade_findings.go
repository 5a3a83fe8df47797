package check

import (
	"fmt"
	"sort"
	"strings"

	"github.com/connectscope/connectscope/format"
	"github.com/connectscope/connectscope/inspect/kafkaversion"
	"github.com/connectscope/connectscope/inspect/workerconfig"
)

// explainProtocol applies the broker's selection rule and names the workers
// that keep the group below sessioned.
func explainProtocol(workers []*planWorker, now string) (string, []string) {
	held := []string{}
	best := "sessioned"
	for _, w := range workers {
		if protocolRank[w.protocol] < protocolRank[best] {
			best = w.protocol
		}
	}
	for _, w := range sortedWorkers(workers) {
		// Only a file at the protocol the group runs holds it back: when the
		// group runs better than the files say, they are not what limits it.
		if w.protocol == best && best != "sessioned" && best == now && !w.assumed {
			held = append(held, w.name)
		}
	}
	reason := "the broker selects the protocol every member offers, each member voting for its first such choice"
	switch {
	case len(workers) == 0:
		reason = "no workers known"
	case now == "sessioned":
		reason += "; every worker offers sessioned"
	case len(held) > 0:
		reason += fmt.Sprintf("; %s offer%s at most %s (%s)", format.List(held), plural(len(held)), best, offersText(best))
	}
	return reason, held
}

func offersText(p string) string { return "offers " + strings.Join(offersFor(p), ", ") }

func plural(n int) string {
	if n == 1 {
		return "s"
	}
	return ""
}

// p13Summary gives P13 once for the whole group when no member has a
// worker file (one finding per member would only repeat itself), and
// reports whether it did; nothing else applies without files.
func p13Summary(f *Findings, workers []*planWorker, target string) bool {
	var members []*planWorker
	for _, w := range workers {
		if !w.assumed {
			return false
		}
		members = append(members, w)
	}
	if len(members) < 2 {
		return false
	}
	sort.Slice(members, func(i, j int) bool { return members[i].member.MemberID < members[j].member.MemberID })
	// workers[i] is member_ids[i]'s HOST:PORT, the name --worker takes.
	ids, names := make([]string, len(members)), make([]string, len(members))
	for i, w := range members {
		ids[i], names[i] = w.member.MemberID, w.member.MemberID
		if hp := w.hostPort(); hp != nil {
			names[i] = *hp
		}
	}
	f.Add("P13", "group", fmt.Sprintf("none of the group's %d members has a worker file; all assumed to offer %s", len(ids), target),
		map[string]any{"members": len(ids), "member_ids": ids, "workers": names})
	return true
}

// upgradeFindings applies P2, P3, P4, P5, P11, P12, P13.
func upgradeFindings(f *Findings, workers []*planWorker, now, target, eosTarget string) {
	anySessioned := false
	for _, w := range workers {
		if w.protocol == "sessioned" && !w.assumed {
			anySessioned = true
		}
	}
	var files []*workerconfig.Config
	versions := map[*workerconfig.Config]kafkaversion.Version{}
	if p13Summary(f, workers, target) {
		return
	}
	for _, w := range sortedWorkers(workers) {
		if w.assumed {
			f.Add("P13", w.name, fmt.Sprintf("member %s has no worker file; assumed to offer %s", w.member.MemberID, target),
				map[string]any{"member_id": w.member.MemberID, "worker": w.hostPort(), "metadata_version": w.member.MetadataVersion})
			continue
		}
		files = append(files, w.file)
		versions[w.file] = w.version
		reason := "connect.protocol=eager"
		if w.version.Known && w.version.Less(ver(2, 3, 0)) {
			reason = "Kafka " + w.version.String() + " (before 2.3.0)"
		}
		if w.protocol == "eager" {
			f.Add("P2", w.name, w.name+" offers only default: "+reason, map[string]any{"connect.protocol": w.protocol})
		}
		if w.protocol == "compatible" && anySessioned {
			f.Add("P3", w.name, w.name+" offers compatible while other workers offer sessioned", map[string]any{"connect.protocol": w.protocol})
		}
		if w.eos != "disabled" && now != "sessioned" {
			fd := f.Add("P4", w.name, fmt.Sprintf("exactly.once.source.support=%s while the group runs %s", w.eos, now),
				map[string]any{"exactly.once.source.support": w.eos, "group_protocol": now})
			if !w.version.Known {
				s := "3.3.0 and later"
				fd.AppliesTo = &s
			}
		}
		if min := minVersionFor(target); w.version.Known && w.version.Less(min) {
			f.Add("P12", w.name, fmt.Sprintf("%s runs Kafka %s; %s needs %s or later", w.name, w.version, target, min),
				map[string]any{"kafka_version": w.version.String(), "needs": min.String()})
		}
		if eosTarget != "" && eosTarget != "disabled" && w.version.Known && w.version.Less(ver(3, 3, 0)) {
			f.Add("P12", w.name, fmt.Sprintf("%s runs Kafka %s; exactly-once source needs 3.3.0 or later", w.name, w.version),
				map[string]any{"kafka_version": w.version.String(), "needs": "3.3.0"})
		}
	}
	// EOS consistency is shared with check timeouts.
	var cf Findings
	checkAcrossWorkers(&cf, files, versions)
	for _, fd := range cf.list {
		if fd.Rule == "P5" || fd.Rule == "P11" {
			f.list = append(f.list, fd)
		}
	}
}
