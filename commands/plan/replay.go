package plan

import (
	"fmt"

	"github.com/connectscope/connectscope/commands/cli"
	"github.com/connectscope/connectscope/inspect/kafkaversion"
	"github.com/connectscope/connectscope/inspect/source/boundedfile"
	"github.com/connectscope/connectscope/inspect/views"
	"github.com/connectscope/connectscope/plan/cluster"
	"github.com/connectscope/connectscope/plan/scenario"
	urfave "github.com/urfave/cli/v2"
)

// ReplayOptions are `plan replay FILE`'s inputs.
type ReplayOptions struct {
	Path         string // the scenario file (the argument)
	KafkaVersion kafkaversion.Version
	JDK          int
}

// NewCmdReplay is `plan replay FILE`; run replaces the run function in tests.
func NewCmdReplay(run func(*cli.Env, *ReplayOptions) error) *cli.Command {
	return cli.Verb(run, runReplay, func(o *ReplayOptions) *cli.Command {
		return &cli.Command{
			Name:  "replay",
			Usage: "replay a scenario file (scenario-format 1) through the assignor, round by round",
			Examples: `
connectscope plan replay scenario.json
connectscope plan replay scenario.json -o json --jq '.rounds[] | .generation'
connectscope plan replay --from cluster.snapshot.json next-steps.json   # continue from the snapshot's group`,
			Flags: []urfave.Flag{
				cli.KafkaVersionFlag(&o.KafkaVersion, "replay the assignor of this Kafka `VERSION` (e.g. 3.3, 2.6.1; default: the current assignor, as in 3.7.0 to 4.4)"),
				&urfave.IntFlag{Name: flagJDK, Value: 17, Destination: &o.JDK, Usage: "JDK `MAJOR` version whose HashSet sizing decides some tie-breaks (17 as the test vectors; 19+ differs)"},
			},
			Spec: cli.Spec{Read: cli.ReadSpec{Topics: cli.ConfigTopic | cli.StatusTopic, SkipSinkGroups: true, SettleGroup: true}, Result: (*scenario.ReplayResult)(nil)},
			// Flags after FILE are already read (flags first): more is a mistake.
			Arg: &cli.Arg{Into: &o.Path, Name: "FILE", Missing: "plan replay takes one scenario FILE", Counted: true},
		}
	})
}

func runReplay(e *cli.Env, o *ReplayOptions) error {
	data, err := boundedfile.Read(o.Path, scenario.MaxScenarioFile)
	if err != nil {
		return cli.InputError(fmt.Errorf("reading scenario: %w", err))
	}
	ro := scenario.ReplayOptions{KafkaVersion: o.KafkaVersion, JDK: o.JDK, Ctx: e.Ctx}
	var sc *scenario.Scenario
	if e.Globals.From != "" {
		// Start from the snapshot's state (its members, what they own, the
		// leader's pending delay and held work) instead of an empty group.
		ds, err := e.Dataset()
		if err != nil {
			return err
		}
		state, err := cluster.StateFromDataset(views.Of(ds))
		if err != nil {
			return cli.Exit(cli.ExitUsage, inFlagTerms(err))
		}
		ro.From = &state
		sc, err = scenario.ParseScenarioFrom(data, state)
		if err != nil {
			return cli.Exit(cli.ExitUsage, fmt.Errorf("%s: %w", o.Path, err))
		}
	} else if sc, err = scenario.ParseScenario(data); err != nil {
		return cli.Exit(cli.ExitUsage, fmt.Errorf("%s: %w", o.Path, err))
	}
	warnUnverifiedVersion(e, o.KafkaVersion)
	res, err := scenario.Replay(sc, ro)
	if err != nil {
		return cli.Exit(cli.ExitUsage, fmt.Errorf("%s: %w", o.Path, err))
	}
	return e.Emit(res)
}
