package plan

import (
	urfave "github.com/urfave/cli/v2"

	"github.com/connectscope/connectscope/commands/cli"
	"github.com/connectscope/connectscope/plan/timeline"
)

// --state-after N: the what-if plans print every worker's holdings after
// round N (whatif.StateResult) instead of the plan, for big rolls whose
// compact form lists only what each round changed.

const flagStateAfter = "state-after"

func (w *WhatIfOptions) stateAfterFlag() urfave.Flag {
	return &urfave.IntFlag{Name: flagStateAfter, Destination: &w.StateAfter,
		Usage: "print instead of the plan every worker's holdings after round `N` under each protocol (the end state when a timeline has fewer rounds); -o wide and JSON list the pieces"}
}

// stateDetail is detail with --state-after given: the plan keeps its
// summary only, and the state apart (timeline.Options.StateAfterRound).
func (w *WhatIfOptions) stateDetail(g cli.Globals) (timeline.Detail, error) {
	switch {
	case w.StateAfter < 0:
		return 0, cli.UsageErrorf("--%s %d: want a round number, 1 or more", flagStateAfter, w.StateAfter)
	case w.Compact || g.Output == "mermaid":
		return 0, cli.UsageErrorf("--%s prints every worker after one round, not the plan: it takes neither --%s nor -o mermaid", flagStateAfter, flagCompact)
	}
	return timeline.DetailSummary, nil
}
