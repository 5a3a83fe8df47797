package redact

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// textAllStages is Text with every stage run whatever its needs say.
func textAllStages(s string) string {
	if !mayHoldCredential(s, strings.ToLower(s)) {
		return s
	}
	for _, st := range textStages {
		s = st.apply(s)
	}
	return s
}

// stageAlphabet is dense in what each stage needs and what it replaces.
var stageAlphabet = []string{"://", "@", "jdbc:oracle:thin:", "/", "=", `"`, ":", " ", "\t", "Authorization", "Bearer ", "token", "X-Api-Key",
	"session", "hooks.slack.com/services/", "https://", "/bot123:", "password", "basic.auth.user.info", "u", "P4ss", "-", ".", ";", ",",
	"\u017fecret", "\u212aey", Placeholder, "{", "}", "'", `\"`, "webhook", "sig", "é"}

// A stage skipped for what its needs say would have changed nothing: Text
// equals every stage run, over the credential shapes and 100,000 strings
// made of what the stages turn on.
func TestTextStagesSkipOnlyWhatTheyCannotChange(t *testing.T) {
	inputs := shapesAndRandom(": ", rand.New(rand.NewPCG(3, 4)), stageAlphabet, 100000, 16)
	agree(t, inputs, "Text", Text, textAllStages)
}

func FuzzTextStages(f *testing.F) {
	for _, c := range credentialShapes {
		f.Add(c.value)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := Text(s), textAllStages(s); got != want {
			t.Errorf("Text(%q)\n = %q\nall stages %q", s, got, want)
		}
	})
}
