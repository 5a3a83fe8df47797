package top

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"

	"github.com/connectscope/connectscope/commands/cli"
	"github.com/connectscope/connectscope/inspect/source"
	"github.com/connectscope/connectscope/inspect/views"
	urfave "github.com/urfave/cli/v2"
)

// SnapshotOptions are `snapshot`'s inputs.
type SnapshotOptions struct {
	File   string // --file FILE or the argument; - for standard output
	Force  bool   // replace an existing file
	Output string // -o: a format, as everywhere; a snapshot is JSON
}

// Flags of snapshot.
const (
	flagFile   = "file"
	flagForce  = "force"
	flagOutput = "output"
)

// NewCmdSnapshot is `snapshot FILE`; run replaces the run function in tests.
func NewCmdSnapshot(run func(*cli.Env, *SnapshotOptions) error) *cli.Command {
	return cli.Verb(run, runSnapshot, func(o *SnapshotOptions) *cli.Command {
		return &cli.Command{
			Name:  "snapshot",
			Usage: "save the cluster's internal topics and groups to a file that every command reads with --from",
			Description: `
Reads the three internal topics (to the end offsets of when reading began), the Connect
group and the sink connectors' groups, and writes them as one JSON snapshot file.
The file is written only after everything was read; an interrupted read writes nothing.

An existing file is replaced only with --force. -o is the output format, as everywhere: a snapshot is JSON.`,
			Examples: `
connectscope -b broker:9092 snapshot cluster.snapshot.json
connectscope -b broker:9092 snapshot --file cluster.snapshot.json --force
connectscope --worker-config connect-distributed.properties snapshot - | gzip > snap.json.gz
connectscope inspect members --from cluster.snapshot.json`,
			Flags: []urfave.Flag{
				&urfave.StringFlag{Name: flagFile, Aliases: []string{"f"}, Destination: &o.File, Usage: "write the snapshot to `FILE` (- for standard output); or give FILE as the argument"},
				&urfave.BoolFlag{Name: flagForce, Destination: &o.Force, Usage: "replace FILE if it exists"},
				&urfave.StringFlag{Name: flagOutput, Aliases: []string{"o"}, Destination: &o.Output, Usage: "output `FORMAT`: a snapshot is json (the file goes to --file)"},
			},
			Spec: cli.Spec{NoFormat: true, Read: cli.ReadSpec{}},
			Args: cli.ArgsOfRun, // snapshotPath: FILE or --file
		}
	})
}

func runSnapshot(e *cli.Env, o *SnapshotOptions) error {
	path, err := snapshotPath(e, o)
	if err != nil {
		return err
	}
	ds, err := e.Dataset()
	if err != nil {
		return err
	}
	// Files outlive terminals: secrets are redacted unless --show-secrets,
	// and the session key's material is never written.
	ds = views.Redacted(ds, e.Globals.ShowSecrets)
	if path == "-" {
		w := bufio.NewWriterSize(e.IO.Out, 1<<20)
		if err := source.WriteSnapshot(w, ds); err != nil {
			return cli.InputError(fmt.Errorf("writing snapshot: %w", err))
		}
		return w.Flush()
	}
	if !o.Force {
		// Asked again after the read, which can take long: the file may
		// have appeared meanwhile.
		if err := refuseExisting(path); err != nil {
			return err
		}
	}
	return writeFileAtomically(path, func(w *bufio.Writer) error { return source.WriteSnapshot(w, ds) })
}

// snapshotPath is where the snapshot goes: --file or the one argument,
// checked before anything is read. -o names a format, as everywhere; the
// old `snapshot -o FILE` gets an error saying what to type instead.
func snapshotPath(e *cli.Env, o *SnapshotOptions) (string, error) {
	if e.Given(flagOutput) && o.Output != "json" {
		what := fmt.Sprintf("-o is the output format and a snapshot is JSON; write the file with --file %s (or: snapshot %s)", o.Output, o.Output)
		if o.Output == "-" {
			what = "-o is the output format; write the snapshot to standard output with --file - (or: snapshot -)"
		}
		return "", cli.UsageErrorf("%s", what)
	}
	path := o.File
	switch {
	case len(e.Args) > 1, len(e.Args) == 1 && path != "":
		return "", cli.UsageErrorf("give the snapshot file once, as --file FILE or as the argument")
	case len(e.Args) == 1:
		path = e.Args[0]
	case path == "":
		return "", cli.UsageErrorf("snapshot needs a file: give FILE or --file FILE (- for standard output)")
	}
	if path != "-" && !o.Force {
		if err := refuseExisting(path); err != nil {
			return "", err
		}
	}
	return path, nil
}

// refuseExisting refuses to replace a file without --force.
func refuseExisting(path string) error {
	if _, err := os.Lstat(path); err == nil {
		return cli.UsageErrorf("%s exists: give --force to replace it", path)
	}
	return nil
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
