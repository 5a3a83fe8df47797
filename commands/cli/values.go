package cli

import (
	"errors"

	"github.com/connectscope/connectscope/inspect/field"
	"github.com/connectscope/connectscope/inspect/kafkaversion"
	urfave "github.com/urfave/cli/v2"
)

// FlagKafkaVersion is the one --kafka-version: inspect, plan and check
// carry its typed value from here to the core.
const FlagKafkaVersion = "kafka-version"

// KafkaVersionFlag is --kafka-version, read once into dest: the only place a
// version typed on the command line is parsed.
func KafkaVersionFlag(dest *kafkaversion.Version, usage string) urfave.Flag {
	return ValueFlag(FlagKafkaVersion, dest, kafkaversion.Parse, usage)
}

// ValueFlag is a flag whose text parse reads once, at the flag, into dest:
// the run and the core see only the typed value. A value parse refuses is
// a usage error naming the flag; a deep package's field.Error keeps its
// detail after the flag's name.
func ValueFlag[T any](name string, dest *T, parse func(string) (T, error), usage string) *urfave.StringFlag {
	return &urfave.StringFlag{Name: name, Usage: usage,
		Action: func(c *urfave.Context, s string) error {
			v, err := parse(s)
			var fe *field.Error
			switch {
			case errors.As(err, &fe):
				return ActionFailed(c, UsageErrorf("--%s%s", name, fe.Detail))
			case err != nil:
				return ActionFailed(c, UsageErrorf("--%s: %v", name, err))
			}
			*dest = v
			return nil
		}}
}

// ActionFailed hands a flag action's error to the application's handler,
// as urfave does with a command's own errors (but not its flags'), so that
// Run's message points at the command's help like any other usage error.
func ActionFailed(c *urfave.Context, err error) error {
	if c != nil && c.App != nil && c.App.ExitErrHandler != nil {
		c.App.ExitErrHandler(c, err)
	}
	return err
}
