package commands

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"

	"github.com/connectscope/connectscope/inspect/source"
	"github.com/urfave/cli/v2"
)

// snapshotCommand is the `snapshot` command.
var snapshotCommand = &cli.Command{
	Name:  "snapshot",
	Usage: "save the cluster's internal topics and groups to a file that every command reads with --from",
	Description: "Reads the three internal topics (to the end offsets of when reading began), the Connect\n" +
		"group and the sink connectors' groups, and writes them as one JSON snapshot file.\n" +
		"The file is written only after everything was read; an interrupted read writes nothing.\n\n" +
		"Examples:\n" +
		"  connectscope -b broker:9092 snapshot -o cluster.snapshot.json\n" +
		"  connectscope --worker-config connect-distributed.properties snapshot -o - | gzip > snap.json.gz\n" +
		"  connectscope inspect members --from cluster.snapshot.json",
	Flags: []cli.Flag{
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Required: true, Usage: "write the snapshot to `FILE` (- for standard output)"},
	},
	Action: action(runSnapshot),
}

func runSnapshot(c *cli.Context, g Globals) error {
	if err := noArgs(c); err != nil {
		return err
	}
	ds, err := loadDataset(c, g, readAll)
	if err != nil {
		return err
	}
	path := c.String("output")
	if path == "-" {
		w := bufio.NewWriterSize(c.App.Writer, 1<<20)
		if err := source.WriteSnapshot(w, ds); err != nil {
			return InputError(fmt.Errorf("writing snapshot: %w", err))
		}
		return w.Flush()
	}
	return writeFileAtomically(path, func(w *bufio.Writer) error { return source.WriteSnapshot(w, ds) })
}

// writeFileAtomically writes to a temporary file beside path and renames it
// into place, so a failed write never leaves a half snapshot under the name.
func writeFileAtomically(path string, write func(*bufio.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return InputError(fmt.Errorf("writing snapshot: %w", err))
	}
	defer os.Remove(tmp.Name()) // no-op after the rename
	w := bufio.NewWriterSize(tmp, 1<<20)
	if err := write(w); err != nil {
		tmp.Close()
		return InputError(fmt.Errorf("writing snapshot %s: %w", path, err))
	}
	if err := w.Flush(); err != nil {
		tmp.Close()
		return InputError(fmt.Errorf("writing snapshot %s: %w", path, err))
	}
	if err := tmp.Close(); err != nil {
		return InputError(fmt.Errorf("writing snapshot %s: %w", path, err))
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return InputError(fmt.Errorf("writing snapshot %s: %w", path, err))
	}
	return nil
}
