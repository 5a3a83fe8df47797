package cli

import (
	"github.com/connectscope/connectscope/inspect/kafkaversion"
	urfave "github.com/urfave/cli/v2"
)

// FlagKafkaVersion is the one --kafka-version: inspect, plan and check
// carry its typed value from here to the core.
const FlagKafkaVersion = "kafka-version"

// KafkaVersionFlag is --kafka-version, read once into dest: the only place a
// version typed on the command line is parsed.
func KafkaVersionFlag(dest *kafkaversion.Version, usage string) urfave.Flag {
	return &urfave.StringFlag{Name: FlagKafkaVersion, Usage: usage,
		Action: func(_ *urfave.Context, s string) error {
			v, err := kafkaversion.Parse(s)
			if err != nil {
				return UsageErrorf("--%s: %v", FlagKafkaVersion, err)
			}
			*dest = v
			return nil
		}}
}
