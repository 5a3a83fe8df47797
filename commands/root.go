// Package commands is connectscope's command line: the root builds the
// tree of nouns and verbs (commands/inspect, commands/plan, commands/check,
// commands/config, and the verbs without a noun in commands/top) on the
// kit of commands/cli. The work itself lives in inspect/, plan/ and check/.
package commands

import (
	"github.com/connectscope/connectscope/commands/check"
	"github.com/connectscope/connectscope/commands/cli"
	"github.com/connectscope/connectscope/commands/config"
	"github.com/connectscope/connectscope/commands/inspect"
	"github.com/connectscope/connectscope/commands/plan"
	"github.com/connectscope/connectscope/commands/top"
	urfave "github.com/urfave/cli/v2"
)

// tree is connectscope's commands, built fresh for every application.
func tree() []*cli.Command {
	return []*cli.Command{
		check.NewCmdCheck(),
		top.NewCmdCompletion(),
		config.NewCmdConfig(),
		top.NewCmdDemo(),
		top.NewCmdDiff(nil),
		inspect.NewCmdInspect(),
		plan.NewCmdPlan(),
		top.NewCmdSandbox(nil),
		top.NewCmdSnapshot(nil),
		top.NewCmdVersion(nil),
		top.NewCmdWatch(nil),
		top.NewCmdOptions(),
		top.NewCmdNames(),
	}
}

// Streams are where a run reads and writes; tests pass buffers.
type Streams = cli.Streams

// BuildInfo is stamped into package main with -ldflags at release time.
type BuildInfo = cli.BuildInfo

// StdStreams are the process's standard streams.
func StdStreams() Streams { return cli.StdStreams() }

// ExitOK is Main's status of a run that went through, as the README
// documents it (cli's, named here for the tests that run connectscope; the
// other statuses are cli's ExitFindings, ExitUsage, ExitInput, ExitNotFound
// and ExitInterrupted).
const ExitOK = cli.ExitOK

// NewApp builds the connectscope application on streams s.
func NewApp(info BuildInfo, s Streams) *urfave.App {
	return newApp(info, s, tree)
}

// newApp builds the application of the commands t makes.
func newApp(info BuildInfo, s Streams, t func() []*cli.Command) *urfave.App {
	return cli.NewApp(cli.App{Info: info, Streams: s, Tree: t,
		Main: func(args []string, s Streams) int { return cli.Run(newApp(info, s, t), args) }})
}

// Main runs connectscope with args and returns the exit status. An error is
// printed as one line, `connectscope: MESSAGE`, on s.Err; usage errors point
// at the command's help. Only package main calls os.Exit with the result.
func Main(args []string, s Streams, info BuildInfo) int {
	return cli.Run(NewApp(info, s), args)
}
