package cli

import (
	"bytes"
	"context"
	"strings"
	"time"

	"github.com/connectscope/connectscope/contexts"
	urfave "github.com/urfave/cli/v2"
)

// ClusterNames asks the cluster (or the --from file) for names of kind
// "connector" or "worker", through the hidden names command, so the global
// flags typed so far, the environment and the context resolve as for any
// command. Failures and slow clusters give no candidates.
func (st *Query) ClusterNames(kind string) []string {
	args := []string{st.app.Name}
	for _, t := range st.typed {
		if findFlag(globalFlags(false), t[0]) == nil || t[0] == FlagOutput || t[0] == FlagJQ {
			continue // a command's own flag, or one that changes the output
		}
		if takesValue(findFlag(globalFlags(false), t[0])) {
			args = append(args, "--"+t[0], t[1])
		} else {
			args = append(args, "--"+t[0])
		}
	}
	args = append(args, NamesCommand)
	var out, errb bytes.Buffer
	build, _ := st.app.Metadata[newAppKey].(func(Streams) *urfave.App)
	if build == nil {
		return nil
	}
	app := build(Streams{In: strings.NewReader(""), Out: &out, Err: &errb})
	ctx, cancel := context.WithTimeout(context.Background(), CompleteTimeout)
	defer cancel()
	// The read stops with ctx; should anything still hold on past it, the
	// shell gets no names rather than a Tab that never returns.
	release := holdSetup(app)
	defer release()
	if ok, err := withinCompleteTimeout(func() error { return app.RunContext(ctx, args) }); !ok || err != nil {
		return nil
	}
	var names []string
	for _, line := range strings.Split(out.String(), "\n") {
		if k, name, ok := strings.Cut(line, " "); ok && k == kind {
			names = append(names, name)
		}
	}
	return names
}

// contextNames are the config file's contexts. The file is read as Load
// reads it (a regular file within contexts.MaxConfigFile), and within the
// completion's time bound.
func contextNames() []string {
	path, err := contexts.DefaultPath()
	if err != nil {
		return nil
	}
	var names []string
	ok, err := withinCompleteTimeout(func() error {
		f, err := contexts.Load(path)
		if err == nil {
			names = f.Names()
		}
		return err
	})
	if !ok || err != nil {
		return nil
	}
	return names
}

// withinCompleteTimeout runs fn and waits for it at most CompleteTimeout
// and a little more; ok is false when fn was still running then (it is
// left to end with the process, which exits once it has answered).
func withinCompleteTimeout(fn func() error) (ok bool, err error) {
	done := make(chan error, 1)
	go func() { done <- fn() }()
	timer := time.NewTimer(CompleteTimeout + 200*time.Millisecond)
	defer timer.Stop()
	select {
	case err := <-done:
		return true, err
	case <-timer.C:
		return false, nil
	}
}
