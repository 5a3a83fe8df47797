// Package plan is the `plan` noun: one file per verb (replay, join, leave,
// scale, connector, rolling-restart, advise), the flags they share in
// options.go. The plans themselves are package plan's (connectscope/plan).
package plan

import "github.com/connectscope/connectscope/commands/cli"

// NewCmdPlan is the `plan` noun with its verbs.
func NewCmdPlan() *cli.Command {
	return &cli.Command{
		Name:  "plan",
		Usage: "dry-run the Connect assignor: replay scenarios, preview joins, leaves, scaling, connector changes and rolling restarts",
		Description: `
The what-if plans start from --from FILE (a snapshot or kcat dump with the group) or --synthetic, and
print every rebalance round under the group's cooperative protocol and under eager, side by side.`,
		Subcommands: []*cli.Command{
			NewCmdReplay(nil),
			NewCmdJoin(nil),
			NewCmdLeave(nil),
			NewCmdScale(nil),
			NewCmdConnector(nil),
			NewCmdRollingRestart(nil),
			NewCmdAdvise(nil),
		},
	}
}
