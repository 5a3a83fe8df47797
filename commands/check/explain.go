package check

import (
	"github.com/connectscope/connectscope/check"
	"github.com/connectscope/connectscope/commands/cli"
)

// ExplainOptions are `check explain RULE`'s inputs.
type ExplainOptions struct {
	Rule string // the argument
}

// NewCmdExplain is `check explain RULE`; run replaces the run function in tests.
func NewCmdExplain(run func(*cli.Env, *ExplainOptions) error) *cli.Command {
	return cli.Verb(run, runExplain, func(o *ExplainOptions) *cli.Command {
		return &cli.Command{
			Name:  "explain",
			Usage: "explain one rule in full",
			Examples: `
connectscope check explain D1
connectscope check explain T6 -o json`,
			Spec: cli.Spec{Offline: true, Result: (*check.Explanation)(nil)},
			Arg:  &cli.Arg{Into: &o.Rule, Name: "RULE", Missing: "check explain takes one RULE id (e.g. T6)", Counted: true, Values: ruleIDs},
		}
	})
}

func runExplain(e *cli.Env, o *ExplainOptions) error {
	r, ok := check.RuleByID(o.Rule)
	if !ok {
		return cli.UsageErrorf("unknown rule %q: `connectscope check rules` lists them", o.Rule)
	}
	return e.Emit(&check.Explanation{Rule: r})
}

// ruleIDs complete RULE.
func ruleIDs(*cli.Query) []string {
	var ids []string
	for _, r := range check.Rules() {
		ids = append(ids, r.ID)
	}
	return ids
}
