package commands

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/connectscope/connectscope/internal/golden"
	"github.com/connectscope/connectscope/internal/kafkatest"
)

// TestMain lets the test binary act as connectscope inside scripts, and
// runs three parallel tests at once per CPU: most wait on the network (2 s
// timeouts, silent listeners, watches), and the package uses about 10
// CPU-seconds in 65 s of tests.
func TestMain(m *testing.M) {
	testscript.Main(kafkatest.WaitingTests{M: m, PerCPU: 3}, map[string]func(){
		"connectscope": func() {
			os.Exit(Main(os.Args, StdStreams(), BuildInfo{Version: "v0.0.0-script"}))
		},
	})
}

// TestScripts runs the end-to-end stories in testdata/script. With -update,
// cmp failures rewrite the expected files inside the .txtar (review the diff).
func TestScripts(t *testing.T) {
	t.Parallel()
	repo, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:           filepath.Join("testdata", "script"),
		UpdateScripts: golden.Update(),
		Setup: func(env *testscript.Env) error {
			env.Setenv("REPO", repo) // for examples/; scripts copy what they read
			env.Setenv("NO_COLOR", "")
			return nil
		},
	})
}
