package cli

import (
	"strings"

	"github.com/connectscope/connectscope/format"
)

// Flags that give a --jq expression its variables, as jq's own do.
const (
	FlagArg     = "arg"     // --arg NAME VALUE: $NAME is the string VALUE
	FlagArgJSON = "argjson" // --argjson NAME JSON: $NAME is the JSON value
)

// pairList collects a repeatable NAME=VALUE flag without splitting values
// at commas (a waiver list "K2,T2" is one value).
type pairList struct{ pairs []string }

func (l *pairList) Set(s string) error { l.pairs = append(l.pairs, s); return nil }
func (l *pairList) String() string     { return strings.Join(l.pairs, " ") }

// joinPairs turns jq's two-word form `--arg NAME VALUE` into the one value
// `--arg=NAME=VALUE` the flag parser reads. `--arg NAME=VALUE` stays as it
// is: a name holds no '='.
func joinPairs(args []string) []string {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...)
		}
		flag := strings.TrimLeft(a, "-")
		if (flag == FlagArg || flag == FlagArgJSON) && strings.HasPrefix(a, "-") && i+2 < len(args) && !strings.Contains(args[i+1], "=") {
			out = append(out, a+"="+args[i+1]+"="+args[i+2])
			i += 2
			continue
		}
		out = append(out, a)
	}
	return out
}

// jqVars reads the --arg and --argjson values into the expression's
// variables, --arg ones first.
func jqVars(args, argjson []string) ([]format.JQVar, error) {
	var out []format.JQVar
	for _, list := range []struct {
		flag  string
		pairs []string
		parse func(name, value string) (format.JQVar, error)
	}{{FlagArg, args, format.JQArg}, {FlagArgJSON, argjson, format.JQArgJSON}} {
		for _, p := range list.pairs {
			name, value, ok := strings.Cut(p, "=")
			if !ok {
				return nil, UsageErrorf("--%s %s: give NAME VALUE", list.flag, p)
			}
			v, err := list.parse(name, value)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
	}
	return out, nil
}

// needJQ refuses --arg and --argjson without --jq: their values are read
// only by the expression, so alone they would be dropped without a word.
func needJQ(jq string, args, argjson []string) error {
	if jq != "" {
		return nil
	}
	for _, f := range []struct {
		name  string
		given bool
	}{{FlagArg, len(args) > 0}, {FlagArgJSON, len(argjson) > 0}} {
		if f.given {
			return UsageErrorf("--%s gives a value to the --jq expression only: add --jq EXPRESSION, or drop --%s", f.name, f.name)
		}
	}
	return nil
}
