package check

import (
	"fmt"
	"strings"

	"github.com/connectscope/connectscope/inspect/kafkaversion"
	"github.com/connectscope/connectscope/inspect/workerconfig"
)

// checkSinkConsumers applies T4, T5 and S3 to the worker's consumer.* settings
// and to every sink connector that overrides them.
func checkSinkConsumers(f *Findings, in TimeoutsInput, w *workerconfig.Config, v kafkaversion.Version) {
	base := map[string]Value{}
	for _, s := range consumerNumeric {
		base[s.Key] = prefixedValue(w, "consumer.", s, v)
	}
	check := func(subject string, eff map[string]Value) {
		session, hb, poll := eff["session.timeout.ms"], eff["heartbeat.interval.ms"], eff["max.poll.interval.ms"]
		if session.Set {
			checkSessionRange(f, in, subject, "T4", "consumer.session.timeout.ms", session, v)
		}
		if session.Set && hb.Set && hb.N >= session.N {
			add(f, "T5", subject, v, fmt.Sprintf("consumer heartbeat.interval.ms %d is not below session.timeout.ms %d", hb.N, session.N),
				"consumer.heartbeat.interval.ms", hb, "consumer.session.timeout.ms", session)
		}
		if in.MaxPutTimeMs > 0 && poll.Set && poll.N <= in.MaxPutTimeMs {
			add(f, "S3", subject, v, fmt.Sprintf("consumer max.poll.interval.ms %d ≤ worst-case put+flush %d ms", poll.N, in.MaxPutTimeMs),
				"consumer.max.poll.interval.ms", poll, "max_put_time_ms", in.MaxPutTimeMs)
		}
	}
	check(w.Name()+" (sink consumers)", base)
	if overridePolicyNone(w, v) {
		return
	}
	for _, c := range in.Connectors {
		if c.Type == "source" {
			continue
		}
		eff := map[string]Value{}
		overridden := false
		for key, b := range base {
			eff[key] = overrideValue(b, c.Config, "consumer.override."+key, c.Name)
			if _, ok := c.Config["consumer.override."+key]; ok {
				overridden = true
			}
		}
		if overridden {
			check("connector "+c.Name+" on "+w.Name(), eff)
		}
	}
}

// overridePolicyNone reports whether connectors may not override client
// settings (policy None, the default before 3.0.0).
func overridePolicyNone(w *workerconfig.Config, v kafkaversion.Version) bool {
	p := strings.ToLower(w.Str("connector.client.config.override.policy"))
	if p == "" {
		return v.Known && v.Less(ver(3, 0, 0))
	}
	return p == "none" || strings.HasSuffix(p, ".noneconnectorclientconfigoverridepolicy")
}

// checkTransactions applies P8 and P9 (exactly-once source, 3.3.0+).
func checkTransactions(f *Findings, in TimeoutsInput, w *workerconfig.Config, v kafkaversion.Version) {
	eos := w.ExactlyOnceSourceSupport
	if eos != "preparing" && eos != "enabled" {
		return
	}
	name := w.Name()
	max := brokerValue(in.Broker, "transaction.max.timeout.ms", v)
	leader := workerValue(w, "transaction.timeout.ms", v)
	if leader.Set && leader.N > max.N {
		add(f, "P8", name, v, fmt.Sprintf("transaction.timeout.ms %d (leader's config-topic producer) > broker transaction.max.timeout.ms %d", leader.N, max.N),
			"transaction.timeout.ms", leader, "transaction.max.timeout.ms", max)
	}
	if eos != "enabled" {
		return
	}
	task := prefixedValue(w, "producer.", producerNumeric[0], v)
	if task.Set && task.N > max.N {
		add(f, "P8", name, v, fmt.Sprintf("producer.transaction.timeout.ms %d (source task producers) > broker transaction.max.timeout.ms %d", task.N, max.N),
			"producer.transaction.timeout.ms", task, "transaction.max.timeout.ms", max)
	}
	flushInterval := workerValue(w, "offset.flush.interval.ms", v)
	for _, c := range in.Connectors {
		if c.Type == "sink" {
			continue
		}
		timeout := task
		if !overridePolicyNone(w, v) {
			timeout = overrideValue(task, c.Config, "producer.override.transaction.timeout.ms", c.Name)
		}
		subject := "connector " + c.Name + " on " + name
		if timeout.Set && timeout.N > max.N && timeout.Source != task.Source {
			add(f, "P8", subject, v, fmt.Sprintf("producer.override.transaction.timeout.ms %d > broker transaction.max.timeout.ms %d", timeout.N, max.N),
				"producer.override.transaction.timeout.ms", timeout, "transaction.max.timeout.ms", max)
		}
		if !strings.EqualFold(strings.TrimSpace(c.Config["transaction.boundary"]), "interval") {
			continue
		}
		interval := flushInterval
		if raw, ok := c.Config["transaction.boundary.interval.ms"]; ok {
			if n, reason := workerconfig.ParseJavaInt(raw, 64); reason == "" {
				interval = Value{N: n, Set: true, Source: "connector " + c.Name}
			}
		}
		if interval.Set && timeout.Set && interval.N >= timeout.N {
			add(f, "P9", subject, v, fmt.Sprintf("transaction interval %d ms ≥ producer transaction.timeout.ms %d", interval.N, timeout.N),
				"transaction.boundary.interval.ms", interval, "transaction.timeout.ms", timeout)
		}
	}
}
