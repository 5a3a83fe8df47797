package check

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/connectscope/connectscope/inspect/kafkaversion"
	"github.com/connectscope/connectscope/inspect/workerconfig"
)

// checkAcrossWorkers applies the rules on what must match across the workers
// of one Connect cluster (same group.id), and K4/K10 across clusters.
func checkAcrossWorkers(f *Findings, workers []*workerconfig.Config, versions map[*workerconfig.Config]kafkaversion.Version) {
	if len(workers) == 0 {
		return
	}
	groups := map[string][]*workerconfig.Config{}
	var ids []string
	for _, w := range workers {
		if _, ok := groups[w.GroupID]; !ok {
			ids = append(ids, w.GroupID)
		}
		groups[w.GroupID] = append(groups[w.GroupID], w)
	}
	sort.Strings(ids)
	if len(ids) > 1 {
		m := map[string]any{}
		for _, id := range ids {
			m[id] = fileNames(groups[id])
		}
		f.Add("K10", "worker files", fmt.Sprintf("%d group.ids: %s", len(ids), strings.Join(ids, ", ")), m).namedByData = true
		// Different clusters must not share topic names.
		owner := map[string]string{}
		for _, id := range ids {
			for _, t := range topicSet(groups[id]) {
				if other, ok := owner[t]; ok && other != id {
					f.Add("K4", "topic "+t, fmt.Sprintf("topic %s is used by group.id %q and %q", t, other, id),
						map[string]any{"topic": t, "group.ids": []string{other, id}})
				} else {
					owner[t] = id
				}
			}
		}
	}
	for _, id := range ids {
		ws := groups[id]
		subject := "group " + id
		if id == "" {
			subject = "group (unset)"
		}
		if len(ws) < 2 {
			continue
		}
		differ(f, "K4", subject, ws, "topic names differ between workers of one group", func(w *workerconfig.Config) string {
			t := w.TopicNames()
			return t.Config + "," + t.Offset + "," + t.Status
		})
		differ(f, "P1", subject, ws, "connect.protocol differs", func(w *workerconfig.Config) string {
			return effectiveProtocol(w, versions[w])
		})
		for _, key := range disagreeingTimings {
			differ(f, "T12", subject+" "+key, ws, key+" differs", func(w *workerconfig.Config) string {
				return valueText(workerValue(w, key, versions[w]))
			})
		}
		eos := map[string]bool{}
		for _, w := range ws {
			eos[eosOf(w)] = true
		}
		if eos["enabled"] && eos["disabled"] {
			differ(f, "P5", subject, ws, "exactly.once.source.support enabled and disabled at once", eosOf)
		} else if len(eos) > 1 {
			differ(f, "P11", subject, ws, "exactly.once.source.support differs", eosOf)
		}
		differ(f, "P7", subject, ws, "session key generation differs", func(w *workerconfig.Config) string {
			alg := w.Str("inter.worker.key.generation.algorithm")
			if alg == "" {
				alg = "HmacSHA256"
			}
			size := w.Str("inter.worker.key.size")
			if size == "" {
				size = "default"
			}
			return alg + "/" + size
		})
		if !allAtLeast(ws, versions, ver(2, 0, 0)) {
			d := differ(f, "K9", subject, ws, "internal converters differ", func(w *workerconfig.Config) string {
				return orUnset(w.Str("internal.key.converter")) + " " + orUnset(w.Str("internal.value.converter"))
			})
			if d != nil && !allKnown(ws, versions) {
				s := "before 2.0.0 (ignored since)"
				d.AppliesTo = &s
			}
		}
		checkSignatures(f, ws, versions)
	}
}

// disagreeingTimings are the settings whose effect depends on which worker
// leads or which member the coordinator waits for (T12).
var disagreeingTimings = []string{"scheduled.rebalance.max.delay.ms", "session.timeout.ms", "heartbeat.interval.ms", "rebalance.timeout.ms"}

// valueText is a setting's effective value, for comparing: a default
// equals the same number written out.
func valueText(v Value) string {
	switch {
	case v.Invalid:
		return "invalid"
	case !v.Set:
		return "unset"
	}
	return fmt.Sprint(v.N)
}

// differ adds one finding of rule id when key gives different values for
// the workers, with each file's value.
func differ(f *Findings, id, subject string, ws []*workerconfig.Config, what string, key func(*workerconfig.Config) string) *Finding {
	values := map[string]any{}
	distinct := map[string][]string{} // value → the files that hold it
	for _, w := range ws {
		k := key(w)
		values[w.Name()] = k
		distinct[k] = append(distinct[k], w.Name())
	}
	if len(distinct) < 2 {
		return nil
	}
	keys := slices.Sorted(maps.Keys(distinct))
	// Each value with the files that hold it, so the reader knows which
	// workers to change without -o json.
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s (%s)", k, someFiles(distinct[k]))
	}
	found := f.Add(id, subject, fmt.Sprintf("%s: %s", what, strings.Join(parts, " / ")), values)
	found.namedByData = true
	return found
}

// someFiles names up to three files and counts the rest.
func someFiles(files []string) string {
	sort.Strings(files)
	if len(files) <= 3 {
		return strings.Join(files, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(files[:3], ", "), len(files)-3)
}

func eosOf(w *workerconfig.Config) string {
	if w.ExactlyOnceSourceSupport == "" {
		return "disabled"
	}
	return w.ExactlyOnceSourceSupport
}

// checkSignatures applies P6: every worker's signature algorithm must be
// accepted by every other worker.
func checkSignatures(f *Findings, ws []*workerconfig.Config, versions map[*workerconfig.Config]kafkaversion.Version) {
	sig := func(w *workerconfig.Config) string {
		if s := w.Str("inter.worker.signature.algorithm"); s != "" {
			return s
		}
		return "HmacSHA256"
	}
	accepts := func(w *workerconfig.Config) []string {
		if l := w.List("inter.worker.verification.algorithms"); len(l) > 0 {
			return l
		}
		return []string{"HmacSHA256"}
	}
	for _, from := range ws {
		for _, to := range ws {
			if from == to {
				continue
			}
			s, acc := sig(from), accepts(to)
			found := false
			for _, a := range acc {
				if a == s {
					found = true
				}
			}
			if !found {
				fd := f.Add("P6", from.Name()+" → "+to.Name(),
					fmt.Sprintf("%s signs with %s; %s accepts only %s", from.Name(), s, to.Name(), strings.Join(acc, ", ")),
					map[string]any{"inter.worker.signature.algorithm": s, "inter.worker.verification.algorithms": acc})
				if !allKnown([]*workerconfig.Config{from, to}, versions) {
					a := "2.4.0 and later"
					fd.AppliesTo = &a
				}
			}
		}
	}
}

// workerNames are the files' names in the order given.
func workerNames(ws []*workerconfig.Config) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.Name()
	}
	return out
}

func fileNames(ws []*workerconfig.Config) []string {
	out := workerNames(ws)
	sort.Strings(out)
	return out
}

func topicSet(ws []*workerconfig.Config) []string {
	set := map[string]bool{}
	for _, w := range ws {
		t := w.TopicNames()
		set[t.Config], set[t.Offset], set[t.Status] = true, true, true
	}
	out := make([]string, 0, len(set))
	for t := range set {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

func allKnown(ws []*workerconfig.Config, versions map[*workerconfig.Config]kafkaversion.Version) bool {
	for _, w := range ws {
		if !versions[w].Known {
			return false
		}
	}
	return true
}

func allAtLeast(ws []*workerconfig.Config, versions map[*workerconfig.Config]kafkaversion.Version, min kafkaversion.Version) bool {
	for _, w := range ws {
		v := versions[w]
		if !v.Known || v.Less(min) {
			return false
		}
	}
	return true
}

func orUnset(s string) string {
	if s == "" {
		return "(unset)"
	}
	return s
}
