package top

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"

	"github.com/connectscope/connectscope/commands/cli"
	"github.com/connectscope/connectscope/inspect/source"
	"github.com/connectscope/connectscope/inspect/store"
	urfave "github.com/urfave/cli/v2"
)

// SnapshotOptions are `snapshot`'s inputs.
type SnapshotOptions struct {
	Output string // -o FILE, - for standard output
}

// NewCmdSnapshot is `snapshot -o FILE`; run replaces the run function in tests.
func NewCmdSnapshot(run func(*cli.Env, *SnapshotOptions) error) *cli.Command {
	o := &SnapshotOptions{}
	if run == nil {
		run = runSnapshot
	}
	return &cli.Command{
		Name:  "snapshot",
		Usage: "save the cluster's internal topics and groups to a file that every command reads with --from",
		Description: "Reads the three internal topics (to the end offsets of when reading began), the Connect\n" +
			"group and the sink connectors' groups, and writes them as one JSON snapshot file.\n" +
			"The file is written only after everything was read; an interrupted read writes nothing.\n\n" +
			"Examples:\n" +
			"  connectscope -b broker:9092 snapshot -o cluster.snapshot.json\n" +
			"  connectscope --worker-config connect-distributed.properties snapshot -o - | gzip > snap.json.gz\n" +
			"  connectscope inspect members --from cluster.snapshot.json",
		Flags: []urfave.Flag{
			&urfave.StringFlag{Name: "output", Aliases: []string{"o"}, Required: true, Destination: &o.Output, Usage: "write the snapshot to `FILE` (- for standard output)"},
		},
		Spec: cli.Spec{NoFormat: true, Read: cli.ReadSpec{}},
		Run:  func(e *cli.Env) error { return run(e, o) },
	}
}

func runSnapshot(e *cli.Env, o *SnapshotOptions) error {
	if err := e.NoArgs(); err != nil {
		return err
	}
	ds, err := e.Dataset()
	if err != nil {
		return err
	}
	// Files outlive terminals: secrets are redacted unless --show-secrets,
	// and the session key's material is never written.
	ds = store.RedactDataset(ds, e.Globals.ShowSecrets)
	if o.Output == "-" {
		w := bufio.NewWriterSize(e.IO.Out, 1<<20)
		if err := source.WriteSnapshot(w, ds); err != nil {
			return cli.InputError(fmt.Errorf("writing snapshot: %w", err))
		}
		return w.Flush()
	}
	return writeFileAtomically(o.Output, func(w *bufio.Writer) error { return source.WriteSnapshot(w, ds) })
}

// writeFileAtomically writes to a temporary file beside path and renames it
// into place, so a failed write never leaves a half snapshot under the name.
func writeFileAtomically(path string, write func(*bufio.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return cli.InputError(fmt.Errorf("writing snapshot: %w", err))
	}
	defer os.Remove(tmp.Name()) // no-op after the rename
	w := bufio.NewWriterSize(tmp, 1<<20)
	if err := write(w); err != nil {
		tmp.Close()
		return cli.InputError(fmt.Errorf("writing snapshot %s: %w", path, err))
	}
	if err := w.Flush(); err != nil {
		tmp.Close()
		return cli.InputError(fmt.Errorf("writing snapshot %s: %w", path, err))
	}
	if err := tmp.Close(); err != nil {
		return cli.InputError(fmt.Errorf("writing snapshot %s: %w", path, err))
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return cli.InputError(fmt.Errorf("writing snapshot %s: %w", path, err))
	}
	return nil
}
