package check

import (
	"context"
	"fmt"

	"github.com/connectscope/connectscope/inspect/kafkaversion"
	"github.com/connectscope/connectscope/inspect/workerconfig"
	"github.com/connectscope/connectscope/plan"
)

// adviceKey is what one advisor run depends on, so workers sharing their
// settings share the run.
type adviceKey struct {
	delay, session int64
	proto, version string
}

// checkDelayAdvice (D7) runs the advisor over the delay alone, rolling as
// plan rolling-restart does (leader last, next when the last is back, clean
// stops), and reports when another delay beats the worker's on both the
// roll's task-seconds and the crash outage. It needs the group (a dataset)
// and --restart-time.
func checkDelayAdvice(f *Findings, in TimeoutsInput, w *workerconfig.Config, v kafkaversion.Version, cache map[adviceKey]*plan.AdviseResult) error {
	if in.Cluster == nil || len(in.Cluster.Workers) == 0 || in.RestartTimeMs <= 0 {
		return nil
	}
	delay := workerValue(w, "scheduled.rebalance.max.delay.ms", v)
	session := workerValue(w, "session.timeout.ms", v)
	proto := effectiveProtocol(w, v)
	if !delay.Set || !session.Set || delay.Invalid || session.Invalid || proto == "eager" {
		return nil
	}
	version := ""
	if v.Known {
		version = v.String()
	}
	key := adviceKey{delay: delay.N, session: session.N, proto: proto, version: version}
	res, ok := cache[key]
	if !ok {
		ctx := in.Context
		if ctx == nil {
			ctx = context.Background()
		}
		var err error
		res, err = plan.Advise(ctx, *in.Cluster,
			plan.PlanOptions{Protocol: proto, MaxDelayMs: delay.N, SessionTimeoutMs: session.N, KafkaVersion: version, RoundTimeMs: plan.DefaultRoundTimeMs},
			plan.AdviseOptions{RestartMs: in.RestartTimeMs, Orders: []string{plan.OrderLeaderLast}, Pacings: []plan.Pacing{{Mode: plan.PaceBack}},
				Stops: []string{plan.StopClean}, MaxDowntimeMs: in.MaxDowntimeMs, MaxMoves: -1})
		if err != nil {
			return fmt.Errorf("D7 advisor for %s: %w", w.Name(), err)
		}
		cache[key] = res
	}
	if res.Verdict != plan.VerdictBeaten || res.Recommended == nil {
		return nil
	}
	var cur plan.Candidate
	for _, c := range res.Candidates {
		if c.IsCurrent {
			cur = c
		}
	}
	rec := *res.Recommended
	add(f, "D7", w.Name(), v, fmt.Sprintf("scheduled.rebalance.max.delay.ms %d is beaten by %d on both costs: a rolling restart (%s each) %s task-s not running instead of %s, a crash outage of %s instead of %s",
		delay.N, rec.DelayMs, plan.Millis(in.RestartTimeMs), plan.TaskSeconds(rec.Roll.TaskMsNotRunning), plan.TaskSeconds(cur.Roll.TaskMsNotRunning),
		plan.Millis(*rec.Crash.LongestTaskOutageMs), plan.Millis(*cur.Crash.LongestTaskOutageMs)),
		"scheduled.rebalance.max.delay.ms", delay, "session.timeout.ms", session, "restart_time_ms", in.RestartTimeMs,
		"recommended_delay_ms", rec.DelayMs,
		"roll_task_ms_not_running", cur.Roll.TaskMsNotRunning, "recommended_roll_task_ms_not_running", rec.Roll.TaskMsNotRunning,
		"crash_outage_ms", *cur.Crash.LongestTaskOutageMs, "recommended_crash_outage_ms", *rec.Crash.LongestTaskOutageMs,
		"tasks_moved", cur.Roll.TasksMoved, "recommended_tasks_moved", rec.Roll.TasksMoved)
	return nil
}
