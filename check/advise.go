package check

import (
	"context"
	"fmt"
	"strings"

	"github.com/connectscope/connectscope/inspect/kafkaversion"
	"github.com/connectscope/connectscope/inspect/workerconfig"
	"github.com/connectscope/connectscope/plan/advise"
	"github.com/connectscope/connectscope/plan/timeline"
	"github.com/connectscope/connectscope/plan/whatif"
)

// adviceKey is what one advisor run depends on, so workers sharing their
// settings share the run.
type adviceKey struct {
	delay, session int64
	proto          string
	version        kafkaversion.Version // unknown: the current assignor
}

// delaySetting is one setting D7 costs: the files that hold it and what it
// is.
type delaySetting struct {
	key            adviceKey
	delay, session Value
	v              kafkaversion.Version
	files          []string
}

// checkDelayAdvice (D7) runs the advisor over the delay alone, rolling as
// plan rolling-restart does (leader last, next when the last is back, clean
// stops), and reports when another delay costs both fewer task-seconds in
// the roll and a shorter crash outage, with what it costs in moves. Only the
// leader's delay applies (the leader schedules the delayed rebalance): with
// the leader's file known D7 costs that one; otherwise every distinct
// setting among the files, each as if its worker led. It needs the group (a
// dataset) and --restart-time.
func checkDelayAdvice(f *Findings, in TimeoutsInput, versions map[*workerconfig.Config]kafkaversion.Version) error {
	if in.Cluster == nil || len(in.Cluster.Workers) == 0 || in.RestartTimeMs <= 0 || len(in.Workers) == 0 {
		return nil
	}
	files, leader := in.Workers, leaderFile(in)
	if leader != nil {
		files = []*workerconfig.Config{leader}
	}
	var settings []*delaySetting
	byKey := map[adviceKey]*delaySetting{}
	for _, w := range files {
		v := versions[w]
		delay := workerValue(w, "scheduled.rebalance.max.delay.ms", v)
		session := workerValue(w, "session.timeout.ms", v)
		proto := effectiveProtocol(w, v)
		if !delay.Set || !session.Set || delay.Invalid || session.Invalid || proto == "eager" {
			continue
		}
		key := adviceKey{delay: delay.N, session: session.N, proto: proto, version: v}
		s, ok := byKey[key]
		if !ok {
			s = &delaySetting{key: key, delay: delay, session: session, v: v}
			byKey[key] = s
			settings = append(settings, s)
		}
		s.files = append(s.files, w.Name())
	}
	for _, s := range settings {
		var subject, whose string
		switch {
		case leader != nil:
			subject, whose = "leader "+leaderLabel(in), "the leader's, "+s.files[0]
		case len(settings) == 1:
			subject, whose = "every worker file", "every file's"
		case len(s.files) == 1:
			subject = s.files[0] + " (if its worker leads)"
			whose = "if the worker of " + s.files[0] + " leads"
		default:
			subject = strings.Join(s.files, ", ") + " (if one of them leads)"
			whose = "if a worker of " + strings.Join(s.files, ", ") + " leads"
		}
		if err := adviseDelay(f, in, s, subject, whose); err != nil {
			return err
		}
	}
	return nil
}

// adviseDelay runs the advisor for one setting and adds D7 when another
// delay beats it on both costs.
func adviseDelay(f *Findings, in TimeoutsInput, s *delaySetting, subject, whose string) error {
	ctx := in.Context
	if ctx == nil {
		ctx = context.Background()
	}
	res, err := advise.Advise(ctx, *in.Cluster,
		timeline.Options{Protocol: s.key.proto, MaxDelayMs: s.key.delay, SessionTimeoutMs: s.key.session, KafkaVersion: s.key.version, RoundTimeMs: timeline.DefaultRoundTimeMs},
		advise.AdviseOptions{RestartMs: in.RestartTimeMs, Orders: []string{advise.OrderLeaderLast}, Pacings: []whatif.Pacing{{Mode: whatif.PaceBack}},
			Stops: []whatif.Stop{whatif.StopClean}, MaxDowntimeMs: in.MaxDowntimeMs, MaxMoves: -1,
			ShownOnly: true}) // D7 reads the verdict, the recommendation and the current setting only

	if err != nil {
		return fmt.Errorf("D7 advisor for %s: %w", subject, err)
	}
	if res.Verdict != advise.VerdictBeaten || res.Recommended == nil {
		return nil
	}
	var cur advise.Candidate
	for _, c := range res.Candidates {
		if c.IsCurrent {
			cur = c
		}
	}
	rec := *res.Recommended
	add(f, "D7", subject, s.v, fmt.Sprintf("scheduled.rebalance.max.delay.ms %d (%s): a delay of %s gives a rolling restart (%s each) %s task-s not running instead of %s and a crash outage of %s instead of %s, %s",
		s.delay.N, whose, whatif.Millis(rec.DelayMs), whatif.Millis(in.RestartTimeMs), whatif.TaskSeconds(rec.Roll.TaskMsNotRunning), whatif.TaskSeconds(cur.Roll.TaskMsNotRunning),
		whatif.Millis(*rec.Crash.LongestTaskOutageMs), whatif.Millis(*cur.Crash.LongestTaskOutageMs), movesTrade(rec.Roll.TasksMoved, cur.Roll.TasksMoved)),
		"scheduled.rebalance.max.delay.ms", s.delay, "session.timeout.ms", s.session, "restart_time_ms", in.RestartTimeMs,
		"recommended_delay_ms", rec.DelayMs,
		"roll_task_ms_not_running", cur.Roll.TaskMsNotRunning, "recommended_roll_task_ms_not_running", rec.Roll.TaskMsNotRunning,
		"crash_outage_ms", *cur.Crash.LongestTaskOutageMs, "recommended_crash_outage_ms", *rec.Crash.LongestTaskOutageMs,
		"tasks_moved", cur.Roll.TasksMoved, "recommended_tasks_moved", rec.Roll.TasksMoved,
		"worker_files", s.files)
	return nil
}

// movesTrade says what the recommended delay costs in moved tasks: the
// other side of the trade, never hidden.
func movesTrade(rec, cur int) string {
	switch {
	case rec > cur:
		return fmt.Sprintf("but the roll moves %d tasks to another machine instead of %d (plan advise --max-moves weighs that)", rec, cur)
	case rec < cur:
		return fmt.Sprintf("and the roll moves %d tasks instead of %d", rec, cur)
	}
	return fmt.Sprintf("with the same %d tasks moved", rec)
}

// leaderFile is the worker file of the group's leader, when the files can
// be matched to the members (by advertised host:port).
func leaderFile(in TimeoutsInput) *workerconfig.Config {
	c := in.Cluster
	leader := c.Leader
	if leader == "" {
		leader = c.Workers[0].ID
	}
	ids := make([]string, len(c.Workers))
	at := -1
	namer := c.Namer()
	for i, w := range c.Workers {
		ids[i] = namer.Label(w.ID)
		if w.ID == leader {
			at = i
		}
	}
	for fi, mi := range matchFiles(in.Workers, ids) {
		if mi >= 0 && mi == at {
			return in.Workers[fi]
		}
	}
	return nil
}

func leaderLabel(in TimeoutsInput) string {
	leader := in.Cluster.Leader
	if leader == "" {
		leader = in.Cluster.Workers[0].ID
	}
	return in.Cluster.Label(leader)
}
