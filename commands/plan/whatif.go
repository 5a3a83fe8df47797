package plan

import (
	"errors"
	"fmt"
	"strings"

	"github.com/connectscope/connectscope/commands/cli"
	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/kafkaversion"
	"github.com/connectscope/connectscope/inspect/views"
	"github.com/connectscope/connectscope/plan/cluster"
	"github.com/connectscope/connectscope/plan/timeline"
	"github.com/connectscope/connectscope/plan/whatif"
)

// start is where a what-if plan starts: the cluster's state and the
// assignor and time settings, resolved from the flags (planInputs).
type start struct {
	state cluster.State
	opts  timeline.Options
}

// whatIf makes a what-if plan: the --plot file checked, the starting state
// and settings resolved, then make, whose error is the plan's refusal of its
// inputs (planFailed), then the result printed (and drawn).
func whatIf(e *cli.Env, w *WhatIfOptions, make func(start) (*whatif.PlanResult, error)) error {
	p := &w.PlanOptions
	if _, err := plotTarget(p.Plot); err != nil {
		return err
	}
	gates, err := w.gates(e)
	if err != nil {
		return err
	}
	detail, err := w.detail(e.Globals)
	if err != nil {
		return err
	}
	state, opts, err := planInputs(e, p)
	if err != nil {
		return err
	}
	opts.Detail, opts.StateAfterRound = detail, w.StateAfter
	opts.NoPlot = p.Plot == ""
	res, err := make(start{state, opts})
	if err != nil {
		return planFailed(err)
	}
	warnDefaults(e, res.Assumptions.Settings)
	res.Explain = w.Explain
	breaches := res.ApplyGates(gates)
	var out any = res
	switch {
	case w.StateAfter > 0:
		out = res.StateAfter(w.StateAfter)
	case w.Compact:
		out = res.Compact()
	}
	if err := emitPlan(e, p.Plot, res, out); err != nil {
		return err
	}
	return gateFailed(breaches)
}

// planFailed is a plan's refusal of its inputs, worded with the flags: a
// worker or connector the cluster does not hold is not found (exit 4), any
// other refusal a usage error.
func planFailed(err error) error {
	var nf *cluster.NotFoundError
	if errors.As(err, &nf) {
		return cli.Exit(cli.ExitNotFound, inFlagTerms(err))
	}
	return cli.Exit(cli.ExitUsage, inFlagTerms(err))
}

// inFlagTerms words the plan package's own errors about its inputs with the
// flags behind them; named inputs (field.Error) are the kit's, through the
// verb's Spec.Inputs.
func inFlagTerms(err error) error {
	var se *cluster.SyntheticError
	var ss *cluster.StartingStateError
	var ws *timeline.WorkerSettingError
	switch {
	case errors.As(err, &se):
		return &cli.FlagWordsError{Msg: "--" + flagSynthetic + ": " + se.Problem(), Err: err}
	case errors.As(err, &ss):
		return &cli.FlagWordsError{Msg: ss.Msg + " (--" + flagSynthetic + ")", Err: err}
	case errors.As(err, &ws):
		return &cli.FlagWordsError{Msg: strings.Replace(ws.Error(), "give "+ws.Input, "give --"+inputs[ws.Input], 1), Err: err}
	case errors.Is(err, whatif.ErrNothingToChange):
		return &cli.FlagWordsError{Msg: "nothing to change: give --set, --add or --remove", Err: err}
	}
	return err
}

// planInputs resolves the starting state (--synthetic or the dataset) and
// the assignor and time settings: flag, else worker config, else default.
func planInputs(e *cli.Env, p *PlanOptions) (cluster.State, timeline.Options, error) {
	g := e.Globals
	var state cluster.State
	var ds *inspect.Dataset
	if e.Given(flagSynthetic) {
		if g.From != "" {
			return state, timeline.Options{}, cli.UsageErrorf("--synthetic and --from both give the starting state; use one")
		}
		s, err := cluster.ParseSynthetic(p.Synthetic)
		if err != nil {
			return state, timeline.Options{}, cli.Exit(cli.ExitUsage, inFlagTerms(err))
		}
		state = cluster.SyntheticState(s)
	} else {
		var err error
		if ds, err = e.Dataset(); err != nil {
			return state, timeline.Options{}, err
		}
		state, err = cluster.StateFromDataset(views.Of(ds))
		if err != nil {
			return state, timeline.Options{}, cli.Exit(cli.ExitUsage, inFlagTerms(err))
		}
	}
	settings := timeline.Settings{KafkaVersion: p.KafkaVersion, JDK: p.JDK, Protocol: p.Protocol, Ctx: e.Ctx, Given: map[string]bool{},
		MaxDelayMs: p.MaxDelayMs, SessionTimeoutMs: p.SessionTimeoutMs, HeartbeatIntervalMs: p.HeartbeatMs, RoundTimeMs: p.RoundTimeMs}
	for flag, setting := range map[string]string{flagKafkaVersion: timeline.SettingKafkaVersion, flagJDK: timeline.SettingJDK, flagRoundTime: timeline.SettingRoundTime, flagProtocol: timeline.SettingProtocol} {
		settings.Given[setting] = e.Given(flag)
	}
	warnUnverifiedVersion(e, p.KafkaVersion)
	if len(g.WorkerConfigs) > 0 {
		settings.WorkerPath, settings.Worker = g.WorkerConfigs[0].Path, g.WorkerConfigs[0].Props
		settings.WorkerSource = timeline.SourceWorkerFile
		if g.FromContext(cli.FlagWorkerConfig) {
			settings.WorkerSource = timeline.SourceContext
		}
	}
	opts, err := settings.Options(state)
	if err != nil {
		return state, opts, cli.Exit(cli.ExitUsage, inFlagTerms(err))
	}
	if p.restart != nil && p.restart.auto {
		opts.Restarts, err = p.restart.measured(e, state, ds)
	}
	return state, opts, err
}

// warnDefaults says in one line on stderr that a live plan ran with Kafka's
// defaults for settings the cluster decides (they are in the JSON's
// assumptions.settings with source "default" too).
func warnDefaults(e *cli.Env, settings []timeline.SettingSource) {
	if !e.Globals.Live() {
		return
	}
	if d := timeline.DefaultsAssumed(settings); len(d) > 0 {
		fmt.Fprintf(e.IO.Err, "connectscope: plan assumes Kafka's defaults %s (no flag, worker file or context gives them; the cluster may run others: give --%s or --%s/--%s)\n",
			strings.Join(d, ", "), cli.FlagWorkerConfig, flagMaxDelay, flagSessionTimeout)
	}
}

// warnUnverifiedVersion says on stderr that a Kafka version newer than the
// verified assignors is replayed with the newest verified line's behaviour,
// so nobody takes the preview for a verified answer.
func warnUnverifiedVersion(e *cli.Env, version kafkaversion.Version) {
	if beyond, newest := timeline.VersionBeyondVerified(version); beyond {
		fmt.Fprintf(e.IO.Err, "connectscope: warning: --kafka-version %s is newer than the assignors connectscope was checked against (2.3 to %s); replaying %s's behaviour\n", version, newest, newest)
	}
}
