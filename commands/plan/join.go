package plan

import (
	"strconv"
	"strings"

	"github.com/connectscope/connectscope/commands/cli"
	"github.com/connectscope/connectscope/plan"
	urfave "github.com/urfave/cli/v2"
)

// JoinOptions are `plan join`'s inputs.
type JoinOptions struct {
	PlanOptions
	GateOptions
	Add string // N new workers, or their names
}

// NewCmdJoin is `plan join`; run replaces the run function in tests.
func NewCmdJoin(run func(*cli.Env, *JoinOptions) error) *cli.Command {
	o := &JoinOptions{}
	if run == nil {
		run = runJoin
	}
	return &cli.Command{
		Name:  "join",
		Usage: "preview workers joining the group",
		Description: "Examples:\n" +
			"  connectscope plan join --from cluster.snapshot.json --add 1\n" +
			"  connectscope plan join --synthetic workers=4,connectors=20,tasks=3 --add 2 -o mermaid",
		Flags: append([]urfave.Flag{
			&urfave.StringFlag{Name: "add", Required: true, Destination: &o.Add, Usage: "`N` new workers, or their member ids NAME,NAME,..."},
		}, append(o.PlanOptions.flags(plotUsage), o.GateOptions.flags()...)...),
		Spec: whatIfSpec(map[string]cli.Candidates{}),
		Run: func(e *cli.Env) error {
			if err := e.NoArgs(); err != nil {
				return err
			}
			return run(e, o)
		},
	}
}

func runJoin(e *cli.Env, o *JoinOptions) error {
	return whatIf(e, &o.PlanOptions, &o.GateOptions, func(state plan.ClusterState, opts plan.PlanOptions) (*plan.PlanResult, error) {
		add := strings.TrimSpace(o.Add)
		var names []string
		if n, err := strconv.Atoi(add); err == nil {
			if n <= 0 || n > 10000 {
				return nil, cli.UsageErrorf("--add: want 1 to 10000 workers or a list of names, got %d", n)
			}
			names = plan.NewWorkerNames(state, n)
		} else {
			names = cli.SplitList([]string{add})
		}
		res, err := plan.JoinPlan(state, opts, names)
		if err != nil {
			return nil, planFailed(err)
		}
		return res, nil
	})
}
