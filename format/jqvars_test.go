package format

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// --arg and --argjson give the expression $NAME, as jq's own flags do: a
// runbook passes its waiver list or threshold without splicing shell text
// into the expression.
func TestJQVariables(t *testing.T) {
	state, err := JQArg("state", "FAILED")
	if err != nil {
		t.Fatal(err)
	}
	min, err := JQArgJSON("min", "9007199254740993")
	if err != nil {
		t.Fatal(err)
	}
	names, err := JQArgJSON("names", `["orders","inventory"]`)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	expr := `.connectors[] | select(.state == $state or (.name | IN($names[]))) | select(.offset >= ($min | tonumber) or .offset == 17) | .name`
	if err := Write(&buf, ptrSample(), Options{JQ: expr, JQVars: []JQVar{state, min, names}}); err != nil {
		t.Fatal(err)
	}
	if got, want := buf.String(), "inventory\norders\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	// The same expressions per jsonl line.
	buf.Reset()
	if err := Write(&buf, ptrSample(), Options{Output: "jsonl", JQ: `select(.state == $state) | .name`, JQVars: []JQVar{state}}); err != nil {
		t.Fatal(err)
	}
	if got := buf.String(); got != "orders\n" {
		t.Errorf("jsonl: got %q", got)
	}
}

// $ENV and env read the environment, less the variables that hold
// secrets: connectscope's own SASL and REST passwords, a context's
// password variable, tokens and keys.
func TestJQEnvironment(t *testing.T) {
	t.Setenv("RUNBOOK_STAGE", "canary")
	hidden := []string{"CONNECTSCOPE_SASL_PASSWORD", "CONNECTSCOPE_REST_PASSWORD", "KAFKA_PROD_PASSWORD", "AWS_SECRET_ACCESS_KEY", "GITHUB_TOKEN", "my_api_key"}
	for _, name := range hidden {
		t.Setenv(name, "hunter2")
	}
	var buf bytes.Buffer
	if err := Write(&buf, ptrSample(), Options{JQ: `$ENV.RUNBOOK_STAGE, env.RUNBOOK_STAGE, ($ENV | tostring | contains("hunter2")), ($ENV | has("PWD"))`}); err != nil {
		t.Fatal(err)
	}
	if got, want := buf.String(), "canary\ncanary\nfalse\ntrue\n"; got != want {
		t.Errorf("got %q, want %q (hidden: %v)", got, want, hidden)
	}
}

func TestJQBadVariables(t *testing.T) {
	for _, c := range []struct {
		flag, name, value, want string
	}{
		{"--arg", "1st", "x", `--arg: "1st" is not a variable name`},
		{"--arg", "ENV", "x", `--arg: $ENV is jq's own`},
		{"--argjson", "n", "{", `--argjson: n: "{" is not JSON`},
		{"--argjson", "n", "1 2", `--argjson: n: "1 2" holds more than one JSON value`},
	} {
		var err error
		if c.flag == "--arg" {
			_, err = JQArg(c.name, c.value)
		} else {
			_, err = JQArgJSON(c.name, c.value)
		}
		var ue *UsageError
		if !errors.As(err, &ue) || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s %s %s: error %v, want one starting %q", c.flag, c.name, c.value, err, c.want)
		}
	}
}
