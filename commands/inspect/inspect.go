// Package inspect is the `inspect` noun: one file per verb (configs,
// status, offsets, connectors, members, sinks, connector). The views
// themselves are inspect/views's and inspect/group's.
package inspect

import "github.com/connectscope/connectscope/commands/cli"

// NewCmdInspect is the `inspect` noun with its verbs.
func NewCmdInspect() *cli.Command {
	return &cli.Command{
		Name:  "inspect",
		Usage: "show what Connect stores (configs, status, offsets, connectors, members, sinks) and what its workers say (workers, plugins)",
		Examples: `
connectscope inspect connectors --from examples/cluster.snapshot.json
connectscope inspect configs --from dump.jsonl -o json --jq '.connectors[] | select(.consistent|not) | .name'
connectscope inspect status --from dump.jsonl -o wide
connectscope inspect offsets --from dump.jsonl --connector orders
connectscope -b broker:9092 inspect members
connectscope -b broker:9092 inspect workers`,
		Subcommands: []*cli.Command{
			NewCmdConfigs(nil),
			NewCmdStatus(nil),
			NewCmdOffsets(nil),
			NewCmdConnectors(nil),
			NewCmdMembers(nil),
			NewCmdSinks(nil),
			NewCmdConnector(nil),
			NewCmdWorker(nil),
			NewCmdWorkers(nil),
			NewCmdPlugins(nil),
			NewCmdRebalances(nil),
		},
	}
}
