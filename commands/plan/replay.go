package plan

import (
	"fmt"
	"os"

	"github.com/connectscope/connectscope/commands/cli"
	"github.com/connectscope/connectscope/inspect/kafkaversion"
	"github.com/connectscope/connectscope/plan"
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
	o := &ReplayOptions{}
	if run == nil {
		run = runReplay
	}
	return &cli.Command{
		Name:  "replay",
		Usage: "replay a scenario file (scenario-format 1) through the assignor, round by round",
		Description: "Examples:\n" +
			"  connectscope plan replay scenario.json\n" +
			"  connectscope plan replay scenario.json -o json --jq '.rounds[] | .generation'",
		ArgsUsage: "FILE",
		Flags: []urfave.Flag{
			cli.KafkaVersionFlag(&o.KafkaVersion, "replay the assignor of this Kafka `VERSION` (e.g. 3.3, 2.6.1; default: the current assignor, as in 3.7.0 to 4.4)"),
			&urfave.IntFlag{Name: flagJDK, Value: 17, Destination: &o.JDK, Usage: "JDK `MAJOR` version whose HashSet sizing decides some tie-breaks (17 as the test vectors; 19+ differs)"},
		},
		Spec: cli.Spec{Offline: true, Result: (*plan.ReplayResult)(nil)},
		Run: func(e *cli.Env) error {
			if len(e.Args) != 1 {
				// Flags after FILE are already read (flags first): more is a mistake.
				return cli.UsageErrorf("plan replay takes one scenario FILE, got %d arguments", len(e.Args))
			}
			o.Path = e.Args[0]
			return run(e, o)
		},
	}
}

func runReplay(e *cli.Env, o *ReplayOptions) error {
	data, err := os.ReadFile(o.Path)
	if err != nil {
		return cli.InputError(fmt.Errorf("reading scenario: %w", err))
	}
	sc, err := plan.ParseScenario(data)
	if err != nil {
		return cli.Exit(cli.ExitUsage, fmt.Errorf("%s: %w", o.Path, err))
	}
	warnUnverifiedVersion(e, o.KafkaVersion)
	res, err := plan.Replay(sc, plan.ReplayOptions{KafkaVersion: o.KafkaVersion, JDK: o.JDK, Ctx: e.Ctx})
	if err != nil {
		return cli.Exit(cli.ExitUsage, fmt.Errorf("%s: %w", o.Path, err))
	}
	return e.Emit(res)
}
