package commands

import (
	"flag"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/connectscope/connectscope/internal/golden"
)

// TestMain lets the test binary act as connectscope inside scripts.
func TestMain(m *testing.M) {
	testscript.Main(waitingTests{m}, map[string]func(){
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

// waitingTests runs the tests with more of them at once than -parallel's
// default (one per CPU) unless -parallel is given: most of this package's
// parallel tests wait on the network (dial timeouts, a silent listener, a
// rebalance delay of the embedded cluster), not on the CPU.
type waitingTests struct{ m *testing.M }

func (w waitingTests) Run() int {
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		if err := flag.Set("test.parallel", strconv.Itoa(2*runtime.GOMAXPROCS(0))); err != nil {
			panic(err)
		}
	}
	return w.m.Run()
}
