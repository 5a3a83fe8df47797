package inspect

import (
	"github.com/connectscope/connectscope/commands/cli"
	"github.com/connectscope/connectscope/inspect/rest"
	"github.com/connectscope/connectscope/inspect/views"
)

// The verbs that ask the group's members through their REST URLs (workers,
// plugins) share their spec and their run's start and end.

// askSpec is the spec of the verbs that ask the group's members through
// their REST URLs: they read the settled group and the config topic.
func askSpec(result any) cli.Spec {
	return cli.Spec{Read: cli.ReadSpec{Topics: cli.ConfigTopic, SkipSinkGroups: true, SettleGroup: true}, Result: result}
}

// ask is the run of a verb that asks the group's members: the group and the
// config topic read, then with, handed the REST client (closed after), the
// members and the decoded input. No member to ask is a usage error, as for
// the other views of the group.
func ask(e *cli.Env, ro *cli.RESTOptions, with func(*rest.Client, *views.MembersResult, *views.Dataset) error) error {
	client, err := ro.Client(e)
	if err != nil {
		return err
	}
	defer client.Close()
	ds, err := e.Dataset()
	if err != nil {
		return err
	}
	d := views.Decode(ds, ViewOptions{}.decodeOptions(e))
	m := d.Members()
	if m == nil || len(m.Members) == 0 {
		if m != nil {
			if err := groupNotFound(*m); err != nil {
				return err
			}
		}
		return cli.UsageErrorf("the input has no Connect group members to ask (read live with the workers' --group, or a snapshot with the group)")
	}
	return with(client, m, d)
}

// answered prints what the members answered, unless the run was interrupted
// while they were asked.
func answered(e *cli.Env, res any) error {
	if err := e.Ctx.Err(); err != nil {
		return err
	}
	return e.Emit(res)
}
