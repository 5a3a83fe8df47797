package inspect

import (
	"github.com/connectscope/connectscope/commands/cli"
	"github.com/connectscope/connectscope/inspect/views"
)

// MembersOptions are `inspect members`' inputs: none of its own.
type MembersOptions struct{}

// NewCmdMembers is `inspect members`; run replaces the run function in tests.
func NewCmdMembers(run func(*cli.Env, *MembersOptions) error) *cli.Command {
	return cli.NewVerb(run, runMembers, cli.Command{
		Name:  "members",
		Usage: "the Connect group: protocol, leader, and what each worker owns and was assigned",
		Examples: `
connectscope -b broker:9092 inspect members
connectscope inspect members --from cluster.snapshot.json -o wide`,
		Spec: cli.Spec{
			// The group, and the config topic to tell which members missed
			// a record that rebalances from those that only missed a
			// session key.
			Read:   cli.ReadSpec{Topics: cli.ConfigTopic, SkipSinkGroups: true, SettleGroup: true, NeedsStableGroup: true},
			Result: (*views.MembersResult)(nil),
		},
	})
}

func runMembers(e *cli.Env, _ *MembersOptions) error {
	ds, err := e.Dataset()
	if err != nil {
		return err
	}
	g := e.Globals
	if ds.Group == nil && g.From != "" {
		return cli.UsageErrorf("%s holds no Connect group description (a kcat dump holds topic records only); inspect members needs a snapshot file or a live cluster", g.From)
	}
	res := views.Decode(ds, ViewOptions{}.decodeOptions(e)).MembersView()
	res.NameSettings(cli.FlagName)
	if err := groupNotFound(res); err != nil {
		return err
	}
	return e.Emit(res)
}

// groupNotFound refuses a group the brokers do not know (a Dead group without
// members is what Kafka answers for a group id nobody uses, and what 4.x's
// GROUP_ID_NOT_FOUND reads as). An id held by a group of another kind is
// shown, with its note, rather than refused.
func groupNotFound(res views.MembersResult) error {
	if res.State != "Dead" || len(res.Members) > 0 || res.HeldByOther {
		return nil
	}
	return cli.NotFoundErrorf("group %q not found: no worker is a member (is it the workers' group.id? set it with --group or --worker-config)", res.Group)
}
