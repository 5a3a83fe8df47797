package inspect

import (
	"github.com/connectscope/connectscope/commands/cli"
	"github.com/connectscope/connectscope/inspect/detail"
	"github.com/connectscope/connectscope/inspect/views"
)

// WorkerOptions are `inspect worker W`'s inputs.
type WorkerOptions struct {
	Name string // the argument
}

// NewCmdWorker is `inspect worker W`; run replaces the run function in tests.
func NewCmdWorker(run func(*cli.Env, *WorkerOptions) error) *cli.Command {
	return cli.Verb(run, runWorker, func(o *WorkerOptions) *cli.Command {
		return &cli.Command{
			Name:  "worker",
			Usage: "one worker whole: its names, leader or not, what it runs with states, its last round, config offset, held work",
			Description: `
Everything the group and the status topic say about one Connect worker, as kubectl
describe node shows one node. WORKER is any of its names: HOST:PORT, host, REST URL, client id
or member id. A worker that left is shown by the work its status records still name. A name
the input does not know is not found: exit 4.`,
			Examples: `
connectscope inspect worker 10.0.1.11:8083 --from examples/cluster.snapshot.json
connectscope -b broker:9092 inspect worker worker-2 -o json --jq '.tasks[] | select(.state != "RUNNING") | .name'`,
			Spec: cli.Spec{
				Read:   cli.ReadSpec{Topics: cli.ConfigTopic | cli.StatusTopic, SkipSinkGroups: true},
				Result: (*detail.Worker)(nil),
			},
			Arg: &cli.Arg{Into: &o.Name, Name: "WORKER", Values: cli.Workers,
				Missing: "inspect worker needs one WORKER (HOST:PORT, host, REST URL, client id or member id)"},
		}
	})
}

func runWorker(e *cli.Env, o *WorkerOptions) error {
	ds, err := e.Dataset()
	if err != nil {
		return err
	}
	res, err := detail.DescribeWorker(views.Of(ds), o.Name)
	return emit(e, res, err) // a name the input does not hold: exit 4
}
