// Package check is the `check` noun: one file per verb (timeouts, upgrade,
// topics, balance, all, rules, explain). The rules are package check's
// (connectscope/check).
package check

import "github.com/connectscope/connectscope/commands/cli"

// NewCmdCheck is the `check` noun with its verbs.
func NewCmdCheck() *cli.Command {
	return &cli.Command{
		Name:  "check",
		Usage: "audit worker settings, protocol upgrades, internal topics and balance; exit 1 when a finding reaches --fail-on",
		Description: "Every finding names a rule of the catalogue (`connectscope check rules`), the values involved, why it\n" +
			"matters and how to fix it. Exit status: 0 nothing at or above --fail-on, 1 findings, 2 usage, 3 unreadable input.\n" +
			"timeouts and upgrade work from --worker-config files alone and read the cluster only when --from or -b is given;\n" +
			"topics and balance need a dataset (--from FILE, -b, or a worker file's bootstrap.servers);\n" +
			"all uses every input any single check would, a worker file's bootstrap.servers included.",
		Subcommands: []*cli.Command{
			NewCmdTimeouts(nil),
			NewCmdUpgrade(nil),
			NewCmdTopics(nil),
			NewCmdBalance(nil),
			NewCmdAll(nil),
			NewCmdRules(nil),
			NewCmdExplain(nil),
		},
	}
}
