package commands

import (
	"github.com/connectscope/connectscope/inspect/kafkaversion"
	"github.com/urfave/cli/v2"
)

// inspectVersionFlag picks the Kafka release whose readers the decoders
// follow where a rule changed between releases (inspect/status_version.go).
func inspectVersionFlag() cli.Flag {
	return &cli.StringFlag{Name: flagKafkaVersion,
		Usage: "decode as the workers of Kafka `VERSION` do where a reader rule changed (e.g. 3.5.2; default: the newest behaviour)",
		Action: func(_ *cli.Context, v string) error {
			if _, err := kafkaversion.Parse(v); err != nil {
				return UsageErrorf("--kafka-version: %v", err)
			}
			return nil
		}}
}

// inspectKafkaVersion is the --kafka-version given (checked by the flag's
// action), unknown when none.
func inspectKafkaVersion(c *cli.Context) kafkaversion.Version {
	v, _ := kafkaversion.Parse(c.String(flagKafkaVersion))
	return v
}
